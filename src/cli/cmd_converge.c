// circlesim-cli converge: the paper's §5.1 experiment (Table 1, Figures 3–5). Run a scene to step T with its
// own per-step solver, freeze that step's LCP with its warm start, then run every solver from that same start
// until the residual is below the tolerance.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "circlesim/lcp_fclib.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/diagnostics.h"
#include "cli/variants.h"
#include "cli/active_set.h"

static void help(FILE* out)
{
    fprintf(
        out,
        "usage: circlesim-cli converge SCENE --at-step T --tol X [options]\n"
        "       circlesim-cli converge --problem FILE --tol X [options]\n"
        "Runs SCENE to step T with the scene's solver, freezes that step's contact problem and its warm "
        "start,\n"
        "and runs each solver from that start until the residual is below X: RES of the paper's eq. (24)\n"
        "(res_lcp) with --frictionless, as in the paper's Table 1; res_nat otherwise.\n"
        "  --solvers LIST        comma-separated, or 'all' for every registered method\n"
        "                        (default pgs,amgs-dense,amgs-omega,amgs)\n"
        "  --alphas LIST         alpha values for the solvers that use alpha (default 0.5)\n"
        "  --gamma G             AMGS gamma (default 2)\n"
        "  --kgs K, --ksm K, --subspace-solver S   pgs-sm, pgs-kz (and ipm's solver): as in 'lcp solve'\n"
        "  --frictionless        no friction rows (the paper's Table 1 setting)\n" CS_ARG_ROW_ORDER_HELP
            CS_ARG_FORMULATION_HELP CS_ARG_NO_SIMD_HELP
        "  --max-iterations K    give up after K iterations (default 100000)\n"
        "  --stagnation K        stop a method when K iterations do no better than the K before\n"
        "                        (default 2000, 0 never; as in 'lcp solve')\n"
        "  --repeat R            time each fixed-iteration re-solve R times, report the median (default 3)\n"
        "  --csv FILE            scene,solver,alpha,iterations,seconds,res_final,converged,stop\n"
        "  --history FILE        per iteration: scene,solver,alpha,iteration,res_lcp,res_nat\n"
        "                        (--csv, --history, --active-csv: '-' is standard output, the table then\n"
        "                        goes to stderr)\n"
        "  --lcp-out FILE        also write the frozen problem\n"
        "  --problem FILE        instead of SCENE and --at-step: a frozen problem (.lcp or FCLIB, as\n"
        "                        written by --lcp-out, 'run --dump-lcp' or 'lcp export'), its lambda0 the\n"
        "                        warm start; RES is res_lcp when it has normal rows only, else res_nat\n"
        "  --active-set          also the MNS paper's Table 2 measure: the fraction of the optimal active "
        "set\n"
        "                        (rows at a bound in the reference answer: ppm's, else lemke's, else a\n"
        "                        converged newton-minmap's) each method has identified after k = 1, 2, 5,\n"
        "                        10, 50 iterations\n"
        "  --active-csv FILE     that table as scene,solver,alpha,k,identified,active\n"
        "'seconds' is the median time of re-solving with exactly the iteration count found, without the\n"
        "per-iteration residual checks (so every method is timed on its sweeps alone).\n");
}

