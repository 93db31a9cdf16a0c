// The wavefront over several sweeps (fuse.h): the fused order of a schedule's units, its segments and their
// deps in one pass over the schedule, and the driver.
#include "solver/fuse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "solver/simd.h"

int cs_fuse_min_rows = 200000;

// A unit whose bodies' last units all lie more than this many units back is pulled forward to sit after them
// (fused_order: the pools' wall contacts, at the end of the contact list); a quad whose lanes would go
// further apart than this is taken apart. A pool's lattice row is ~170 units at 50 000 circles.
#define CS_FUSE_FAR_UNITS 512

// Scratch by body: the anchor of its last unit (-1: none yet) and the segment of its first. Indexed by body +
// 1: entry 0 (a static half, body -1) is a blank that no test sees (the lowest anchor, the highest first
// segment), so that the pass needs no branch per half.
typedef struct cs_fuse_body
{
    int32_t anchor, first_segment;
} cs_fuse_body;

void cs_fuse_plan_free(cs_fuse_plan* plan)
{
    free(plan->items);
    free(plan->units);
    free(plan->first);
    free(plan->dep);
    free(plan->runs);
    free(plan->anchor);
    free(plan->next);
    free(plan->bodies);
    *plan = (cs_fuse_plan){0};
}

static bool grow_int32(int32_t** array, int* capacity, int needed)
{
    return CS_GROW(*array, *capacity, needed);
}

// (Units, items and segments are at most one a row; first takes one more. Every array grows to rows + 1, so
// that the one capacity holds for all: at rows == row_capacity nothing grows again.)
bool cs_fuse_plan_reserve(cs_fuse_plan* plan, int rows, int bodies)
{
    int c[7] = {plan->row_capacity, plan->row_capacity, plan->row_capacity, plan->row_capacity,
                plan->row_capacity, plan->row_capacity, plan->row_capacity};
    int n = rows + 1;
    bool ok = CS_GROW(plan->items, c[0], n) && CS_GROW(plan->units, c[1], n) &&
              grow_int32(&plan->anchor, &c[2], n) && grow_int32(&plan->next, &c[3], n) &&
              grow_int32(&plan->first, &c[4], n) && grow_int32(&plan->dep, &c[5], n) &&
              grow_int32(&plan->runs, &c[6], n) && CS_GROW(plan->bodies, plan->body_capacity, bodies + 1);
    for (int i = 0; ok && i < 7; ++i)
    {
        plan->row_capacity = i == 0 || c[i] < plan->row_capacity ? c[i] : plan->row_capacity;
    }
    return ok;
}

// Where the rows' bodies come from: the problem's body indices.
typedef struct body_source
{
    const int *body_a, *body_b;
} body_source;

// The scratch entries (body + 1, cs_fuse_body) of row i's halves: 0 for a static half.
static inline void row_bodies(const body_source* s, int i, int32_t* ab)
{
    ab[0] = s->body_a[i] + 1;
    ab[1] = s->body_b[i] + 1;
}

// The rows a lane of quad item `it` holds: a pair (its friction row on its normal row's bodies: the pair
// quad's structure) or a normal row.
static inline int lane_rows(const cs_sweep_item* it)
{
    return it->pairs > 0 ? 2 : 1;
}

// The lanes of quad item `it` that hold rows (a short pair quad's null lanes hold none).
static inline int item_lanes(const cs_sweep_item* it)
{
    return it->pairs > 0 ? it->pairs : CS_LANES;
}

// The pass that orders the units (fused_order), in the schedule's order.
typedef struct order_pass
{
    cs_fuse_plan* plan;
    const body_source* src;
    const cs_lcp* p;            // (friction links)
    const cs_solver_work* work; // (records for a quad taken apart when lanes_only)
    int n;                      // units so far
    int segments;               // segments with a back so far
    int moved;                  // units with an anchor before them
    int quads_apart;            // quads taken apart
} order_pass;

// What the units before this one left on the bodies ab[0 .. count): the largest anchor of their last units
// (-1: none), and whether one of the bodies has no unit yet (fresh).
typedef struct unit_past
{
    int32_t most;
    bool fresh;
} unit_past;

static inline unit_past past_of(const cs_fuse_body* body, const int32_t* ab, int count)
{
    unit_past u = {-1, false};
    for (int h = 0; h < count; ++h)
    {
        int32_t anchor = body[ab[h]].anchor;
        u.most = anchor > u.most ? anchor : u.most;
        u.fresh |= anchor == -1;
    }
    return u;
}

// The anchor of unit k with that past: the largest anchor on its bodies when that is more than
// CS_FUSE_FAR_UNITS back and it brings no fresh body (which would drag that body's later units' dependencies
// up with it), else k.
static inline int32_t anchor_of(unit_past past, int32_t k)
{
    return !past.fresh && past.most >= 0 && k - past.most > CS_FUSE_FAR_UNITS ? past.most : k;
}

