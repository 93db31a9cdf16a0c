// Which rows of a sweep go in vector lanes (simd.h): runs of four consecutive rows, or four consecutive
// normal/friction pairs, that touch eight different bodies. Everything else is swept one row at a time,
// in place, so the schedule never changes the order of the updates, only how many run at once.

#include "core/array.h"
#include "solver/simd.h"
#include "solver/solver_internal.h"

// True when no body appears twice among the halves a[0..3], b[0..3], the zero slot aside: a static half
// adds M⁻¹Jᵀ·Δλ = 0 to the zero slot, so lanes may share it. That holds while impulses are finite: once a
// Δλ overflows to ±inf, 0·inf = NaN lands in the zero slot, which the next row reads in the scalar sweep
// and a lane may already have read as 0 — a solve that has overflowed is garbage either way, but then not
// the same garbage.
static bool lanes_independent(const int32_t* a, const int32_t* b, int32_t zero_slot)
{
    int32_t h[2 * CS_LANES];
    for (int l = 0; l < CS_LANES; ++l)
    {
        h[2 * l] = a[l];
        h[2 * l + 1] = b[l];
    }
    for (int i = 0; i < 2 * CS_LANES; ++i)
    {
        for (int j = i + 1; j < 2 * CS_LANES; ++j)
        {
            if (h[i] == h[j] && h[i] != zero_slot)
            {
                return false;
            }
        }
    }
    return true;
}

// Rows [first, first + count) one at a time, merged into the previous item when that is one too.
static void push_rows(cs_sweep_item* items, int* item_count, int first, int count)
{
    if (*item_count > 0)
    {
        cs_sweep_item* last = items + *item_count - 1;
        if (last->quad < 0 && last->first + last->count == first)
        {
            last->count += count;
            return;
        }
    }
    items[(*item_count)++] = (cs_sweep_item){first, count, -1};
}

static void fill_pair_quad(cs_pair_quad* q, const cs_packed_row* rows)
{
    for (int k = 0; k < CS_LANES; ++k)
    {
        const cs_packed_row* r = rows + 2 * k;
        const cs_packed_row* f = r + 1;
        int l = cs_pair_lane(k);
        q->nax[l] = r->ja[0], q->nay[l] = r->ja[1], q->nbx[l] = r->jb[0], q->nby[l] = r->jb[1];
        q->nmax[l] = r->ma[0], q->nmay[l] = r->ma[1], q->nmbx[l] = r->mb[0], q->nmby[l] = r->mb[1];
        q->nbias[l] = r->bias;
        q->coupling[l] = r->mu;
        q->fax[l] = f->ja[0], q->fay[l] = f->ja[1], q->fbx[l] = f->jb[0], q->fby[l] = f->jb[1];
        q->fwb[l] = f->jw[0], q->fwa[l] = f->jw[1];
        q->fmax[l] = f->ma[0], q->fmay[l] = f->ma[1], q->fmbx[l] = f->mb[0], q->fmby[l] = f->mb[1];
        q->fmwb[l] = f->mw[0], q->fmwa[l] = f->mw[1];
        q->fbias[l] = f->bias;
        q->mu[l] = f->mu;
        q->a[l] = r->a;
        q->b[l] = r->b;
    }
}

static void fill_normal_quad(cs_normal_quad* q, const cs_packed_row* rows)
{
    for (int l = 0; l < CS_LANES; ++l)
    {
        const cs_packed_row* r = rows + l;
        q->jax[l] = r->ja[0], q->jay[l] = r->ja[1], q->jbx[l] = r->jb[0], q->jby[l] = r->jb[1];
        q->max[l] = r->ma[0], q->may[l] = r->ma[1], q->mbx[l] = r->mb[0], q->mby[l] = r->mb[1];
        q->bias[l] = r->bias;
        q->a[l] = r->a;
        q->b[l] = r->b;
    }
}

// Whether the CS_LANES records from `rows`, `stride` apart, are all of `kind` and independent. A pair's
// friction row must have μ >= 0: the lanes clamp as min(hi, max(lo, y)), which is the scalar branches'
// result only for lo <= hi (the LCP reader rejects μ < 0; a problem built in code might not).
static bool quad_fits(const cs_packed_row* rows, int stride, uint32_t kind, int32_t zero_slot)
{
    int32_t a[CS_LANES], b[CS_LANES];
    for (int l = 0; l < CS_LANES; ++l)
    {
        const cs_packed_row* r = rows + l * stride;
        if (r->kind != kind || ((kind & CS_PACK_PAIR) && !(r[1].mu >= 0.0)))
        {
            return false;
        }
        a[l] = r->a;
        b[l] = r->b;
    }
    return lanes_independent(a, b, zero_slot);
}

