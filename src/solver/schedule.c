// Which rows of a sweep go in vector lanes (simd.h): runs of four consecutive rows, or four consecutive
// normal/friction pairs, that touch eight different bodies. Everything else is swept one row at a time,
// in place, so the schedule never changes the order of the updates, only how many run at once.

#include <string.h>

#include "core/array.h"
#include "solver/fuse.h"
#include "solver/simd.h"
#include "solver/split.h"

// True when no body appears twice among the halves a[0..3], b[0..3], the zero slot aside: a static half
// adds M⁻¹Jᵀ·Δλ = 0 to the zero slot, so lanes may share it. That holds while impulses are finite: once a
// Δλ overflows to ±inf, 0·inf = NaN lands in the zero slot, which the next row reads in the scalar sweep
// and a lane may already have read as 0 — a solve that has overflowed is garbage either way, but then not
// the same garbage.
typedef int32_t cs_i4 __attribute__((vector_size(16)));

static inline cs_i4 rotate(cs_i4 x, int k)
{
    cs_i4 r = {x[k & 3], x[(k + 1) & 3], x[(k + 2) & 3], x[(k + 3) & 3]};
    return r;
}

// (All 28 pairs of the eight halves compared side by side, four lanes at a time: a with its rotations by 1
// and 2 covers a's six pairs, b likewise, and b with a's four rotations the sixteen pairs across. A pair
// both in the zero slot is no conflict.)
bool cs_lanes_independent(const int32_t* a, const int32_t* b, int32_t zero_slot)
{
    cs_i4 va, vb, z = {zero_slot, zero_slot, zero_slot, zero_slot};
    memcpy(&va, a, sizeof va);
    memcpy(&vb, b, sizeof vb);
    cs_i4 na = va != z, nb = vb != z;
    cs_i4 clash = ((va == rotate(va, 1)) | (va == rotate(va, 2))) & na;
    clash |= ((vb == rotate(vb, 1)) | (vb == rotate(vb, 2))) & nb;
    clash |= ((vb == va) | (vb == rotate(va, 1)) | (vb == rotate(va, 2)) | (vb == rotate(va, 3))) & nb;
    return (clash[0] | clash[1] | clash[2] | clash[3]) == 0;
}

// Rows [first, first + count) one at a time, merged into the previous item when that is one too.
void cs_push_rows(cs_sweep_item* items, int* item_count, int first, int count)
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
    items[(*item_count)++] = (cs_sweep_item){first, count, -1, 0};
}

// x[0..1] = (p.x, q.x), y[0..1] = (p.y, q.y): two lanes of an (x, y) field from two rows' cs_v2 (normal
// quads).
static inline void put_xy(double* x, double* y, cs_v2 p, cs_v2 q)
{
    cs_v2_store(x, cs_v2_set(p[0], q[0]));
    cs_v2_store(y, cs_v2_set(p[1], q[1]));
}

// A pair quad of the `pairs` pairs from rows (the lanes past them null: cs_pair_null_lane).
static void fill_pair_quad(cs_pair_quad* q, const cs_packed_row* rows, int pairs, int32_t zero_slot)
{
    for (int k = 0; k < CS_LANES; ++k)
    {
        if (k < pairs)
        {
            cs_pair_to_lane(q, k, rows + 2 * k, rows + 2 * k + 1);
        }
        else
        {
            cs_pair_null_lane(q, k, zero_slot);
        }
    }
}

