// ipm's Newton system with friction (ipm.c): (K + C) Δλ = b on the IPM rows, K = A + Σ + D symmetric positive
// definite (factorised by CHOLMOD, or solved by PCG), C the friction rows' couplings to their normal rows
// (C_fn = μ(z_l/s_l − z_u/s_u), nonsymmetric). Right-preconditioned restarted GMRES with K as the
// preconditioner: y ↦ (K + C)K⁻¹y = y + C(K⁻¹y), each product one solve with K plus O(rows); Δλ = K⁻¹y at the
// end. Without friction rows (C = 0) the first product already solves it. A Richardson iteration on K
// (Δλ ← K⁻¹(b − CΔλ)) was tried first: it contracts at ~μ per pass only while the friction rows are far
// from their bounds and diverged (ρ ≈ 1.12) near a sliding solution of a random 8-row problem.
#include "solver/ipm_krylov.h"

#include <math.h>
#include <string.h>

size_t cs_ipm_krylov_doubles(int rows)
{
    size_t m = (size_t)rows, r = CS_IPM_KRYLOV_RESTART;
    return (r + 3) * m + (r + 1) * r + 4 * (r + 1);
}

static double dot(const double* x, const double* y, int n)
{
    double s = 0.0;
    for (int k = 0; k < n; ++k)
    {
        s += x[k] * y[k];
    }
    return s;
}

// z = K⁻¹y (free-row vectors); false when the solve fails.
static bool precondition(cs_ipm_krylov* k, const double* y, double* z)
{
    cs_subspace* sub = k->sub;
    memcpy(sub->rhs, y, (size_t)sub->free_count * sizeof(double));
    if (!k->solve(k->ctx, sub, k->factored))
    {
        return false;
    }
    memcpy(z, sub->step, (size_t)sub->free_count * sizeof(double));
    return true;
}

// out = y + C z with z = K⁻¹y; false when the solve fails.
static bool product(cs_ipm_krylov* k, const double* y, double* out)
{
    const cs_subspace* sub = k->sub;
    if (!precondition(k, y, k->z))
    {
        return false;
    }
    for (int f = 0; f < sub->free_count; ++f)
    {
        int i = sub->free[f];
        double s = y[f];
        if (k->c[i] != 0.0)
        {
            s += k->c[i] * k->z[sub->slot[k->p->link[i]]];
        }
        out[f] = s;
    }
    return true;
}

bool cs_ipm_krylov_solve(cs_ipm_krylov* k, const double* b, double* x)
{
    const cs_subspace* sub = k->sub;
    int n = sub->free_count;
    const int r = CS_IPM_KRYLOV_RESTART;
    double* y = k->z + n; // the accumulated y (second free-row vector after z)
    memset(y, 0, (size_t)n * sizeof(double));
    double b_norm = sqrt(dot(b, b, n));
    double target = k->tolerance * b_norm;
    int products = 0;
    double res = b_norm;
    bool coupled = false;
    for (int f = 0; f < n; ++f)
    {
        coupled = coupled || k->c[sub->free[f]] != 0.0;
    }
    if (!coupled)
    {
        memcpy(y, b, (size_t)n * sizeof(double)); // C = 0: K is the whole system
        res = 0.0;
    }
    for (int cycle = 0; res > target && products < CS_IPM_KRYLOV_MAX_PRODUCTS; ++cycle)
    {
        double* v0 = k->basis;
        if (cycle > 0 && !product(k, y, v0)) // (the first cycle starts from y = 0: residual b)
        {
            return false;
        }
        products += cycle > 0;
        for (int f = 0; f < n; ++f)
        {
            v0[f] = b[f] - (cycle > 0 ? v0[f] : 0.0);
        }
        double beta = sqrt(dot(v0, v0, n));
        res = beta;
        if (!(beta > target))
        {
            break;
        }
        for (int f = 0; f < n; ++f)
        {
            v0[f] /= beta;
        }
        memset(k->g, 0, (size_t)(r + 1) * sizeof(double));
        k->g[0] = beta;
        int j = 0;
        while (j < r && res > target && products < CS_IPM_KRYLOV_MAX_PRODUCTS)
        {
            double* vj = k->basis + (size_t)j * n;
            double* vn = k->basis + (size_t)(j + 1) * n;
            if (!product(k, vj, vn))
            {
                return false;
            }
            products += 1;
            double* h = k->hess + (size_t)j * (r + 1);
            for (int t = 0; t <= j; ++t) // modified Gram–Schmidt
            {
                const double* vt = k->basis + (size_t)t * n;
                h[t] = dot(vn, vt, n);
                for (int f = 0; f < n; ++f)
                {
                    vn[f] -= h[t] * vt[f];
                }
            }
            h[j + 1] = sqrt(dot(vn, vn, n));
            if (h[j + 1] > 0.0)
            {
                for (int f = 0; f < n; ++f)
                {
                    vn[f] /= h[j + 1];
                }
            }
            for (int t = 0; t < j; ++t) // the earlier Givens rotations
            {
                double u = k->cs[t] * h[t] + k->sn[t] * h[t + 1];
                h[t + 1] = -k->sn[t] * h[t] + k->cs[t] * h[t + 1];
                h[t] = u;
            }
            double den = hypot(h[j], h[j + 1]);
            k->cs[j] = den > 0.0 ? h[j] / den : 1.0;
            k->sn[j] = den > 0.0 ? h[j + 1] / den : 0.0;
            h[j] = den;
            h[j + 1] = 0.0;
            k->g[j + 1] = -k->sn[j] * k->g[j];
            k->g[j] = k->cs[j] * k->g[j];
            res = fabs(k->g[j + 1]);
            j += 1;
            if (den == 0.0)
            {
                break; // breakdown: the Krylov space is exhausted
            }
        }
        for (int t = j - 1; t >= 0; --t) // coefficients R⁻¹g, then y += V coefficients
        {
            double s = k->g[t];
            for (int u = t + 1; u < j; ++u)
            {
                s -= k->hess[(size_t)u * (r + 1) + t] * k->y[u];
            }
            double d = k->hess[(size_t)t * (r + 1) + t];
            k->y[t] = d != 0.0 ? s / d : 0.0;
        }
        for (int t = 0; t < j; ++t)
        {
            const double* vt = k->basis + (size_t)t * n;
            for (int f = 0; f < n; ++f)
            {
                y[f] += k->y[t] * vt[f];
            }
        }
        if (j == 0)
        {
            break;
        }
    }
    k->products += products;
    if (!precondition(k, y, x))
    {
        return false;
    }
    for (int f = 0; f < n; ++f)
    {
        if (!isfinite(x[f]))
        {
            return false;
        }
    }
    return true;
}
