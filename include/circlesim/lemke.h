// circlesim — `lemke`, the pivoting ground truth, with its pivot count and outcome (cs_solve reports
// iterations; a pivoting method's work is its pivots).
#ifndef CIRCLESIM_LEMKE_H
#define CIRCLESIM_LEMKE_H

#include "circlesim/solver.h"

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct cs_lemke_stats
    {
        int pivots;    // complementary pivots, the initial z0 pivot included
        int variables; // size of the LCP Lemke ran on (the BLCP reformulated: docs/SOLVERS.md)
        double res_lcp, res_nat;
        double seconds;
    } cs_lemke_stats;

    // Solves p exactly with `lemke` (the registry's method, from λ = 0): lambda (row_count entries) and
    // work->v = v* + M⁻¹Jᵀλ on return. Fails with a message when the problem is malformed, too large for the
    // dense method, has no solution Lemke reaches (ray termination), the pivots cycle (pivot cap) or the
    // basis turns numerically singular; an answer it returns solves the true problem (res_nat ≤ 1e-9·max|q|).
    cs_status cs_lemke_solve(const cs_lcp* p, cs_solver_work* work, double* lambda, cs_lemke_stats* stats,
                             cs_error* err);

#ifdef __cplusplus
}
#endif

#endif