// Appends unit u on the bodies ab[0 .. count): its anchor, and its segment's back (plan->dep until
// dep_of_backs: the first segment with a body of that segment) lowered to its bodies' first segments.
static inline void add_unit(order_pass* o, cs_sweep_item u, unit_past past, const int32_t* ab, int count)
{
    cs_fuse_plan* plan = o->plan;
    int32_t k = o->n++;
    int32_t anchor = anchor_of(past, k);
    int32_t segment = anchor / CS_FUSE_SEGMENT_UNITS;
    while (o->segments <= segment) // (a moved unit's segment is an earlier unit's: they appear in order)
    {
        plan->dep[o->segments] = o->segments;
        o->segments += 1;
    }
    int32_t back = plan->dep[segment];
    for (int h = 0; h < count; ++h)
    {
        cs_fuse_body* b = plan->bodies + ab[h];
        b->first_segment = b->anchor == -1 ? segment : b->first_segment;
        b->anchor = anchor;
        back = b->first_segment < back ? b->first_segment : back;
    }
    plan->bodies[0].anchor = INT32_MIN; // (the blank, written over above)
    plan->dep[segment] = back;
    plan->units[k] = u;
    plan->anchor[k] = anchor;
    o->moved += anchor != k;
}

// A quad: one unit, or when its lanes would go far apart one unit a lane (the lanes share no body: any order,
// the same bits), so that each can sit near its own bodies (in the pools a 64-contact block holds both the
// last lattice row's contacts and the first wall contacts).
static void add_quad(order_pass* o, const cs_sweep_item* it)
{
    int32_t ab[2 * CS_LANES];
    unit_past lane[CS_LANES], all = {-1, false};
    int32_t lo = INT32_MAX, hi = -1;
    const int lanes = item_lanes(it);
    for (int l = 0; l < lanes; ++l)
    {
        row_bodies(o->src, it->first + l * lane_rows(it), ab + 2 * l);
        lane[l] = past_of(o->plan->bodies, ab + 2 * l, 2);
        int32_t at = anchor_of(lane[l], o->n); // where the lane alone would go
        lo = at < lo ? at : lo;
        hi = at > hi ? at : hi;
        all.most = lane[l].most > all.most ? lane[l].most : all.most;
        all.fresh |= lane[l].fresh;
    }
    if (hi - lo <= CS_FUSE_FAR_UNITS)
    {
        add_unit(o, *it, all, ab, 2 * lanes);
        return;
    }
    if (o->work->lanes_only)
    {
        cs_pack_records_of_quad(o->work, it); // its rows are swept from their records now
    }
    o->quads_apart += 1;
    int per = lane_rows(it);
    for (int l = 0; l < lanes; ++l) // (a lane's past is not changed by the others')
    {
        add_unit(o, (cs_sweep_item){it->first + l * per, per, -1, 0}, lane[l], ab + 2 * l, 2);
    }
}

// A run: each row a unit, but for a friction row, which stays with its normal row right before it (a pair).
// False when a friction row's normal row is elsewhere (its bound reads that row's λ: a dependency that is
// not a body, and no plan).
static bool add_run(order_pass* o, const cs_sweep_item* it)
{
    const cs_lcp* p = o->p;
    for (int i = it->first; i < it->first + it->count;)
    {
        int per = i + 1 < it->first + it->count && p->kind[i + 1] == CS_ROW_FRICTION ? 2 : 1;
        if (p->kind[i] == CS_ROW_FRICTION || (per == 2 && p->link[i + 1] != i))
        {
            return false;
        }
        int32_t ab[4];
        row_bodies(o->src, i, ab);
        if (per == 2)
        {
            row_bodies(o->src, i + 1, ab + 2);
        }
        add_unit(o, (cs_sweep_item){i, per, -1, 0}, past_of(o->plan->bodies, ab, 2 * per), ab, 2 * per);
        i += per;
    }
    return true;
}

// The moved units as lists by anchor, each in increasing index (a stable bucket sort, O(n)): an anchor is
// a kept unit's index (a moved unit takes an anchor on its bodies, and anchors chain back to kept units), so
// kept unit k's own next[k] heads the list of the units anchored at k, and a moved unit's next[u] is the one
// after it (-1 ends a list). Prepending from the last unit down leaves each list in increasing index.
static void list_moved(cs_fuse_plan* plan, int n)
{
    int32_t* next = plan->next;
    const int32_t* anchor = plan->anchor;
    for (int32_t k = 0; k < n; ++k)
    {
        next[k] = -1;
    }
    for (int32_t k = n - 1; k >= 0; --k)
    {
        if (anchor[k] != k)
        {
            next[k] = next[anchor[k]];
            next[anchor[k]] = k;
        }
    }
}

