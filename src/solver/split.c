// Split impulses (docs/PHYSICS.md, step 7): PGS on the velocity problem's normal rows with the position
// problem's right-hand side, v* = 0 and λ⁰ = 0 (cs_solve_split, solver_internal.h). It reads the rows the
// velocity solve packed (and, with vector sweeps, its quads) and never builds a problem of its own.
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "solver/simd.h"
#include "solver/split.h"

// Which way cs_solve_split goes: on the velocity problem's own vector schedule when the split rows are all
// of its rows (stride 1) or all of its normal rows (stride 2, pairs), else on a schedule of its own when the
// vector sweeps run, else one row at a time.
typedef enum split_path
{
    SPLIT_SCALAR,
    SPLIT_OWN_SCHEDULE,
    SPLIT_ON_VELOCITY,
} split_path;

// The velocity quads are the split solve's source whenever the velocity sweeps are not fused: their normal
// fields (224 of a compact pair quad's 544 bytes) and the split's bias and λ by lane (64 bytes) are 72 bytes
// a row against the 80 of a compact split row, and the compaction and the split's own schedule are saved.
// (Until 28 Nov 2026 past 6 000 split rows the split compacted its own rows: measured when the pair quads
// were 800 bytes. Re-measured on the compact quads, a 20 000-circle pool on one thread, callgrind with a 1
// MiB L2: the position solve 227.3 → 195.5 M instructions, its L2 read misses 14.9 → 11.8 M, write misses 2.8
// → 0.6 M; docs/PERFORMANCE.md "The split solve on the velocity quads".) When the velocity solve has a fused
// plan (fuse.h) the split takes its own schedule, whose sweeps 2..20 that plan maps onto.
int cs_split_own_min_rows = INT_MAX;

static bool velocity_fused(const cs_solver_work* solved)
{
    const cs_fuse_plan* plan = solved->fuse;
    return plan != NULL && plan->count > 0;
}

static split_path choose_path(const cs_solver_work* solved, bool simd, int first, int stride, int count)
{
    if (!(simd && cs_simd_cpu()))
    {
        return SPLIT_SCALAR;
    }
    // The velocity schedule covers rows [0, m): usable when the split rows are all of them (stride 1) or
    // all of their normal rows (stride 2), i.e. m = stride·count.
    const cs_sweep_item* last = solved->schedule_count > 0
                                    ? (const cs_sweep_item*)solved->schedule + solved->schedule_count - 1
                                    : NULL;
    if (last != NULL && first == 0 && (stride == 1 || stride == 2) &&
        last->first + last->count == stride * count && !velocity_fused(solved) &&
        count < cs_split_own_min_rows)
    {
        return SPLIT_ON_VELOCITY;
    }
    return SPLIT_OWN_SCHEDULE;
}

// Whether compact_from_lanes takes the split rows straight from the lanes: the world's split rows (first 0,
// stride 2) of a schedule that ends at their last row, every pair quad on an even row. Writes nothing.
static bool lanes_hold_split(const cs_solver_work* solved, int first, int stride, int count)
{
    const cs_sweep_item* items = solved->schedule;
    const int n = solved->schedule_count;
    if (!solved->lanes_only || first != 0 || stride != 2 || n == 0 ||
        items[n - 1].first + items[n - 1].count != 2 * count)
    {
        return false;
    }
    for (int t = 0; t < n; ++t)
    {
        if (items[t].quad >= 0 && items[t].pairs > 0 && items[t].first % 2 != 0)
        {
            return false;
        }
    }
    return true;
}

