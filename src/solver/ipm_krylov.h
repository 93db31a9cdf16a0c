// ipm's nonsymmetric Newton system by GMRES preconditioned with the symmetric part (ipm_krylov.c).
#ifndef CS_SOLVER_IPM_KRYLOV_H
#define CS_SOLVER_IPM_KRYLOV_H

#include "solver/subspace.h"

enum
{
    CS_IPM_KRYLOV_RESTART = 20,
    CS_IPM_KRYLOV_MAX_PRODUCTS = 60, // per Newton system
};

typedef struct cs_ipm_krylov
{
    const cs_lcp* p;
    const cs_solve_ctx* ctx;
    cs_subspace* sub; // its free set are the system's rows; rhs and step its solve's vectors
    bool factored;    // CHOLMOD's factor of K is current
    bool (*solve)(const cs_solve_ctx* ctx, cs_subspace* sub, bool factored); // sub->step = K⁻¹ sub->rhs
    const double* c;  // by row: the coupling C_fn of friction row f to its normal row p->link[f] (0: none)
    double tolerance; // relative residual ‖b − (K + C)Δλ‖ / ‖b‖ to reach
    int products;     // products so far (statistics)
    // Work, cs_ipm_krylov_doubles(rows) doubles carved by the caller: basis [(RESTART + 1)·n], z and y
    // [2·n] (z first), hess [(RESTART + 1)·RESTART], g, cs, sn, y coefficients [RESTART + 1] each.
    double *basis, *z, *hess, *g, *cs, *sn, *y;
} cs_ipm_krylov;

size_t cs_ipm_krylov_doubles(int rows);
// Carves the work arrays from d (cs_ipm_krylov_doubles(rows) doubles).
static inline void cs_ipm_krylov_carve(cs_ipm_krylov* k, double* d, int rows)
{
    size_t m = (size_t)rows, r = CS_IPM_KRYLOV_RESTART;
    k->basis = d, d += (r + 1) * m;
    k->z = d, d += 2 * m;
    k->hess = d, d += (r + 1) * r;
    k->g = d, d += r + 1;
    k->cs = d, d += r + 1;
    k->sn = d, d += r + 1;
    k->y = d;
}

// Solves (K + C) x = b (free-row vectors, b and x distinct from sub->rhs/step); false when a solve with K
// failed or x is not finite.
bool cs_ipm_krylov_solve(cs_ipm_krylov* k, const double* b, double* x);

#endif
