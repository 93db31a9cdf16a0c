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

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

// Iteration cap of a method (a registry name, or a Siconos LCP or MLCP id): pivots for Lemke, Newton steps
// for Newton, sweeps otherwise.
static int cap_for(const char* name, int lcp_id, int rows, const options* o)
{
    bool lemke = (name != NULL && strstr(name, "lemke") != NULL) || lcp_id == SICONOS_LCP_LEMKE ||
                 lcp_id == SICONOS_MLCP_LCP_LEMKE;
    bool newton = (name != NULL && strncmp(name, "newton", 6) == 0) || lcp_id == SICONOS_LCP_NEWTONMIN ||
                  lcp_id == SICONOS_LCP_NEWTON_FB_FBLSA || lcp_id == SICONOS_MLCP_FB;
    return lemke ? 20 * rows + 1000 : newton ? 100 : o->max_iterations;
}

result sb_run_circlesim(const cs_lcp* p, int solver, double tol, const options* o)
{
    result r = {.run = true};
    cs_solver_params params = cs_solver_params_default();
    params.iterations = cap_for(cs_solver_at(solver)->name, -1, p->row_count, o);
    params.tolerance = tol;
    params.tolerance_on = CS_RES_NAT;
    params.warm_start = false;
    cs_solver_work work = {0};
    cs_error err = {0};
    double* lambda = malloc(((size_t)p->row_count + 1) * sizeof(double));
    double* times = malloc((size_t)o->repeat * sizeof(double));
    for (int k = 0; k < o->repeat && r.run; ++k)
    {
        cs_solver_stats stats = {0};
        if (cs_solve(p, solver, &params, &work, lambda, &stats, &err) != CS_OK)
        {
            r.run = false;
            snprintf(r.why, sizeof r.why, "%s", err.message);
            break;
        }
        times[k] = 1e3 * stats.seconds;
        r.iterations = stats.iterations;
        r.res_nat = stats.res_nat;
    }
    qsort(times, (size_t)o->repeat, sizeof(double), compare_double);
    r.ms = times[o->repeat / 2];
    r.solved = r.run && r.res_nat <= tol;
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
            // Siconos prints warnings on stdout (PSOR: "omega ... is not used"), which holds our table.
            fflush(stdout);
            int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
            dup2(null, STDOUT_FILENO);
            double t0 = now_ms();
            r.info = call_solve(c, siconos_tol, cap, z, u, &r.iterations);
            times[k] = now_ms() - t0;
            fflush(stdout);
            dup2(saved, STDOUT_FILENO);
            close(saved);
            close(null);
        }
        r.res_nat = call_residual(c, z, u, lambda);
        if (r.res_nat <= tol || !(r.res_nat < INFINITY) || r.iterations >= cap)
        {
            break;
        }
        siconos_tol *= 0.5 * tol / r.res_nat;
    }
    qsort(times, (size_t)o->repeat, sizeof(double), compare_double);
    r.ms = times[o->repeat / 2];
    r.solved = r.res_nat <= tol;
    free(z);
    free(u);
    free(lambda);
    free(times);
    return r;
}

static result not_run(const char* why)
{
    result r = {.run = false};
    snprintf(r.why, sizeof r.why, "%s", why);
    return r;
}

result sb_run_siconos(const sico_dense* d, sico_problem* s, int id, double tol, const options* o)
{
    if (id < 0)
    {
        return not_run("no counterpart");
    }
    if (id == SICONOS_FRICTION_2D_LEMKE && d->n > FC2D_LEMKE_MAX_ROWS)
    {
        char why[64];
        snprintf(why, sizeof why, "not run: %d rows > %d", d->n, FC2D_LEMKE_MAX_ROWS);
        return not_run(why);
    }
    int cap =
        id == SICONOS_FRICTION_2D_LEMKE ? 20 * d->n + 1000 : cap_for(NULL, d->friction ? -1 : id, d->n, o);
    siconos_call c = {.d = d, .s = s, .id = id, .size = d->n};
    return run_siconos(&c, cap, tol, o);
}

bool sb_load(const char* path, loaded* l)
{
    cs_error err = {0};
    char why[96];
    if (cs_lcp_load(path, &l->p, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    l->posable = sico_dense_make(&l->p, &l->d, why, sizeof why);
    if (l->posable)
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
    if (!l->mlcp)
    {
        return not_run(l->why);
    }
    if (m->mlcp < 0)
    {
        return not_run("no MLCP counterpart");
    }
    int size = l->x.n + l->x.m;
    siconos_call c = {.x = &l->x, .p = &l->p, .id = m->mlcp, .size = size};
    return run_siconos(&c, cap_for(NULL, m->mlcp, size, o), tol, o);
}