cs_status cs_split_work_reserve(cs_split_work* work, const cs_solver_work* solved, bool simd, int first,
                                int stride, int count, cs_error* err)
{
    // The split rows compacted from records need the quads' records (lanes_only packs none): written here,
    // before the step posts the split solve to a worker, since the velocity solve's fused sweeps read the
    // records of the quads their plan took apart (fuse.c) while that worker runs. (The same values: a race
    // all the same.)
    split_path path = choose_path(solved, simd, first, stride, count);
    if (count > 0 && path != SPLIT_ON_VELOCITY && !lanes_hold_split(solved, first, stride, count))
    {
        cs_pack_records_from_lanes(solved);
    }
    int cap = cs_grow_capacity(0, count);
    bool ok = true;
    if (count > work->capacity || work->rows == NULL)
    {
        cap = cs_grow_capacity(work->capacity, count);
        ok = CS_RESIZE(work->rows, cap);
        work->capacity = ok ? cap : work->capacity;
    }
    // Only the arrays of the path this solve takes (each grows on its own).
    switch (path)
    {
        case SPLIT_OWN_SCHEDULE:
            if (ok && (count > work->own_capacity || work->quads == NULL))
            {
                cap = cs_grow_capacity(work->own_capacity, count);
                ok = CS_RESIZE(work->quads, cap / CS_LANES + 1) && CS_RESIZE(work->items, cap + 1) &&
                     CS_RESIZE(work->runs, cap + 1);
                work->own_capacity = ok ? cap : 0;
            }
            // Room for the velocity plan's fused order mapped onto the split rows (cs_fuse_plan_split).
            ok = ok &&
                 (stride * count < cs_fuse_min_rows || cs_fuse_plan_reserve(&work->fuse, stride * count, 0));
            break;
        case SPLIT_ON_VELOCITY:
            if (ok && (count > work->lane_capacity || work->quad_lanes == NULL))
            {
                // (2·CS_LANES numbers a quad, and a quad holds at least two split rows: a short pair quad.)
                cap = cs_grow_capacity(work->lane_capacity, count);
                ok = CS_RESIZE(work->quad_lanes, CS_LANES * (cap + 2));
                work->lane_capacity = ok ? cap : 0;
            }
            break;
        default:
            break;
    }
    return ok ? CS_OK : cs_fail(err, CS_ERR_MEMORY, "out of memory: split-impulse work for %d rows", cap);
}

void cs_split_work_free(cs_split_work* work)
{
    free(work->rows);
    free(work->quads);
    free(work->items);
    free(work->runs);
    free(work->quad_lanes);
    cs_fuse_plan_free(&work->fuse);
    *work = (cs_split_work){0};
}

// A circle normal row's step from its halves' relative velocity (its halves are opposed: compact_row),
//     b_k / A_ii + (jbx·(vbx − vax) + jby·(vby − vay)),
// cs_halves_step_opposed's operations, which normal_quad does by lane.
static inline double split_step(const cs_split_row* r, const cs_halves* h)
{
    cs_v2 p = r->jb * (h->b - h->a);
    return r->bias + (p[0] + p[1]);
}

// The split-impulse sweep (cs_solve_split): circle normal rows from their compact copies, with the same
// operations as cs_sweep's NORMAL_ROW path, so the result equals a PGS solve of those rows packed as a
// problem of their own; any other row from its packed record (rows + first + k·stride). Rows [begin, end).
// measure: returns whether a row's update moved by sqrt(limit2) (cs_split_moved; a record's row by its linear
// halves); else measures nothing and returns true.
static inline __attribute__((always_inline)) bool sweep_rows(bool measure, const cs_split_row* split,
                                                             const cs_packed_row* rows, int first, int stride,
                                                             int begin, int end, double limit2,
                                                             double* lambda, double* v)
{
    bool moved = !measure;
    cs_rule_state none = {0};
    cs_halves last = {.ia = -1, .ib = -1}; // the previous compact row's halves (cs_halves_carry)
    for (int k = begin; k < end; ++k)
    {
        const cs_split_row* r = split + k;
        double old = lambda[k];
        if (r->a >= 0)
        {
            cs_halves h;
            cs_halves_load_xy(&h, v, r->a, r->b);
            cs_halves_carry(&h, &last, false, true);
            double step = split_step(r, &h);
            double next = cs_rule_apply(CS_RULE_PGS, &none, k, step, old, 0.0, INFINITY, true);
            cs_halves_apply_xy(r->ma, r->mb, &h, next - old);
            cs_halves_store(&h, v, true);
            lambda[k] = next;
            last = h;
            moved |= measure && cs_split_moved(r->ma, r->mb, next - old, limit2);
        }
        else
        {
            last.ia = last.ib = -1; // the generic path writes through memory
            const cs_packed_row* p = rows + first + (size_t)k * (size_t)stride;
            if (!(p->kind & CS_PACK_SKIP))
            {
                double next = cs_rule_apply(CS_RULE_PGS, &none, k, cs_pack_step(p, r->bias, v), old, 0.0,
                                            INFINITY, false);
                lambda[k] = next;
                cs_pack_apply(p, next - old, v);
                moved |= measure && cs_split_moved(p->ma, p->mb, next - old, limit2);
            }
        }
    }
    return moved;
}