cs_status cs_schedule_rows(const cs_lcp* p, cs_solver_work* w, cs_error* err)
{
    const int m = p->row_count;
    const cs_packed_row* rows = cs_packed_rows(w);
    const int32_t zero_slot = 3 * p->body_count;
    if (!cs_grow(&w->schedule, &w->schedule_capacity, m + 1, sizeof(cs_sweep_item)))
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory: sweep schedule for %d rows", m);
    }
    cs_sweep_item* items = w->schedule;
    int item_count = 0, pair_count = 0, normal_count = 0;
    const uint32_t pair = CS_PACK_NORMAL_ROW | CS_PACK_PAIR;
    int i = 0;
    while (i < m)
    {
        // (The quad arrays grow as quads are found: a problem has pairs or bare normal rows, rarely both.)
        if (i + 2 * CS_LANES <= m && quad_fits(rows + i, 2, pair, zero_slot))
        {
            if (!cs_grow(&w->quads, &w->quad_capacity, pair_count + 1, sizeof(cs_pair_quad)))
            {
                return cs_fail(err, CS_ERR_MEMORY, "out of memory: sweep schedule for %d rows", m);
            }
            fill_pair_quad((cs_pair_quad*)w->quads + pair_count, rows + i);
            items[item_count++] = (cs_sweep_item){i, 2 * CS_LANES, pair_count++};
            i += 2 * CS_LANES;
        }
        else if (i + CS_LANES <= m && quad_fits(rows + i, 1, CS_PACK_NORMAL_ROW, zero_slot))
        {
            if (!cs_grow(&w->normal_quads, &w->normal_quad_capacity, normal_count + 1,
                         sizeof(cs_normal_quad)))
            {
                return cs_fail(err, CS_ERR_MEMORY, "out of memory: sweep schedule for %d rows", m);
            }
            fill_normal_quad((cs_normal_quad*)w->normal_quads + normal_count, rows + i);
            items[item_count++] = (cs_sweep_item){i, CS_LANES, normal_count++};
            i += CS_LANES;
        }
        else
        {
            int unit = rows[i].kind == pair ? 2 : 1; // a pair is never split
            push_rows(items, &item_count, i, unit);
            i += unit;
        }
    }
    w->schedule_count = item_count;
    return CS_OK;
}

void cs_schedule_split(cs_split_work* work, int count, int32_t zero_slot)
{
    const cs_split_row* rows = work->rows;
    int item_count = 0, quad_count = 0;
    int k = 0;
    while (k < count)
    {
        bool quad = k + CS_LANES <= count;
        int32_t a[CS_LANES], b[CS_LANES];
        for (int l = 0; quad && l < CS_LANES; ++l)
        {
            quad = rows[k + l].a >= 0; // a compact circle normal row
            a[l] = rows[k + l].a;
            b[l] = rows[k + l].b;
        }
        if (quad && lanes_independent(a, b, zero_slot))
        {
            cs_normal_quad* q = work->quads + quad_count;
            for (int l = 0; l < CS_LANES; ++l)
            {
                const cs_split_row* r = rows + k + l;
                q->jax[l] = r->ja[0], q->jay[l] = r->ja[1], q->jbx[l] = r->jb[0], q->jby[l] = r->jb[1];
                q->max[l] = r->ma[0], q->may[l] = r->ma[1], q->mbx[l] = r->mb[0], q->mby[l] = r->mb[1];
                q->bias[l] = r->bias;
                q->a[l] = r->a;
                q->b[l] = r->b;
            }
            work->items[item_count++] = (cs_sweep_item){k, CS_LANES, quad_count++};
            k += CS_LANES;
        }
        else
        {
            push_rows(work->items, &item_count, k, 1);
            k += 1;
        }
    }
    work->item_count = item_count;
}

static void scalar_rows(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, int begin, int end)
{
    // One call site per rule, so that each is specialised.
    cs_solver_work* w = ctx->work;
    if (rule == CS_RULE_PGS)
    {
        cs_sweep(CS_RULE_PGS, st, ctx->p, cs_packed_rows(w), w->v, ctx->lambda, begin, end);
    }
    else if (rule == CS_RULE_PSOR)
    {
        cs_sweep(CS_RULE_PSOR, st, ctx->p, cs_packed_rows(w), w->v, ctx->lambda, begin, end);
    }
    else
    {
        cs_sweep(CS_RULE_AMGS, st, ctx->p, cs_packed_rows(w), w->v, ctx->lambda, begin, end);
    }
}

void cs_sweep_lanes(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx)
{
#if CS_SIMD_X86
    cs_avx2_sweep(rule, st, ctx, scalar_rows);
#else
    scalar_rows(rule, st, ctx, 0, ctx->p->row_count); // no schedule is built without the vector kernels
#endif
}
