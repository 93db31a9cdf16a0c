// Internals shared by the solver files: the per-solve context, the method table entry and the
// row kernels (w_i = J_i·v + b_i, v += M⁻¹J_iᵀ Δλ) every velocity-form method is built from.
#ifndef CS_SOLVER_INTERNAL_H
#define CS_SOLVER_INTERNAL_H

#include "circlesim/solver.h"

#include <math.h>

// Everything a method sees during one cs_solve. The driver (solve.c) owns the loop over sweeps,
// the history and the tolerance test, so a method only writes `begin` (once per solve) and
// `sweep` (one pass over the rows). After begin and after each sweep the method must leave
// `lambda` holding its current iterate and `work->v` = v* + M⁻¹Jᵀλ, because residuals are
// computed from those two arrays.
typedef struct cs_solve_ctx
{
    const cs_lcp* p;
    const cs_solver_params* params;
    cs_solver_work* work;
    double* lambda;
    double method[4]; // scalars a method's begin leaves for its sweeps (AMGS: γΩ_ii coefficients)
} cs_solve_ctx;

typedef cs_status (*cs_solver_begin_fn)(cs_solve_ctx* ctx, cs_error* err);
typedef void (*cs_solver_sweep_fn)(cs_solve_ctx* ctx);

typedef struct cs_solver_entry
{
    cs_solver_info info;
    cs_solver_begin_fn begin; // may be NULL
    cs_solver_sweep_fn sweep;
} cs_solver_entry;

// registry.c
const cs_solver_entry* cs_solver_entry_at(int index);

// The methods (one file each).
void cs_pgs_sweep(cs_solve_ctx* ctx);
cs_status cs_amgs_begin(cs_solve_ctx* ctx, cs_error* err);       // Ω = αD
cs_status cs_amgs_omega_begin(cs_solve_ctx* ctx, cs_error* err); // Ω = ω̄E
void cs_amgs_sweep(cs_solve_ctx* ctx);
cs_status cs_amgs_dense_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_amgs_dense_sweep(cs_solve_ctx* ctx);

// solve.c: grows a double array geometrically (contents kept), for work arrays a method owns.
cs_status cs_grow_doubles(double** array, int* capacity, int needed, cs_error* err);

// Row kernels ------------------------------------------------------------------------------------

// J_i · v over the row's two body halves (a static half, index -1, has no columns).
static inline double cs_row_jv(const double* jac6, int a, int b, const double* v)
{
    double s = 0.0;
    if (a >= 0)
    {
        const double* va = v + 3 * a;
        s += jac6[0] * va[0] + jac6[1] * va[1] + jac6[2] * va[2];
    }
    if (b >= 0)
    {
        const double* vb = v + 3 * b;
        s += jac6[3] * vb[0] + jac6[4] * vb[1] + jac6[5] * vb[2];
    }
    return s;
}

// v += mjt_i · delta: applies an impulse change of row i to its bodies.
static inline void cs_row_apply(const double* mjt6, int a, int b, double delta, double* v)
{
    if (a >= 0)
    {
        double* va = v + 3 * a;
        va[0] += mjt6[0] * delta;
        va[1] += mjt6[1] * delta;
        va[2] += mjt6[2] * delta;
    }
    if (b >= 0)
    {
        double* vb = v + 3 * b;
        vb[0] += mjt6[3] * delta;
        vb[1] += mjt6[4] * delta;
        vb[2] += mjt6[5] * delta;
    }
}

// Bounds of row i (same rule as cs_lcp_bounds, inlined for the hot loops).
static inline void cs_row_bounds(const cs_lcp* p, const double* lambda, int i, double* lo, double* hi)
{
    switch (p->kind[i])
    {
        case CS_ROW_FRICTION:
        {
            // A negative normal impulse can only come from a start point; it gives an empty box.
            double n = lambda[p->link[i]];
            double limit = n > 0.0 ? p->mu[i] * n : 0.0;
            *lo = -limit;
            *hi = limit;
            break;
        }
        case CS_ROW_BOX:
            *lo = p->lo[i];
            *hi = p->hi[i];
            break;
        default:
            *lo = 0.0;
            *hi = INFINITY;
            break;
    }
}

static inline double cs_clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

#endif
