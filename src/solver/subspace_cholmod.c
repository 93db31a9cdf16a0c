// pgs-sm's reduced system through CHOLMOD (SuiteSparse): A_FF δ = r_F by sparse LDLᵀ.
//
// Symbolic analysis once per problem: the matrix factorised is Ã, which has A's full pattern (the upper
// triangle assembled by subspace_matrix.c) with the rows and columns outside the free set F replaced by
// the identity (their off-diagonal entries stored as zeros). Its pattern does not depend on F, so one
// AMD ordering and one symbolic factor serve every subspace step of a solve, and of the next solves as
// long as the contacts do not change (the pattern is compared). The price is the fill of A's factor
// rather than A_FF's, which for contact graphs is small.
//
// Singular A_FF. With friction on circles A = J M⁻¹ Jᵀ has rank <= 3·bodies, so A_FF is singular as soon
// as the free rows outnumber the bodies' degrees of freedom they touch. Every pivot d_j of the LDLᵀ
// factor is checked against its diagonal (d_j > τ·Ã_jj); if one fails, Ã + βD (D = diag Ã) is
// factorised instead with the smallest β of 1e-10, 1e-8, 1e-6, 1e-4 that passes (a PSD matrix plus βD has
// pivots >= β·Ã_jj). With the right-hand side r_F = −w_F at the current point, the regularised step
// is the one nearest the current point (in the D-norm) among the minimisers, up to O(β); the next
// iteration corrects the O(β) part. A solve remembers the β it needed and starts there next time.
// Nothing fits (CHOLMOD error, or even β = 1e-4 fails): the step is reported unusable and the iteration
// keeps its PGS point (stats.failed).
//
// Simplicial factorisation (no BLAS): the same bits on every machine and thread count. CHOLMOD allocates
// in analyse and in the first factorisation of a pattern (docs/pgs-sm.md); the solve reuses its
// workspace (cholmod_solve2).
#include "solver/subspace.h"

#include "core/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cholmod.h>

struct cs_cholmod
{
    cholmod_common common;
    cholmod_factor* factor;
    cholmod_dense* x; // cholmod_solve2's solution and workspaces, reused
    cholmod_dense* y;
    cholmod_dense* e;
    double* b; // right-hand side, all rows
    // The analysed pattern, to reuse the analysis when the next problem's A has the same one.
    int rows, nnz;
    int* col_start;
    int* row_index;
    int row_capacity, nnz_capacity;
};

static const double beta_first = 1e-10;
static const double beta_growth = 100.0;
static const double beta_max = 1e-4;

void cs_cholmod_free(cs_cholmod* c)
{
    if (c == NULL)
    {
        return;
    }
    cholmod_free_factor(&c->factor, &c->common);
    cholmod_free_dense(&c->x, &c->common);
    cholmod_free_dense(&c->y, &c->common);
    cholmod_free_dense(&c->e, &c->common);
    cholmod_finish(&c->common);
    free(c->b);
    free(c->col_start);
    free(c->row_index);
    free(c);
}

static cs_cholmod* create(void)
{
    cs_cholmod* c = calloc(1, sizeof *c);
    if (c == NULL)
    {
        return NULL;
    }
    cholmod_start(&c->common);
    c->common.print = 0;                       // failures are reported through stats, not stderr
    c->common.supernodal = CHOLMOD_SIMPLICIAL; // no BLAS: reproducible bits
    c->common.nmethods = 1;                    // AMD only (no METIS, no trial orderings)
    c->common.method[0].ordering = CHOLMOD_AMD;
    c->common.postorder = 1;
    return c;
}

static cholmod_sparse header(const cs_amatrix* a, double* values)
{
    cholmod_sparse s = {
        .nrow = (size_t)a->rows,
        .ncol = (size_t)a->rows,
        .nzmax = (size_t)a->nnz,
        .p = a->col_start,
        .i = a->row_index,
        .x = values,
        .stype = 1, // upper triangle
        .itype = CHOLMOD_INT,
        .xtype = CHOLMOD_REAL,
        .dtype = CHOLMOD_DOUBLE,
        .sorted = 1,
        .packed = 1,
    };
    return s;
}

static bool same_pattern(const cs_cholmod* c, const cs_amatrix* a)
{
    return c->factor != NULL && c->rows == a->rows && c->nnz == a->nnz &&
           memcmp(c->col_start, a->col_start, ((size_t)a->rows + 1) * sizeof(int)) == 0 &&
           memcmp(c->row_index, a->row_index, (size_t)a->nnz * sizeof(int)) == 0;
}

static bool keep_pattern(cs_cholmod* c, const cs_amatrix* a)
{
    if (!CS_GROW(c->col_start, c->row_capacity, a->rows + 1) ||
        !CS_GROW(c->row_index, c->nnz_capacity, a->nnz))
    {
        return false;
    }
    // c->b has row_capacity entries too (grown with col_start).
    if (!CS_RESIZE(c->b, c->row_capacity))
    {
        return false;
    }
    memcpy(c->col_start, a->col_start, ((size_t)a->rows + 1) * sizeof(int));
    memcpy(c->row_index, a->row_index, (size_t)a->nnz * sizeof(int));
    c->rows = a->rows;
    c->nnz = a->nnz;
    return true;
}

