// Lemke's method with a covering vector, an explicit basis inverse kept accurate by refactorisation, and
// the lexicographic ratio test (lemke.h). In the tableau  [I  −M  −d] (ζ, z, z0) = r  the basis starts as
// I (ζ = r). z0 enters first and leaves the row of the most negative r_i; from then on the complement of
// the variable that just left enters, until z0 leaves (a solution) or an entering column has no positive
// entry (a ray).
//
// B⁻¹ is updated by each pivot's elementary row operation. A column j of B⁻¹ stays the unit vector e_j
// until row j is a pivot row, so only the touched columns are stored and updated: a pivot costs O(n·k) for
// k touched columns. Product-form updates drift on the singular, degenerate matrices of contact problems
// (W = J M⁻¹ Jᵀ has rank ≤ 3 × bodies), so B⁻¹ is rebuilt from an LU factorisation of the basis
// (lemke_basis.c) every REFACTOR_PER_N·n pivots, whenever the residual of B x_B = r, checked every
// CHECK_EVERY pivots, exceeds its tolerance, and once more at the end. Ties in the ratio test are broken
// lexicographically on the rows of B⁻¹ (Murty 1988, §2.3.2), which rules out cycling in exact arithmetic
// for any LCP Lemke processes (copositive-plus M, or the copositive contact matrices of Anitescu and Potra
// 1997); the pivot cap reports what floating point leaves.
#include "solver/lemke.h"

#include <math.h>
#include <string.h>

enum
{
    Z0_OFFSET = 2,   // variable numbering: ζ_k = k, z_k = n + k, z0 = 2n
    CHECK_EVERY = 16 // pivots between two checks of the basis residual
};

#define REFACTOR_PER_N  1.0  // a scheduled refactorisation every n pivots (it costs about k/2 pivots)
#define PIVOT_TOL       1e-9 // entries of B⁻¹c below this fraction of its largest are not pivots
#define SMALL_PIVOT     1e-2 // among tied rows, pivots below this fraction of the largest tied one are skipped
#define RESIDUAL_TOL    1e-10 // |r − B x_B|∞ beyond this fraction of max(|r|∞, |x_B|∞) forces a refactorisation
#define RESIDUAL_GROWTH 100.0 // ... if it is also this many times what the last refactorisation left
#define WARM_FEASIBLE   1e-11 // warm start: a first basic value above −this × max|x_B| counts as 0
#define DROP_TOL        1e-4 // warm start: a diagonal pivot below this fraction of its column drops the index

