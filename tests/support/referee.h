// What the Siconos referee tests (test_siconos_referee.c: contacts; test_siconos_joints.c: joints as an
// MLCP) share: their tolerances, the frozen problems and the failure count, and what they ask of a registry
// method — its iteration budget and whether a convergence theorem covers the problem. Included by one file of
// each test executable.
#ifndef CS_REFEREE_H
#define CS_REFEREE_H

#include "test_support.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

// Siconos Numerics never frees some of its workspace (LeakSanitizer: 23 blocks, 2.7 kB per run of the
// referee); suppressed by library name, so leaks of circlesim's own still fail the sanitizer build.
const char* __lsan_default_suppressions(void);
const char* __lsan_default_suppressions(void)
{
    return "leak:libsiconos_numerics\n";
}

static const double REFEREE_TOL = 1e-10;        // circlesim's tolerance on res_nat
static const double REFEREE_AGREE = 1e-8;       // velocities where they are unique (no friction)
static const double REFEREE_SICONOS_TOL = 1e-8; // Siconos's error of a circlesim solution, and vice versa

enum
{
    REFEREE_MAX_PROBLEMS = 40,
    REFEREE_SWEEP_CAP = 50000, // iterations for a method without a known budget
    REFEREE_HARD_CAP = 2000,   // a hard problem, or a method held to no theorem
};

// Iterations a method gets: a pivoting method about one pivot per row, a Newton method a few hundred
// steps, anything else (sweeps) REFEREE_SWEEP_CAP; capped at REFEREE_HARD_CAP when `capped`.
static inline int referee_budget(unsigned flags, int rows, bool capped)
{
    int b = (flags & CS_SOLVER_EXACT)          ? 20 * rows + 1000
            : (flags & CS_SOLVER_NEWTON_STEPS) ? 1000
                                               : REFEREE_SWEEP_CAP;
    return capped && b > REFEREE_HARD_CAP ? REFEREE_HARD_CAP : b;
}

// Who must converge is the registry's (solver.h): exact methods, methods measured on the shipped scenes
// (CS_SOLVER_CONVERGES_SCENES), and without friction rows those with a fixed-bounds or nonsingular-A
// guarantee. The rest (Jacobi; APGD and Newton on friction rows) converge or report truthfully.
static inline bool referee_no_theorem(const cs_solver_info* info, const cs_lcp* p)
{
    bool friction = false;
    for (int i = 0; i < p->row_count && !friction; ++i)
    {
        friction = p->kind[i] == CS_ROW_FRICTION;
    }
    unsigned f = info->flags;
    return !((f & (CS_SOLVER_EXACT | CS_SOLVER_CONVERGES_SCENES)) ||
             (!friction && (f & (CS_SOLVER_CONVERGES_FIXED | CS_SOLVER_CONVERGES_NONSINGULAR))));
}

typedef struct referee_problem
{
    char name[64];
    cs_lcp p;
    bool hard; // the sweeps need far more than REFEREE_HARD_CAP: converge or report truthfully
} referee_problem;

static referee_problem problems[REFEREE_MAX_PROBLEMS];
static int problem_count;
static int failures;

#define REPORT_FAILURE(...)                                                                                  \
    do                                                                                                       \
    {                                                                                                        \
        print_message("REFEREE FAILURE: " __VA_ARGS__);                                                      \
        failures += 1;                                                                                       \
    } while (0)

static inline void referee_add_problem(const char* name, const cs_lcp* p, bool hard)
{
    assert_true(problem_count < REFEREE_MAX_PROBLEMS);
    referee_problem* pr = &problems[problem_count++];
    cs_error err = {0};
    snprintf(pr->name, sizeof pr->name, "%s", name);
    assert_int_equal(cs_lcp_copy(&pr->p, p, &err), CS_OK);
    pr->hard = hard;
}

// The parameters a method is judged with: to REFEREE_TOL on res_nat from the warm start, within its budget;
// a hard problem, a method held to no theorem (*no_theorem) and pgs-sm / pgs-kz (one of their iterations is
// k_gs sweeps and a sparse factorisation: 2 000 of them are over 10 000 sweeps) get the hard cap.
static inline cs_solver_params referee_params(const referee_problem* pr, const cs_solver_info* info,
                                              bool* no_theorem)
{
    *no_theorem = referee_no_theorem(info, &pr->p);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = referee_budget(info->flags, pr->p.row_count,
                                       pr->hard || *no_theorem || (info->flags & CS_SOLVER_USES_KGS) != 0);
    params.tolerance = REFEREE_TOL;
    params.tolerance_on = CS_RES_NAT;
    params.warm_start = true;
    return params;
}

// What a solve reports must be true, converged or not: its res_nat is the dense one (dense_res, the same
// sums in another order) to 1e-6 relative. True when it converged; a miss is a failure unless the problem is
// hard or no theorem holds there (then it is printed).
static inline bool referee_converged(const referee_problem* pr, const cs_solver_info* info, int cap,
                                     const cs_solver_stats* stats, double dense_res, bool no_theorem)
{
    if (!(fabs(stats->res_nat - dense_res) <= 1e-6 * dense_res + 1e-12))
    {
        REPORT_FAILURE("%s on %s: reports res_nat %.3e, the dense residual is %.3e\n", info->name, pr->name,
                       stats->res_nat, dense_res);
    }
    if (stats->res_nat <= REFEREE_TOL)
    {
        return true;
    }
    if (!pr->hard && !no_theorem)
    {
        REPORT_FAILURE("%s on %s: res_nat %.3e > %.0e after %d iterations (cap %d)\n", info->name, pr->name,
                       stats->res_nat, REFEREE_TOL, stats->iterations, cap);
    }
    else
    {
        print_message("  %-14s %-40s not converged in %d (res_nat %.2e), as reported\n", info->name, pr->name,
                      stats->iterations, stats->res_nat);
    }
    return false;
}

#endif
