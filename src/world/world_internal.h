// The world's data. Bodies are a structure of arrays: the step's loops touch a few fields of every body.
#ifndef CS_WORLD_INTERNAL_H
#define CS_WORLD_INTERNAL_H

#include "circlesim/world.h"
#include "contact/broadphase.h"
#include "contact/contact.h"
#include "contact/contact_order.h"
#include "contact/contact_rows.h"
#include "contact/impact.h"
#include "core/workers.h"
#include "solver/split.h"
#include "world/event_state.h"

#include <math.h>

// The split-impulse position solve of a step (cs_solve_split's arguments): it depends on the velocity
// solve's packed rows only, so with threads it runs on a worker while the velocity sweeps run and the
// results are the same bits as on one thread.
typedef struct cs_split_job
{
    const cs_solver_work* solved;
    int bodies, first, stride, count, iterations;
    const double* bias;
    bool simd;
    cs_split_work* work;
    double* lambda;
    double* v;
    double seconds;  // wall time of the solve, measured on the thread that ran it
    double dv_limit; // one sweep when it changes no pseudo-velocity by this (position_tolerance / h)
    int sweeps;      // sweeps taken
} cs_split_job;

// A distance joint (joint.c). Side a may be the world (a == -1); side b is always a body.
typedef struct cs_joint
{
    int a, b; // slots
    double la_x, la_y, lb_x, lb_y;
    double length;
    bool rope;
    bool collide;
    bool alive;
    double hertz, damping_ratio; // a spring by frequency (hertz > 0), or
    double stiffness, damping;   // by k and c (stiffness > 0); all 0: rigid
    double impulse;              // warm start, and the last step's λ
    double stretch;              // C after the last integration, before the position projection
    int next_a, next_b;          // the next joint on body a / b (lists headed by cs_world.joint_head)
} cs_joint;

typedef struct cs_contact_list
{
    cs_contact* items;
    int count;
    int capacity;
} cs_contact_list;

struct cs_world
{
    cs_world_def def;

    // Bodies (structure of arrays, all of body_capacity).
    int body_count;
    int body_capacity;
    double* px;
    double* py;
    double* angle;
    double* v;     // 3 per body: vx, vy, ω (the layout of cs_lcp.v, so v* is one memcpy)
    double* v_pre; // 3 per body: velocity at the start of the step (restitution)
    double* fx;    // external force (mouse spring and the like) until cleared
    double* fy;
    double* radius;
    double* reach;         // radius + h·|v*|: how far a circle may get this step (speculative contacts)
    double* impact_offset; // 3 per body: the pass's and the shift's scratch (contact/impact.h)
    int* reach_parent;     // per body: the restitution pass's components (contact/impact_reach.h)
    uint8_t* reach_flags;  // per body
    struct cs_pass_body* reach_bodies; // per body: the pass's compact body records (restitution_pack.h)
    int* reach_claimed;                // per body: the bodies it claimed
    double* start_x; // positions before integration: the paths continuous collision sweeps (continuous.c)
    double* start_y;
    double min_radius; // the smallest radius added since the world last had no body (removals may leave it
                       // lower)
    double* mass;
    double* inv_mass;
    double* inv_inertia;
    double* friction;
    double* restitution;

    int wall_count;
    int wall_capacity;
    cs_wall* walls;
    int* wall_bodies; // the step's circles that may meet a wall, by slot (step.c's scratch)
    int wall_bodies_capacity;
    uint64_t* wall_masks; // beside wall_bodies: which of (up to 64) walls each may meet (wall_contacts.c)
    int wall_masks_capacity;

    cs_broadphase broadphase;
    cs_contact_list contacts; // this step's, sorted by key
    cs_contact_list previous; // last step's, for the warm start
    cs_contact_order order;   // the order the solver sweeps this step's contacts in (contact_order.h)

