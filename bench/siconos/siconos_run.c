// circlesim-siconos: one method of either library on one problem, timed, at equal accuracy (siconos_bench.h).
#include "siconos_bench.h"

#include "circlesim/circlesim.h"
#include "circlesim/lcp_fclib.h"

#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/lcp_cst.h>
#include <siconos/numerics/mlcp_cst.h>

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

enum
{
    BATCH_MAX = 10000, // solves in one timing batch
};

// A solve under a millisecond is timed again as a batch of solves lasting ~2 ms (at most a quarter of the
// budget), their mean: one reading of the CPU clock costs ~0.2 µs and would otherwise tie every small
// problem at the clock's floor. again(ctx) repeats the solve exactly.
static double batch_ms(double once_ms, const options* o, void (*again)(void* ctx), void* ctx)
{
    double target = o->budget > 0.0 ? fmin(2.0, 250.0 * o->budget) : 2.0;
    if (once_ms >= 0.5 * target)
    {
        return once_ms;
    }
    int n = (int)fmin((double)BATCH_MAX, ceil(target / fmax(once_ms, 2e-4)));
    double t0 = sb_cpu_ms();
    for (int k = 0; k < n; ++k)
    {
        again(ctx);
    }
    return (sb_cpu_ms() - t0) / n;
}

typedef struct circlesim_call
{
    const cs_lcp* p;
    int solver;
    const cs_solver_params* params;
    cs_solver_work* work;
    double* lambda;
} circlesim_call;

static void circlesim_again(void* ctx)
{
    circlesim_call* c = ctx;
    cs_solver_stats stats = {0};
    cs_error err = {0};
    (void)cs_solve(c->p, c->solver, c->params, c->work, c->lambda, &stats, &err);
}

// Iteration cap of a method (circlesim's registry flags, or a Siconos LCP or MLCP id): pivots for a pivoting
// method, Newton steps for Newton, sweeps otherwise.
static int cap_for(unsigned flags, int lcp_id, int rows, const options* o)
{
    bool pivoting =
        (flags & CS_SOLVER_PIVOTING) != 0 || lcp_id == SICONOS_LCP_LEMKE || lcp_id == SICONOS_MLCP_LCP_LEMKE;
    bool newton = (flags & CS_SOLVER_NEWTON_STEPS) != 0 || lcp_id == SICONOS_LCP_NEWTONMIN ||
                  lcp_id == SICONOS_LCP_NEWTON_FB_FBLSA || lcp_id == SICONOS_MLCP_FB;
    return pivoting ? 20 * rows + 1000 : newton ? 100 : o->max_iterations;
}

result sb_not_run(const char* stop, const char* why)
{
    result r = {.run = strcmp(stop, SB_STOP_NA) != 0, .stop = stop};
    snprintf(r.why, sizeof r.why, "%s", why);
    return r;
}

static result over_size(int rows, const options* o)
{
    char why[96];
    snprintf(why, sizeof why, "not run: dense %d x %d over the %d-row budget", rows, rows, o->max_dense_rows);
    return sb_not_run(SB_STOP_SIZE, why);
}

result sb_run_circlesim(const cs_lcp* p, int solver, double tol, const options* o)
{
    const cs_solver_info* info = cs_solver_at(solver);
    if ((info->flags & CS_SOLVER_DENSE) != 0 && p->row_count > o->max_dense_rows)
    {
        return over_size(p->row_count, o);
    }
    result r = {.run = true};
    cs_solver_params params = cs_solver_params_default();
    params.iterations = cap_for(info->flags, -1, p->row_count, o);
    params.tolerance = tol;
    params.tolerance_on = CS_RES_NAT;
    params.warm_start = false;
    cs_solver_work work = {0};
    cs_error err = {0};
    double* lambda = malloc(((size_t)p->row_count + 1) * sizeof(double));
    double* times = malloc((size_t)o->repeat * sizeof(double));
    for (int k = 0; k < o->repeat && r.stop == NULL; ++k)
    {
        cs_solver_stats stats = {0};
        double t0 = sb_cpu_ms();
        if (cs_solve(p, solver, &params, &work, lambda, &stats, &err) != CS_OK)
        {
            r.stop = SB_STOP_ERROR;
            snprintf(r.why, sizeof r.why, "%s", err.message);
            break;
        }
        times[k] = sb_cpu_ms() - t0;
        r.iterations = stats.iterations;
        r.res_nat = stats.res_nat;
    }
    qsort(times, (size_t)o->repeat, sizeof(double), compare_double);
    r.ms = times[o->repeat / 2];
    if (r.stop == NULL)
    {
        circlesim_call again = {p, solver, &params, &work, lambda};
        r.ms = batch_ms(r.ms, o, circlesim_again, &again);
    }
    r.solved = r.stop == NULL && r.res_nat <= tol;
    r.stop = r.stop != NULL ? r.stop : r.solved ? SB_STOP_SOLVED : SB_STOP_ITERATIONS;
    free(times);
    free(lambda);
    cs_solver_work_free(&work);
    return r;
}