static int compare_doubles(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

// Runs SCENE to step T with its own solver and per-step iterations and copies that step's problem (with its
// warm start); false with the error printed.
static bool freeze_scene(const char* scene, int at_step, const cs_world_options* options, cs_lcp* problem,
                         cs_scene_info* info)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load(scene, info, &err);
    if (w == NULL)
    {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    cs_cli_print_warnings(info);
    cs_world_options_apply(w, options);
    for (int s = 0; s < at_step; ++s)
    {
        if (cs_world_step(w) != CS_OK)
        {
            fprintf(stderr, "%s: step %d: %s\n", scene, s + 1, cs_world_last_error(w));
            cs_world_destroy(w);
            return false;
        }
    }
    bool ok = cs_lcp_copy(problem, cs_world_last_problem(w), &err) == CS_OK;
    if (!ok)
    {
        fprintf(stderr, "%s\n", err.message);
    }
    cs_world_destroy(w);
    return ok;
}

// --problem FILE: a frozen problem instead of a scene's step. Named by the file's base name; *frictionless
// (RES = res_lcp) when every row is a normal row.
static bool load_frozen(const char* path, cs_lcp* problem, cs_scene_info* info, bool* frictionless)
{
    cs_error err = {CS_OK, ""};
    int row = -1;
    if (cs_lcp_load(path, problem, &err) != CS_OK || cs_lcp_check_scale(problem, &row, &err) != CS_OK)
    {
        fprintf(stderr, "%s%s%s\n", row >= 0 ? path : "", row >= 0 ? ": " : "", err.message);
        return false;
    }
    const char* base = strrchr(path, '/');
    snprintf(info->name, sizeof info->name, "%s", base != NULL ? base + 1 : path);
    *frictionless = true;
    for (int i = 0; i < problem->row_count; ++i)
    {
        *frictionless = *frictionless && problem->kind[i] == CS_ROW_NORMAL;
    }
    return true;
}

// What the command line asked for.
typedef struct converge_args
{
    const char *scene, *csv_path, *history_path, *lcp_out, *active_csv;
    const char* problem_path; // --problem
    bool active_set;
    int at_step, max_iterations, repeat, stagnation;
    double tol, gamma;
    cs_world_options world_options;
    cs_solver_params subspace; // --kgs, --ksm, --subspace-solver
    unsigned given;            // method parameters given (CS_SOLVER_USES_*)
    int solvers[CS_MAX_VARIANTS];
    int solver_count;
    double alphas[CS_MAX_VARIANTS];
    int alpha_count;
    bool have_alphas, have_gamma;
} converge_args;

// One option at argv[*i] into o; false after a usage message.
static bool parse_option(const char* cmd, int argc, char** argv, int* i, converge_args* o)
{
    const char* a = argv[*i];
    bool ok = true;
    int world = 0;
    if (strcmp(a, "--at-step") == 0)
        ok = cs_arg_next_int(cmd, argc, argv, i, 1, 100000000, &o->at_step);
    else if (strcmp(a, "--tol") == 0)
        ok = cs_arg_next_double(cmd, argc, argv, i, 0.0, &o->tol);
    else if (strcmp(a, "--gamma") == 0)
        ok = o->have_gamma = cs_arg_next_limited(cmd, argc, argv, i, &cs_limit_gamma, &o->gamma);
    else if (strcmp(a, "--max-iterations") == 0)
        ok = cs_arg_next_int(cmd, argc, argv, i, 1, 100000000, &o->max_iterations);
    else if (strcmp(a, "--stagnation") == 0)
        ok = cs_arg_next_int(cmd, argc, argv, i, 0, 100000000, &o->stagnation);
    else if (strcmp(a, "--repeat") == 0)
        ok = cs_arg_next_int(cmd, argc, argv, i, 1, 1000, &o->repeat);
    else if (strcmp(a, "--solvers") == 0)
        ok = cs_arg_next_solver_list(cmd, argc, argv, i, o->solvers, CS_MAX_VARIANTS, &o->solver_count);
    else if (strcmp(a, "--active-set") == 0)
        o->active_set = true;
    else if (strcmp(a, "--active-csv") == 0)
        ok = (o->active_csv = cs_arg_value(cmd, argc, argv, i)) != NULL, o->active_set = true;
    else if (strcmp(a, "--alphas") == 0)
        ok = o->have_alphas =
            cs_arg_next_double_list(cmd, argc, argv, i, o->alphas, CS_MAX_VARIANTS, &o->alpha_count);
    else if (strcmp(a, "--csv") == 0)
        ok = (o->csv_path = cs_arg_value(cmd, argc, argv, i)) != NULL;
    else if (strcmp(a, "--history") == 0)
        ok = (o->history_path = cs_arg_value(cmd, argc, argv, i)) != NULL;
    else if (strcmp(a, "--lcp-out") == 0)
        ok = (o->lcp_out = cs_arg_value(cmd, argc, argv, i)) != NULL;
    else if (strcmp(a, "--problem") == 0)
        ok = (o->problem_path = cs_arg_value(cmd, argc, argv, i)) != NULL;
    else if ((world = cs_arg_world_option(cmd, argc, argv, i, &o->world_options)) != 0)
        ok = world > 0;
    else if ((world = cs_arg_subspace_option(cmd, argc, argv, i, &o->subspace, &o->given)) != 0)
        ok = world > 0;
    else
        ok = cs_arg_scene(cmd, a, &o->scene, false);
    return ok;
}

// The options taken together: what is required, what replaces what, what the solvers read, distinct
// outputs; false after a usage message.
static bool check_options(const char* cmd, const converge_args* o)
{
    const cs_world_options* wo = &o->world_options;
    if (o->problem_path != NULL && (o->scene != NULL || o->at_step >= 1 || wo->frictionless ||
                                    wo->row_order >= 0 || wo->formulation >= 0))
    {
        fprintf(stderr, "circlesim-cli converge: --problem FILE replaces SCENE, --at-step and the world "
                        "options (see --help)\n");
        return false;
    }
    if ((o->problem_path == NULL && (o->scene == NULL || o->at_step < 1)) || !(o->tol > 0.0))
    {
        fprintf(stderr, "circlesim-cli converge: SCENE, --at-step T and --tol X are required (see --help)\n");
        return false;
    }
    if ((o->have_alphas &&
         !cs_arg_check_use(cmd, "--alphas", CS_SOLVER_USES_ALPHA, o->solvers, o->solver_count)) ||
        (o->have_gamma &&
         !cs_arg_check_use(cmd, "--gamma", CS_SOLVER_USES_GAMMA, o->solvers, o->solver_count)) ||
        !cs_arg_check_solver_use(cmd, o->given, o->solvers, o->solver_count))
    {
        return false;
    }
    const char* outputs[] = {o->csv_path, o->history_path, o->lcp_out, o->active_csv};
    const char* output_options[] = {"--csv", "--history", "--lcp-out", "--active-csv"};
    return cs_cli_named_files(cmd, output_options + 2, outputs + 2, 1) &&
           cs_cli_distinct_outputs(cmd, output_options, outputs, 4);
}

// Where the variants write: the open --csv and --history files (NULL: not asked for), and the table
// (stderr when an output is '-', standard output).
typedef struct converge_outputs
{
    FILE *csv, *hist, *table;
} converge_outputs;

// One variant to the tolerance, then its sweeps timed alone (the median of o->repeat runs of as many
// iterations, no residual checks); its line of the table, the CSV and the history. 1 when the solver work
// cannot be set up; a solver that refuses the problem fails its row and sets *failed.
static int converge_variant(const converge_args* o, const cs_lcp* problem, const char* name,
                            const cs_variant* var, cs_residual_kind kind, double* lambda,
                            cs_solver_work* work, converge_outputs* out, bool* failed)
{
    cs_error err = {CS_OK, ""};
    cs_solver_params params = cs_solver_params_default();
    params.alpha = var->alpha;
    params.gamma = o->gamma;
    params.iterations = o->max_iterations;
    params.tolerance = o->tol;
    params.tolerance_on = kind;
    params.stagnation_window = o->stagnation;
    params.simd = !o->world_options.no_simd;
    params.kgs = o->subspace.kgs;
    params.ksm = o->subspace.ksm;
    params.subspace_solver = o->subspace.subspace_solver;
    cs_solver_stats stats;
    if (cs_solver_work_set_history(work, out->hist != NULL, o->max_iterations, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    char label[96];
    if (cs_solve(problem, var->solver, &params, work, lambda, &stats, &err) != CS_OK)
    {
        // A method that refuses this problem (lemke's ray, a dense method's size limit) fails its row;
        // the others still run, and the exit status says one failed.
        fprintf(out->table, "%-22s failed: %s\n", cs_variant_label(var, label, sizeof label), err.message);
        *failed = true;
        return 0;
    }
    double final = kind == CS_RES_LCP ? stats.res_lcp : stats.res_nat;
    bool converged = final <= o->tol;
    if (out->hist)
    {
        for (int it = 0; it < stats.history_count; ++it)
        {
            fprintf(out->hist, "%s,%s,", name, cs_solver_at(var->solver)->name);
            cs_variant_print_alpha(out->hist, var);
            fprintf(out->hist, ",%d,%.9e,%.9e\n", it, work->history_lcp[it], work->history_nat[it]);
        }
    }
    // Time the sweeps alone: the same number of iterations, no residual checks.
    double times[1000];
    params.tolerance = 0.0;
    params.iterations = stats.iterations > 0 ? stats.iterations : 1;
    cs_solver_work_set_history(work, false, 0, &err);
    for (int r = 0; r < o->repeat; ++r)
    {
        cs_solver_stats timed;
        cs_solve(problem, var->solver, &params, work, lambda, &timed, &err);
        times[r] = timed.seconds;
    }
    qsort(times, (size_t)o->repeat, sizeof times[0], compare_doubles);
    double seconds = times[o->repeat / 2];
    fprintf(out->table, "%-22s %10d %12.6f %12.3e  %s\n", cs_variant_label(var, label, sizeof label),
            stats.iterations, seconds, final, cs_solve_stop_name(stats.stop));
    if (out->csv)
    {
        fprintf(out->csv, "%s,%s,", name, cs_solver_at(var->solver)->name);
        cs_variant_print_alpha(out->csv, var);
        fprintf(out->csv, ",%d,%.6e,%.6e,%d,%s\n", stats.iterations, seconds, final, converged ? 1 : 0,
                cs_solve_stop_name(stats.stop));
    }
    return 0;
}

// Every variant on the frozen problem, then the active-set table when asked; the exit status.
static int converge_all(const converge_args* o, const cs_lcp* problem, const cs_scene_info* info,
                        bool frictionless, const cs_variant* variants, int variant_count,
                        converge_outputs* out)
{
    if (out->csv)
        fprintf(out->csv, "scene,solver,alpha,iterations,seconds,res_final,converged,stop\n");
    if (out->hist)
        fprintf(out->hist, "scene,solver,alpha,iteration,res_lcp,res_nat\n");
    int m = problem->row_count;
    double* lambda = malloc((size_t)(m > 0 ? m : 1) * sizeof(double));
    cs_solver_work work = {0};
    cs_residual_kind kind = frictionless ? CS_RES_LCP : CS_RES_NAT;
    char where[32] = "(frozen problem)";
    if (o->problem_path == NULL)
    {
        snprintf(where, sizeof where, "step %d", o->at_step);
    }
    fprintf(out->table, "%s %s: bodies %d, n = %d, rows m = %d, tolerance %g on %s\n", info->name, where,
            problem->body_count, 3 * problem->body_count, m, o->tol,
            frictionless ? "res_lcp (eq. 24)" : "res_nat");
    fprintf(out->table, "%-22s %10s %12s %12s  %s\n", "solver", "iterations", "seconds", "residual", "stop");
    int status = 0;
    bool failed = false;
    for (int k = 0; k < variant_count && status == 0; ++k)
    {
        status = converge_variant(o, problem, info->name, variants + k, kind, lambda, &work, out, &failed);
    }
    free(lambda);
    cs_solver_work_free(&work);
    if (status == 0 && failed)
    {
        status = 1;
    }
    if (o->active_set && (status == 0 || failed))
    {
        int active = cs_active_set_table(problem, info->name, variants, variant_count, o->gamma,
                                         !o->world_options.no_simd, o->active_csv, out->table);
        status = active != 0 ? active : status;
    }
    return status;
}

int cs_cmd_converge(int argc, char** argv)
{
    const char* cmd = "converge";
    converge_args o = {
        .at_step = -1,
        .max_iterations = 100000,
        .repeat = 3,
        .stagnation = cs_solver_params_default().stagnation_window,
        .tol = -1.0,
        .gamma = 2.0,
        .world_options = CS_WORLD_OPTIONS_NONE,
        .subspace = cs_solver_params_default(),
        .alphas = {0.5},
        .alpha_count = 1,
    };
    const char* default_solvers[] = {"pgs", "amgs-dense", "amgs-omega", "amgs"};
    for (size_t k = 0; k < sizeof default_solvers / sizeof default_solvers[0]; ++k)
    {
        int index = cs_solver_find(default_solvers[k]);
        if (index >= 0)
        {
            o.solvers[o.solver_count++] = index;
        }
    }
    for (int i = 1; i < argc; ++i)
    {
        if (cs_arg_is_help(argv[i]))
        {
            help(stdout);
            return 0;
        }
        if (!parse_option(cmd, argc, argv, &i, &o))
        {
            return 2;
        }
    }
    if (!check_options(cmd, &o))
    {
        return 2;
    }

    cs_variant variants[CS_MAX_VARIANTS];
    int variant_count =
        cs_variants_expand(o.solvers, o.solver_count, o.alphas, o.alpha_count, variants, CS_MAX_VARIANTS);
    cs_error err = {CS_OK, ""};
    cs_scene_info info = {0};
    cs_lcp problem = {0};
    bool frictionless = o.world_options.frictionless;
    if (o.problem_path != NULL ? !load_frozen(o.problem_path, &problem, &info, &frictionless)
                               : !freeze_scene(o.scene, o.at_step, &o.world_options, &problem, &info))
    {
        return 1;
    }
    if (o.lcp_out != NULL && cs_lcp_write(&problem, o.lcp_out, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        cs_lcp_free(&problem);
        return 1;
    }

    int status;
    converge_outputs out = {o.csv_path != NULL ? cs_cli_open_output(o.csv_path) : NULL, NULL, stdout};
    out.hist = o.history_path != NULL && (o.csv_path == NULL || out.csv != NULL)
                   ? cs_cli_open_output(o.history_path)
                   : NULL;
    bool active_stdout = o.active_csv != NULL && strcmp(o.active_csv, "-") == 0;
    out.table = out.csv == stdout || out.hist == stdout || active_stdout ? stderr : stdout;
    if ((o.csv_path != NULL && out.csv == NULL) || (o.history_path != NULL && out.hist == NULL))
    {
        status = 1;
    }
    else
    {
        status = converge_all(&o, &problem, &info, frictionless, variants, variant_count, &out);
    }
    if (!cs_cli_close_output(out.csv))
        status = 1;
    if (!cs_cli_close_output(out.hist))
        status = 1;
    cs_lcp_free(&problem);
    return status;
}
