// Several Gauss-Seidel sweeps in one pass over memory (a wavefront over the sweeps; docs/PERFORMANCE.md,
// "Several sweeps in one pass (fuse, issue 12)"). A sweep walks its schedule (cs_sweep_item, simd.h) in
// order. The plan (fuse.c) first puts the schedule's units (quads, pairs, single rows) in a fused order that
// keeps every two units that share a body in their order, so one sweep in it gives the schedule's bits; then
// cuts that order into consecutive segments of CS_FUSE_SEGMENT_UNITS units and gives each segment j a dep[j]
// >= j and >= every segment that shares a body with j (the zero slot that static halves write is no body: it
// stays +0 while impulses are finite, see cs_lanes_independent in schedule.c). T sweeps run as T levels over
// the segments: level s may process segment j only once level s − 1 has completed segments 0 .. dep[j] (level
// 0 is free), each level in increasing j. That gives the bits of T sequential sweeps:
//   Two updates that share no body commute bit for bit: each reads and writes only its bodies' v and its own
//   λ (a friction row also its normal row's λ, which the plan keeps in the same unit). Take two updates
//   (s1, j1) and (s2, j2) (level s, segment j) that share a body, s1 < s2 (the same level runs in j order, as
//   a sweep does). The sequential order runs (s1, j1) first. The rule makes level s2 wait for level s2 − 1 to
//   pass dep[j2] >= j1 (dep[j2] >= j2 covers j1 <= j2, and j1 > j2 shares a body with j2), level s2 − 1
//   itself waited for s2 − 2 to pass at least as far (dep[k] >= k), and so on down to s1: (s1, j1) ran
//   before.
// So a segment's rows are read T times within a window of about T·(dep[j] − j) segments, which stays in L2
// when the deps are near (the generated pools: a body's contacts are about one lattice row apart, once the
// wall contacts at the end of the contact list are moved up next to their bodies'); far deps (a mixed pile)
// make the wavefront degenerate towards sequential sweeps, still the same bits.
#ifndef CS_SOLVER_FUSE_H
#define CS_SOLVER_FUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "circlesim/base.h"
#include "circlesim/lcp.h"
#include "circlesim/solver.h"

struct cs_sweep_item;

enum
{
    CS_FUSE_SEGMENT_UNITS =
        32, // units a segment holds (anchored in it): at most 256 rows, fewer for small units
    CS_FUSE_LEVELS_MAX = 16, // sweeps fused in one pass (more run as several passes: the same bits)
    CS_FUSE_FAR_MEAN = 64,   // mean dep[j] − j in segments above which the plan is dropped (below)
};

// Problems of fewer rows than this are not fused: the plan is not built and the sweeps run one after the
// other, as before. Measured (docs/PERFORMANCE.md): the fused sweeps and their plan pay at the 50 000-circle
// pool (~226 000 rows), not at 35 000 (~158 000) or less, whose rows the sweeps stream from L3 about as fast.
// A variable so that a test can force the fused path on (a small value) or off (INT32_MAX); set it only
// between steps (both solves of a step read it).
extern int cs_fuse_min_rows;

// Whether a schedule of `rows` rows may hold short pair quads (simd.h, cs_sweep_item: two or three pairs, the
// other lanes null). Not where the solve may be fused: the fused split solve maps the velocity quads item for
// item onto its own schedule, whose quads are all of four rows (cs_fuse_plan_split). Both schedule builders
// (cs_pack_lanes and cs_schedule_rows) ask this, so they build one schedule.
static inline bool cs_fuse_short_quads(int rows)
{
    return rows < cs_fuse_min_rows;
}

// What the last build of a plan did (tests read it): the units it moved up, the quads it took apart, and
// whether it then dropped the plan as not worth it (most units moved, or deps too far: fuse.c).
typedef struct cs_fuse_counts
{
    int units, moved, quads_apart, segments;
    bool dropped;
} cs_fuse_counts;

// The fused order of one schedule's items, its segments and their deps; the arrays grow with the problem and
// are reused (nothing is allocated in a steady step). count = 0: no plan (the sweeps are not fused).
typedef struct cs_fuse_plan
{
    struct cs_sweep_item* items; // the schedule's units in the fused order (fuse.c), runs merged
    int32_t* first;              // [count + 1] the first item of each segment, then the item count
    int32_t* dep;                // [count] a segment >= the last one sharing a body with each (and >= it)
    int32_t* runs;               // [first[count]] the items' runs of quads (simd.h, cs_sweep_runs)
    int count;
    int schedule_count, rows; // of the schedule the plan was built for (the sweeps use no other's plan)
    cs_fuse_counts counts;
    struct cs_sweep_item* units; // scratch: every unit, in the schedule's order
    int32_t *anchor, *next;      // scratch by unit: its anchor; the moved units' lists by anchor (fuse.c)
    struct cs_fuse_body* bodies; // scratch by body (fuse.c)
    int row_capacity;            // of every array but bodies (at most one entry a row, and first[count])
    int body_capacity;
} cs_fuse_plan;

void cs_fuse_plan_free(cs_fuse_plan* plan);

// The plan of work's velocity schedule of p (its items cover rows [0, row_count) in order), from p's body
// indices; count stays 0 when the problem is below cs_fuse_min_rows or a friction row is not right after its
// normal row (its bound reads that row's λ: a dependency that is not a body), and is dropped (count 0,
// counts.dropped) when it would not pay: more than an eighth of the units moved (circles not numbered in
// spatial order), or a mean dep[j] − j above CS_FUSE_FAR_MEAN segments (the window of T levels no longer
// fits L2). A quad the fused order takes apart gets its rows' records (lanes_only).
cs_status cs_fuse_plan_rows(cs_fuse_plan* plan, const cs_lcp* p, const cs_solver_work* work, cs_error* err);

// The split solve's plan from the velocity solve's (solved->fuse), when the split's schedule (items, over the
// split rows k = velocity rows 2k, the world's) is the velocity schedule's item for item: quads of the same
// index over the same contacts' normal rows, runs of whole pairs. Then the velocity plan's fused order,
// segments and deps hold for the split rows (the same bodies, no other dependency). out must have been
// reserved for the velocity problem's rows (cs_split_work_reserve: nothing is allocated here). Returns
// whether there is a plan.
bool cs_fuse_plan_split(cs_fuse_plan* out, const cs_solver_work* solved, const struct cs_sweep_item* items,
                        int item_count);

// Grows plan for a schedule of `rows` rows on `bodies` bodies; false when out of memory.
bool cs_fuse_plan_reserve(cs_fuse_plan* plan, int rows, int bodies);

// One segment's work: items[begin .. end) of one sweep, in order.
typedef void (*cs_fuse_items_fn)(void* arg, const struct cs_sweep_item* items, int begin, int end);

// `sweeps` sweeps along the plan's schedule through run(arg, …), in the wavefront order above. An empty plan
// (count 0) runs nothing: callers check count first and sweep in the schedule's order instead.
void cs_fuse_run(const cs_fuse_plan* plan, int sweeps, cs_fuse_items_fn run, void* arg);

#endif
