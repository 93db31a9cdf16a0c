// Purification of an approximate answer into a vertex of the solution set, for Lemke's warm start
// (lemke_crash.c): the crossover of an interior-type answer to a basic one (Megiddo 1991's idea for linear
// programs), here on the contact BLCP.
//
// A = J M⁻¹ Jᵀ is singular once rows outnumber 3 × bodies: the solutions with the same velocities form a
// face, and an iterative method (PGS) converges to a point inside it, where more rows are off their bounds
// than A has rank. Their columns are dependent, so the complementary basis their sets name is singular
// and the warm start must drop columns (select_start in lemke.c), which moves its basic solution off the
// answer; thousands of pivots follow (a frozen frictional pool: 422 of ~1 100 columns dropped, the pivot
// cap). Here λ moves instead, along directions d that leave every velocity unchanged (M⁻¹Jᵀd = 0, so w
// stays, and with it every complementarity and sign condition), until a row reaches a bound (λ_n = 0,
// λ_t = ±μλ_n, a box bound) and joins its bound's set. Each such step removes one dependent direction, so
// after as many steps as the null space of the free columns has dimensions, the free columns are
// independent: a nonsingular basis whose basic solution is the (unchanged) answer.
//
// The free units: a normal row off 0 (with its friction rows at ±μλ_n, which follow it: the column
// J_nᵀ ± μJ_tᵀ, Erleben's contact model's λ_t = ±μλ_n on the sliding side), a friction row inside its box
// with its normal off 0, a box row strictly inside its box. Their columns (M^{-1/2}Jᵀ, body space) are
// factorised by Householder QR with column pivoting; the null basis N comes from R (d = [−R11⁻¹R12; I]).
// A bound reached adds a linear equation aᵀu = 0 on the unit coordinates u; N is reduced by one
// Gaussian elimination step on the vector with the largest |aᵀN_k| (O(f·nullity) each).
#include "solver/lemke_purify.h"
#include "solver/solver_internal.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define RANK_TOL 1e-9 // |R_kk| below this fraction of |R_00|: column k depends on those before it

enum
{
    SET_LOW = -1,
    SET_FREE = 0,
    SET_UP = 1,
};

typedef struct purify
{
    const cs_lcp* p;
    double* lambda;
    double* sets;
    int m, f, rows; // rows of the problem, free units, rows of the body-space matrix (3 × bodies)
    int* unit_of;   // [m] the unit a row moves with, or -1
    double* coef;   // [m] d_i = coef_i · u_unit(i)
    int* unit_row;  // [f] the unit's own row
    double* k;      // [rows × f] column-major: the units' columns
    double* nb;     // [f × f] column-major: the null basis, nb[:, 0..nullity)
    int nullity;
} purify;

static bool is_free_unit(const cs_lcp* p, const double* sets, int i)
{
    if (sets[i] != SET_FREE)
    {
        return false;
    }
    if (p->kind[i] == CS_ROW_FRICTION)
    {
        return sets[p->link[i]] == SET_FREE;
    }
    return p->kind[i] == CS_ROW_NORMAL || p->lo[i] < p->hi[i];
}

// Units and their columns: W^{1/2}·(Σ coef_i J_iᵀ) over the unit's rows, W = M⁻¹.
static void build_units(purify* s)
{
    const cs_lcp* p = s->p;
    s->f = 0;
    for (int i = 0; i < s->m; ++i)
    {
        s->unit_of[i] = -1;
        s->coef[i] = 0.0;
        if (is_free_unit(p, s->sets, i))
        {
            s->unit_of[i] = s->f;
            s->coef[i] = 1.0;
            s->unit_row[s->f++] = i;
        }
    }
    for (int i = 0; i < s->m; ++i)
    {
        if (p->kind[i] == CS_ROW_FRICTION && s->sets[i] != SET_FREE && s->unit_of[p->link[i]] >= 0)
        {
            s->unit_of[i] = s->unit_of[p->link[i]];
            s->coef[i] = s->sets[i] * p->mu[i];
        }
    }
    memset(s->k, 0, (size_t)s->rows * s->f * sizeof(double));
    for (int i = 0; i < s->m; ++i)
    {
        if (s->unit_of[i] < 0)
        {
            continue;
        }
        double* col = s->k + (size_t)s->unit_of[i] * s->rows;
        const double* jac = p->jac + 6 * i;
        int bodies[2] = {p->body_a[i], p->body_b[i]};
        for (int h = 0; h < 2; ++h)
        {
            int b = bodies[h];
            if (b < 0)
            {
                continue;
            }
            double sm = sqrt(p->inv_mass[b]), si = sqrt(p->inv_inertia[b]);
            col[3 * b] += s->coef[i] * sm * jac[3 * h];
            col[3 * b + 1] += s->coef[i] * sm * jac[3 * h + 1];
            col[3 * b + 2] += s->coef[i] * si * jac[3 * h + 2];
        }
    }
}

