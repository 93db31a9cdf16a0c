// The sparse A = J M⁻¹ Jᵀ that pgs-sm's CHOLMOD path factorises (its upper triangle, compressed columns).
// A_kj ≠ 0 only when rows k and j share a dynamic body, so the pattern comes from the body → rows
// adjacency: for every row j, the rows on its (at most two) bodies. Cost O(Σ_bodies deg(body)²), which is
// nnz(A); nothing here is O(m²).
#include "solver/subspace.h"

#include "core/array.h"

#include <stdlib.h>

void cs_amatrix_free(cs_amatrix* a)
{
    free(a->col_start);
    free(a->row_index);
    free(a->value);
    free(a->diag_at);
    free(a->body_start);
    free(a->body_rows);
    free(a->mark);
    *a = (cs_amatrix){0};
}

static bool dynamic_body(const cs_lcp* p, int b)
{
    return b >= 0 && (p->inv_mass[b] > 0.0 || p->inv_inertia[b] > 0.0);
}

// A_kj = Σ over the body halves rows k and j share of J_k,h · M⁻¹_body · J_j,h'ᵀ (both halves of a row
// may be one body; then all four pairings count, as in solve.c's A_ii).
static double entry(const cs_lcp* p, int k, int j)
{
    const double* jk = p->jac + 6 * k;
    const double* jj = p->jac + 6 * j;
    const int bk[2] = {p->body_a[k], p->body_b[k]};
    const int bj[2] = {p->body_a[j], p->body_b[j]};
    double s = 0.0;
    for (int hk = 0; hk < 2; ++hk)
    {
        for (int hj = 0; hj < 2; ++hj)
        {
            int b = bk[hk];
            if (b >= 0 && b == bj[hj])
            {
                const double* x = jk + 3 * hk;
                const double* y = jj + 3 * hj;
                s += p->inv_mass[b] * (x[0] * y[0] + x[1] * y[1]) + p->inv_inertia[b] * (x[2] * y[2]);
            }
        }
    }
    return s;
}

// The rows of every dynamic body, as CSR (body_start, body_rows); a row on one body twice is listed once.
static void body_adjacency(cs_amatrix* a, const cs_lcp* p)
{
    int bodies = p->body_count;
    for (int b = 0; b <= bodies; ++b)
    {
        a->body_start[b] = 0;
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        int ba = p->body_a[i], bb = p->body_b[i];
        if (dynamic_body(p, ba))
        {
            a->body_start[ba + 1] += 1;
        }
        if (dynamic_body(p, bb) && bb != ba)
        {
            a->body_start[bb + 1] += 1;
        }
    }
    for (int b = 0; b < bodies; ++b)
    {
        a->body_start[b + 1] += a->body_start[b];
    }
    // Fill with body_start[b] as body b's cursor; afterwards it points at body b + 1's start, so shift back.
    for (int i = 0; i < p->row_count; ++i)
    {
        int ba = p->body_a[i], bb = p->body_b[i];
        if (dynamic_body(p, ba))
        {
            a->body_rows[a->body_start[ba]++] = i;
        }
        if (dynamic_body(p, bb) && bb != ba)
        {
            a->body_rows[a->body_start[bb]++] = i;
        }
    }
    for (int b = bodies; b > 0; --b)
    {
        a->body_start[b] = a->body_start[b - 1];
    }
    a->body_start[0] = 0;
}

// Upper bound of nnz of the upper triangle: Σ_bodies deg² (each pair counted once per shared body).
static int count_bound(const cs_amatrix* a, const cs_lcp* p)
{
    long total = p->row_count;
    for (int b = 0; b < p->body_count; ++b)
    {
        long d = a->body_start[b + 1] - a->body_start[b];
        total += d * (d + 1) / 2;
    }
    return total > 0x3fffffff ? -1 : (int)total;
}

static void sort_column(int* index, double* value, int count)
{
    // Columns are short (the rows of two bodies): insertion sort.
    for (int x = 1; x < count; ++x)
    {
        int k = index[x];
        double v = value[x];
        int y = x - 1;
        while (y >= 0 && index[y] > k)
        {
            index[y + 1] = index[y];
            value[y + 1] = value[y];
            y -= 1;
        }
        index[y + 1] = k;
        value[y + 1] = v;
    }
}

// Grows the row, body and entry arrays to hold m rows, `bodies` bodies and nnz entries (no allocation
// when they already do).
static bool reserve(cs_amatrix* a, int m, int bodies, int nnz)
{
    if (m + 1 > a->row_capacity)
    {
        int cap = cs_grow_capacity(a->row_capacity, m + 1);
        if (!CS_RESIZE(a->col_start, cap) || !CS_RESIZE(a->diag_at, cap) || !CS_RESIZE(a->mark, cap) ||
            !CS_RESIZE(a->body_rows, 2 * cap))
        {
            return false;
        }
        a->row_capacity = cap;
    }
    if (bodies + 1 > a->body_capacity)
    {
        int cap = cs_grow_capacity(a->body_capacity, bodies + 1);
        if (!CS_RESIZE(a->body_start, cap))
        {
            return false;
        }
        a->body_capacity = cap;
    }
    if (nnz > a->nnz_capacity)
    {
        int cap = cs_grow_capacity(a->nnz_capacity, nnz);
        if (!CS_RESIZE(a->row_index, cap) || !CS_RESIZE(a->value, cap))
        {
            return false;
        }
        a->nnz_capacity = cap;
    }
    return true;
}

cs_status cs_amatrix_build(cs_amatrix* a, const cs_lcp* p, cs_error* err)
{
    int m = p->row_count;
    int bodies = p->body_count;
    if (!reserve(a, m, bodies, 0))
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory assembling A for %d rows", m);
    }
    body_adjacency(a, p);
    int bound = count_bound(a, p);
    if (bound < 0 || !reserve(a, m, bodies, bound))
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory assembling A (%d entries at most)", bound);
    }
    for (int i = 0; i < m; ++i)
    {
        a->mark[i] = -1;
    }
    int nnz = 0;
    for (int j = 0; j < m; ++j)
    {
        a->col_start[j] = nnz;
        a->mark[j] = j; // the diagonal, always present (0 for a row without dynamic bodies)
        a->row_index[nnz] = j;
        a->value[nnz] = entry(p, j, j) + (p->reg != NULL ? p->reg[j] : 0.0); // A + Σ (Lacoursière eq. (3))
        nnz += 1;
        const int halves[2] = {p->body_a[j], p->body_b[j]};
        for (int h = 0; h < 2; ++h)
        {
            int b = halves[h];
            if (!dynamic_body(p, b) || (h == 1 && b == halves[0]))
            {
                continue;
            }
            for (int x = a->body_start[b]; x < a->body_start[b + 1]; ++x)
            {
                int k = a->body_rows[x];
                if (k < j && a->mark[k] != j)
                {
                    a->mark[k] = j;
                    a->row_index[nnz] = k;
                    a->value[nnz] = entry(p, k, j);
                    nnz += 1;
                }
            }
        }
        int start = a->col_start[j];
        sort_column(a->row_index + start, a->value + start, nnz - start);
        a->diag_at[j] = nnz - 1; // sorted: the diagonal (k = j) is the column's last entry
    }
    a->col_start[m] = nnz;
    a->rows = m;
    a->nnz = nnz;
    return CS_OK;
}