// Appends unit u of `segment` to plan->items (a run merged into the run before it in the same segment when
// its rows follow) and starts the segment, and any empty ones before it (all their units moved up).
static inline void emit(cs_fuse_plan* plan, int* count, int* segments, int32_t segment, cs_sweep_item u)
{
    while (*segments <= segment)
    {
        plan->first[(*segments)++] = *count;
    }
    cs_sweep_item* last = *count > plan->first[segment] ? plan->items + *count - 1 : NULL;
    if (last != NULL && u.quad < 0 && last->quad < 0 && last->first + last->count == u.first)
    {
        last->count += u.count;
        return;
    }
    plan->items[(*count)++] = u;
}

// The deps from the backs in plan->dep (back[j]: the first segment with a body of segment j): dep[j] = the
// last segment whose back is j or before, which is >= j and >= every segment that shares a body with j (its
// back is at j or before).
static void dep_of_backs(cs_fuse_plan* plan)
{
    int32_t* dep = plan->dep;
    int32_t* last = plan->anchor; // (free by now) the last segment with each back
    for (int j = 0; j < plan->count; ++j)
    {
        last[j] = j;
    }
    for (int j = 0; j < plan->count; ++j)
    {
        last[dep[j]] = j > last[dep[j]] ? j : last[dep[j]];
    }
    int32_t most = 0;
    for (int j = 0; j < plan->count; ++j)
    {
        most = last[j] > most ? last[j] : most;
        dep[j] = most;
    }
}

// The units (add_quad, add_run) with their anchors and their segments' backs; false when a friction row is
// not right after its normal row.
static bool anchor_units(order_pass* o, const cs_sweep_item* items, int item_count, int bodies)
{
    cs_fuse_plan* plan = o->plan;
    memset(plan->bodies, 0xff, ((size_t)bodies + 1) * sizeof(cs_fuse_body)); // anchor -1: no unit yet
    plan->bodies[0] = (cs_fuse_body){INT32_MIN, INT32_MAX};
    for (int k = 0; k < item_count; ++k)
    {
        const cs_sweep_item* it = items + k;
        if (it->quad >= 0)
        {
            // (The quads' pairs are pairs of the packing: a friction row right after its normal row.)
            add_quad(o, it);
        }
        else if (!add_run(o, it))
        {
            return false;
        }
    }
    return true;
}

// Whether the deps are near enough for the wavefront to pay: a mean dep[j] − j of CS_FUSE_FAR_MEAN segments
// or less (else each segment is read again only after ~T·mean segments, out of L2, and the levels barely
// overlap).
static bool deps_near(const cs_fuse_plan* plan)
{
    int64_t far = 0;
    for (int j = 0; j < plan->count; ++j)
    {
        far += plan->dep[j] - j;
    }
    return far <= (int64_t)CS_FUSE_FAR_MEAN * plan->count;
}

// The fused order (fuse.h): the units (anchor_units), each with an anchor, its own index k or, for a unit
// whose bodies' last units are all far back, the largest anchor among them (the anchors on a body only grow);
// the units in (anchor, index) order into plan->items. Every two units j < k that share a body keep their
// order: anchor(j) <= anchor(k) (a moved k takes the largest anchor on its bodies; a kept one its index
// k > j >= anchor(j)), and a tie goes by index. So a sweep in this order gives the same bits as one in the
// schedule's. False for no plan: a friction row off its normal row, or a plan that would not pay (fuse.h).
static bool fused_order(order_pass* o, const cs_sweep_item* items, int item_count, int bodies)
{
    cs_fuse_plan* plan = o->plan;
    bool ok = anchor_units(o, items, item_count, bodies);
    plan->counts = (cs_fuse_counts){.units = o->n, .moved = o->moved, .quads_apart = o->quads_apart};
    if (!ok || o->moved > o->n / 8)
    {
        plan->counts.dropped = ok;
        return false;
    }
    list_moved(plan, o->n);
    int count = 0, segments = 0;
    for (int32_t k = 0; k < o->n; ++k)
    {
        if (plan->anchor[k] != k)
        {
            continue;
        }
        int32_t segment = k / CS_FUSE_SEGMENT_UNITS;
        emit(plan, &count, &segments, segment, plan->units[k]);
        for (int32_t u = plan->next[k]; u >= 0; u = plan->next[u])
        {
            emit(plan, &count, &segments, segment, plan->units[u]);
        }
    }
    plan->first[segments] = count;
    plan->count = segments;
    plan->counts.segments = segments;
    cs_sweep_runs(plan->items, count, plan->runs);
    dep_of_backs(plan);
    plan->counts.dropped = !deps_near(plan);
    return !plan->counts.dropped;
}