static void null_vectors(purify* s, int rank, const int* perm, double* x);

// Householder QR with column pivoting of k (rows × f), in place (R in the upper triangle, columns permuted
// by perm); the null basis of the original columns into nb. perm, norms: f entries of scratch.
static void null_basis(purify* s, int* perm, double* norms)
{
    int r = s->rows, f = s->f;
    double* k = s->k;
    for (int j = 0; j < f; ++j)
    {
        perm[j] = j;
        double t = 0.0;
        for (int i = 0; i < r; ++i)
        {
            t += k[(size_t)j * r + i] * k[(size_t)j * r + i];
        }
        norms[j] = t;
    }
    int rank = 0;
    double r00 = 0.0;
    for (int c = 0; c < f && c < r; ++c)
    {
        int best = c;
        for (int j = c + 1; j < f; ++j)
        {
            best = norms[j] > norms[best] ? j : best;
        }
        if (best != c)
        {
            double* a = k + (size_t)c * r;
            double* b = k + (size_t)best * r;
            for (int i = 0; i < r; ++i)
            {
                double t = a[i];
                a[i] = b[i];
                b[i] = t;
            }
            double t = norms[c];
            norms[c] = norms[best];
            norms[best] = t;
            int q = perm[c];
            perm[c] = perm[best];
            perm[best] = q;
        }
        double* a = k + (size_t)c * r;
        double alpha = 0.0;
        for (int i = c; i < r; ++i)
        {
            alpha += a[i] * a[i];
        }
        alpha = sqrt(alpha);
        if (c == 0)
        {
            r00 = alpha;
        }
        if (!(alpha > RANK_TOL * r00))
        {
            break;
        }
        rank = c + 1;
        // Reflector v = a[c..] − (−sign·alpha) e: a[c] becomes −sign·alpha.
        double beta = a[c] >= 0.0 ? -alpha : alpha;
        double v0 = a[c] - beta;
        a[c] = beta;
        double vnorm2 = v0 * v0;
        for (int i = c + 1; i < r; ++i)
        {
            vnorm2 += a[i] * a[i];
        }
        for (int j = c + 1; j < f; ++j)
        {
            double* b = k + (size_t)j * r;
            double dot = v0 * b[c];
            for (int i = c + 1; i < r; ++i)
            {
                dot += a[i] * b[i];
            }
            double t = vnorm2 > 0.0 ? 2.0 * dot / vnorm2 : 0.0;
            b[c] -= t * v0;
            for (int i = c + 1; i < r; ++i)
            {
                b[i] -= t * a[i];
            }
            norms[j] -= b[c] * b[c];
        }
    }
    null_vectors(s, rank, perm, norms);
}

// The null vectors from the factorised k (R, column order perm): for each column j ≥ rank,
// x = R11⁻¹ R[:rank, j] and d = e_j − Σ x_i e_i (pivoted order). x: rank entries of scratch.
static void null_vectors(purify* s, int rank, const int* perm, double* x)
{
    int r = s->rows, f = s->f;
    const double* k = s->k;
    s->nullity = f - rank;
    for (int q = 0; q < s->nullity; ++q)
    {
        int j = rank + q;
        double* d = s->nb + (size_t)q * f;
        memset(d, 0, (size_t)f * sizeof(double));
        for (int i = rank - 1; i >= 0; --i)
        {
            double t = k[(size_t)j * r + i];
            for (int c = i + 1; c < rank; ++c)
            {
                t -= k[(size_t)c * r + i] * x[c];
            }
            x[i] = t / k[(size_t)i * r + i];
        }
        d[perm[j]] = 1.0;
        for (int i = 0; i < rank; ++i)
        {
            d[perm[i]] = -x[i];
        }
    }
}

