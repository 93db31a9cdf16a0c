// Dense diagnostics of a frozen problem for `lcp info` (lcp_diagnose.h). A = J M⁻¹ Jᵀ is formed once;
// its rank comes from a Cholesky factorisation with diagonal pivoting (A is positive semi-definite, so the
// largest remaining diagonal entry bounds the rest of the trailing block, and the factorisation stops when
// it falls below 1e-10 × the largest A_ii). With friction on circles every contact adds two rows but a
// circle has three degrees of freedom, so A is singular as soon as the rows exceed 3 × the dynamic bodies.
#include "cli/lcp_diagnose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/solver.h"

// A_ij over the bodies rows i and j share, plus ε_i on the diagonal of a regularised row: the matrix the
// solvers work on is A + Σ (Lacoursière eq. (3); the same A_ii as the solve's diag, which `lcp info` prints).
static double entry(const cs_lcp* p, int i, int j)
{
    const int bi[2] = {p->body_a[i], p->body_b[i]};
    const int bj[2] = {p->body_a[j], p->body_b[j]};
    double s = 0.0;
    for (int hi = 0; hi < 2; ++hi)
    {
        for (int hj = 0; hj < 2; ++hj)
        {
            int body = bi[hi];
            if (body >= 0 && body == bj[hj])
            {
                const double* x = p->jac + 6 * i + 3 * hi;
                const double* y = p->jac + 6 * j + 3 * hj;
                s += p->inv_mass[body] * (x[0] * y[0] + x[1] * y[1]) + p->inv_inertia[body] * x[2] * y[2];
            }
        }
    }
    return i == j && p->reg != NULL ? s + p->reg[i] : s;
}

// The rows `rows[0..n)` of A as a dense n × n matrix.
static double* dense_block(const cs_lcp* p, const int* rows, int n)
{
    double* a = malloc((size_t)(n > 0 ? n : 1) * (size_t)(n > 0 ? n : 1) * sizeof(double));
    for (int i = 0; i < n && a != NULL; ++i)
    {
        for (int j = 0; j <= i; ++j)
        {
            a[(size_t)i * n + j] = a[(size_t)j * n + i] = entry(p, rows[i], rows[j]);
        }
    }
    return a;
}

// Pivoted Cholesky in place (lower triangle, rows and columns permuted as it goes): the numerical rank.
// On return with rank == n the leading n × n lower triangle is L of P A Pᵀ = L Lᵀ.
static int pivoted_cholesky(double* a, int n, int* perm)
{
    double top = 0.0;
    for (int i = 0; i < n; ++i)
    {
        perm[i] = i;
        top = fmax(top, a[(size_t)i * n + i]);
    }
    double tol = 1e-10 * top;
    for (int k = 0; k < n; ++k)
    {
        int best = k;
        for (int i = k + 1; i < n; ++i)
        {
            best = a[(size_t)i * n + i] > a[(size_t)best * n + best] ? i : best;
        }
        if (!(a[(size_t)best * n + best] > tol))
        {
            return k;
        }
        if (best != k) // swap rows and columns k and best
        {
            for (int j = 0; j < n; ++j)
            {
                double t = a[(size_t)k * n + j];
                a[(size_t)k * n + j] = a[(size_t)best * n + j];
                a[(size_t)best * n + j] = t;
            }
            for (int i = 0; i < n; ++i)
            {
                double t = a[(size_t)i * n + k];
                a[(size_t)i * n + k] = a[(size_t)i * n + best];
                a[(size_t)i * n + best] = t;
            }
            int t = perm[k];
            perm[k] = perm[best];
            perm[best] = t;
        }
        double d = sqrt(a[(size_t)k * n + k]);
        a[(size_t)k * n + k] = d;
        for (int i = k + 1; i < n; ++i)
        {
            a[(size_t)i * n + k] /= d;
        }
        for (int i = k + 1; i < n; ++i)
        {
            double lik = a[(size_t)i * n + k];
            for (int j = k + 1; j <= i; ++j)
            {
                a[(size_t)i * n + j] -= lik * a[(size_t)j * n + k];
            }
            for (int j = k + 1; j < i; ++j)
            {
                a[(size_t)j * n + i] = a[(size_t)i * n + j]; // keep the trailing block symmetric
            }
        }
    }
    return n;
}