// sweep_rows measuring when limit2 > 0 (two instances: without the measure, the sweep is what it was).
static bool split_sweep(const cs_split_row* split, const cs_packed_row* rows, int first, int stride,
                        int begin, int end, double limit2, double* lambda, double* v)
{
    return limit2 > 0.0 ? sweep_rows(true, split, rows, first, stride, begin, end, limit2, lambda, v)
                        : sweep_rows(false, split, rows, first, stride, begin, end, limit2, lambda, v);
}

// Only the first sweep is measured (cs_solve_split): the limit for sweep s (0-based), 0 = none.
static inline double first_limit(int s, double limit2)
{
    return s == 0 ? limit2 : 0.0;
}

typedef struct split_args
{
    const cs_split_row* split;
    const cs_packed_row* rows;
    int first, stride;
    double limit2;
} split_args;

static bool split_rows(const void* arg, int begin, int end, double* lambda, double* v)
{
    const split_args* a = arg;
    return split_sweep(a->split, a->rows, a->first, a->stride, begin, end, a->limit2, lambda, v);
}

// The compact copy of split row k (velocity row i) with right-hand side b_k.
static void compact_row(const cs_packed_row* p, double bias_k, double inv_diag, cs_split_row* r)
{
    r->bias = bias_k * inv_diag; // the product the packing does for a row's own bias
    if ((p->kind & ~(uint32_t)CS_PACK_PAIR) == CS_PACK_NORMAL_ROW) // pairs belong to the velocity problem
    {
        r->ja = p->ja;
        r->jb = p->jb;
        r->ma = p->ma;
        r->mb = p->mb;
        r->a = p->a;
        r->b = p->b;
    }
    else
    {
        r->a = -1;
    }
}

// The world's split rows (first 0, stride 2: every even row, the normal rows of a problem of pairs, up to the
// last row of the schedule) after cs_pack_lanes compacted as from their records, those in quads straight
// from the lanes (cs_pair_lane_normal, cs_normal_from_lane: the numbers of the records that
// cs_pack_records_from_lanes would write, 256 bytes a pair, without writing them). False for any other split
// problem, or a pair quad off an even row (lanes_hold_split): the caller then compacts every row from its
// record, which cs_split_work_reserve wrote.
static bool compact_from_lanes(const cs_solver_work* solved, int first, int stride, int count,
                               const double* b, cs_split_row* split, double* lambda)
{
    if (!lanes_hold_split(solved, first, stride, count))
    {
        return false;
    }
    const cs_sweep_item* items = solved->schedule;
    const int n = solved->schedule_count;
    const cs_packed_row* rows = cs_packed_rows(solved);
    const cs_pair_quad* pairs = solved->quads;
    const cs_normal_quad* normals = solved->normal_quads;
    const double* inv_diag = solved->inv_diag;
    for (int t = 0; t < n; ++t)
    {
        const cs_sweep_item* it = items + t;
        if (it->quad >= 0 && it->pairs > 0)
        {
            const cs_pair_quad* q = pairs + it->quad;
            for (int u = 0; u < it->pairs; ++u) // pair u: split row first / 2 + u
            {
                int k = it->first / 2 + u, l = cs_pair_lane(u);
                cs_pair_normal p = cs_pair_lane_normal(q, l);
                split[k] = (cs_split_row){.ja = p.ja,
                                          .jb = p.jb,
                                          .ma = p.ma,
                                          .mb = p.mb,
                                          .bias = b[k] * inv_diag[2 * k], // as compact_row
                                          .a = q->a[l],
                                          .b = q->b[l]};
                lambda[k] = 0.0;
            }
            continue;
        }
        for (int i = (it->first + 1) & ~1; i < it->first + it->count; i += 2) // even rows: split row i / 2
        {
            cs_packed_row lane_row;
            const cs_packed_row* r = rows + i;
            if (it->quad >= 0)
            {
                cs_normal_from_lane(normals + it->quad, i - it->first, &lane_row);
                r = &lane_row;
            }
            compact_row(r, b[i / 2], inv_diag[i], split + i / 2);
            lambda[i / 2] = 0.0;
        }
    }
    return true;
}