// The largest step t ≥ 0 along d (unit coordinates) before some bound is reached, and which: *hit the row,
// *side the bound (−1 lower / 0 (normal) / +1 upper). INFINITY when no bound limits it.
static double ratio(const purify* s, const double* d, int* hit, int* side)
{
    const cs_lcp* p = s->p;
    double best = INFINITY;
    *hit = -1;
    for (int u = 0; u < s->f; ++u)
    {
        int i = s->unit_row[u];
        if (s->sets[i] != SET_FREE)
        {
            continue; // no longer a unit of its own (at a bound, or moving with its normal)
        }
        double lam = s->lambda[i], du = d[u];
        if (p->kind[i] == CS_ROW_FRICTION)
        {
            int n = p->link[i];
            double ln = s->lambda[n], dn = d[s->unit_of[n]];
            for (int sg = -1; sg <= 1; sg += 2) // slack μλ_n − sg·λ_t ≥ 0
            {
                double g = p->mu[i] * ln - sg * lam, rate = p->mu[i] * dn - sg * du;
                if (rate < 0.0 && fmax(g, 0.0) / -rate < best)
                {
                    best = fmax(g, 0.0) / -rate;
                    *hit = i;
                    *side = sg;
                }
            }
            continue;
        }
        double lo = p->kind[i] == CS_ROW_NORMAL ? 0.0 : p->lo[i];
        double hi = p->kind[i] == CS_ROW_NORMAL ? INFINITY : p->hi[i];
        if (du < 0.0 && isfinite(lo) && fmax(lam - lo, 0.0) / -du < best)
        {
            best = fmax(lam - lo, 0.0) / -du;
            *hit = i;
            *side = SET_LOW;
        }
        if (du > 0.0 && isfinite(hi) && fmax(hi - lam, 0.0) / du < best)
        {
            best = fmax(hi - lam, 0.0) / du;
            *hit = i;
            *side = SET_UP;
        }
    }
    return best;
}

// Adds the equation aᵀu = 0 to the null basis: one elimination step on the vector with the largest |aᵀN_k|,
// which leaves the basis. a is given sparsely: coefficient ca on unit ua, cb on unit ub (ub < 0: none).
static void restrict_basis(purify* s, int ua, double ca, int ub, double cb)
{
    int f = s->f;
    int piv = -1;
    double pmax = 0.0, scale = 0.0;
    double* dots = s->k; // scratch: k is no longer needed once the null basis is built
    for (int q = 0; q < s->nullity; ++q)
    {
        const double* d = s->nb + (size_t)q * f;
        double dot = ca * d[ua] + (ub >= 0 ? cb * d[ub] : 0.0);
        dots[q] = dot;
        scale = fmax(scale, fabs(d[ua]));
        if (fabs(dot) > pmax)
        {
            pmax = fabs(dot);
            piv = q;
        }
    }
    if (piv < 0 || !(pmax > 1e-12 * fmax(scale, 1.0)))
    {
        return; // the equation already holds on the whole basis
    }
    const double* dp = s->nb + (size_t)piv * f;
    for (int q = 0; q < s->nullity; ++q)
    {
        if (q == piv || dots[q] == 0.0)
        {
            continue;
        }
        double* d = s->nb + (size_t)q * f;
        double t = dots[q] / dots[piv];
        for (int u = 0; u < f; ++u)
        {
            d[u] -= t * dp[u];
        }
    }
    // Drop the pivot vector: the last one takes its place.
    s->nullity -= 1;
    if (piv != s->nullity)
    {
        memcpy(s->nb + (size_t)piv * f, s->nb + (size_t)s->nullity * f, (size_t)f * sizeof(double));
    }
}