static double normalise(double* x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i)
    {
        s += x[i] * x[i];
    }
    s = sqrt(s);
    for (int i = 0; i < n && s > 0.0; ++i)
    {
        x[i] /= s;
    }
    return s;
}

// λ_max(A) by power iteration and λ_min(A) by inverse iteration with the Cholesky factor L (rank n),
// 200 steps each from a fixed start: an estimate of cond₂(A) = λ_max/λ_min (a lower bound when the
// iterations have not settled).
static double condition_estimate(const double* a, const double* l, const int* perm, int n)
{
    double* x = malloc(2 * (size_t)n * sizeof(double));
    if (x == NULL)
    {
        return NAN;
    }
    double* y = x + n;
    double lmax = 0.0, inv_min = 0.0;
    for (int pass = 0; pass < 2; ++pass)
    {
        for (int i = 0; i < n; ++i)
        {
            x[i] = 1.0 + 0.01 * (i % 7);
        }
        normalise(x, n);
        for (int it = 0; it < 200; ++it)
        {
            if (pass == 0) // y = A x
            {
                for (int i = 0; i < n; ++i)
                {
                    double s = 0.0;
                    for (int j = 0; j < n; ++j)
                    {
                        s += a[(size_t)i * n + j] * x[j];
                    }
                    y[i] = s;
                }
            }
            else // y = A⁻¹ x through P A Pᵀ = L Lᵀ
            {
                for (int i = 0; i < n; ++i)
                {
                    double s = x[perm[i]];
                    for (int j = 0; j < i; ++j)
                    {
                        s -= l[(size_t)i * n + j] * y[j];
                    }
                    y[i] = s / l[(size_t)i * n + i];
                }
                for (int i = n - 1; i >= 0; --i)
                {
                    double s = y[i];
                    for (int j = i + 1; j < n; ++j)
                    {
                        s -= l[(size_t)j * n + i] * y[j];
                    }
                    y[i] = s / l[(size_t)i * n + i];
                }
                for (int i = 0; i < n; ++i) // undo the permutation into x's order, through x as scratch
                {
                    x[perm[i]] = y[i];
                }
                memcpy(y, x, (size_t)n * sizeof(double));
            }
            double norm = normalise(y, n);
            memcpy(x, y, (size_t)n * sizeof(double));
            if (pass == 0)
            {
                lmax = norm;
            }
            else
            {
                inv_min = norm;
            }
        }
    }
    free(x);
    return lmax * inv_min;
}

// Rank and condition of the normal block.
static bool diagnose_normal_block(const cs_lcp* p, cs_lcp_diagnosis* d)
{
    int* rows = malloc((size_t)(p->row_count + 1) * sizeof(int));
    if (rows == NULL)
    {
        return false;
    }
    int n = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        if (p->kind[i] == CS_ROW_NORMAL)
        {
            rows[n++] = i;
        }
    }
    d->normal_rows = n;
    double* a = dense_block(p, rows, n);
    double* l = a != NULL ? malloc((size_t)(n > 0 ? n : 1) * (size_t)(n > 0 ? n : 1) * sizeof(double)) : NULL;
    int* perm = malloc((size_t)(n + 1) * sizeof(int));
    bool ok = a != NULL && l != NULL && perm != NULL;
    if (ok)
    {
        memcpy(l, a, (size_t)n * (size_t)n * sizeof(double));
        d->normal_rank = pivoted_cholesky(l, n, perm);
        d->cond_normal = n == 0 ? 1.0 : d->normal_rank < n ? INFINITY : condition_estimate(a, l, perm, n);
    }
    free(rows);
    free(a);
    free(l);
    free(perm);
    return ok;
}

