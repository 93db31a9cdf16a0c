// Residuals and velocities from the factored problem: w = J v + b with v = v* + M⁻¹Jᵀλ, so that
// A = J M⁻¹ Jᵀ is never formed (DESIGN.md, "Residuals").
#include "circlesim/solver.h"

#include "solver/solver_internal.h"

#include <math.h>
#include <string.h>

double cs_lcp_row_velocity(const cs_lcp* p, const double* v, int i)
{
    return cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], v) + p->bias[i];
}

void cs_lcp_velocity(const cs_lcp* p, const double* lambda, double* v)
{
    if (p->body_count > 0) // (p->v may be NULL for a problem without bodies)
    {
        memcpy(v, p->v, 3 * (size_t)p->body_count * sizeof(double));
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        // Same products in the same order as the M⁻¹Jᵀ columns of solve.c, so both give the
        // same bits for the same λ.
        const double* j = p->jac + 6 * i;
        int a = p->body_a[i];
        int b = p->body_b[i];
        double l = lambda[i];
        if (a >= 0)
        {
            v[3 * a + 0] += (p->inv_mass[a] * j[0]) * l;
            v[3 * a + 1] += (p->inv_mass[a] * j[1]) * l;
            v[3 * a + 2] += (p->inv_inertia[a] * j[2]) * l;
        }
        if (b >= 0)
        {
            v[3 * b + 0] += (p->inv_mass[b] * j[3]) * l;
            v[3 * b + 1] += (p->inv_mass[b] * j[4]) * l;
            v[3 * b + 2] += (p->inv_inertia[b] * j[5]) * l;
        }
    }
}

// Paper eq. (24): RES(λ) = ‖min(λ, Aλ + q)‖₂, over the normal rows (the LCP part).
double cs_residual_lcp(const cs_lcp* p, const double* v, const double* lambda)
{
    double sum = 0.0;
    for (int i = 0; i < p->row_count; ++i)
    {
        if (p->kind[i] != CS_ROW_NORMAL)
        {
            continue;
        }
        double w = cs_row_w(p, v, lambda[i], i);
        double m = lambda[i] < w ? lambda[i] : w;
        sum += m * m;
    }
    return sqrt(sum);
}

// Natural residual of the BLCP, ‖λ − clamp(λ − w, l, u)‖₂, zero exactly at a solution; friction
// bounds are taken from the current λ[link] (the same rule as the sweeps).
double cs_residual_nat(const cs_lcp* p, const double* v, const double* lambda)
{
    double sum = 0.0;
    for (int i = 0; i < p->row_count; ++i)
    {
        double w = cs_row_w(p, v, lambda[i], i);
        double lo, hi;
        cs_row_bounds(p, lambda, i, &lo, &hi);
        double r = lambda[i] - cs_clamp(lambda[i] - w, lo, hi);
        sum += r * r;
    }
    return sqrt(sum);
}

// Both residuals in one pass (w_i computed once per row); the same values as the two functions above.
// `regularised` is a constant in each of cs_residuals' two calls, so the common problem without cs_lcp.reg
// tests it once, not once a row (cs_row_w's test).
static inline __attribute__((always_inline)) void residual_sums(const cs_lcp* p, const double* v,
                                                                const double* lambda, bool regularised,
                                                                double* res_lcp, double* res_nat)
{
    double sum_lcp = 0.0, sum_nat = 0.0;
    const int rows = p->row_count;
    for (int i = 0; i < rows; ++i)
    {
        double w = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], v) + p->bias[i];
        if (regularised)
        {
            w = w + p->reg[i] * lambda[i];
        }
        double lo, hi;
        cs_row_bounds(p, lambda, i, &lo, &hi);
        double r = lambda[i] - cs_clamp(lambda[i] - w, lo, hi);
        sum_nat += r * r;
        if (p->kind[i] == CS_ROW_NORMAL)
        {
            double m = lambda[i] < w ? lambda[i] : w;
            sum_lcp += m * m;
        }
    }
    *res_lcp = sqrt(sum_lcp);
    *res_nat = sqrt(sum_nat);
}

void cs_residuals(const cs_lcp* p, const double* v, const double* lambda, double* res_lcp, double* res_nat)
{
    if (p->reg != NULL)
    {
        residual_sums(p, v, lambda, true, res_lcp, res_nat);
    }
    else
    {
        residual_sums(p, v, lambda, false, res_lcp, res_nat);
    }
}