#if CS_SIMD_X86
// Split row k is velocity row k·stride. A velocity quad of n pairs (stride 2, rows i .. i + 2n − 1) holds
// split rows i/2 .. i/2 + n − 1 in its normal fields, lanes in the order (0, 2, 1, 3); a quad of four normal
// rows (stride 1) holds rows i .. i + 3 in row order. Those are swept on the velocity quads with their split
// bias and λ kept per quad by lane (a short quad's null lanes: bias and λ +0, and λ stays +0); the rows of
// the other items are compacted as usual (cs_split_lanes).
static inline int split_row_of_lane(const cs_sweep_item* it, int stride, int lane)
{
    return stride == 2 ? it->first / 2 + cs_pair_lane(lane) : it->first + lane;
}

// Whether lane l of quad item `it` holds a split row (not a short pair quad's null lane).
static inline bool split_lane_real(const cs_sweep_item* it, int stride, int lane)
{
    return stride != 2 || cs_pair_lane(lane) < it->pairs;
}

// split_on_velocity for one stride (a constant once inlined, so that cs_split_lanes and the lanes' rows
// fold to a few compares and fixed offsets).
static inline __attribute__((always_inline)) int split_on_stride(const cs_solver_work* solved, int stride,
                                                                 const double* b, int iterations,
                                                                 double limit2, cs_split_work* work,
                                                                 double* lambda, double* v)
{
    const cs_packed_row* rows = cs_packed_rows(solved);
    const cs_sweep_item* items = solved->schedule;
    const double* inv_diag = solved->inv_diag;
    for (int n = 0; n < solved->schedule_count; ++n)
    {
        const cs_sweep_item* it = items + n;
        if (cs_split_lanes(it, stride) != CS_SPLIT_ROWS)
        {
            // (Whole quads apart, so that their four lanes unroll without a test each.)
            double* lanes = work->quad_lanes + 2 * CS_LANES * it->quad;
            bool whole = stride != 2 || it->pairs == CS_LANES;
            for (int l = 0; whole && l < CS_LANES; ++l)
            {
                int k = split_row_of_lane(it, stride, l);
                lanes[l] = b[k] * inv_diag[stride * k];
                lanes[CS_LANES + l] = 0.0;
            }
            for (int l = 0; !whole && l < CS_LANES; ++l)
            {
                int k = split_row_of_lane(it, stride, l);
                lanes[l] = split_lane_real(it, stride, l) ? b[k] * inv_diag[stride * k] : 0.0;
                lanes[CS_LANES + l] = 0.0;
            }
            continue;
        }
        int k0, k1;
        cs_split_range(it, stride, &k0, &k1);
        for (int k = k0; k < k1; ++k)
        {
            compact_row(rows + stride * k, b[k], inv_diag[stride * k], work->rows + k);
            lambda[k] = 0.0;
        }
    }
    split_args args = {work->rows, rows, 0, stride, limit2};
    int sweeps = 0;
    while (sweeps < iterations)
    {
        args.limit2 = first_limit(sweeps, limit2);
        sweeps += 1;
        if (!cs_avx2_sweep_split_on(solved, stride, work, args.limit2, lambda, v, split_rows, &args))
        {
            break;
        }
    }
    for (int n = 0; n < solved->schedule_count; ++n)
    {
        const cs_sweep_item* it = items + n;
        if (cs_split_lanes(it, stride) != CS_SPLIT_ROWS)
        {
            const double* lanes = work->quad_lanes + 2 * CS_LANES * it->quad + CS_LANES;
            bool whole = stride != 2 || it->pairs == CS_LANES;
            for (int l = 0; l < CS_LANES; ++l)
            {
                if (whole || split_lane_real(it, stride, l))
                {
                    lambda[split_row_of_lane(it, stride, l)] = lanes[l];
                }
            }
        }
    }
    return sweeps;
}

