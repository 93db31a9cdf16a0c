// The interior-point method `ipm` (ipm.c: start, driver, crossover and polish) and its Newton step
// (ipm_step.c: Mehrotra's predictor-corrector on the reduced system) share the method's per-row arrays.
#ifndef CS_SOLVER_IPM_H
#define CS_SOLVER_IPM_H

#include "solver/subspace.h"

#include <stdbool.h>

// The method's per-row arrays, carved from work->dense (grown once in begin).
typedef struct cs_ipm_arrays
{
    double *lam, *sl, *zl, *su, *zu, *lo, *hi, *w, *d, *dl, *dsl, *dzl, *dsu, *dzu, *keep, *at, *c, *b, *x;
    double *v, *v_keep; // 3·bodies + 3 (with the packed rows' zero slot)
    double* krylov;     // cs_ipm_krylov_doubles(rows)
} cs_ipm_arrays;

// Rows that are IPM variables: a column somewhere (A_ii > 0).
static inline bool cs_ipm_row(const cs_solver_work* work, int i)
{
    return work->diag[i] > 0.0;
}

// ipm_step.c: one Mehrotra predictor-corrector step from the iterate in a, with bounds and w current;
// returns the step length taken (0: no usable Newton system).
double cs_ipm_interior_step(const cs_solve_ctx* ctx, cs_ipm_arrays* a, cs_subspace* sub, double mu);

#endif