// A normal quad from four consecutive records with fields ja, jb, ma, mb (cs_v2), bias, a and b: a
// cs_packed_row or a cs_split_row (the same fields, two record types), two lanes per store.
#define CS_FILL_NORMAL_QUAD(q, rows)                                                                         \
    do                                                                                                       \
    {                                                                                                        \
        for (int l = 0; l < CS_LANES; l += 2)                                                                \
        {                                                                                                    \
            put_xy((q)->jax + l, (q)->jay + l, (rows)[l].ja, (rows)[l + 1].ja);                              \
            put_xy((q)->jbx + l, (q)->jby + l, (rows)[l].jb, (rows)[l + 1].jb);                              \
            put_xy((q)->max + l, (q)->may + l, (rows)[l].ma, (rows)[l + 1].ma);                              \
            put_xy((q)->mbx + l, (q)->mby + l, (rows)[l].mb, (rows)[l + 1].mb);                              \
            (q)->bias[l] = (rows)[l].bias, (q)->bias[l + 1] = (rows)[l + 1].bias;                            \
            (q)->a[l] = (rows)[l].a, (q)->a[l + 1] = (rows)[l + 1].a;                                        \
            (q)->b[l] = (rows)[l].b, (q)->b[l + 1] = (rows)[l + 1].b;                                        \
        }                                                                                                    \
    } while (0)

static void fill_normal_quad(cs_normal_quad* q, const cs_packed_row* rows)
{
    CS_FILL_NORMAL_QUAD(q, rows);
}

// Whether the `units` (<= CS_LANES) records from `rows`, `stride` apart, are all of `kind` and independent. A
// pair's friction row must have μ >= 0: the lanes clamp as min(hi, max(lo, y)), which is the scalar branches'
// result only for lo <= hi (the LCP reader rejects μ < 0; a problem built in code might not). (A pair has the
// pair quad's structure: cs_pack_pairs.)
static bool quad_fits(const cs_packed_row* rows, int stride, uint32_t kind, int32_t zero_slot, int units)
{
    int32_t a[CS_LANES], b[CS_LANES];
    for (int l = 0; l < CS_LANES; ++l)
    {
        if (l >= units) // (a null lane: the zero slot, which lanes may share)
        {
            a[l] = b[l] = zero_slot;
            continue;
        }
        const cs_packed_row* r = rows + l * stride;
        if (r->kind != kind || ((kind & CS_PACK_PAIR) && !(r[1].mu >= 0.0)))
        {
            return false;
        }
        a[l] = r->a;
        b[l] = r->b;
    }
    return cs_lanes_independent(a, b, zero_slot);
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
    // (Short pair quads as cs_pack_lanes makes them: the first two or three pairs that are independent when
    // four are not.)
    const int fewest_pairs = cs_fuse_short_quads(m) ? 2 : CS_LANES;
    int i = 0;
    while (i < m)
    {
        int pairs = 0;
        for (int n = CS_LANES; n >= fewest_pairs && pairs == 0; --n)
        {
            pairs = i + 2 * n <= m && quad_fits(rows + i, 2, pair, zero_slot, n) ? n : 0;
        }
        // (The quad arrays grow as quads are found: a problem has pairs or bare normal rows, rarely both.)
        if (pairs > 0)
        {
            // (The capacity test inline: a call per quad cost more than the quad's lane test.)
            if (pair_count + 1 > w->quad_capacity &&
                !cs_grow(&w->quads, &w->quad_capacity, pair_count + 1, sizeof(cs_pair_quad)))
            {
                return cs_fail(err, CS_ERR_MEMORY, "out of memory: sweep schedule for %d rows", m);
            }
            fill_pair_quad((cs_pair_quad*)w->quads + pair_count, rows + i, pairs, zero_slot);
            items[item_count++] = (cs_sweep_item){i, 2 * pairs, pair_count++, pairs};
            i += 2 * pairs;
        }
        else if (i + CS_LANES <= m && quad_fits(rows + i, 1, CS_PACK_NORMAL_ROW, zero_slot, CS_LANES))
        {
            if (normal_count + 1 > w->normal_quad_capacity &&
                !cs_grow(&w->normal_quads, &w->normal_quad_capacity, normal_count + 1,
                         sizeof(cs_normal_quad)))
            {
                return cs_fail(err, CS_ERR_MEMORY, "out of memory: sweep schedule for %d rows", m);
            }
            fill_normal_quad((cs_normal_quad*)w->normal_quads + normal_count, rows + i);
            items[item_count++] = (cs_sweep_item){i, CS_LANES, normal_count++, 0};
            i += CS_LANES;
        }
        else
        {
            int unit = rows[i].kind == pair ? 2 : 1; // a pair is never split
            cs_push_rows(items, &item_count, i, unit);
            i += unit;
        }
    }
    w->schedule_count = item_count;
    return cs_schedule_runs(w) ? CS_OK
                               : cs_fail(err, CS_ERR_MEMORY, "out of memory: sweep schedule for %d rows", m);
}

