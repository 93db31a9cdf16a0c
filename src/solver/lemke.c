// Lemke's method with a covering vector, explicit basis inverse and the lexicographic ratio test
// (lemke.h). In the tableau  [I  −M  −d] (ζ, z, z0) = r  the basis starts as I (ζ = r). z0 enters first
// and leaves the row of the most negative r_i; from then on the complement of the variable that just
// left enters, until z0 leaves (a solution) or an entering column has no positive entry (a ray).
//
// B⁻¹ is kept explicitly and updated by the pivot's elementary row operation. A column j of B⁻¹ stays the
// unit vector e_j until row j is a pivot row (the update only changes columns with a nonzero in the pivot
// row), so only the touched columns are stored and updated: a pivot costs O(n·k) for k touched columns,
// not O(n²). Ties in the ratio test are broken lexicographically on the rows of B⁻¹ (Murty, §2.3), which
// rules out cycling in exact arithmetic; in floating point the pivot cap catches what remains.
#include "solver/lemke.h"

#include <math.h>
#include <string.h>

enum
{
    Z0_OFFSET = 2, // variable numbering: ζ_k = k, z_k = n + k, z0 = 2n
};

static double binv_at(const cs_lemke* L, int i, int j)
{
    return L->touched[j] ? L->binv[(size_t)j * L->n + i] : (i == j ? 1.0 : 0.0);
}

// d = B⁻¹ c for a dense c (in L->col).
static void apply_binv(cs_lemke* L, const double* c, double* d)
{
    int n = L->n;
    for (int i = 0; i < n; ++i)
    {
        d[i] = L->touched[i] ? 0.0 : c[i];
    }
    for (int t = 0; t < L->touched_count; ++t)
    {
        int j = L->tlist[t];
        double cj = c[j];
        if (cj != 0.0)
        {
            const double* bj = L->binv + (size_t)j * n;
            for (int i = 0; i < n; ++i)
            {
                d[i] += cj * bj[i];
            }
        }
    }
}

// The column of variable var in [I −M −d], into L->col.
static void tableau_column(cs_lemke* L, int var)
{
    int n = L->n;
    if (var < n)
    {
        memset(L->col, 0, (size_t)n * sizeof(double));
        L->col[var] = 1.0;
    }
    else if (var < 2 * n)
    {
        L->column(L->data, var - n, L->col);
        for (int i = 0; i < n; ++i)
        {
            L->col[i] = -L->col[i];
        }
    }
    else
    {
        for (int i = 0; i < n; ++i)
        {
            L->col[i] = -1.0;
        }
    }
}

// Pivots row r on the entering column d (= B⁻¹ c_entering): B⁻¹ ← E B⁻¹, x_B ← E x_B.
static void pivot(cs_lemke* L, int r, const double* d, int entering)
{
    int n = L->n;
    if (!L->touched[r])
    {
        L->tlist[L->touched_count++] = r;
        L->touched[r] = 1;
        double* br = L->binv + (size_t)r * n;
        memset(br, 0, (size_t)n * sizeof(double));
        br[r] = 1.0;
    }
    double inv = 1.0 / d[r];
    for (int t = 0; t < L->touched_count; ++t)
    {
        double* bj = L->binv + (size_t)L->tlist[t] * n;
        double a = bj[r];
        if (a == 0.0)
        {
            continue;
        }
        double s = a * inv;
        for (int i = 0; i < n; ++i)
        {
            bj[i] -= d[i] * s;
        }
        bj[r] = s;
    }
    double s = L->xb[r] * inv;
    for (int i = 0; i < n; ++i)
    {
        L->xb[i] -= d[i] * s;
    }
    L->xb[r] = s;
    L->where[L->basis[r]] = -1;
    L->basis[r] = entering;
    L->where[entering] = r;
}

// Lexicographic comparison of rows i and j of [x_B | B⁻¹] divided by d_i, d_j: < 0 when i is smaller.
static int lex_compare(const cs_lemke* L, const double* d, int i, int j)
{
    for (int c = 0; c < L->n; ++c)
    {
        double a = binv_at(L, i, c) / d[i];
        double b = binv_at(L, j, c) / d[j];
        double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
        if (fabs(a - b) > 1e-12 * scale)
        {
            return a < b ? -1 : 1;
        }
    }
    return 0;
}

