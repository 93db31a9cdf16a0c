// pgs-sm's reduced system without forming A (A + Σ on regularised rows, see product): conjugate gradients
// on A_FF δ = r_F with the Jacobi preconditioner D_FF = diag(A_FF). A product A_FF p costs two passes over
// the free rows' packed records,
//     u = M⁻¹ J_Fᵀ p   (scatter into the bodies),   (A_FF p)_i = J_i · u   (gather),
// about one PGS sweep's work, so stats.cg_iterations counts PGS-sweep equivalents.
//
// A_FF is positive semidefinite and, with friction on circles, often singular; worse, r_F = −(J_F v + b_F)
// need not lie in its range (b_F has components in null(J_Fᵀ)), and plain CG on such an inconsistent
// system grows δ without bound along the null space (measured: |δ| ~ 1e30 on Pool 1, which destroys the
// velocities v + M⁻¹J_Fᵀδ through cancellation). So CG solves (A_FF + βD_FF) δ = r_F with β = 1e-10,
// the same regularisation the CHOLMOD path falls back to: the preconditioned matrix D⁻¹A_FF + βI has its
// null space at the single eigenvalue β, which CG resolves in a few iterations, and both paths give the
// same step (the least-D-norm step where the system is consistent, a large but finite move along the
// null space where it is not, which the projection and the backtracking point then cut back to the box).
#include "solver/subspace.h"

#include <math.h>
#include <string.h>

enum
{
    CG_MIN_ITERATIONS = 20,
    CG_MAX_ITERATIONS = 2000,
};

static const double cg_tolerance = 1e-12; // ‖r‖ <= tol·‖r_F‖: far below any outer tolerance
// CG solves (A_FF + βD_FF) δ = r_F, β the first rung of the CHOLMOD path's ladder (subspace_cholmod.c).
static const double cg_beta = 1e-10;

static double dot(const double* x, const double* y, int n)
{
    double s = 0.0;
    for (int k = 0; k < n; ++k)
    {
        s += x[k] * y[k];
    }
    return s;
}

// ap = A_FF p through the bodies' velocities (u, 3·bodies + 3 with the zero slot).
static void product(cs_subspace* s, const cs_solver_work* w, int bodies, const double* p, double* ap)
{
    const cs_packed_row* rows = cs_packed_rows(w);
    memset(s->u, 0, (3 * (size_t)bodies + 3) * sizeof(double));
    for (int f = 0; f < s->free_count; ++f)
    {
        cs_pack_apply(rows + s->free[f], p[f], s->u);
    }
    // The packed J is J_i / A_ii (solve.c), so (A p)_i = A_ii · (packed J_i · u); on a regularised row A_ii
    // includes ε_i and the step its ε_i p_i / A_ii, so this is ((A + Σ) p)_i.
    for (int f = 0; f < s->free_count; ++f)
    {
        int i = s->free[f];
        ap[f] = w->diag[i] * (cs_pack_step_reg(rows + i, 0.0, s->u, p[f]) + cg_beta * p[f]);
        ap[f] += s->shift != NULL ? s->shift[i] * p[f] : 0.0; // ipm's barrier diagonal
    }
}

// The Jacobi preconditioner's entry of free row f: A_ii (+ ipm's shift).
static double precondition(const cs_subspace* s, const double* diag, int f)
{
    int i = s->free[f];
    return diag[i] + (s->shift != NULL ? s->shift[i] : 0.0);
}

bool cs_pcg_solve(cs_subspace* s, const cs_solver_work* w, int bodies)
{
    int n = s->free_count;
    double* x = s->step;
    double* r = s->cg_r;
    double* z = s->cg_z;
    double* p = s->cg_p;
    double* ap = s->cg_ap;
    const double* diag = w->diag;
    for (int f = 0; f < n; ++f)
    {
        x[f] = 0.0;
        r[f] = s->rhs[f];
        z[f] = r[f] / precondition(s, diag, f);
        p[f] = z[f];
    }
    double rz = dot(r, z, n);
    double stop = cg_tolerance * sqrt(dot(r, r, n));
    int cap = 2 * n < CG_MIN_ITERATIONS ? CG_MIN_ITERATIONS : 2 * n;
    cap = cap > CG_MAX_ITERATIONS ? CG_MAX_ITERATIONS : cap;
    int it = 0;
    while (it < cap && sqrt(dot(r, r, n)) > stop)
    {
        product(s, w, bodies, p, ap);
        double pap = dot(p, ap, n);
        it += 1;
        if (!(pap > 0.0))
        {
            break; // no curvature along p (a null direction of A_FF): nothing more to gain from CG
        }
        double alpha = rz / pap;
        for (int f = 0; f < n; ++f)
        {
            x[f] += alpha * p[f];
            r[f] -= alpha * ap[f];
            z[f] = r[f] / precondition(s, diag, f);
        }
        double rz_next = dot(r, z, n);
        double beta = rz_next / rz;
        rz = rz_next;
        for (int f = 0; f < n; ++f)
        {
            p[f] = z[f] + beta * p[f];
        }
    }
    s->stats.cg_iterations += it;
    s->stats.regularised += 1;
    s->stats.beta = cg_beta;
    for (int f = 0; f < n; ++f)
    {
        if (!isfinite(x[f]))
        {
            return false;
        }
    }
    return true;
}
