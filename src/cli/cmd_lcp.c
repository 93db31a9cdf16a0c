// circlesim-cli lcp: solve or inspect a frozen LCP file (shared LCP-FORMAT.md).
//   lcp solve FILE [options]  → one line "iterations=… res_lcp=… res_nat=… seconds=… status=…"
//   lcp info FILE             → key=value facts about the problem
// Exit codes (cli/commands.h): 0 ok, 1 run error (bad file, failed solve or write), 2 usage error,
// 3 (lcp solve) the solve stopped without an answer: tolerance not met, stagnated, diverged, bad problem.
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "circlesim/lcp_fclib.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/lcp_diagnose.h"
#include "cli/diagnostics.h"

enum
{
    DEFAULT_MAX_ITERATIONS = 10000, // with --tol and no --max-iterations
};

static void usage_lcp(FILE* out)
{
    fprintf(out,
            "usage: circlesim-cli lcp solve FILE [options]\n"
            "       circlesim-cli lcp info FILE\n"
            "       circlesim-cli lcp export FILE (--fclib OUT | --lcp OUT)\n"
            "Solve, inspect or convert a frozen contact problem (.lcp text or FCLIB HDF5, recognised by\n"
            "content). 'lcp solve --help' lists the options.\n");
}

static void usage_solve(FILE* out)
{
    fprintf(
        out,
        "usage: circlesim-cli lcp solve FILE [options]\n"
        "Solves FILE and prints one line: iterations=K res_lcp=R res_nat=R seconds=S status=STOP (pgs-sm,\n"
        "pgs-kz, ipm: then pgs_sweeps, subspace_solves, cg_iterations, regularised, beta, failed,\n"
        "safeguard; pivoting methods: then pivots)\n"
        "STOP is budget (ran --iterations), converged, iteration-limit, stagnated, diverged or\n"
        "bad-problem (the reason on stderr); the last four exit with code 3. A pivoting method (lemke,\n"
        "ppm) runs to its answer (converged, 1 iteration) or fails with a message (exit 1) within its own\n"
        "budget, --max-pivots; --iterations and --stagnation are usage errors with it.\n"
        "options:\n"
        "%s"
        "%s"
        "  --tol T             instead of --iterations: sweep until res_nat <= T (T > 0) ...\n"
        "  --rtol R            ... or until res_nat <= R x its value at the start point (R > 0) ...\n"
        "  --max-iterations K  ... or K sweeps (default %d) ...\n"
        "  --stagnation K      ... or when K sweeps do no better than the K before (default 2000, 0 never)\n"
        "  --max-pivots K      pivoting methods: at most K pivots (lemke: complementary pivots, default\n"
        "                      20 per LCP variable + 100; ppm: block pivots per attempt, default 100)\n"
        "  --out SOL           write the solution (.sol)\n"
        "  --history CSV       write iteration,res_lcp,res_nat,seconds per sweep (0 = the start point;\n"
        "                      seconds since the solve began, without the history's own residuals)\n"
        "solvers: %s (default pgs, 10 iterations, warm start from the file's lambda0)\n",
        cs_arg_solver_help(), CS_ARG_SUBSPACE_HELP, DEFAULT_MAX_ITERATIONS, cs_solver_names());
}

static void usage_info(FILE* out)
{
    fprintf(out,
            "usage: circlesim-cli lcp info FILE\n"
            "Prints bodies, rows per kind, regularised rows (reg > 0: the problem is A + diag(reg)),\n"
            "nnz(J), static rows, A_ii statistics (with reg), |q| and the residuals\n"
            "of the file's warm start lambda0 and of lambda = 0; then (dense, up to 3000 rows) the rank of\n"
            "A = J M^-1 J^T and whether it is singular (rank <= dof = 3 x bodies), a condition estimate\n"
            "of the normal-row block, and which registered solvers a theorem guarantees to converge.\n");
}

