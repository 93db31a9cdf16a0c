// Lemke's basis (lemke.h): the columns of the tableau, the explicit inverse B⁻¹ and its refactorisation.
//
// Between refactorisations B⁻¹ is updated by each pivot's elementary row operation (product form), which
// loses accuracy over many pivots on the degenerate, singular contact matrices; so every so often, and
// whenever the basis residual says so, B⁻¹ is rebuilt from scratch. The basis of a Lemke tableau [I −M −d]
// is, up to the order of its positions, B = [e_i (i ∉ R) | C_S]: the slacks ζ_i still basic keep their unit
// columns, and the k basic z variables (and z0), S, cover the k rows R whose slack left. Putting ζ_i at
// position i and S at the positions R,
//     B⁻¹ e_j = e_j                                    (j ∉ R)
//     B⁻¹ e_j = [C_RS⁻¹ e_j on R;  −C_{R̄S} C_RS⁻¹ e_j off R]   (j ∈ R)
// so only the k×k block C_RS is factorised (LU with partial pivoting, Golub & Van Loan Alg. 3.4.1) and only
// the k columns j ∈ R of B⁻¹ are stored (the `touched` columns of lemke.c).
#include "solver/lemke.h"

#include "solver/dense_lu.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

void cs_lemke_column_of(const cs_lemke* L, int var, double* out)
{
    int n = L->n;
    if (var < n)
    {
        memset(out, 0, (size_t)n * sizeof(double));
        out[var] = 1.0;
    }
    else if (var < 2 * n)
    {
        L->column(L->data, var - n, out);
        for (int i = 0; i < n; ++i)
        {
            out[i] = -out[i];
        }
    }
    else
    {
        for (int i = 0; i < n; ++i)
        {
            out[i] = L->covered ? -L->cover[i] : -1.0;
        }
    }
}

void cs_lemke_apply_binv(const cs_lemke* L, const double* c, double* d)
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

double cs_lemke_basis_residual(const cs_lemke* L, double* res)
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
        cs_lemke_column_of(L, var, L->col);
        for (int k = 0; k < n; ++k)
        {
            res[k] -= L->col[k] * x;
        }
    }
    double worst = 0.0;
    for (int i = 0; i < n; ++i)
    {
        worst = fmax(worst, fabs(res[i]));
    }
    return worst;
}

// Puts ζ_i at position i and the other basic variables at the positions of the rows R whose slack is not
// basic (in increasing order of both); returns k = |R|.
static int reorder_positions(cs_lemke* L)
{
    int n = L->n, k = 0;
    int* rows = L->lu_rows;
    int* vars = L->lu_vars;
    for (int v = 0; v <= 2 * n; ++v)
    {
        L->where[v] = -1;
    }
    for (int i = 0; i < n; ++i)
    {
        L->touched[i] = 1; // scratch: 1 = ζ_i is not basic
    }
    int s = 0;
    for (int p = 0; p < n; ++p)
    {
        int var = L->basis[p];
        if (var < n)
        {
            L->touched[var] = 0;
        }
        else
        {
            vars[s++] = var;
        }
    }
    for (int i = 0; i < n; ++i)
    {
        if (L->touched[i])
        {
            rows[k++] = i;
        }
        else
        {
            L->basis[i] = i;
            L->where[i] = i;
        }
    }
    for (int b = 0; b < k; ++b)
    {
        L->basis[rows[b]] = vars[b];
        L->where[vars[b]] = rows[b];
    }
    return k;
}