// One Siconos method on one problem: the dense LCP / fc2d problem (d, s) or the MLCP (x, of the rows p).
typedef struct siconos_call
{
    const sico_dense* d;
    sico_problem* s;
    sico_mlcp* x;
    const cs_lcp* p;
    int id;
    int size; // unknowns
} siconos_call;

static int call_solve(const siconos_call* c, double tol, int cap, double* z, double* u, int* iterations)
{
    return c->x != NULL ? sico_mlcp_solve(c->x, c->id, tol, cap, z, iterations)
                        : sico_solve(c->d, c->s, c->id, tol, cap, z, u, iterations);
}

// Siconos prints warnings on stdout (PSOR: "omega ... is not used"), which holds our table: sent to
// /dev/null around its solves.
static int quiet_begin(void)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    close(null);
    return saved;
}

static void quiet_end(int saved)
{
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
}

typedef struct siconos_again_call
{
    const siconos_call* c;
    double tol;
    int cap;
    double *z, *u;
    size_t n;
} siconos_again_call;

static void siconos_again(void* ctx)
{
    siconos_again_call* a = ctx;
    int iterations = 0;
    memset(a->z, 0, a->n * sizeof(double));
    (void)call_solve(a->c, a->tol, a->cap, a->z, a->u, &iterations);
}

// circlesim's res_nat of Siconos's answer z, formed densely (u, lambda: scratch).
static double call_residual(const siconos_call* c, const double* z, double* u, double* lambda)
{
    if (c->x != NULL)
    {
        sico_mlcp_lambda(c->x, z, lambda);
        return sico_mlcp_residual(c->x, c->p, lambda);
    }
    sico_velocity(c->d, z, u);
    return sico_residual(c->d, z, u);
}

// Siconos at equal accuracy: its own tolerance tightened (up to four tries) until res_nat <= tol.
static result run_siconos(const siconos_call* c, int cap, double tol, const options* o)
{
    result r = {.run = true};
    size_t n = (size_t)c->size + 1, rows = c->p != NULL ? (size_t)c->p->row_count + 1 : 1;
    double* z = malloc(n * sizeof(double));
    double* u = malloc(n * sizeof(double));
    double* lambda = malloc(rows * sizeof(double));
    double* times = malloc((size_t)o->repeat * sizeof(double));
    double siconos_tol = tol;
    for (int attempt = 0; attempt < 4; ++attempt)
    {
        for (int k = 0; k < o->repeat; ++k)
        {
            memset(z, 0, n * sizeof(double));
            int saved = quiet_begin();
            double t0 = sb_cpu_ms();
            r.info = call_solve(c, siconos_tol, cap, z, u, &r.iterations);
            times[k] = sb_cpu_ms() - t0;
            quiet_end(saved);
        }
        r.res_nat = call_residual(c, z, u, lambda);
        if (r.res_nat <= tol || !(r.res_nat < INFINITY) || r.iterations >= cap)
        {
            break;
        }
        siconos_tol *= 0.5 * tol / r.res_nat;
    }
    qsort(times, (size_t)o->repeat, sizeof(double), compare_double);
    siconos_again_call again = {c, siconos_tol, cap, z, u, n};
    int saved = quiet_begin();
    r.ms = batch_ms(times[o->repeat / 2], o, siconos_again, &again);
    quiet_end(saved);
    r.solved = r.res_nat <= tol;
    r.stop = r.solved ? SB_STOP_SOLVED : r.iterations >= cap ? SB_STOP_ITERATIONS : SB_STOP_ERROR;
    if (strcmp(r.stop, SB_STOP_ERROR) == 0)
    {
        snprintf(r.why, sizeof r.why, "stopped: info %d after %d, res_nat %.1e", r.info, r.iterations,
                 r.res_nat);
    }
    free(z);
    free(u);
    free(lambda);
    free(times);
    return r;
}

