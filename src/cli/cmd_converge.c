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

int cs_cmd_converge(int argc, char** argv)
{
    const char* cmd = "converge";
    const char *scene = NULL, *csv_path = NULL, *history_path = NULL, *lcp_out = NULL, *active_csv = NULL;
    const char* problem_path = NULL; // --problem
    bool active_set = false, failed = false;
    int at_step = -1, max_iterations = 100000, repeat = 3;
    int stagnation = cs_solver_params_default().stagnation_window;
    double tol = -1.0, gamma = 2.0;
    cs_world_options world_options = CS_WORLD_OPTIONS_NONE;
    cs_solver_params subspace = cs_solver_params_default(); // --kgs, --ksm, --subspace-solver
    unsigned given = 0u;                                    // method parameters given (CS_SOLVER_USES_*)
    int solvers[CS_MAX_VARIANTS];
    int solver_count = 0;
    double alphas[CS_MAX_VARIANTS] = {0.5};
    int alpha_count = 1;
    bool have_alphas = false, have_gamma = false;
    const char* default_solvers[] = {"pgs", "amgs-dense", "amgs-omega", "amgs"};
    for (size_t k = 0; k < sizeof default_solvers / sizeof default_solvers[0]; ++k)
    {
        int index = cs_solver_find(default_solvers[k]);
        if (index >= 0)
        {
            solvers[solver_count++] = index;
        }
    }

    for (int i = 1; i < argc; ++i)
    {
        const char* a = argv[i];
        if (cs_arg_is_help(a))
        {
            help(stdout);
            return 0;
        }
        bool ok = true;
        int world = 0;
        if (strcmp(a, "--at-step") == 0)
            ok = cs_arg_next_int(cmd, argc, argv, &i, 1, 100000000, &at_step);
        else if (strcmp(a, "--tol") == 0)
            ok = cs_arg_next_double(cmd, argc, argv, &i, 0.0, &tol);
        else if (strcmp(a, "--gamma") == 0)
            ok = have_gamma = cs_arg_next_limited(cmd, argc, argv, &i, &cs_limit_gamma, &gamma);
        else if (strcmp(a, "--max-iterations") == 0)
            ok = cs_arg_next_int(cmd, argc, argv, &i, 1, 100000000, &max_iterations);
        else if (strcmp(a, "--stagnation") == 0)
            ok = cs_arg_next_int(cmd, argc, argv, &i, 0, 100000000, &stagnation);
        else if (strcmp(a, "--repeat") == 0)
            ok = cs_arg_next_int(cmd, argc, argv, &i, 1, 1000, &repeat);
        else if (strcmp(a, "--solvers") == 0)
            ok = cs_arg_next_solver_list(cmd, argc, argv, &i, solvers, CS_MAX_VARIANTS, &solver_count);
        else if (strcmp(a, "--active-set") == 0)
            active_set = true;
        else if (strcmp(a, "--active-csv") == 0)
            ok = (active_csv = cs_arg_value(cmd, argc, argv, &i)) != NULL, active_set = true;
        else if (strcmp(a, "--alphas") == 0)
            ok = have_alphas =
                cs_arg_next_double_list(cmd, argc, argv, &i, alphas, CS_MAX_VARIANTS, &alpha_count);
        else if (strcmp(a, "--csv") == 0)
            ok = (csv_path = cs_arg_value(cmd, argc, argv, &i)) != NULL;
        else if (strcmp(a, "--history") == 0)
            ok = (history_path = cs_arg_value(cmd, argc, argv, &i)) != NULL;
        else if (strcmp(a, "--lcp-out") == 0)
            ok = (lcp_out = cs_arg_value(cmd, argc, argv, &i)) != NULL;
        else if (strcmp(a, "--problem") == 0)
            ok = (problem_path = cs_arg_value(cmd, argc, argv, &i)) != NULL;
        else if ((world = cs_arg_world_option(cmd, argc, argv, &i, &world_options)) != 0)
            ok = world > 0;
        else if ((world = cs_arg_subspace_option(cmd, argc, argv, &i, &subspace, &given)) != 0)
            ok = world > 0;
        else
            ok = cs_arg_scene(cmd, a, &scene, false);
        if (!ok)
        {
            return 2;
        }
    }
    if (problem_path != NULL && (scene != NULL || at_step >= 1 || world_options.frictionless ||
                                 world_options.row_order >= 0 || world_options.formulation >= 0))
    {
        fprintf(stderr, "circlesim-cli converge: --problem FILE replaces SCENE, --at-step and the world "
                        "options (see --help)\n");
        return 2;
    }
    if ((problem_path == NULL && (scene == NULL || at_step < 1)) || !(tol > 0.0))
    {
        fprintf(stderr, "circlesim-cli converge: SCENE, --at-step T and --tol X are required (see --help)\n");
        return 2;
    }
    if ((have_alphas && !cs_arg_check_use(cmd, "--alphas", CS_SOLVER_USES_ALPHA, solvers, solver_count)) ||
        (have_gamma && !cs_arg_check_use(cmd, "--gamma", CS_SOLVER_USES_GAMMA, solvers, solver_count)) ||
        !cs_arg_check_solver_use(cmd, given, solvers, solver_count))
    {
        return 2;
    }
    const char* outputs[] = {csv_path, history_path, lcp_out, active_csv};
    const char* output_options[] = {"--csv", "--history", "--lcp-out", "--active-csv"};
    if (!cs_cli_distinct_outputs(cmd, output_options, outputs, 4))
    {
        return 2;
    }

    cs_variant variants[CS_MAX_VARIANTS];
    int variant_count =
        cs_variants_expand(solvers, solver_count, alphas, alpha_count, variants, CS_MAX_VARIANTS);

    cs_error err = {CS_OK, ""};
    cs_scene_info info = {0};
    cs_lcp problem = {0};
    bool frictionless = world_options.frictionless;
    if (problem_path != NULL ? !load_frozen(problem_path, &problem, &info, &frictionless)
                             : !freeze_scene(scene, at_step, &world_options, &problem, &info))
    {
        return 1;
    }
    if (lcp_out != NULL && cs_lcp_write(&problem, lcp_out, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        cs_lcp_free(&problem);
        return 1;
    }

    int status = 0;
    FILE* csv = csv_path != NULL ? cs_cli_open_output(csv_path) : NULL;
    FILE* hist =
        history_path != NULL && (csv_path == NULL || csv != NULL) ? cs_cli_open_output(history_path) : NULL;
    if ((csv_path != NULL && csv == NULL) || (history_path != NULL && hist == NULL))
    {
        status = 1;
        goto done;
    }
    // ('-': stdout carries that CSV alone, the tables go to stderr)
    bool active_stdout = active_csv != NULL && strcmp(active_csv, "-") == 0;
    FILE* table = csv == stdout || hist == stdout || active_stdout ? stderr : stdout;
    if (csv)
        fprintf(csv, "scene,solver,alpha,iterations,seconds,res_final,converged,stop\n");
    if (hist)
        fprintf(hist, "scene,solver,alpha,iteration,res_lcp,res_nat\n");

    int m = problem.row_count;
    double* lambda = malloc((size_t)(m > 0 ? m : 1) * sizeof(double));
    cs_solver_work work = {0};
    cs_residual_kind kind = frictionless ? CS_RES_LCP : CS_RES_NAT;
    char where[32] = "(frozen problem)";
    if (problem_path == NULL)
    {
        snprintf(where, sizeof where, "step %d", at_step);
    }
    fprintf(table, "%s %s: bodies %d, n = %d, rows m = %d, tolerance %g on %s\n", info.name, where,
            problem.body_count, 3 * problem.body_count, m, tol,
            frictionless ? "res_lcp (eq. 24)" : "res_nat");
    fprintf(table, "%-22s %10s %12s %12s  %s\n", "solver", "iterations", "seconds", "residual", "stop");
    for (int k = 0; k < variant_count && status == 0; ++k)
    {
        const cs_variant* var = variants + k;
        cs_solver_params params = cs_solver_params_default();
        params.alpha = var->alpha;
        params.gamma = gamma;
        params.iterations = max_iterations;
        params.tolerance = tol;
        params.tolerance_on = kind;
        params.stagnation_window = stagnation;
        params.simd = !world_options.no_simd;
        params.kgs = subspace.kgs;
        params.ksm = subspace.ksm;
        params.subspace_solver = subspace.subspace_solver;
        cs_solver_stats stats;
        if (cs_solver_work_set_history(&work, hist != NULL, max_iterations, &err) != CS_OK)
        {
            fprintf(stderr, "%s\n", err.message);
            status = 1;
            break;
        }
        if (cs_solve(&problem, var->solver, &params, &work, lambda, &stats, &err) != CS_OK)
        {
            // A method that refuses this problem (lemke's ray, a dense method's size limit) fails its row;
            // the others still run, and the exit status says one failed.
            char label[96];
            fprintf(table, "%-22s failed: %s\n", cs_variant_label(var, label, sizeof label), err.message);
            failed = true;
            continue;
        }
        double final = kind == CS_RES_LCP ? stats.res_lcp : stats.res_nat;
        bool converged = final <= tol;
        if (hist)
        {
            for (int it = 0; it < stats.history_count; ++it)
            {
                fprintf(hist, "%s,%s,", info.name, cs_solver_at(var->solver)->name);
                cs_variant_print_alpha(hist, var);
                fprintf(hist, ",%d,%.9e,%.9e\n", it, work.history_lcp[it], work.history_nat[it]);
            }
        }
        // Time the sweeps alone: the same number of iterations, no residual checks.
        double times[1000];
        params.tolerance = 0.0;
        params.iterations = stats.iterations > 0 ? stats.iterations : 1;
        cs_solver_work_set_history(&work, false, 0, &err);
        for (int r = 0; r < repeat; ++r)
        {
            cs_solver_stats timed;
            cs_solve(&problem, var->solver, &params, &work, lambda, &timed, &err);
            times[r] = timed.seconds;
        }
        qsort(times, (size_t)repeat, sizeof times[0], compare_doubles);
        double seconds = times[repeat / 2];
        char label[96];
        fprintf(table, "%-22s %10d %12.6f %12.3e  %s\n", cs_variant_label(var, label, sizeof label),
                stats.iterations, seconds, final, cs_solve_stop_name(stats.stop));
        if (csv)
        {
            fprintf(csv, "%s,%s,", info.name, cs_solver_at(var->solver)->name);
            cs_variant_print_alpha(csv, var);
            fprintf(csv, ",%d,%.6e,%.6e,%d,%s\n", stats.iterations, seconds, final, converged ? 1 : 0,
                    cs_solve_stop_name(stats.stop));
        }
    }
    free(lambda);
    cs_solver_work_free(&work);
    if (status == 0 && failed)
    {
        status = 1;
    }
    if (active_set && (status == 0 || failed))
    {
        int active = cs_active_set_table(&problem, info.name, variants, variant_count, gamma,
                                         !world_options.no_simd, active_csv, table);
        status = active != 0 ? active : status;
    }
done:
    if (!cs_cli_close_output(csv))
        status = 1;
    if (!cs_cli_close_output(hist))
        status = 1;
    cs_lcp_free(&problem);
    return status;
}