// "circlesim-cli lcp: MESSAGE"; returns the usage error's exit code.
static int usage_error(const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static int usage_error(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "circlesim-cli lcp: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
    return 2;
}

// The argument that is none of SUB's options: an unknown option, or the one FILE. Returns 0, or the
// usage error's exit code.
static int file_argument(const char* sub, const char* arg, const char** file)
{
    if (arg[0] == '-' && arg[1] != '\0')
    {
        return usage_error("unknown option '%s' (see 'lcp %s --help')", arg, sub);
    }
    if (*file != NULL)
    {
        return usage_error("more than one FILE ('%s', '%s')", *file, arg);
    }
    *file = arg;
    return 0;
}

// Reads FILE (.lcp or FCLIB) and allocates a lambda for its rows; prints the error and returns false on
// failure.
static bool load_problem(const char* file, cs_lcp* p, double** lambda, cs_error* err)
{
    int row = -1;
    if (cs_lcp_load(file, p, err) != CS_OK || cs_lcp_check_scale(p, &row, err) != CS_OK)
    {
        fprintf(stderr, "%s%s%s\n", row >= 0 ? file : "", row >= 0 ? ": " : "", err->message);
        return false;
    }
    *lambda = malloc(((size_t)p->row_count + 1) * sizeof(double));
    if (*lambda == NULL)
    {
        fprintf(stderr, "%s: out of memory\n", file);
        return false;
    }
    return true;
}

static int write_history(const char* path, const cs_solver_work* work, int count)
{
    FILE* f = fopen(path, "w");
    if (f == NULL)
    {
        fprintf(stderr, "%s: cannot open for writing: %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(f, "iteration,res_lcp,res_nat,seconds\n");
    for (int k = 0; k < count; ++k)
    {
        fprintf(f, "%d,%.17g,%.17g,%.9e\n", k, work->history_lcp[k], work->history_nat[k],
                work->history_seconds[k]);
    }
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
    {
        fprintf(stderr, "%s: write failed\n", path);
        return 1;
    }
    return 0;
}

// What `lcp solve`'s command line asked for.
typedef struct solve_args
{
    const char *file, *out_path, *history_path;
    int solver;
    cs_solver_params params;
    bool have_iterations, have_tol, have_max, have_stagnation, have_pivots;
    int max_iterations;
    unsigned given; // method parameters given (CS_SOLVER_USES_*)
} solve_args;

// `lcp solve`'s own options at argv[*i]: 1 taken, 0 not one of them, -1 a bad value (the message is printed).
static int parse_solve_option(int argc, char** argv, int* i, solve_args* o)
{
    const char* arg = argv[*i];
    bool ok = true;
    if (strcmp(arg, "--tol") == 0)
    {
        ok = cs_arg_next_double("lcp solve", argc, argv, i, 0.0, &o->params.tolerance);
        o->have_tol = true;
    }
    else if (strcmp(arg, "--rtol") == 0)
    {
        ok = cs_arg_next_double("lcp solve", argc, argv, i, 0.0, &o->params.tolerance_rel);
        o->have_tol = true;
    }
    else if (strcmp(arg, "--stagnation") == 0)
    {
        ok = cs_arg_next_int("lcp solve", argc, argv, i, 0, 100000000, &o->params.stagnation_window);
        o->have_stagnation = true;
    }
    else if (strcmp(arg, "--max-iterations") == 0)
    {
        ok = cs_arg_next_int("lcp solve", argc, argv, i, 1, 100000000, &o->max_iterations);
        o->have_max = true;
    }
    else if (strcmp(arg, "--max-pivots") == 0)
    {
        ok = cs_arg_next_int("lcp solve", argc, argv, i, 1, 100000000, &o->params.max_pivots);
        o->have_pivots = true;
    }
    else if (strcmp(arg, "--out") == 0)
    {
        ok = (o->out_path = cs_arg_value("lcp solve", argc, argv, i)) != NULL;
    }
    else if (strcmp(arg, "--history") == 0)
    {
        ok = (o->history_path = cs_arg_value("lcp solve", argc, argv, i)) != NULL;
    }
    else
    {
        return 0;
    }
    return ok ? 1 : -1;
}

// The command line into o: -1 to go on, else the exit code (0 after --help).
static int parse_solve_options(int argc, char** argv, solve_args* o)
{
    for (int i = 1; i < argc; ++i)
    {
        const char* arg = argv[i];
        if (cs_arg_is_help(arg))
        {
            usage_solve(stdout);
            return 0;
        }
        o->have_iterations = o->have_iterations || strcmp(arg, "--iterations") == 0;
        int used = cs_arg_solver_option("lcp solve", argc, argv, &i, &o->solver, &o->params, &o->given);
        if (used == 0)
        {
            used = cs_arg_subspace_option("lcp solve", argc, argv, &i, &o->params, &o->given);
        }
        if (used == 0)
        {
            used = parse_solve_option(argc, argv, &i, o);
        }
        if (used < 0 || (used == 0 && file_argument("solve", arg, &o->file) != 0))
        {
            return 2;
        }
    }
    return -1;
}

// The options taken together (what needs what, what excludes what); -1 to go on, else the exit code. Sets
// the iteration budget of a solve to a tolerance, and *pivoting when the solver is a pivoting method.
static int finish_solve_options(solve_args* o, bool* pivoting_out)
{
    if (o->file == NULL)
    {
        usage_solve(stderr);
        return 2;
    }
    if (!cs_arg_check_solver_use("lcp solve", o->given, &o->solver, 1))
    {
        return 2;
    }
    const char* outputs[] = {o->out_path, o->history_path};
    const char* output_options[] = {"--out", "--history"};
    if (!cs_cli_distinct_outputs("lcp solve", output_options, outputs, 2))
    {
        return 2;
    }
    bool pivoting = (cs_solver_at(o->solver)->flags & CS_SOLVER_PIVOTING) != 0;
    *pivoting_out = pivoting;
    const char* name = cs_solver_at(o->solver)->name;
    if (o->have_pivots && !pivoting)
    {
        return usage_error("--max-pivots is for the pivoting methods (%s), not %s",
                           cs_solver_names_with(CS_SOLVER_PIVOTING), name);
    }
    if (pivoting && (o->have_iterations || o->have_stagnation))
    {
        return usage_error("%s does nothing for the pivoting method %s (its whole solve is one iteration; "
                           "its budget is --max-pivots)",
                           o->have_iterations ? "--iterations" : "--stagnation", name);
    }
    if (o->have_iterations && o->have_tol)
    {
        return usage_error(
            "--iterations and --tol/--rtol exclude each other (use --tol T --max-iterations K)");
    }
    if ((o->have_max || o->have_stagnation) && !o->have_tol)
    {
        return usage_error("%s needs --tol or --rtol", o->have_max ? "--max-iterations" : "--stagnation");
    }
    if (o->have_tol)
    {
        o->params.iterations = o->max_iterations;
        o->params.tolerance_on = CS_RES_NAT;
    }
    return -1;
}

// The solve's line on stdout and, when it did not converge, why on stderr.
static void report_solve(const char* file, int solver, bool pivoting, const cs_solver_stats* stats)
{
    printf("iterations=%d res_lcp=%.6e res_nat=%.6e seconds=%.6e status=%s", stats->iterations,
           stats->res_lcp, stats->res_nat, stats->seconds, cs_solve_stop_name(stats->stop));
    if (pivoting)
    {
        printf(" pivots=%d", stats->pivots);
    }
    if (cs_solver_at(solver)->flags & CS_SOLVER_USES_SUBSPACE)
    {
        const cs_subspace_stats* s = &stats->subspace;
        printf(" pgs_sweeps=%d subspace_solves=%d cg_iterations=%d regularised=%d beta=%g failed=%d "
               "safeguard=%d",
               s->pgs_sweeps, s->solves, s->cg_iterations, s->regularised, s->beta, s->failed, s->safeguard);
    }
    printf("\n");
    if (stats->stop == CS_STOP_BAD_PROBLEM)
    {
        fprintf(stderr, "%s: bad problem: %s %d: %s\n", file, stats->stop_row >= 0 ? "row" : "body",
                stats->stop_row >= 0 ? stats->stop_row : stats->stop_body, stats->stop_reason);
    }
    else if (cs_solve_stop_failed(stats->stop))
    {
        fprintf(stderr, "%s: not converged: %s after %d iterations, res_nat %.3e%s%s%s\n", file,
                cs_solve_stop_name(stats->stop), stats->iterations, stats->res_nat,
                stats->stop_reason[0] != '\0' ? " (" : "", stats->stop_reason,
                stats->stop_reason[0] != '\0' ? ")" : "");
    }
}

static int cmd_solve(int argc, char** argv)
{
    solve_args o = {.solver = cs_solver_find("pgs"),
                    .params = cs_solver_params_default(),
                    .max_iterations = DEFAULT_MAX_ITERATIONS};
    int code = parse_solve_options(argc, argv, &o);
    bool pivoting = false;
    if (code < 0)
    {
        code = finish_solve_options(&o, &pivoting);
    }
    if (code >= 0)
    {
        return code;
    }

    cs_error err = {0};
    cs_lcp p = {0};
    cs_solver_work work = {0};
    double* lambda = NULL;
    code = 1;
    if (!load_problem(o.file, &p, &lambda, &err))
    {
        goto done;
    }
    if (o.history_path != NULL && cs_solver_work_set_history(&work, true, o.params.iterations, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    cs_solver_stats stats = {0};
    if (cs_solve(&p, o.solver, &o.params, &work, lambda, &stats, &err) != CS_OK)
    {
        fprintf(stderr, "%s: %s\n", o.file, err.message);
        goto done;
    }
    report_solve(o.file, o.solver, pivoting, &stats);
    for (int i = 0; i < p.row_count; ++i)
    {
        if (!isfinite(lambda[i]))
        {
            fprintf(stderr, "%s: the solve diverged: lambda[%d] = %g (no solution written)\n", o.file, i,
                    lambda[i]);
            goto done;
        }
    }
    if (o.out_path != NULL && cs_solution_write(o.out_path, lambda, p.row_count, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    if (o.history_path != NULL && write_history(o.history_path, &work, stats.history_count) != 0)
    {
        goto done;
    }
    code = cs_solve_stop_failed(stats.stop) ? CS_EXIT_NOT_SOLVED : 0;
done:
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
    return code;
}

// The dense diagnostics (lcp_diagnose.h): rank, singularity, conditioning, convergence guarantees.
static bool print_diagnosis(const cs_lcp* p)
{
    cs_lcp_diagnosis d;
    if (!cs_lcp_diagnose(p, &d))
    {
        return false;
    }
    printf("symmetric_A=yes\n"); // J M⁻¹ Jᵀ by construction
    printf("bounds=%s\n", d.fixed_bounds ? "fixed" : "moving (friction: |lambda_f| <= mu lambda_n)");
    printf("positive_diag=%s\n", d.positive_diag ? "yes" : "no");
    printf("dof=%d\n", d.dof);
    if (!d.dense)
    {
        printf("rank_A=too large (over %d rows; dense diagnostics skipped)\n", CS_DIAGNOSE_MAX_ROWS);
    }
    else
    {
        printf("rank_A=%d\n", d.rank);
        printf("singular=%s\n", d.rank < d.rows ? "yes" : "no");
        printf("rank_normal=%d of %d\n", d.normal_rank, d.normal_rows);
        printf("cond_normal=%.3e\n", d.cond_normal);
    }
    cs_lcp_print_guarantees(stdout, &d);
    return true;
}

// What `lcp info` counts on the problem itself, before any solve.
typedef struct info_counts
{
    int kinds[3]; // rows by kind (an unknown kind counts as 0)
    int nnz, static_rows, dynamic_bodies, regularised;
    double q2, l2; // |q|² (q = J v* + b) and |λ⁰|²
} info_counts;

static info_counts count_problem(const cs_lcp* p)
{
    info_counts c = {{0, 0, 0}, 0, 0, 0, 0, 0.0, 0.0};
    for (int b = 0; b < p->body_count; ++b)
    {
        c.dynamic_bodies += p->inv_mass[b] > 0.0 || p->inv_inertia[b] > 0.0;
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        c.kinds[p->kind[i] <= CS_ROW_BOX ? p->kind[i] : 0] += 1;
        c.static_rows += p->body_a[i] < 0 || p->body_b[i] < 0;
        c.regularised += p->reg != NULL && p->reg[i] > 0.0;
        const double* j = p->jac + 6 * i;
        double q = p->bias[i];
        for (int k = 0; k < 6; ++k)
        {
            int body = k < 3 ? p->body_a[i] : p->body_b[i];
            if (body >= 0 && j[k] != 0.0)
            {
                c.nnz += 1;
                q += j[k] * p->v[3 * body + k % 3];
            }
        }
        c.q2 += q * q;
        c.l2 += p->lambda0[i] * p->lambda0[i];
    }
    return c;
}

// The A_ii of a solve's work (rows with A_ii <= 0 have no columns).
typedef struct info_diag
{
    double min, max, sum;
    int empty_rows;
} info_diag;

static info_diag diag_stats(const cs_solver_work* work, int rows)
{
    info_diag d = {INFINITY, 0.0, 0.0, 0};
    for (int i = 0; i < rows; ++i)
    {
        double a = work->diag[i];
        d.min = a < d.min ? a : d.min;
        d.max = a > d.max ? a : d.max;
        d.sum += a;
        d.empty_rows += a <= 0.0;
    }
    return d;
}

static void print_info(const char* file, const cs_lcp* p, const info_counts* c, const info_diag* d,
                       const cs_solver_stats* warm, const cs_solver_stats* cold)
{
    printf("file=%s\n", file);
    printf("name=%s\n", p->name[0] != '\0' ? p->name : "-");
    printf("bodies=%d\n", p->body_count);
    printf("dynamic_bodies=%d\n", c->dynamic_bodies);
    printf("rows=%d\n", p->row_count);
    printf("rows_normal=%d\n", c->kinds[CS_ROW_NORMAL]);
    printf("rows_friction=%d\n", c->kinds[CS_ROW_FRICTION]);
    printf("rows_box=%d\n", c->kinds[CS_ROW_BOX]);
    printf("rows_regularised=%d\n", c->regularised); // reg > 0 (SPOOK, springs): the problem is A + diag(reg)
    printf("static_rows=%d\n", c->static_rows);
    printf("empty_rows=%d\n", d->empty_rows);
    printf("nnz_j=%d\n", c->nnz);
    printf("diag_mean=%.6e\n", p->row_count > 0 ? d->sum / p->row_count : 0.0);
    printf("diag_min=%.6e\n", p->row_count > 0 ? d->min : 0.0);
    printf("diag_max=%.6e\n", d->max);
    printf("q_norm=%.6e\n", sqrt(c->q2));
    printf("lambda0_norm=%.6e\n", sqrt(c->l2));
    printf("res_lcp_lambda0=%.6e\n", warm->res_lcp);
    printf("res_nat_lambda0=%.6e\n", warm->res_nat);
    printf("res_lcp_zero=%.6e\n", cold->res_lcp);
    printf("res_nat_zero=%.6e\n", cold->res_nat);
    if (warm->stop == CS_STOP_BAD_PROBLEM)
    {
        printf("bad_problem=%s %d: %s\n", warm->stop_row >= 0 ? "row" : "body",
               warm->stop_row >= 0 ? warm->stop_row : warm->stop_body, warm->stop_reason);
    }
}

static int cmd_info(int argc, char** argv)
{
    const char* file = NULL;
    for (int i = 1; i < argc; ++i)
    {
        if (cs_arg_is_help(argv[i]))
        {
            usage_info(stdout);
            return 0;
        }
        if (file_argument("info", argv[i], &file) != 0)
        {
            return 2;
        }
    }
    if (file == NULL)
    {
        usage_info(stderr);
        return 2;
    }
    cs_error err = {0};
    cs_lcp p = {0};
    cs_solver_work work = {0};
    double* lambda = NULL;
    int code = 1;
    if (!load_problem(file, &p, &lambda, &err))
    {
        goto done;
    }
    info_counts c = count_problem(&p);
    // Zero sweeps: cs_solve then only precomputes A_ii and the start point, which is what we report.
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 0;
    cs_solver_stats warm = {0}, cold = {0};
    if (cs_solve(&p, 0, &params, &work, lambda, &warm, &err) != CS_OK)
    {
        fprintf(stderr, "%s: %s\n", file, err.message);
        goto done;
    }
    info_diag d = diag_stats(&work, p.row_count);
    params.warm_start = false;
    if (cs_solve(&p, 0, &params, &work, lambda, &cold, &err) != CS_OK)
    {
        fprintf(stderr, "%s: %s\n", file, err.message);
        goto done;
    }
    print_info(file, &p, &c, &d, &warm, &cold);
    if (!print_diagnosis(&p))
    {
        fprintf(stderr, "%s: out of memory forming A\n", file);
        goto done;
    }
    double facts[] = {d.sum, c.q2, c.l2, warm.res_lcp, warm.res_nat, cold.res_lcp, cold.res_nat};
    code = 0;
    for (size_t k = 0; k < sizeof facts / sizeof facts[0]; ++k)
    {
        if (!isfinite(facts[k]))
        {
            fprintf(stderr, "%s: some of these numbers overflow: the problem is beyond double precision\n",
                    file);
            code = 1;
            break;
        }
    }
done:
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
    return code;
}

int cs_cmd_lcp(int argc, char** argv)
{
    if (argc < 2)
    {
        usage_lcp(stderr);
        return 2;
    }
    if (cs_arg_is_help(argv[1]) || strcmp(argv[1], "help") == 0)
    {
        usage_lcp(stdout);
        return 0;
    }
    if (strcmp(argv[1], "solve") == 0)
    {
        return cmd_solve(argc - 1, argv + 1);
    }
    if (strcmp(argv[1], "info") == 0)
    {
        return cmd_info(argc - 1, argv + 1);
    }
    if (strcmp(argv[1], "export") == 0)
    {
        return cs_cmd_lcp_export(argc - 1, argv + 1);
    }
    fprintf(stderr, "circlesim-cli lcp: unknown subcommand '%s'\n", argv[1]);
    usage_lcp(stderr);
    return 2;
}