static double binv_at(const cs_lemke* L, int i, int j)
{
    return L->touched[j] ? L->binv[(size_t)j * L->n + i] : (i == j ? 1.0 : 0.0);
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

// Lexicographic comparison of rows i and j of B⁻¹ divided by d_i, d_j: < 0 when i is smaller. Entries that
// agree to 1e-11 relative (or are both below 1e-14 of their row's pivot scale) count as equal.
static int lex_compare(const cs_lemke* L, const double* d, int i, int j)
{
    double floor = 1e-14 * (1.0 / d[i] + 1.0 / d[j]);
    for (int c = 0; c < L->n; ++c)
    {
        double a = binv_at(L, i, c) / d[i];
        double b = binv_at(L, j, c) / d[j];
        double scale = fmax(fabs(a), fabs(b));
        if (scale > floor && fabs(a - b) > 1e-11 * scale)
        {
            return a < b ? -1 : 1;
        }
    }
    return 0;
}

// The blocking row of the entering column d, or -1 for a ray. The rows that block within Harris's relaxed
// step (every basic variable stays above −δ) are the ties of the minimum ratio; among them z0 wins
// (termination), pivots far smaller than the largest tied one are dropped, and the rest are ordered
// lexicographically on B⁻¹ (the perturbation r + (ε, ε², …) of the lexicographic method). Degenerate
// contact problems have many x_B = 0, so this order, not the ratio, picks most pivots.
static int ratio_test(const cs_lemke* L, const double* d, double xscale)
{
    int n = L->n;
    double dmax = 0.0, xmax = xscale;
    for (int i = 0; i < n; ++i)
    {
        dmax = fmax(dmax, fabs(d[i]));
        xmax = fmax(xmax, fabs(L->xb[i]));
    }
    double tol = PIVOT_TOL * dmax;
    double delta = 1e-12 * xmax;
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
    double tied_max = 0.0;
    for (int i = 0; i < n; ++i)
    {
        if (d[i] > tol && fmax(L->xb[i], 0.0) / d[i] <= bound)
        {
            if (L->basis[i] == Z0_OFFSET * n)
            {
                return i;
            }
            tied_max = fmax(tied_max, d[i]);
        }
    }
    int row = -1;
    for (int i = 0; i < n; ++i)
    {
        if (!(d[i] >= SMALL_PIVOT * tied_max) || fmax(L->xb[i], 0.0) / d[i] > bound)
        {
            continue;
        }
        if (row < 0)
        {
            row = i;
            continue;
        }
        int order = lex_compare(L, d, i, row);
        if (order < 0 || (order == 0 && d[i] > d[row]))
        {
            row = i;
        }
    }
    return row;
}

void cs_lemke_refine(cs_lemke* L, int rounds)
{
    int n = L->n;
    double* res = L->z; // scratch until cs_lemke_solution
    double* keep = L->d;
    double last = cs_lemke_basis_residual(L, res);
    for (int round = 0; round < rounds && last > 0.0; ++round)
    {
        cs_lemke_apply_binv(L, res, keep);
        for (int i = 0; i < n; ++i)
        {
            L->xb[i] += keep[i];
        }
        double now = cs_lemke_basis_residual(L, res);
        if (!(now < 0.5 * last))
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

// Keeps B⁻¹ honest: a scheduled refactorisation, or one forced by the residual of B x_B = r growing past
// both RESIDUAL_TOL and RESIDUAL_GROWTH × what the last refactorisation left (*floor; on an ill-conditioned
// basis a fresh factorisation cannot do better than that, and refactorising again would only cost time).
static bool maintain_basis(cs_lemke* L, int* since, double* floor, double xscale)
{
    *since += 1;
    bool refactor = *since >= REFACTOR_PER_N * L->n;
    if (!refactor && L->pivots % CHECK_EVERY == 0)
    {
        double xmax = xscale;
        for (int i = 0; i < L->n; ++i)
        {
            xmax = fmax(xmax, fabs(L->xb[i]));
        }
        double res = cs_lemke_basis_residual(L, L->z);
        refactor = !(res <= fmax(RESIDUAL_TOL * xmax, RESIDUAL_GROWTH * *floor));
    }
    if (!refactor)
    {
        return true;
    }
    *since = 0;
    if (!cs_lemke_refactor(L))
    {
        return false;
    }
    *floor = cs_lemke_basis_residual(L, L->z);
    return true;
}

// The warm start's basis: z_k for start[k], except the columns that are dependent on the ones before
// them. The complementary basis with z basic on S covers the rows S with −M_SS (the ζ rows off S are unit
// columns), so it is singular exactly when M_SS is: M_SS is eliminated in index order with diagonal pivots,
// and an index whose pivot falls below DROP_TOL of its column is dropped (its ζ stays basic). The
// principal order keeps a friction row's slack β (M_ββ = 0) after its impulse variables, whose elimination
// gives it the pivot 1/A_tt. Uses L->lu (n·n) and L->lu_vars.
static void select_start(cs_lemke* L)
{
    int n = L->n, s = 0;
    int* vars = L->lu_vars;
    for (int k = 0; k < n; ++k)
    {
        if (L->start[k])
        {
            vars[s++] = k;
        }
    }
    double* g = L->lu;
    for (int b = 0; b < s; ++b) // g is column-major here: column b is M[S, vars[b]]
    {
        L->column(L->data, vars[b], L->col);
        double* gb = g + (size_t)b * s;
        for (int a = 0; a < s; ++a)
        {
            gb[a] = L->col[vars[a]];
        }
    }
    L->dropped = 0;
    for (int c = 0; c < s; ++c)
    {
        double* gc = g + (size_t)c * s;
        double scale = 0.0;
        for (int a = 0; a < s; ++a)
        {
            scale = fmax(scale, fabs(gc[a]));
        }
        double piv = gc[c];
        if (!(fabs(piv) > DROP_TOL * scale))
        {
            L->start[vars[c]] = 0;
            L->dropped += 1;
            continue; // not eliminated: the later pivots are those of the kept indices only
        }
        // Right-looking update of the columns after c: g[:, j] −= g[:, c]·g[c, j]/piv.
        for (int j = c + 1; j < s; ++j)
        {
            double* gj = g + (size_t)j * s;
            double f = gj[c] / piv;
            if (f == 0.0)
            {
                continue;
            }
            for (int a = c + 1; a < s; ++a)
            {
                gj[a] -= f * gc[a];
            }
        }
    }
}

// The first basis and the first pivot of a warm start (lemke.h); false when the basis is still singular.
static bool warm_start(cs_lemke* L, int* first_row)
{
    int n = L->n;
    if (!L->keep_start)
    {
        select_start(L);
    }
    else
    {
        L->dropped = 0;
    }
    for (int i = 0; i < n; ++i)
    {
        L->basis[i] = L->start[i] ? n + i : i;
        L->touched[i] = 0;
    }
    L->touched_count = 0;
    if (!cs_lemke_refactor(L))
    {
        return false;
    }
    // d = B·1, the sum of the basic columns; z0's column is −d and B⁻¹(−d) = −1.
    memset(L->cover, 0, (size_t)n * sizeof(double));
    for (int p = 0; p < n; ++p)
    {
        cs_lemke_column_of(L, L->basis[p], L->col);
        for (int i = 0; i < n; ++i)
        {
            L->cover[i] += L->col[i];
        }
    }
    L->covered = true;
    // A basic value that is negative by round-off only (a degenerate 0, such as z± of a friction row whose
    // normal is at 0) is not covered: the basis is the answer and the caller's residual check decides.
    double xmax = 1.0;
    for (int i = 0; i < n; ++i)
    {
        xmax = fmax(xmax, fabs(L->xb[i]));
    }
    int r = -1;
    for (int i = 0; i < n; ++i)
    {
        if (L->xb[i] < -WARM_FEASIBLE * xmax && (r < 0 || L->xb[i] <= L->xb[r]))
        {
            r = i;
        }
    }
    *first_row = r;
    return true;
}

cs_lemke_outcome cs_lemke_run(cs_lemke* L)
{
    int n = L->n;
    L->pivots = 0;
    L->refactorisations = 0;
    L->entering = -1;
    L->dropped = 0;
    L->covered = false;
    L->warm = L->start != NULL;
    double xscale = 0.0;
    for (int i = 0; i < n; ++i)
    {
        L->basis[i] = i;
        L->touched[i] = 0;
        L->xb[i] = L->r[i];
        L->z[i] = 0.0;
        xscale = fmax(xscale, fabs(L->r[i]));
    }
    L->touched_count = 0;
    int r = -1;
    if (L->warm)
    {
        if (!warm_start(L, &r))
        {
            return CS_LEMKE_SINGULAR;
        }
    }
    else
    {
        for (int v = 0; v <= Z0_OFFSET * n; ++v)
        {
            L->where[v] = v < n ? v : -1;
        }
        for (int i = 0; i < n; ++i)
        {
            if (L->r[i] < 0.0 && (r < 0 || L->r[i] <= L->r[r]))
            {
                r = i;
            }
        }
    }
    if (r < 0)
    {
        cs_lemke_solution(L);
        return CS_LEMKE_SOLVED; // x_B >= 0: the first basis solves it
    }
    // z0 enters at the most negative basic value (B⁻¹ of its column is −1).
    for (int i = 0; i < n; ++i)
    {
        L->d[i] = -1.0;
    }
    int leaving = L->basis[r];
    pivot(L, r, L->d, Z0_OFFSET * n);
    L->pivots = 1;
    int entering = leaving < n ? leaving + n : leaving - n; // the complement of what just left
    int since = 1;
    double floor = 0.0;
    for (;;)
    {
        if (L->pivots >= L->max_pivots)
        {
            return CS_LEMKE_PIVOT_CAP;
        }
        cs_lemke_column_of(L, entering, L->col);
        cs_lemke_apply_binv(L, L->col, L->d);
        int row = ratio_test(L, L->d, xscale);
        if (row < 0)
        {
            L->entering = entering;
            return CS_LEMKE_RAY;
        }
        leaving = L->basis[row];
        pivot(L, row, L->d, entering);
        L->pivots += 1;
        if (leaving == Z0_OFFSET * n)
        {
            break;
        }
        if (!maintain_basis(L, &since, &floor, xscale))
        {
            return CS_LEMKE_SINGULAR;
        }
        entering = leaving < n ? leaving + n : leaving - n;
    }
    if (!cs_lemke_refactor(L))
    {
        return CS_LEMKE_SINGULAR;
    }
    cs_lemke_solution(L);
    return CS_LEMKE_SOLVED;
}
