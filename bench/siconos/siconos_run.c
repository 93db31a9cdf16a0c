// circlesim-siconos: one method of either library on one problem, timed, at equal accuracy (siconos_bench.h).
#include "siconos_bench.h"

#include "circlesim/circlesim.h"
#include "circlesim/lcp_fclib.h"

#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/lcp_cst.h>

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

// Iteration cap of a method: pivots for Lemke, Newton steps for Newton, sweeps otherwise.
static int cap_for(const char* name, int lcp_id, int rows, const options* o)
{
    bool lemke = (name != NULL && strstr(name, "lemke") != NULL) || lcp_id == SICONOS_LCP_LEMKE;
    bool newton = (name != NULL && strncmp(name, "newton", 6) == 0) || lcp_id == SICONOS_LCP_NEWTONMIN ||
                  lcp_id == SICONOS_LCP_NEWTON_FB_FBLSA;
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

// Siconos at equal accuracy: its own tolerance tightened (up to four tries) until res_nat <= tol.
result sb_run_siconos(const sico_dense* d, sico_problem* s, int id, double tol, const options* o)
{
    result r = {.run = true};
    if (id < 0)
    {
        r.run = false;
        snprintf(r.why, sizeof r.why, "no counterpart");
        return r;
    }
    if (id == SICONOS_FRICTION_2D_LEMKE && d->n > FC2D_LEMKE_MAX_ROWS)
    {
        r.run = false;
        snprintf(r.why, sizeof r.why, "not run: %d rows > %d", d->n, FC2D_LEMKE_MAX_ROWS);
        return r;
    }
    double* x = malloc(((size_t)d->n + 1) * sizeof(double));
    double* u = malloc(((size_t)d->n + 1) * sizeof(double));
    double* times = malloc((size_t)o->repeat * sizeof(double));
    double siconos_tol = tol;
    int cap = cap_for(NULL, d->friction ? -1 : id, d->n, o);
    if (id == SICONOS_FRICTION_2D_LEMKE)
    {
        cap = 20 * d->n + 1000;
    }
    for (int attempt = 0; attempt < 4; ++attempt)
    {
        for (int k = 0; k < o->repeat; ++k)
        {
            memset(x, 0, (size_t)d->n * sizeof(double));
            // Siconos prints warnings on stdout (PSOR: "omega ... is not used"), which holds our table.
            fflush(stdout);
            int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
            dup2(null, STDOUT_FILENO);
            double t0 = now_ms();
            r.info = sico_solve(d, s, id, siconos_tol, cap, x, u, &r.iterations);
            times[k] = now_ms() - t0;
            fflush(stdout);
            dup2(saved, STDOUT_FILENO);
            close(saved);
            close(null);
        }
        sico_velocity(d, x, u);
        r.res_nat = sico_residual(d, x, u);
        if (r.res_nat <= tol || !(r.res_nat < INFINITY) || r.iterations >= cap)
        {
            break;
        }
        siconos_tol *= 0.5 * tol / r.res_nat;
    }
    qsort(times, (size_t)o->repeat, sizeof(double), compare_double);
    r.ms = times[o->repeat / 2];
    r.solved = r.res_nat <= tol;
    free(x);
    free(u);
    free(times);
    return r;
}

bool sb_load(const char* path, loaded* l)
{
    cs_error err = {0};
    char why[128];
    if (cs_lcp_load(path, &l->p, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    if (!sico_dense_make(&l->p, &l->d, why, sizeof why))
    {
        fprintf(stderr, "%s: %s\n", path, why);
        return false;
    }
    sico_problem_make(&l->d, &l->s);
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
    sico_problem_free(&l->s);
    sico_dense_free(&l->d);
    cs_lcp_free(&l->p);
}