// One purification step along the first null vector: λ moves to the nearest bound, which joins its set.
static bool step(purify* s, const double* v)
{
    const cs_lcp* p = s->p;
    double* d = s->nb; // the first null vector
    int hit_plus, side_plus, hit_minus, side_minus;
    double tp = ratio(s, d, &hit_plus, &side_plus);
    for (int u = 0; u < s->f; ++u)
    {
        d[u] = -d[u];
    }
    double tm = ratio(s, d, &hit_minus, &side_minus);
    int hit = hit_minus, side = side_minus;
    double t = tm;
    if (tp < tm)
    {
        for (int u = 0; u < s->f; ++u)
        {
            d[u] = -d[u];
        }
        hit = hit_plus, side = side_plus, t = tp;
    }
    if (hit < 0)
    {
        return false; // no bound limits this direction (free box rows only)
    }
    for (int i = 0; i < s->m; ++i)
    {
        if (s->unit_of[i] >= 0)
        {
            s->lambda[i] += t * s->coef[i] * d[s->unit_of[i]];
        }
    }
    int u = s->unit_of[hit];
    if (p->kind[hit] == CS_ROW_FRICTION)
    {
        // λ_t = side·μλ_n from now on: u_t − side·μ u_n = 0; λ_t moves with its normal (coef side·μ).
        int un = s->unit_of[p->link[hit]];
        restrict_basis(s, u, 1.0, un, -side * p->mu[hit]);
        s->lambda[hit] = side * p->mu[hit] * s->lambda[p->link[hit]];
        s->sets[hit] = side;
        s->unit_of[hit] = un;
        s->coef[hit] = side * p->mu[hit];
        return true;
    }
    restrict_basis(s, u, 1.0, -1, 0.0);
    s->lambda[hit] = side == SET_UP ? p->hi[hit] : p->kind[hit] == CS_ROW_NORMAL ? 0.0 : p->lo[hit];
    s->sets[hit] = side == SET_UP ? SET_UP : SET_LOW;
    s->unit_of[hit] = -1;
    if (p->kind[hit] != CS_ROW_NORMAL)
    {
        return true;
    }
    // A normal row at 0: its friction rows' box is the point 0; each takes the side its w_t slips to.
    for (int i = 0; i < s->m; ++i)
    {
        if (p->kind[i] == CS_ROW_FRICTION && p->link[i] == hit)
        {
            if (s->sets[i] == SET_FREE && s->unit_of[i] >= 0)
            {
                restrict_basis(s, s->unit_of[i], 1.0, -1, 0.0);
            }
            s->lambda[i] = 0.0;
            s->unit_of[i] = -1;
            double w = cs_lcp_row_velocity(p, v, i);
            s->sets[i] = w > 0.0 ? SET_LOW : SET_UP;
        }
    }
    return true;
}

int cs_lemke_purify(const cs_lcp* p, const double* v, double* lambda, double* sets, cs_solver_work* w)
{
    purify s = {0};
    s.p = p;
    s.lambda = lambda;
    s.sets = sets;
    s.m = p->row_count;
    s.rows = 3 * p->body_count;
    for (int i = 0; i < s.m; ++i)
    {
        s.f += is_free_unit(p, sets, i) ? 1 : 0;
    }
    // One block of doubles: k, nb, coef and norms, then the int arrays unit_of, unit_row and perm (two ints
    // to a double, rounded up).
    size_t m = (size_t)s.m, kk = (size_t)s.rows * (size_t)s.f, nn = (size_t)s.f * (size_t)s.f;
    if (kk < (size_t)s.f)
    {
        kk = (size_t)s.f;
    }
    size_t total = kk + nn + 2 * m + (3 * m + 1) / 2 + 1;
    cs_error err = {0};
    if (total > (size_t)INT_MAX ||
        cs_grow_doubles(&w->purify, &w->purify_capacity, (int)total, &err) != CS_OK)
    {
        return -1;
    }
    double* d = w->purify;
    s.k = d, d += kk;
    s.nb = d, d += nn;
    s.coef = d, d += m;
    double* norms = d;
    d += m;
    int* q = (int*)d;
    s.unit_of = q, q += m;
    s.unit_row = q, q += m;
    int* perm = q;
    build_units(&s);
    null_basis(&s, perm, norms);
    int steps = 0;
    while (s.nullity > 0 && step(&s, v))
    {
        steps += 1;
    }
    return steps;
}