    cs_lcp velocity_problem;
    double* lambda;
    int lambda_capacity;
    cs_solver_work work;
    // Split impulses, solved on the velocity problem's packed normal rows (cs_solve_split).
    double* position_bias;    // per contact
    double* position_lambda;  // per contact
    cs_split_work split_work; // the split solve's compact rows and schedule
    int position_capacity;    // (also of the reach_ per-contact arrays)
    int* reach_roots;         // 2 per contact: the restitution pass's components (contact/impact_reach.h)
    int* reach_list;          // 2 per contact: its list
    int* reach_spare;
    int* reach_next;                // 2 per contact: the pass's contacts per component (impact_reach.h)
    struct cs_pass_row* reach_rows; // per contact: the pass's compact contact records (restitution_pack.h)
    uint8_t* reach_listed;          // per contact: in the pass's list
    bool restitution_every_sweep;   // tests only: the pass without its early exit (cs_restitution_params)
    int64_t restitution_skipped;    // tests only: the last pass's quiet visits left out (restitution_sweep.c)
    bool restitution_quiet_always;  // tests only: quiet rows left out whatever the links
                                    // (cs_restitution_params)
    uint32_t restitution_tick_origin; // tests only: where the pass's quiet-rows tick starts
                                      // (cs_restitution_params)
    double* pseudo_v;                 // 3 per body + the zero slot: the position problem's velocities
    int pseudo_v_capacity;
    // The soft formulation's relax solve (relax.c): the contacts re-measured after integration, its rows, λ.
    cs_contact_list relax_contacts;
    cs_lcp relax_problem;
    double* relax_lambda;
    int relax_lambda_capacity;
    int* shock_ints; // shock.c: levels, adjacency and order of the support pass
    int shock_capacity;
    struct cs_shock_edge* shock_edges; // shock.c: the supporting contacts (the last step's graph)
    int shock_edge_capacity;
    int shock_edge_count;
    int* shock_plan; // shock.c: the last graph's pushes (edge, upper body, lower body), in order
    int shock_plan_capacity;
    int shock_plan_count;
    bool shock_no_plan;    // tests only: build the graph every step (shock.c)
    int64_t shock_replays; // tests only: the support passes that replayed the plan
    int64_t shock_builds;  // tests only: the support passes that built the graph
    int threads;           // 1 .. CS_WORKERS_MAX (cs_world_set_threads)
    cs_workers* workers;   // threads − 1 workers (NULL for one thread), started by cs_world_set_threads
    uint8_t* pair_hits;    // per broad-phase pair: the narrow phase found a contact (step_stages.c)
    int pair_hits_capacity;
    int* chunk_ints; // per chunk of a parallel stage: its count, flag or output offset
    int chunk_ints_capacity;
    double* chunk_doubles; // per chunk of a parallel stage: its max
    int chunk_doubles_capacity;
    double* penetration_parts; // per chunk of contacts: deepest, sum, touching (the warm start's; stats)
    int penetration_parts_capacity;
    int rows_laid; // the velocity problem's rows of the first rows_laid contacts hold their fixed numbers
    bool rows_laid_frictionless; // ... laid out for this setting (cs_stage_rows)

    // Body types, ids and filters (world_remove.c, body_types.c, filter.c). body_count above is the
    // number of slots (alive or free); a body's id is its slot plus its generation (CS_ID_SLOT_BITS).
    uint8_t* body_type;  // cs_body_type per slot
    uint8_t* body_flags; // CS_BODY_ALIVE, CS_BODY_SENSOR
    uint8_t* active;     // 1 for the slots the broad phase takes (alive)
    uint32_t* category;
    uint32_t* mask;
    int* group;
    int* generation;
    int* dense;    // alive slots, any order: iteration by k (cs_world_body_id)
    int* dense_of; // per slot: its place in dense
    int alive_count;
    int* free_ring; // free slots, oldest first: a slot comes back as late as possible (generations)
    int free_head, free_count, free_capacity;
    int nondynamic_count; // alive static and kinematic bodies: their rows get a static half
    int filter_count;     // alive bodies with a non-default filter or a sensor flag

    // Queries on the broad phase's grid (query.c): it holds the slots [0, grid_bodies) where they were at
    // its last update (not every step's: broadphase_list.c); none has moved more than query_slack since;
    // bodies added since are in `fresh`. step_move: a bound on every body's move in the last step.
    int grid_bodies;
    double query_slack, step_move;
    int* fresh;
    int fresh_count, fresh_capacity;

    cs_joint* joints; // joint.c
    int joint_count, joint_capacity;
    int joint_rows_first;  // the joints' rows follow the contacts' in the velocity problem
    int* joint_head;       // per slot: its first joint, or -1
    int no_collide_joints; // alive joints between two bodies that must not collide

    // Sleeping (sleep.c): per slot, and the islands of the last step.
    bool sleeping; // enabled
    uint8_t* asleep;
    double* sleep_time;
    int* island_next;    // sleeping islands are rings through this
    int* island_parent;  // union-find scratch
    double* island_rest; // per root: the least sleep time of its island (scratch)
    int asleep_count;
    int kinematic_count; // alive kinematic bodies: with one, a step is never idle
    int bullet_count;    // alive bullets (continuous.c)

    int sensor_count;      // alive sensors: the sensor pass runs only with some (or overlaps to end)
    cs_event_state events; // events.c

    cs_step_stats stats;
    cs_error last_error; // a failed step (out of memory) leaves the world unchanged and says why here
    cs_health health;    // health.c
};

