// The row view's storage: growth, copy, and the per-kind bounds rule.
#include "circlesim/lcp.h"

#include "solver/solver_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Grows one array to `count` elements of `size` bytes, keeping its contents.
static bool grow(void** array, size_t count, size_t size)
{
    if (count == 0)
    {
        return true;
    }
    void* q = realloc(*array, count * size);
    if (q == NULL)
    {
        return false;
    }
    *array = q;
    return true;
}

// Geometric growth so that a problem rebuilt every step reallocates O(log n) times in total.
static int next_capacity(int old, int needed)
{
    int cap = old > 0 ? old : 16;
    while (cap < needed)
    {
        cap = cap > (1 << 29) ? needed : 2 * cap;
    }
    return cap;
}

cs_status cs_lcp_reserve(cs_lcp* p, int bodies, int rows, cs_error* err)
{
    if (bodies < 0 || rows < 0 || bodies > (1 << 28) || rows > (1 << 27))
    {
        return cs_fail(err, CS_ERR_USAGE, "cs_lcp_reserve: bad size (%d bodies, %d rows)", bodies, rows);
    }
    if (bodies > p->body_capacity)
    {
        int cap = next_capacity(p->body_capacity, bodies);
        size_t n = (size_t)cap;
        if (!grow((void**)&p->inv_mass, n, sizeof(double)) ||
            !grow((void**)&p->inv_inertia, n, sizeof(double)) || !grow((void**)&p->v, 3 * n, sizeof(double)))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory reserving %d bodies", cap);
        }
        p->body_capacity = cap;
    }
    if (rows > p->row_capacity)
    {
        int cap = next_capacity(p->row_capacity, rows);
        size_t n = (size_t)cap;
        if (!grow((void**)&p->body_a, n, sizeof(int)) || !grow((void**)&p->body_b, n, sizeof(int)) ||
            !grow((void**)&p->jac, 6 * n, sizeof(double)) || !grow((void**)&p->bias, n, sizeof(double)) ||
            !grow((void**)&p->kind, n, sizeof(uint8_t)) || !grow((void**)&p->link, n, sizeof(int)) ||
            !grow((void**)&p->mu, n, sizeof(double)) || !grow((void**)&p->lo, n, sizeof(double)) ||
            !grow((void**)&p->hi, n, sizeof(double)) || !grow((void**)&p->lambda0, n, sizeof(double)) ||
            (p->reg != NULL && !grow((void**)&p->reg, n, sizeof(double))))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory reserving %d rows", cap);
        }
        p->row_capacity = cap;
    }
    return CS_OK;
}

void cs_lcp_free(cs_lcp* p)
{
    free(p->inv_mass);
    free(p->inv_inertia);
    free(p->v);
    free(p->body_a);
    free(p->body_b);
    free(p->jac);
    free(p->bias);
    free(p->kind);
    free(p->link);
    free(p->mu);
    free(p->lo);
    free(p->hi);
    free(p->lambda0);
    free(p->reg);
    memset(p, 0, sizeof *p);
}

cs_status cs_lcp_reserve_reg(cs_lcp* p, bool on, cs_error* err)
{
    if (!on)
    {
        free(p->reg);
        p->reg = NULL;
        return CS_OK;
    }
    if (p->reg == NULL)
    {
        p->reg = calloc(p->row_capacity > 0 ? (size_t)p->row_capacity : 1, sizeof(double));
        if (p->reg == NULL)
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory reserving the regularisation of %d rows",
                           p->row_capacity);
        }
    }
    return CS_OK;
}

cs_status cs_lcp_copy(cs_lcp* dst, const cs_lcp* src, cs_error* err)
{
    if (dst == src)
    {
        return CS_OK;
    }
    cs_status s = cs_lcp_reserve(dst, src->body_count, src->row_count, err);
    if (s != CS_OK)
    {
        return s;
    }
    memcpy(dst->name, src->name, sizeof dst->name);
    dst->name[sizeof dst->name - 1] = '\0';
    size_t nb = (size_t)src->body_count;
    size_t nr = (size_t)src->row_count;
    dst->body_count = src->body_count;
    dst->row_count = src->row_count;
    if (nb > 0)
    {
        memcpy(dst->inv_mass, src->inv_mass, nb * sizeof(double));
        memcpy(dst->inv_inertia, src->inv_inertia, nb * sizeof(double));
        memcpy(dst->v, src->v, 3 * nb * sizeof(double));
    }
    if (nr > 0)
    {
        memcpy(dst->body_a, src->body_a, nr * sizeof(int));
        memcpy(dst->body_b, src->body_b, nr * sizeof(int));
        memcpy(dst->jac, src->jac, 6 * nr * sizeof(double));
        memcpy(dst->bias, src->bias, nr * sizeof(double));
        memcpy(dst->kind, src->kind, nr * sizeof(uint8_t));
        memcpy(dst->link, src->link, nr * sizeof(int));
        memcpy(dst->mu, src->mu, nr * sizeof(double));
        memcpy(dst->lo, src->lo, nr * sizeof(double));
        memcpy(dst->hi, src->hi, nr * sizeof(double));
        memcpy(dst->lambda0, src->lambda0, nr * sizeof(double));
    }
    s = cs_lcp_reserve_reg(dst, src->reg != NULL, err);
    if (s == CS_OK && src->reg != NULL && nr > 0)
    {
        memcpy(dst->reg, src->reg, nr * sizeof(double));
    }
    return s;
}

int cs_lcp_bad_reg_row(const cs_lcp* p)
{
    for (int i = 0; p->reg != NULL && i < p->row_count; ++i)
    {
        if (!(p->reg[i] >= 0.0 && p->reg[i] < INFINITY) ||
            (p->reg[i] != 0.0 && p->kind[i] == CS_ROW_FRICTION))
        {
            return i;
        }
    }
    return -1;
}

void cs_lcp_bounds(const cs_lcp* p, const double* lambda, int i, double* lo, double* hi)
{
    cs_row_bounds(p, lambda, i, lo, hi);
}

void cs_lcp_set_contact_row(cs_lcp* p, int row, int a, int b, const double jac[6], double bias, int link,
                            double mu, double lambda0)
{
    p->body_a[row] = a;
    p->body_b[row] = b;
    memcpy(p->jac + 6 * row, jac, 6 * sizeof(double));
    p->bias[row] = bias;
    p->kind[row] = link >= 0 ? CS_ROW_FRICTION : CS_ROW_NORMAL;
    p->link[row] = link;
    p->mu[row] = link >= 0 ? mu : 0.0;
    p->lo[row] = 0.0;
    p->hi[row] = link >= 0 ? 0.0 : INFINITY;
    p->lambda0[row] = lambda0;
}