result sb_run_siconos(const sico_dense* d, sico_problem* s, int id, double tol, const options* o)
{
    if (id < 0)
    {
        return sb_not_run(SB_STOP_NA, "no counterpart");
    }
    if (d->n > o->max_dense_rows)
    {
        return over_size(d->n, o);
    }
    int cap =
        id == SICONOS_FRICTION_2D_LEMKE ? 20 * d->n + 1000 : cap_for(0u, d->friction ? -1 : id, d->n, o);
    siconos_call c = {.d = d, .s = s, .id = id, .size = d->n};
    return run_siconos(&c, cap, tol, o);
}

bool sb_load(const char* path, loaded* l, const options* o)
{
    cs_error err = {0};
    char why[96];
    if (cs_lcp_load(path, &l->p, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    l->oversize = l->p.row_count > o->max_dense_rows; // Siconos's W alone would be rows² doubles
    l->posable = !l->oversize && sico_dense_make(&l->p, &l->d, why, sizeof why);
    if (l->oversize)
    {
        snprintf(l->why, sizeof l->why, "not run: dense %d x %d over the %d-row budget", l->p.row_count,
                 l->p.row_count, o->max_dense_rows);
    }
    else if (l->posable)
    {
        sico_problem_make(&l->d, &l->s);
    }
    else if (sico_mlcp_make(&l->p, &l->x, why, sizeof why))
    {
        l->mlcp = true; // joints: Siconos's MLCP methods instead
    }
    else
    {
        snprintf(l->why, sizeof l->why, "not posed");
        fprintf(stderr, "%s: Siconos's methods not run: %s\n", path, why);
    }
    const char* base = strrchr(path, '/');
    snprintf(l->name, sizeof l->name, "%s", base != NULL ? base + 1 : path);
    char* dot = strrchr(l->name, '.');
    if (dot != NULL)
    {
        *dot = '\0';
    }
    return true;
}

void sb_unload(loaded* l)
{
    sico_mlcp_free(&l->x);
    sico_problem_free(&l->s);
    sico_dense_free(&l->d);
    cs_lcp_free(&l->p);
}

bool sb_skip_empty(const loaded* l, const char* command)
{
    if (l->p.row_count > 0)
    {
        return false;
    }
    fprintf(stderr, "circlesim-siconos %s: %s has no rows: left out\n", command, l->name);
    return true;
}

result sb_run_siconos_on(loaded* l, const method* m, double tol, const options* o)
{
    if (l->posable)
    {
        return sb_run_siconos(&l->d, &l->s, l->d.friction ? m->fc2d : m->lcp, tol, o);
    }
    if (l->oversize)
    {
        return sb_not_run(SB_STOP_SIZE, l->why);
    }
    if (!l->mlcp)
    {
        return sb_not_run(SB_STOP_NA, l->why);
    }
    if (m->mlcp < 0)
    {
        return sb_not_run(SB_STOP_NA, "no MLCP counterpart");
    }
    int size = l->x.n + l->x.m;
    siconos_call c = {.x = &l->x, .p = &l->p, .id = m->mlcp, .size = size};
    return run_siconos(&c, cap_for(0u, m->mlcp, size, o), tol, o);
}

typedef struct budgeted_call
{
    loaded* l;
    const method* m;
    double tol;
    const options* o;
} budgeted_call;

static result run_one(void* arg)
{
    const budgeted_call* c = arg;
    return c->m->circlesim != NULL ? sb_run_circlesim(&c->l->p, cs_solver_find(c->m->circlesim), c->tol, c->o)
                                   : sb_run_siconos_on(c->l, c->m, c->tol, c->o);
}

result sb_run_budgeted(loaded* l, const method* m, double tol, const options* o)
{
    if (m->circlesim != NULL && cs_solver_find(m->circlesim) < 0)
    {
        return sb_not_run(SB_STOP_NA, "not in this build");
    }
    budgeted_call c = {l, m, tol, o};
    return sb_budgeted(run_one, &c, o->budget);
}