static cs_status build(cs_fuse_plan* plan, order_pass* o, const cs_sweep_item* items, int item_count,
                       int rows, int bodies, cs_error* err)
{
    plan->count = 0;
    plan->counts = (cs_fuse_counts){0};
    plan->schedule_count = item_count;
    plan->rows = rows;
    if (rows < cs_fuse_min_rows || item_count == 0 || bodies == 0)
    {
        return CS_OK;
    }
    if (!cs_fuse_plan_reserve(plan, rows, bodies))
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory: fused sweeps for %d rows", rows);
    }
    if (!fused_order(o, items, item_count, bodies))
    {
        plan->count = 0;
    }
    return CS_OK;
}

cs_status cs_fuse_plan_rows(cs_fuse_plan* plan, const cs_lcp* p, const cs_solver_work* work, cs_error* err)
{
    body_source src = {.body_a = p->body_a, .body_b = p->body_b};
    order_pass o = {.plan = plan, .src = &src, .p = p, .work = work};
    return build(plan, &o, work->schedule, work->schedule_count, p->row_count, p->body_count, err);
}

bool cs_fuse_plan_split(cs_fuse_plan* out, const cs_solver_work* solved, const cs_sweep_item* items,
                        int item_count)
{
    out->count = 0;
    const cs_fuse_plan* plan = solved->fuse;
    const cs_sweep_item* velocity = solved->schedule;
    // (The plan must be the current velocity schedule's: one of an earlier problem is not used.)
    if (plan == NULL || plan->count == 0 || item_count != solved->schedule_count ||
        plan->schedule_count != item_count || item_count == 0 ||
        plan->rows != velocity[item_count - 1].first + velocity[item_count - 1].count ||
        out->row_capacity < plan->first[plan->count] || out->row_capacity <= plan->count)
    {
        return false;
    }
    // Item for item the velocity schedule's pairs: quads of four pairs (the split quad of the same index
    // holds their normal rows, as cs_schedule_split finds them from the same rows), runs of whole pairs.
    for (int k = 0; k < item_count; ++k)
    {
        const cs_sweep_item *v = velocity + k, *s = items + k;
        bool quads = v->quad >= 0 && v->pairs == CS_LANES && s->count == CS_LANES;
        if (v->first != 2 * s->first || v->count != 2 * s->count || v->quad != s->quad ||
            (v->quad >= 0 && !quads) || (v->first | v->count) % 2 != 0)
        {
            return false;
        }
    }
    for (int k = 0; k < plan->first[plan->count]; ++k)
    {
        const cs_sweep_item* v = plan->items + k;
        if ((v->first | v->count) % 2 != 0) // (a velocity quad taken apart: its pairs, two rows each)
        {
            return false;
        }
        out->items[k] = (cs_sweep_item){v->first / 2, v->count / 2, v->quad, 0}; // (split quads: normal rows)
    }
    memcpy(out->first, plan->first, ((size_t)plan->count + 1) * sizeof(int32_t));
    memcpy(out->dep, plan->dep, (size_t)plan->count * sizeof(int32_t));
    cs_sweep_runs(out->items, plan->first[plan->count], out->runs);
    out->count = plan->count;
    out->schedule_count = item_count;
    out->rows = plan->rows / 2;
    return true;
}

// One pass of `levels` (<= CS_FUSE_LEVELS_MAX) sweeps. Greedy: each round level 0 takes its next segment,
// then every level above takes all the segments the rule allows it. A level that could take none ends the
// round: the levels above it went as far as they could after its last move, and nothing they wait for has
// moved since.
static void fuse_pass(const cs_fuse_plan* plan, int levels, cs_fuse_items_fn run, void* arg)
{
    const int n = plan->count;
    const int32_t* first = plan->first;
    const int32_t* dep = plan->dep;
    int done[CS_FUSE_LEVELS_MAX] = {0}; // segments each level has completed
    while (done[levels - 1] < n)
    {
        if (done[0] < n)
        {
            run(arg, plan->items, first[done[0]], first[done[0] + 1]);
            done[0] += 1;
        }
        for (int s = 1; s < levels; ++s)
        {
            int j = done[s];
            while (j < n && done[s - 1] > dep[j])
            {
                run(arg, plan->items, first[j], first[j + 1]);
                j += 1;
            }
            if (j == done[s])
            {
                break;
            }
            done[s] = j;
        }
    }
}

void cs_fuse_run(const cs_fuse_plan* plan, int sweeps, cs_fuse_items_fn run, void* arg)
{
    // An empty plan (count 0) runs nothing: fuse_pass's loop ends at once (done[levels − 1] = 0 = count). The
    // callers check count first and sweep in the schedule's order instead (fuse.h).
    while (sweeps > 0)
    {
        int levels = sweeps < CS_FUSE_LEVELS_MAX ? sweeps : CS_FUSE_LEVELS_MAX;
        fuse_pass(plan, levels, run, arg);
        sweeps -= levels;
    }
}