// health.c: before the positions move, checks that the step's results are finite and sane; otherwise
// finds the first phase with a bad value, undoes the step's velocity and contact changes, and fails.
cs_status cs_health_check_step(cs_world* w, cs_error* err);
// The velocity problem's regularisation (spring joints, SPOOK contacts) finite and >= 0 before any solver
// sees it; else the step is refused in the rows phase (health.c).
cs_status cs_health_check_rows(cs_world* w, cs_error* err);

// step_stages.c: runs a split job (on the calling thread).
void cs_split_job_run(cs_split_job* job);

// The step's parallel stages (step_stages.c, contact_stages.c): loops split into chunks of CS_STAGE_CHUNK
// bodies, pairs or contacts whatever the thread count, run on the world's workers; the same bits on any
// number of threads. A world with one thread, or one chunk, runs them in place.
#define CS_STAGE_CHUNK 1024
int cs_stage_chunks(int n);
void cs_stage_range(int chunk, int n, int* first, int* end); // chunk's [first, end) of n
// fn(ctx, first, end) over [0, n) in those chunks, on the world's workers: for a stage whose chunks need
// neither their index (no per-chunk result) nor their thread.
typedef void (*cs_range_fn)(void* ctx, int first, int end);
void cs_stage_for_range(cs_world* w, int n, cs_range_fn fn, void* ctx);
// Room for per-chunk results (w->chunk_ints: 2·chunks + 1, w->chunk_doubles: CS_STAGE_PART_WIDTH·chunks + 1);
// false: out of memory.
bool cs_stage_chunk_reserve(cs_world* w, int chunks);
// A reduction over [0, n) in those chunks: fn(ctx, first, end, part) writes its chunk's `width` numbers
// (width ≤ CS_STAGE_PART_WIDTH) to part; returns the chunks' parts, one after another in chunk order, for
// the caller to combine in that order (sums then have the same bits on any thread count). Chunk results
// reserved for cs_stage_chunks(n).
#define CS_STAGE_PART_WIDTH 3
typedef void (*cs_part_fn)(void* ctx, int first, int end, double* part);
const double* cs_stage_parts(cs_world* w, int n, int width, cs_part_fn fn, void* ctx);
// The world's workers; NULL: one thread, run on this one.
cs_workers* cs_world_workers(cs_world* w);
// v_pre = v; v += h M⁻¹ f; the velocity problem's v* (reserved for body_count bodies) = v; reach = r + h|v|.
void cs_stage_forces(cs_world* w);
void cs_stage_copy_velocities(cs_world* w, double* to, const double* from); // 3 per body
void cs_stage_problem_bodies(cs_world* w); // the velocity problem's inverse masses and inertias
// Positions move by h (v + pseudo) (pseudo NULL: none); returns the largest squared linear move. The
// chunk results must be reserved.
double cs_stage_integrate(cs_world* w, const double* pseudo);
// Contacts of the broad phase's pairs appended to w->contacts, in pair order.
cs_status cs_stage_pair_contacts(cs_world* w, cs_error* err);
// Each task's run of the contact list from its count (counts[t] becomes its first entry, after the list's
// entries), in task order, and room in the list for them all; returns the runs' end, or -1 (out of memory).
int cs_stage_runs(cs_world* w, int* counts, int tasks);
// Then the walls' contacts, wall-major, bodies ascending (wall_contacts.c).
cs_status cs_stage_wall_contacts(cs_world* w, cs_error* err);
// w->contacts' impulses from w->previous, and their penetration sums by chunk (w->penetration_parts: 3 per
// chunk); false: out of memory.
bool cs_stage_warm_start(cs_world* w);
// Every contact's instant (impact.h), then the bodies the timed contacts hold.
void cs_stage_impacts(cs_world* w, const cs_impact_bodies* bodies, const cs_restitution_params* params);
// The velocity problem's contact rows (its bodies filled) and, unless NULL, the position biases.
cs_status cs_stage_rows(cs_world* w, const int* order, const cs_row_params* rp, double* position_bias,
                        cs_error* err);
// Rows from those of contact `contacts` on were written by another stage (the joints'): the next
// cs_stage_rows writes their fixed numbers again.
void cs_stage_rows_overwritten(cs_world* w, int contacts);
// The sweeps' order (w->order: its 64-contact blocks coloured).
cs_status cs_stage_order(cs_world* w, cs_error* err);
void cs_stage_store_impulses(cs_world* w, const int* order, int per, const double* lambda);

// Body ids: slot | generation << CS_ID_SLOT_BITS (8 million slots, 256 generations before an id comes
// back; free slots are reused oldest first, so a stale id needs 256 × (free slots) reuses to alias).
#define CS_ID_SLOT_BITS   23
#define CS_ID_SLOT_MASK   ((1 << CS_ID_SLOT_BITS) - 1)
#define CS_ID_GENERATIONS 256