// The blocking row of the entering column d, or -1 for a ray. Harris's two-pass test: the first pass finds
// the largest step that keeps every basic variable above −δ; the second picks, among the rows that block
// within that step, z0 if it is one (termination), else the largest pivot d_i, so that the degenerate
// ties of contact problems (many x_B = 0) never pivot on a tiny entry. Rows whose ratios tie exactly are
// then ordered lexicographically (lex_compare), the anti-cycling rule.
static int ratio_test(const cs_lemke* L, const double* d)
{
    int n = L->n;
    double dmax = 0.0, xmax = 0.0;
    for (int i = 0; i < n; ++i)
    {
        dmax = fmax(dmax, fabs(d[i]));
        xmax = fmax(xmax, fabs(L->xb[i]));
    }
    double tol = 1e-11 * (dmax > 1.0 ? dmax : 1.0);
    double delta = 1e-11 * (1.0 + xmax);
    double bound = INFINITY;
    for (int i = 0; i < n; ++i)
    {
        if (d[i] > tol)
        {
            bound = fmin(bound, (fmax(L->xb[i], 0.0) + delta) / d[i]);
        }
    }
    if (bound == INFINITY)
    {
        return -1;
    }
    int row = -1;
    for (int i = 0; i < n; ++i)
    {
        if (!(d[i] > tol) || fmax(L->xb[i], 0.0) / d[i] > bound)
        {
            continue;
        }
        if (L->basis[i] == Z0_OFFSET * n)
        {
            return i;
        }
        if (row < 0 || d[i] > d[row] * (1.0 + 1e-9) ||
            (d[i] >= d[row] * (1.0 - 1e-9) && lex_compare(L, d, i, row) < 0))
        {
            row = i;
        }
    }
    return row;
}

// Σ (r − B x_B)² for the current column callback.
static double basis_residual(cs_lemke* L, double* res)
{
    int n = L->n;
    memcpy(res, L->r, (size_t)n * sizeof(double));
    for (int i = 0; i < n; ++i)
    {
        int var = L->basis[i];
        double x = L->xb[i];
        if (x == 0.0)
        {
            continue;
        }
        if (var < n)
        {
            res[var] -= x;
            continue;
        }
        tableau_column(L, var);
        for (int k = 0; k < n; ++k)
        {
            res[k] -= L->col[k] * x;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
    {
        sum += res[i] * res[i];
    }
    return sum;
}

void cs_lemke_refine(cs_lemke* L, int rounds)
{
    int n = L->n;
    double* res = L->z; // scratch until cs_lemke_solution
    double* keep = L->d;
    double last = basis_residual(L, res);
    for (int round = 0; round < rounds && last > 0.0; ++round)
    {
        apply_binv(L, res, keep);
        for (int i = 0; i < n; ++i)
        {
            L->xb[i] += keep[i];
        }
        double now = basis_residual(L, res);
        if (!(now < 0.25 * last))
        {
            if (now > last) // no progress (B singular along the step): undo it
            {
                for (int i = 0; i < n; ++i)
                {
                    L->xb[i] -= keep[i];
                }
            }
            break;
        }
        last = now;
    }
    cs_lemke_solution(L);
}

void cs_lemke_solution(cs_lemke* L)
{
    int n = L->n;
    memset(L->z, 0, (size_t)n * sizeof(double));
    for (int i = 0; i < n; ++i)
    {
        int var = L->basis[i];
        if (var >= n && var < 2 * n)
        {
            L->z[var - n] = fmax(L->xb[i], 0.0);
        }
    }
}

cs_lemke_outcome cs_lemke_run(cs_lemke* L)
{
    int n = L->n;
    L->pivots = 0;
    L->entering = -1;
    for (int i = 0; i < n; ++i)
    {
        L->basis[i] = i;
        L->touched[i] = 0;
        L->xb[i] = L->r[i];
        L->z[i] = 0.0;
    }
    for (int v = 0; v <= Z0_OFFSET * n; ++v)
    {
        L->where[v] = v < n ? v : -1;
    }
    L->touched_count = 0;
    int r = -1;
    for (int i = 0; i < n; ++i)
    {
        if (L->r[i] < 0.0 && (r < 0 || L->r[i] <= L->r[r]))
        {
            r = i;
        }
    }
    if (r < 0)
    {
        return CS_LEMKE_SOLVED; // r >= 0: z = 0
    }
    // z0 enters at the most negative r_i (its column is −d = −1, so B⁻¹c = −1 while B = I).
    tableau_column(L, Z0_OFFSET * n);
    memcpy(L->d, L->col, (size_t)n * sizeof(double));
    pivot(L, r, L->d, Z0_OFFSET * n);
    L->pivots = 1;
    int entering = n + r; // the complement of ζ_r, which just left
    for (;;)
    {
        if (L->pivots >= L->max_pivots)
        {
            return CS_LEMKE_PIVOT_CAP;
        }
        tableau_column(L, entering);
        apply_binv(L, L->col, L->d);
        int row = ratio_test(L, L->d);
        if (row < 0)
        {
            L->entering = entering;
            return CS_LEMKE_RAY;
        }
        int leaving = L->basis[row];
        pivot(L, row, L->d, entering);
        L->pivots += 1;
        if (leaving == Z0_OFFSET * n)
        {
            break;
        }
        entering = leaving < n ? leaving + n : leaving - n;
    }
    cs_lemke_solution(L);
    return CS_LEMKE_SOLVED;
}