cs_status cs_cholmod_analyze(cs_subspace* s, cs_error* err)
{
    if (s->chol == NULL && (s->chol = create()) == NULL)
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory starting CHOLMOD");
    }
    cs_cholmod* c = s->chol;
    if (same_pattern(c, &s->a))
    {
        return CS_OK;
    }
    cholmod_free_factor(&c->factor, &c->common);
    if (!keep_pattern(c, &s->a))
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory keeping A's pattern (%d entries)", s->a.nnz);
    }
    cholmod_sparse a = header(&s->a, s->a.value);
    c->factor = cholmod_analyze(&a, &c->common);
    if (c->factor == NULL)
    {
        c->rows = -1; // nothing analysed
        return cs_fail(err, c->common.status == CHOLMOD_OUT_OF_MEMORY ? CS_ERR_MEMORY : CS_ERR_VALUE,
                       "CHOLMOD could not analyse A (%d rows, %d entries): status %d", s->a.rows, s->a.nnz,
                       c->common.status);
    }
    return CS_OK;
}

// Ã + βD: A_FF's entries in the free rows' columns, the identity elsewhere; the diagonal of the free
// rows times (1 + β), plus ipm's shift when there is one.
static void fill_masked(cs_subspace* s, double beta)
{
    const cs_amatrix* a = &s->a;
    for (int j = 0; j < a->rows; ++j)
    {
        bool free_j = s->slot[j] >= 0;
        for (int x = a->col_start[j]; x < a->col_start[j + 1]; ++x)
        {
            int k = a->row_index[x];
            double v = 0.0;
            if (k == j)
            {
                v = free_j ? a->value[x] * (1.0 + beta) + (s->shift != NULL ? s->shift[j] : 0.0) : 1.0;
            }
            else if (free_j && s->slot[k] >= 0)
            {
                v = a->value[x];
            }
            s->masked[x] = v;
        }
    }
}

// Every LDLᵀ pivot positive and not lost to cancellation: d_j > τ·Ã_jj.
static bool pivots_ok(const cs_subspace* s, double beta)
{
    const cholmod_factor* f = s->chol->factor;
    if (f->is_super || f->is_ll || f->minor < f->n)
    {
        return false;
    }
    const int* perm = f->Perm;
    const int* lp = f->p;
    const double* lx = f->x;
    double tau = 0.1 * (beta > beta_first ? beta : beta_first);
    for (size_t j = 0; j < f->n; ++j)
    {
        double d = lx[lp[j]];
        double diag = s->masked[s->a.diag_at[perm[j]]];
        if (!(d > tau * diag))
        {
            return false;
        }
    }
    return true;
}

// Factorises Ã + βD for the smallest β on the ladder (from s->beta) that passes pivots_ok.
static bool factorise(cs_subspace* s)
{
    cs_cholmod* c = s->chol;
    double beta = s->beta;
    for (;;)
    {
        fill_masked(s, beta);
        cholmod_sparse a = header(&s->a, s->masked);
        cholmod_factorize(&a, c->factor, &c->common);
        if (c->common.status < CHOLMOD_OK)
        {
            return false; // an error (out of memory, …), not a singular matrix
        }
        if (c->common.status == CHOLMOD_OK && pivots_ok(s, beta))
        {
            break;
        }
        beta = beta > 0.0 ? beta * beta_growth : beta_first;
        if (beta > beta_max)
        {
            return false;
        }
    }
    if (beta > 0.0)
    {
        s->stats.regularised += 1;
        s->beta = beta;
        s->stats.beta = beta > s->stats.beta ? beta : s->stats.beta;
    }
    return true;
}

bool cs_cholmod_factor(cs_subspace* s)
{
    cs_cholmod* c = s->chol;
    return c != NULL && c->factor != NULL && factorise(s);
}

bool cs_cholmod_solve(cs_subspace* s)
{
    return cs_cholmod_factor(s) && cs_cholmod_backsolve(s);
}

bool cs_cholmod_backsolve(cs_subspace* s)
{
    cs_cholmod* c = s->chol;
    int m = s->a.rows;
    memset(c->b, 0, (size_t)m * sizeof(double));
    for (int f = 0; f < s->free_count; ++f)
    {
        c->b[s->free[f]] = s->rhs[f];
    }
    cholmod_dense b = {
        .nrow = (size_t)m,
        .ncol = 1,
        .nzmax = (size_t)m,
        .d = (size_t)m,
        .x = c->b,
        .xtype = CHOLMOD_REAL,
        .dtype = CHOLMOD_DOUBLE,
    };
    if (!cholmod_solve2(CHOLMOD_A, c->factor, &b, NULL, &c->x, NULL, &c->y, &c->e, &c->common))
    {
        return false;
    }
    const double* x = c->x->x;
    for (int f = 0; f < s->free_count; ++f)
    {
        double d = x[s->free[f]];
        if (!isfinite(d))
        {
            return false;
        }
        s->step[f] = d;
    }
    return true;
}