// Whether an item starts or continues a run: a whole pair quad or a normal quad (not a short quad, not rows).
static bool in_runs(const cs_sweep_item* it)
{
    return it->quad >= 0 && (it->pairs == CS_LANES || it->pairs == 0);
}

// Whether item b continues item a's run: quads of one kind, b's quad and rows right after a's.
static bool run_continues(const cs_sweep_item* a, const cs_sweep_item* b)
{
    return in_runs(b) && b->pairs == a->pairs && b->quad == a->quad + 1 && b->first == a->first + a->count;
}

void cs_sweep_runs(const cs_sweep_item* items, int count, int32_t* runs)
{
    int32_t run = 0; // the run from item k + 1 on
    for (int k = count - 1; k >= 0; --k)
    {
        const cs_sweep_item* it = items + k;
        run = !in_runs(it) ? 0 : (run > 0 && run_continues(it, it + 1) ? run + 1 : 1);
        runs[k] = run;
    }
}

bool cs_schedule_runs(cs_solver_work* w)
{
    const int count = w->schedule_count;
    if (!cs_grow(&w->schedule_runs, &w->schedule_runs_capacity, count + 1, sizeof(int32_t)))
    {
        return false;
    }
    cs_sweep_runs(w->schedule, count, w->schedule_runs);
    return true;
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
        if (quad && cs_lanes_independent(a, b, zero_slot))
        {
            cs_normal_quad* q = work->quads + quad_count;
            const cs_split_row* r = rows + k;
            CS_FILL_NORMAL_QUAD(q, r);
            work->items[item_count++] = (cs_sweep_item){k, CS_LANES, quad_count++, 0};
            k += CS_LANES;
        }
        else
        {
            cs_push_rows(work->items, &item_count, k, 1);
            k += 1;
        }
    }
    work->item_count = item_count;
    cs_sweep_runs(work->items, item_count, work->runs);
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

typedef struct fused_args
{
    cs_rule rule;
    const cs_rule_state* st;
    cs_solve_ctx* ctx;
    const int32_t* runs; // the plan's (its items')
} fused_args;

#if CS_SIMD_X86
static void fused_items(void* arg, const cs_sweep_item* items, int begin, int end)
{
    const fused_args* f = arg;
    cs_avx2_sweep_items(f->rule, f->st, f->ctx, scalar_rows, items, f->runs, begin, end);
}
#endif

bool cs_sweep_lanes_fused(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, int sweeps)
{
    const cs_fuse_plan* plan = ctx->work->fuse;
    if (plan == NULL || plan->count == 0 || ctx->work->schedule_count == 0 ||
        plan->schedule_count != ctx->work->schedule_count || plan->rows != ctx->p->row_count)
    {
        return false;
    }
#if CS_SIMD_X86
    fused_args f = {rule, st, ctx, plan->runs};
    cs_fuse_run(plan, sweeps, fused_items, &f);
    return true;
#else
    (void)rule, (void)st, (void)sweeps;
    return false; // (no plan is built without the vector kernels: never here)
#endif
}

void cs_sweeps_fused_or(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, int sweeps,
                        cs_solver_sweep_fn one)
{
    if (cs_sweep_lanes_fused(rule, st, ctx, sweeps))
    {
        return;
    }
    for (int s = 0; s < sweeps; ++s)
    {
        one(ctx);
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