bool cs_lcp_diagnose(const cs_lcp* p, cs_lcp_diagnosis* d)
{
    memset(d, 0, sizeof *d);
    d->rows = p->row_count;
    d->positive_diag = true;
    d->fixed_bounds = true;
    for (int b = 0; b < p->body_count; ++b)
    {
        d->dof += (p->inv_mass[b] > 0.0 ? 2 : 0) + (p->inv_inertia[b] > 0.0 ? 1 : 0);
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        d->positive_diag = d->positive_diag && entry(p, i, i) > 0.0;
        d->fixed_bounds = d->fixed_bounds && p->kind[i] != CS_ROW_FRICTION;
    }
    if (p->row_count > CS_DIAGNOSE_MAX_ROWS)
    {
        return true;
    }
    int m = p->row_count;
    int* all = malloc((size_t)(m + 1) * sizeof(int));
    int* perm = malloc((size_t)(m + 1) * sizeof(int));
    for (int i = 0; i < m && all != NULL; ++i)
    {
        all[i] = i;
    }
    double* a = all != NULL && perm != NULL ? dense_block(p, all, m) : NULL;
    bool ok = a != NULL;
    if (ok)
    {
        d->rank = pivoted_cholesky(a, m, perm);
        ok = diagnose_normal_block(p, d);
    }
    free(all);
    free(perm);
    free(a);
    d->dense = ok;
    return ok;
}

// What a method's registry guarantee (solver.h: CS_SOLVER_EXACT, CONVERGES_FIXED, CONVERGES_NONSINGULAR)
// promises on a problem with diagnosis d, with the registry's reason (cs_solver_guarantee) in brackets; a
// method without those flags gets its note, or NULL.
static const char* guarantee(int solver, const cs_lcp_diagnosis* d, bool* converges, char* why, size_t size)
{
    *converges = false;
    unsigned f = cs_solver_at(solver)->flags;
    const char* text = cs_solver_guarantee(solver);
    bool fixed = (f & CS_SOLVER_CONVERGES_FIXED) != 0,
         nonsingular = (f & CS_SOLVER_CONVERGES_NONSINGULAR) != 0;
    if (text == NULL || !(f & CS_SOLVER_EXACT || fixed || nonsingular))
    {
        return text; // a note, no promise (or nothing recorded)
    }
    bool definite = d->dense && d->rank == d->rows;
    const char* verdict;
    if (f & CS_SOLVER_EXACT)
    {
        verdict = "finite: an exact answer or an error (listed under exact=, not converges=)";
    }
    else if (!d->positive_diag)
    {
        verdict = "needs A_ii > 0 on every row";
    }
    else if (!d->dense)
    {
        verdict = "rank not computed";
    }
    else if (nonsingular && definite)
    {
        *converges = true;
        verdict = "A nonsingular: converges";
    }
    else if (fixed && d->fixed_bounds)
    {
        *converges = definite;
        verdict = definite ? "A symmetric positive definite, fixed bounds: converges"
                           : "A singular, fixed bounds: lambda not unique, accumulation points solve it";
    }
    else if (fixed)
    {
        verdict = "friction bounds move with lambda_n: no convergence theorem (it usually converges)";
    }
    else
    {
        verdict = "A singular: no guarantee";
    }
    snprintf(why, size, "%s (%s)", verdict, text);
    return why;
}

void cs_lcp_print_guarantees(FILE* out, const cs_lcp_diagnosis* d)
{
    char yes[512] = "", no[512] = "", exact[512] = "";
    for (int s = 0; s < cs_solver_count(); ++s)
    {
        const cs_solver_info* info = cs_solver_at(s);
        bool converges;
        char text[512];
        const char* why = guarantee(s, d, &converges, text, sizeof text);
        char* list = (info->flags & CS_SOLVER_EXACT) ? exact : converges ? yes : no;
        size_t used = strlen(list);
        snprintf(list + used, 512 - used, "%s%s", used > 0 ? "," : "", info->name);
        fprintf(out, "why_%s=%s\n", info->name,
                why != NULL ? why : "no convergence theorem recorded for this method");
    }
    fprintf(out, "converges=%s\n", yes[0] != '\0' ? yes : "none");
    fprintf(out, "exact=%s\n", exact[0] != '\0' ? exact : "none");
    fprintf(out, "no_guarantee=%s\n", no[0] != '\0' ? no : "none");
}