enum
{
    CS_BODY_ALIVE = 1,
    CS_BODY_SENSOR = 2,
    CS_BODY_FRESH = 4,  // added since the broad phase's last update (not in its grid)
    CS_BODY_LISTED = 8, // in w->fresh; kept through removal, so a slot refilled twice is listed once
    CS_BODY_BULLET = 16,
};

// The max of two finite numbers; fmax is a library call without -ffinite-math-only.
static inline double cs_max(double x, double y)
{
    return x > y ? x : y;
}

// Both components finite.
static inline bool cs_vec2_finite(cs_vec2 v)
{
    return isfinite(v.x) && isfinite(v.y);
}

// world.c: grows every per-slot array to hold `needed` slots.
bool cs_world_reserve_bodies(cs_world* w, int needed);
// world_remove.c: a slot for a new body (a free one, oldest first, or a new one), marked alive; -1 when
// memory runs out.
int cs_world_acquire_slot(cs_world* w);
void cs_world_free_ids(cs_world* w);
// The slot of an id alive, or -1.
int cs_world_slot(const cs_world* w, int id);
// The public id of an occupied slot.
static inline int cs_world_slot_id(const cs_world* w, int slot)
{
    return slot | (w->generation[slot] << CS_ID_SLOT_BITS);
}

// body_types.c: turns the rows' static and kinematic halves into static halves (J = 0, body -1), with the
// body's velocity moved into the bias, and keeps the moving body on side b. No-op without such bodies.
void cs_rows_static_halves(const cs_world* w, cs_lcp* p);

// query.c: a body added since the broad phase's last update (false when memory runs out); the grid was
// rebuilt for the first `slots` slots (the bodies added before are in it now).
bool cs_query_note_added(cs_world* w, int slot);
// Every circle that may overlap the box (each alive slot at most once; false from fn stops the walk).
typedef bool cs_visit_fn(const cs_world* w, int slot, void* ctx);
void cs_query_visit_box(const cs_world* w, double lx, double ly, double ux, double uy, cs_visit_fn* fn,
                        void* ctx);
// The segment o + t d, t in [0, max_t], against a circle: entry fraction and unit normal; a segment that
// starts inside hits at 0 with a zero normal.
bool cs_ray_circle(cs_vec2 o, cs_vec2 d, double max_t, double cx, double cy, double r, double* t_out,
                   cs_vec2* normal);
// continuous.c: after integration, fast circles that crossed a static circle this step (and bullets that
// crossed any circle) are moved back to the instant of contact.
void cs_continuous(cs_world* w);
void cs_continuous_begin(cs_world* w); // before integration: keeps the start of each path
void cs_query_grid_updated(cs_world* w, int slots);

// events.c: the events of the step just taken (after integration; contacts carry their impulses).
cs_status cs_events_update(cs_world* w, cs_error* err);

// joint.c: appends a row per alive joint to p (after the contact rows); stores their λ after the solve;
// ends the joints of a removed slot; whether two slots are joined by a joint that forbids their contact.
cs_status cs_joint_rows(cs_world* w, cs_lcp* p, cs_error* err);
// relax.c: the soft formulation's relax solve after integration (updates v, the contacts' and joints' λ;
// *seconds: its time).
cs_status cs_relax_step(cs_world* w, const int* order, double* seconds, cs_error* err);
// relax.c: the relax formulation after integration: v += M⁻¹(J_start − J_end)ᵀλ_p for the split solve's λ_p.
void cs_relax_split(cs_world* w, const int* order);
// shock.c: the relax formulation's support pass after the velocity solve (no approach down a support chain).
cs_status cs_shock_propagate(cs_world* w, cs_error* err);
// Formulations whose position correction is the split-impulse solve (split, relax).
static inline bool cs_formulation_splits(cs_formulation f)
{
    return f == CS_FORMULATION_SPLIT || f == CS_FORMULATION_RELAX;
}
bool cs_joint_any_soft(const cs_world* w); // an alive spring: the velocity problem carries reg
void cs_joint_store(cs_world* w, const double* lambda);
void cs_joint_remove_body(cs_world* w, int slot);
bool cs_joined_without_contact(const cs_world* w, int a, int b);
double cs_joint_project(cs_world* w); // returns a bound on how far it moved any body

// sleep.c: a new slot is awake; wake a slot's island; wake islands an awake body reaches (before the
// narrow phase); islands and sleep after the step; a step with every body asleep (true: it was taken).
void cs_sleep_init_slot(cs_world* w, int slot);
void cs_sleep_wake(cs_world* w, int slot);
void cs_sleep_wake_touched(cs_world* w);
void cs_sleep_update(cs_world* w);
bool cs_sleep_idle_step(cs_world* w);

// filter.c: whether circles in slots a and b may make a contact (types, groups, categories, sensors).
bool cs_pair_collides(const cs_world* w, int a, int b);

#endif
