// Residuals and velocities from the factored problem: w = J v + b with v = v* + M⁻¹Jᵀλ, so that
// A = J M⁻¹ Jᵀ is never formed (DESIGN.md, "Residuals").
#include "circlesim/solver.h"

#include "solver/residual_avx2.h"
#include "solver/solver_internal.h"

#include <math.h>
#include <stdint.h>
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

// One row's terms of both sums: r² of the natural residual and, for a normal row, min(λ, w)².
static inline void residual_row(const cs_lcp* p, const double* lambda, int i, double w, double* sum_lcp,
                                double* sum_nat)
{
    double lo, hi;
    cs_row_bounds(p, lambda, i, &lo, &hi);
    double r = lambda[i] - cs_clamp(lambda[i] - w, lo, hi);
    *sum_nat += r * r;
    if (p->kind[i] == CS_ROW_NORMAL)
    {
        double m = lambda[i] < w ? lambda[i] : w;
        *sum_lcp += m * m;
    }
}

// Whether rows i and i + 1 are a contact's normal row and its friction row on the same bodies.
static inline bool normal_friction_pair(const cs_lcp* p, int i)
{
    // (Both kinds in one 16-bit compare, byte i first: memcpy keeps the byte order of the array.)
    uint8_t pair_kinds[2] = {CS_ROW_NORMAL, CS_ROW_FRICTION};
    uint16_t kinds, pair;
    memcpy(&kinds, p->kind + i, sizeof kinds);
    memcpy(&pair, pair_kinds, sizeof pair);
    return kinds == pair && p->link[i + 1] == i && p->body_a[i + 1] == p->body_a[i] &&
           p->body_b[i + 1] == p->body_b[i];
}

// One body's half of cs_row_jv for rows i (lane 0) and i + 1 (lane 1), each lane its products and sums in
// cs_row_jv's order: (j₀v₀ + j₁v₁) + j₂v₂.
static inline cs_v2 pair_jv_half(const double* j0, const double* j1, const double* vb)
{
    cs_v2 x = {j0[0], j1[0]}, y = {j0[1], j1[1]}, z = {j0[2], j1[2]};
    cs_v2 vx = {vb[0], vb[0]}, vy = {vb[1], vb[1]}, vz = {vb[2], vb[2]};
    return (x * vx + y * vy) + z * vz;
}

// w of a normal row i and its friction row i + 1 (normal_friction_pair) without cs_lcp.reg: their bodies'
// velocities read once, both rows' J·v in two lanes, each lane the bits of cs_row_jv + bias.
static inline cs_v2 pair_w(const cs_lcp* p, const double* v, int i)
{
    const double* j = p->jac + 6 * i;
    int a = p->body_a[i], b = p->body_b[i];
    cs_v2 s = {0.0, 0.0};
    if (a >= 0)
    {
        s += pair_jv_half(j, j + 6, v + 3 * a);
    }
    if (b >= 0)
    {
        s += pair_jv_half(j + 3, j + 9, v + 3 * b);
    }
    return s + cs_v2_set(p->bias[i], p->bias[i + 1]);
}

// Both residuals in one pass (w_i computed once per row); the same values as the two functions above.
// `regularised` is a constant in each of cs_residuals' two calls, so the common problem without cs_lcp.reg
// tests it once, not once a row (cs_row_w's test). Without it a contact's normal and friction rows go
// together (pair_w), four such pairs at a time in AVX2 lanes where the CPU has them (residual_avx2.c); the
// sums still take the rows in order, so every path gives the same bits.
static inline __attribute__((always_inline)) void residual_sums(const cs_lcp* p, const double* v,
                                                                const double* lambda, bool regularised,
                                                                double* res_lcp, double* res_nat)
{
    double sum_lcp = 0.0, sum_nat = 0.0;
    const int rows = p->row_count;
    const bool lanes = !regularised && p->body_count > 0 && cs_avx2_residual_cpu(); // (v may be NULL without)
    int i = 0;
    while (i < rows)
    {
        if (lanes)
        {
            i = cs_avx2_residual_pairs(p, v, lambda, i, &sum_lcp, &sum_nat); // four pairs at a time
            if (i >= rows)
            {
                break;
            }
        }
        if (!regularised && i + 1 < rows && normal_friction_pair(p, i))
        {
            // residual_row's terms with the kinds known: the normal row's bounds [0, ∞), the friction
            // row's ±μλ_i (its link is row i).
            cs_v2 w = pair_w(p, v, i);
            double ln = lambda[i], lf = lambda[i + 1];
            double rn = ln - cs_clamp(ln - w[0], 0.0, INFINITY);
            sum_nat += rn * rn;
            double m = ln < w[0] ? ln : w[0];
            sum_lcp += m * m;
            double limit = ln > 0.0 ? p->mu[i + 1] * ln : 0.0;
            double rf = lf - cs_clamp(lf - w[1], -limit, limit);
            sum_nat += rf * rf;
            i += 2;
            continue;
        }
        double w = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], v) + p->bias[i];
        if (regularised)
        {
            w = w + p->reg[i] * lambda[i];
        }
        residual_row(p, lambda, i, w, &sum_lcp, &sum_nat);
        i += 1;
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