static int split_on_velocity(const cs_solver_work* solved, int stride, const double* b, int iterations,
                             double limit2, cs_split_work* work, double* lambda, double* v)
{
    return stride == 2 ? split_on_stride(solved, 2, b, iterations, limit2, work, lambda, v)
                       : split_on_stride(solved, 1, b, iterations, limit2, work, lambda, v);
}
#endif

#if CS_SIMD_X86
// The sweeps after the first in the fused order (fuse.h), segment by segment, unmeasured.
typedef struct split_fused
{
    const cs_split_work* work;
    split_args args;
    double *lambda, *v;
} split_fused;

static void split_fused_items(void* arg, const cs_sweep_item* items, int begin, int end)
{
    const split_fused* f = arg;
    cs_avx2_sweep_split_items(f->work, items, f->work->fuse.runs, begin, end, f->lambda, f->v, split_rows,
                              &f->args);
}

// cs_solve_split on its own schedule: the first sweep (measured when limit2 > 0, and then possibly the last),
// the others fused when the velocity solve's plan maps onto its schedule (the same bits as one after the
// other). The plan is mapped only once the first sweep says go on: a settled pile ends there.
static int split_own_schedule(const cs_solver_work* solved, cs_split_work* work, const cs_packed_row* rows,
                              int first, int stride, int iterations, double limit2, double* lambda, double* v)
{
    split_args args = {work->rows, rows, first, stride, limit2};
    work->fuse.count = 0;
    int sweeps = 0;
    while (sweeps < iterations)
    {
        args.limit2 = first_limit(sweeps, limit2);
        sweeps += 1;
        if (!cs_avx2_sweep_split(work, args.limit2, lambda, v, split_rows, &args))
        {
            break;
        }
        if (sweeps == 1 && iterations > 2 && first == 0 && stride == 2 &&
            cs_fuse_plan_split(&work->fuse, solved, work->items, work->item_count))
        {
            split_fused f = {work, {work->rows, rows, first, stride, 0.0}, lambda, v};
            cs_fuse_run(&work->fuse, iterations - 1, split_fused_items, &f);
            return iterations;
        }
    }
    return sweeps;
}
#endif

int cs_solve_split(const cs_solver_work* solved, int bodies, int first, int stride, int count,
                   const double* b, int iterations, double dv_limit, bool simd, cs_split_work* work,
                   double* lambda, double* v)
{
    const cs_packed_row* rows = cs_packed_rows(solved);
    memset(v, 0, 3 * ((size_t)bodies + 1) * sizeof(double));
    if (count == 0)
    {
        return 0; // nothing to solve: no sweep (cs_step_stats.position_sweeps 0)
    }
    // (A limit whose square underflows to 0 measures nothing: every sweep runs, as for 0.)
    double limit2 = dv_limit * dv_limit;
    split_path path = choose_path(solved, simd, first, stride, count);
#if CS_SIMD_X86
    if (path == SPLIT_ON_VELOCITY)
    {
        return split_on_velocity(solved, stride, b, iterations, limit2, work, lambda, v);
    }
#endif
    // Off the velocity schedule every split row is compacted from its record (the rows in lanes get theirs),
    // or straight from the lanes where those hold them.
    cs_split_row* split = work->rows;
    if (!compact_from_lanes(solved, first, stride, count, b, split, lambda))
    {
        // (The quads' records were written by cs_split_work_reserve, on the thread that posts this solve.)
        for (int k = 0; k < count; ++k)
        {
            size_t i = (size_t)first + (size_t)k * (size_t)stride;
            compact_row(rows + i, b[k], solved->inv_diag[i], split + k);
            lambda[k] = 0.0;
        }
    }
#if CS_SIMD_X86
    if (path == SPLIT_OWN_SCHEDULE)
    {
        cs_schedule_split(work, count, 3 * bodies);
        return split_own_schedule(solved, work, rows, first, stride, iterations, limit2, lambda, v);
    }
#endif
    (void)path;
    int sweeps = 0;
    while (sweeps < iterations)
    {
        double limit = first_limit(sweeps, limit2);
        sweeps += 1;
        if (!split_sweep(split, rows, first, stride, 0, count, limit, lambda, v))
        {
            break;
        }
    }
    return sweeps;
}
