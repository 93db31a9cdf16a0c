// Problems no method can solve, found before the first sweep so that a solve reports them instead of
// sweeping garbage to its iteration cap: non-finite data (NaN anywhere, or numbers so large that A_ii
// overflows), a box with lo > hi or a NaN bound, a negative friction coefficient or a dangling link, a
// negative, non-finite or denormal (1/A_ii = inf) diagonal, and a zero diagonal on a row that has Jacobian
// entries (its bodies cannot move, so w_i is fixed and the row is a modelling error, issue 13's "A_ii = 0"
// case) or that has none and whose fixed w_i = b_i no impulse can satisfy. O(bodies + rows), after the
// packing pass has computed A_ii (solve.c).
#include "solver/solver_internal.h"

#include <math.h>
#include <stdint.h>

static bool finite3(const double* x)
{
    return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
}

static bool bad(cs_solver_stats* out, const char* reason, int row, int body)
{
    out->stop = CS_STOP_BAD_PROBLEM;
    out->stop_reason = reason;
    out->stop_row = row;
    out->stop_body = body;
    return false;
}

static bool check_bodies(const cs_lcp* p, cs_solver_stats* out)
{
    for (int b = 0; b < p->body_count; ++b)
    {
        if (!(p->inv_mass[b] >= 0.0) || !(p->inv_inertia[b] >= 0.0) || !isfinite(p->inv_mass[b]) ||
            !isfinite(p->inv_inertia[b]))
        {
            return bad(out, "inverse mass or inertia negative or not finite", -1, b);
        }
        if (!finite3(p->v + 3 * b))
        {
            return bad(out, "non-finite velocity v*", -1, b);
        }
    }
    return true;
}

// A row with A_ii = 0 and no columns has w_i = b_i whatever λ is: some λ in [lo, hi] satisfies the
// BLCP conditions unless b_i pushes against an infinite bound.
static bool fixed_row_satisfiable(double b, double lo, double hi)
{
    return b == 0.0 || (b > 0.0 && isfinite(lo)) || (b < 0.0 && isfinite(hi));
}

static bool check_row(const cs_lcp* p, const double* diag, const double* lambda, int i, cs_solver_stats* out)
{
    const double* j = p->jac + 6 * i;
    if (!finite3(j) || !finite3(j + 3) || !isfinite(p->bias[i]))
    {
        return bad(out, "non-finite Jacobian or bias", i, -1);
    }
    if (!isfinite(lambda[i]))
    {
        return bad(out, "non-finite start point lambda0", i, -1);
    }
    double lo = 0.0, hi = INFINITY;
    if (p->kind[i] == CS_ROW_BOX)
    {
        lo = p->lo[i];
        hi = p->hi[i];
        if (!(lo <= hi) || lo == INFINITY || hi == -INFINITY)
        {
            return bad(out, "empty box (lo > hi, a NaN bound, or lo = +inf / hi = -inf)", i, -1);
        }
    }
    else if (p->kind[i] == CS_ROW_FRICTION)
    {
        int link = p->link[i];
        if (link < 0 || link >= p->row_count || p->kind[link] != CS_ROW_NORMAL || !(p->mu[i] >= 0.0) ||
            !isfinite(p->mu[i]))
        {
            return bad(out, "friction row whose link is not a normal row, or with mu < 0 or not finite", i,
                       -1);
        }
        lo = hi = 0.0; // bounded both ways whatever its normal row's impulse
    }
    else if (p->kind[i] != CS_ROW_NORMAL)
    {
        return bad(out, "unknown row kind", i, -1);
    }
    double d = diag[i];
    if (!isfinite(d))
    {
        return bad(out, "A_ii is not finite (the row's numbers overflow)", i, -1);
    }
    if (d < 0.0)
    {
        return bad(out, "negative diagonal A_ii", i, -1);
    }
    if (d > 0.0 && !isfinite(1.0 / d))
    {
        return bad(out, "A_ii so small that 1/A_ii overflows (denormal masses or Jacobian)", i, -1);
    }
    if (d == 0.0)
    {
        bool columns = false;
        for (int k = 0; k < 6; ++k)
        {
            int body = k < 3 ? p->body_a[i] : p->body_b[i];
            columns = columns || (body >= 0 && j[k] != 0.0);
        }
        if (columns)
        {
            return bad(out, "zero diagonal A_ii: the row has Jacobian entries but its bodies cannot move", i,
                       -1);
        }
        if (!fixed_row_satisfiable(p->bias[i], lo, hi))
        {
            return bad(out, "row without columns whose fixed w_i = b_i no impulse in [lo, hi] satisfies", i,
                       -1);
        }
    }
    return true;
}

uint64_t cs_nonfinite_any(const double* x, int n)
{
    cs_u2 acc = {0, 0};
    int i = 0;
    for (; i + 8 <= n; i += 8)
    {
        acc |= (cs_nonfinite_bits(cs_v2_load(x + i)) | cs_nonfinite_bits(cs_v2_load(x + i + 2))) |
               (cs_nonfinite_bits(cs_v2_load(x + i + 4)) | cs_nonfinite_bits(cs_v2_load(x + i + 6)));
    }
    for (; i + 2 <= n; i += 2)
    {
        acc |= cs_nonfinite_bits(cs_v2_load(x + i));
    }
    if (i < n)
    {
        acc |= cs_nonfinite_bits(cs_v2_set(x[i], 0.0));
    }
    return acc[0] | acc[1];
}

// The bodies' part of the common case in a few branch-free passes: every number finite, every inverse mass
// comfortably non-negative. With the rows' part (proven by the packing pass on the numbers it reads anyway,
// pack.h's cs_pack_proof) true means check_bodies and every check_row pass; false only that the exact checks
// must look (they find the first bad entry and say why). A world step's problem is always good, so this is
// all it pays.
static bool bodies_surely_good(const cs_lcp* p)
{
    const int n = p->body_count;
    bool ok = (cs_nonfinite_any(p->inv_mass, n) | cs_nonfinite_any(p->inv_inertia, n) |
               cs_nonfinite_any(p->v, 3 * n)) == 0;
    // (Two bodies at a time, the sign tests side by side; a NaN, which compares false, was found above.)
    const cs_v2 zero = {0.0, 0.0};
    cs_u2 negative = {0, 0};
    int b = 0;
    for (; b + 2 <= n; b += 2)
    {
        negative |=
            (cs_u2)(cs_v2_load(p->inv_mass + b) < zero) | (cs_u2)(cs_v2_load(p->inv_inertia + b) < zero);
    }
    for (; b < n; ++b)
    {
        ok &= (p->inv_mass[b] >= 0.0) & (p->inv_inertia[b] >= 0.0);
    }
    return ok && (negative[0] | negative[1]) == 0;
}

// The exact checks: the first bad body or row, with the reason.
static bool exact_check(const cs_lcp* p, const double* diag, const double* lambda, cs_solver_stats* out)
{
    if (!check_bodies(p, out))
    {
        return false;
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        if (!check_row(p, diag, lambda, i, out))
        {
            return false;
        }
    }
    return true;
}

bool cs_problem_check(const cs_lcp* p, bool rows_good, const double* diag, const double* lambda,
                      cs_solver_stats* out)
{
    return (rows_good && bodies_surely_good(p)) || exact_check(p, diag, lambda, out);
}