// The stored columns off R: −C_{R̄S} C_RS⁻¹, one basic column of S at a time. A column of the tableau is a
// column of M (a contact's few couplings: ~25 nonzeros of Pool 1's 2 416 variables), a unit vector or the
// cover, so each update visits only its nonzeros; the dense updates over all n rows were nine tenths of a
// refactorisation (docs/PERFORMANCE.md, "Lemke's refactorisation"). The result is the dense update's bit for
// bit (in the default floating-point environment: round to nearest, subnormals kept; a host that flushes
// subnormals to zero can make a −0 off R, which the dense update would have turned +0). Where the dense
// update adds a zero term, x − (±0), it keeps x, but for x = −0 and a −0 term, which give +0; and a
// non-finite cba spreads NaN over the whole column (0·∞), so such a column is updated densely. Off R no entry
// is ever −0 (each starts +0, and a difference is −0 only as −0 − (+0)). On R col is 0, so the dense update
// subtracted only zero terms there, and its −0 entries (from the LU solves) turned +0 exactly when a term was
// −0: when some cba < 0 of the column (an entry on R, which those zero terms leave as it is) multiplied a +0
// of col. That is applied at the end, column by column.
static void off_r(cs_lemke* L, int k)
{
    int n = L->n;
    const int* rows = L->lu_rows;
    const int* vars = L->lu_vars;
    int* nz = L->lu_piv + k; // the column's nonzeros, at most n − k (col is 0 on R): lu_piv holds n ints
    for (int b = 0; b < k; ++b)
    {
        cs_lemke_column_of(L, vars[b], L->col);
        for (int a = 0; a < k; ++a)
        {
            L->col[rows[a]] = 0.0; // the rows R keep C_RS⁻¹
        }
        int count = 0;
        for (int i = 0; i < n; ++i)
        {
            if (L->col[i] != 0.0) // (NaN too)
            {
                nz[count++] = i;
            }
        }
        int pos = rows[b];
        for (int a = 0; a < k; ++a)
        {
            double* bj = L->binv + (size_t)rows[a] * n;
            double cba = bj[pos];
            if (cba == 0.0)
            {
                continue;
            }
            if (!isfinite(cba))
            {
                for (int i = 0; i < n; ++i)
                {
                    bj[i] -= L->col[i] * cba;
                }
                continue;
            }
            for (int t = 0; t < count; ++t)
            {
                int i = nz[t];
                bj[i] -= L->col[i] * cba;
            }
        }
    }
    for (int a = 0; a < k; ++a)
    {
        double* bj = L->binv + (size_t)rows[a] * n;
        bool negative = false;
        for (int b = 0; b < k; ++b)
        {
            negative |= bj[rows[b]] < 0.0;
        }
        for (int b = 0; negative && b < k; ++b)
        {
            double* x = bj + rows[b];
            *x = *x == 0.0 ? 0.0 : *x; // −0 → +0
        }
    }
}

bool cs_lemke_refactor(cs_lemke* L)
{
    int n = L->n;
    int k = reorder_positions(L);
    const int* rows = L->lu_rows;
    const int* vars = L->lu_vars;
    // C_RS, and the scale its pivots are judged against.
    double cmax = 0.0;
    for (int b = 0; b < k; ++b)
    {
        cs_lemke_column_of(L, vars[b], L->col);
        for (int a = 0; a < k; ++a)
        {
            double c = L->col[rows[a]];
            L->lu[(size_t)a * k + b] = c;
            cmax = fmax(cmax, fabs(c));
        }
    }
    if (!cs_dense_lu_factor(L->lu, k, L->lu_piv, 1e-13 * (cmax > 0.0 ? cmax : 1.0)))
    {
        return false;
    }
    // The stored columns: j ∈ R. On R, column rows[a] of B⁻¹ is C_RS⁻¹ e_a at positions rows[b].
    L->touched_count = k;
    for (int i = 0; i < n; ++i)
    {
        L->touched[i] = 0;
    }
    // C_RS⁻¹ by blocks of CS_LEMKE_RHS columns: the unit vectors e_a .. e_{a+w−1} solved at once (row-major
    // in L->rhs, row b holding their components b), then scattered into their columns of B⁻¹.
    for (int a0 = 0; a0 < k; a0 += CS_LEMKE_RHS)
    {
        int w = k - a0 < CS_LEMKE_RHS ? k - a0 : CS_LEMKE_RHS;
        memset(L->rhs, 0, (size_t)k * (size_t)w * sizeof(double));
        for (int t = 0; t < w; ++t)
        {
            L->rhs[(size_t)(a0 + t) * w + t] = 1.0;
        }
        cs_dense_lu_solve_rows(L->lu, k, L->lu_piv, L->rhs, w);
        for (int t = 0; t < w; ++t)
        {
            int j = rows[a0 + t];
            L->tlist[a0 + t] = j;
            L->touched[j] = 1;
            double* bj = L->binv + (size_t)j * n;
            memset(bj, 0, (size_t)n * sizeof(double));
            for (int b = 0; b < k; ++b)
            {
                bj[rows[b]] = L->rhs[(size_t)b * w + t];
            }
        }
    }
    off_r(L, k);
    cs_lemke_apply_binv(L, L->r, L->xb);
    L->refactorisations += 1;
    return true;
}
