// circlesim — the world: dynamic circles, static walls, and the fixed-step pipeline.
#ifndef CIRCLESIM_WORLD_H
#define CIRCLESIM_WORLD_H

#include "circlesim/solver.h"
#include "circlesim/wall.h"

#ifdef __cplusplus
extern "C"
{
#endif

    typedef struct cs_world cs_world;

    // The order the velocity and position sweeps take the contacts in. Gauss-Seidel is a different
    // method for each row order (the iterates differ, the solution does not); the order is part of the
    // frozen problem, whose rows come in it.
    typedef enum cs_row_order
    {
        // Default. Blocks of 64 consecutive contacts (key order) are greedily coloured so that no two
        // contacts of a colour share a body, and each block is swept colour by colour: consecutive rows are
        // independent, so the CPU overlaps their updates (docs/PERFORMANCE.md).
        CS_ROW_ORDER_COLOURED,
        // Contact-key order (body a-major, then wall contacts), as the narrow phase finds them.
        CS_ROW_ORDER_KEY,
        CS_ROW_ORDER_COUNT
    } cs_row_order;

    // "coloured" / "key"; NULL for a value out of range.
    const char* cs_row_order_name(cs_row_order order);
    // The order named `name`, or -1.
    int cs_row_order_find(const char* name);

    // How contacts are kept apart (docs/PHYSICS.md "Position correction").
    typedef enum cs_formulation
    {
        // Hard rows; penetration beyond the slop is removed by split impulses (a second solve of
        // pseudo-velocities that move positions and are forgotten): no energy is added, but the moves are
        // not impulses, so angular momentum is not kept exactly. The paper's tables (and its four scene
        // files, which pin it) use it.
        CS_FORMULATION_SPLIT,
        // Lacoursière's SPOOK (eqs. (1)-(3) of his Gauss-Seidel paper): touching contacts are regularised,
        // stabilised rows, ε = 4/(h² k (1 + 4τ/h)) on the diagonal and bias (4Υ/h)(gap + slop) − Υ·vn₀
        // with Υ = 1/(1 + 4τ/h), from a stiffness k and a damping time τ. Position correction is then
        // made of impulses (momentum is kept), and no second solve runs.
        CS_FORMULATION_SPOOK,
        // Box2D v3's soft step on SPOOK rows: the velocity solve on SPOOK rows (the biased solve), positions
        // move with its velocities, then a relax solve of hard rows re-measured at the new positions takes
        // the correction's velocity back out. Every correction is an impulse at a contact point of the
        // configuration it acts in, so linear and angular momentum are kept; the relax keeps the
        // correction from turning into kinetic energy (docs/PHYSICS.md).
        CS_FORMULATION_SOFT,
        // Default. Split impulses made of impulses: the position solve's λ is applied as an impulse at the
        // step's start (positions move with it, as with split), and taken back at the end along the contact
        // normals re-measured at the new positions. Only the turn of each normal during the step is left in v
        // (second order in h; it opposes the pair's sliding), and linear and angular momentum are kept
        // exactly (docs/PHYSICS.md).
        CS_FORMULATION_RELAX,
        CS_FORMULATION_COUNT
    } cs_formulation;

    // "split" / "spook" / "soft" / "relax"; NULL for a value out of range.
    const char* cs_formulation_name(cs_formulation formulation);
    // The formulation named `name`, or -1.
    int cs_formulation_find(const char* name);

    typedef struct cs_world_def
    {
        cs_vec2 gravity;              // default (0, -9.80665) m/s²
        double time_step;             // h, default 1/60 s
        double speculative_margin;    // contacts exist while gap < margin; default 0.02 m
        double linear_slop;           // penetration left uncorrected; default 0.001 m
        double baumgarte;             // β of the split-impulse position correction; default 0.2
        double max_correction;        // cap on one step's position correction; default 0.2 m
        int position_iterations;      // PGS sweeps of the split-impulse position problem; default 20
        double position_tolerance;    // one sweep when no single contact's update in the first moves a
                                      // body this far (m; 0: off; default 1e-8). spook and soft ignore it
                                      // (no split solve, position_sweeps 0), as position_iterations for
                                      // contacts; the joints' position loop always runs position_iterations
        double restitution_threshold; // restitution applies above this approach speed; default 1 m/s
        double hit_event_threshold;   // contact events: a begin this fast is also a hit; default 1 m/s
        bool frictionless;            // no friction rows at all (the paper's Table 1)
        bool enable_sleep;            // sleeping islands (cs_world_enable_sleeping); default false
        bool enable_continuous;       // continuous collision (cs_world_enable_continuous); default true
        bool contact_events;          // contact and sensor events (events.h); default true (~3 % of Pool 1)
        cs_row_order row_order;       // default CS_ROW_ORDER_COLOURED
        cs_formulation formulation;   // default CS_FORMULATION_RELAX
        double spook_stiffness;       // SPOOK: k of a contact, N/m; default 3e4 (docs/PHYSICS.md)
        double spook_damping_time;    // SPOOK: τ, s; default 0.05 (3 steps of 1/60 s)
        int solver;                   // registry index; default pgs
        cs_solver_params solver_params;
    } cs_world_def;

    cs_world_def cs_world_def_default(void);

    // Dynamic circles move under forces and contacts. Static ones never move; kinematic ones move exactly
    // with the velocity they are given (cs_world_set_body_velocity) and push dynamic circles without ever
    // being pushed. A contact with a static or kinematic circle is a row with one static half, as a wall's.
    typedef enum cs_body_type
    {
        CS_BODY_DYNAMIC = 0,
        CS_BODY_STATIC = 1,
        CS_BODY_KINEMATIC = 2
    } cs_body_type;

    typedef struct cs_circle_def
    {
        cs_vec2 position;
        double angle;
        cs_vec2 velocity; // kinematic: the velocity it keeps; static: must be zero
        double angular_velocity;
        double radius;      // > 0
        double mass;        // dynamic: > 0, inertia m r² / 2; static and kinematic: ignored (0 accepted)
        double friction;    // μ >= 0 (default 0.1); a pair uses sqrt(μa μb)
        double restitution; // e in [0, 1] (default 0.2); a pair uses max(ea, eb)
        cs_body_type type;  // default CS_BODY_DYNAMIC
        // Filtering, Box2D's convention: two circles of the same non-zero group always collide (group > 0)
        // or never (group < 0); otherwise they collide when each one's category is in the other's mask.
        uint32_t category_bits; // default 1
        uint32_t mask_bits;     // default all bits
        int group;              // default 0
        bool sensor;            // overlaps are reported (cs_world_sensor_events), never solved
        // Continuous collision: every dynamic circle is kept from passing through static circles; a bullet
        // also from passing through dynamic and kinematic ones. Default false.
        bool bullet;
    } cs_circle_def;

    cs_circle_def cs_circle_def_default(void);

    typedef struct cs_body_state
    {
        cs_vec2 position;
        double angle;
        cs_vec2 velocity;
        double angular_velocity;
        double radius;
        double mass;
    } cs_body_state;

    // One contact of the last step, for drawing and inspection.
    typedef struct cs_contact_info
    {
        int body_a; // -1 for a wall
        int body_b;
        int wall;       // wall index when body_a == -1, else -1
        cs_vec2 point;  // midway between the two surfaces
        cs_vec2 normal; // unit, from a to b
        double gap;     // signed distance between surfaces (< 0: penetration)
        double normal_impulse;
        double friction_impulse;
    } cs_contact_info;

    // Numbers of the last step (the CLI's CSV columns and the viewer's HUD).
    typedef struct cs_step_stats
    {
        int64_t step; // steps taken so far
        double time;  // simulated seconds
        int bodies;
        int contacts;
        int rows;
        int iterations;
        double res_lcp;
        double res_nat;
        double max_penetration; // metres, over touching pairs and walls, before the solve
        double mean_penetration;
        double kinetic_energy; // after the step
        double broadphase_seconds;
        double narrowphase_seconds;
        double solver_seconds;   // velocity solve (the selected solver)
        double position_seconds; // split-impulse position solve
        int position_sweeps;     // its sweeps taken (<= position_iterations; 0 when no split solve ran)
        double step_seconds;
        int solve_stop; // why the velocity solve stopped: a cs_solve_stop (solver.h), cs_solve_stop_name
        int restitution_sweeps; // the restitution pass's sweeps, the links' included (0: no pass ran; it ends
                                // early after a sweep that changed nothing, contact/restitution.c)
    } cs_step_stats;

    // The phases of a step, in order, for cs_health.
    typedef enum cs_step_phase
    {
        CS_PHASE_NONE = 0,
        CS_PHASE_FORCES,     // v* = v + h M⁻¹ f
        CS_PHASE_BROADPHASE, // how far each body may travel this step
        CS_PHASE_ROWS,       // the velocity problem's Jacobian, bias and warm start
        CS_PHASE_SOLVE,      // the velocity solve: λ and the new velocities
        CS_PHASE_POSITION,   // the split-impulse position solve: pseudo-velocities
        CS_PHASE_INTEGRATE,  // the new positions
    } cs_step_phase;

    // "forces", "broad phase", "rows", "solve", "position", "integrate" ("none" for CS_PHASE_NONE).
    const char* cs_step_phase_name(cs_step_phase phase);

    // Whether the last step produced only finite, sane numbers. A step that would make any value non-finite
    // or explode (a speed beyond 1e8 m/s, a position beyond 1e14 m) is refused: the world keeps the state
    // of the step before (bodies and the contacts' warm start), cs_world_step returns CS_ERR_VALUE, and
    // this says where the first bad value appeared. cs_world_last_problem then holds the refused step's
    // problem, for inspection. A later step that succeeds sets ok again.
    typedef struct cs_health
    {
        bool ok;
        int64_t step; // the refused step (1-based: cs_world_stats()->step + 1)
        cs_step_phase phase;
        int body;                   // the first body with a bad value, or -1
        int row;                    // the first row of the velocity problem with a bad value, or -1
        char message[CS_ERROR_MAX]; // "step 12: solve: body 3: vx = nan (row 7: lambda = nan)"
    } cs_health;

    const cs_health* cs_world_health(const cs_world* world);

    // Creation and content --------------------------------------------------------------------------
    cs_world* cs_world_create(const cs_world_def* def, cs_error* err);
    void cs_world_destroy(cs_world* world);
    // A deep copy (world_clone.c): the world's snapshot written and read back in memory (everything
    // cs_world_save_state keeps, removed slots, joints and sleep included) plus the settings a file leaves
    // out (other solvers' parameters, threads, history recording, the last step's stats), so stepping the
    // copy gives the same bits as stepping `world`. The copy's last problem and history are empty until it
    // steps. NULL with err when memory runs out.
    cs_world* cs_world_clone(const cs_world* world, cs_error* err);
    // Returns the new body id, or -1 with err set (radius/mass not finite and positive, …).
    int cs_world_add_circle(cs_world* world, const cs_circle_def* def, cs_error* err);
    int cs_world_add_segment(cs_world* world, cs_vec2 p0, cs_vec2 p1, double friction, double restitution,
                             cs_error* err);
    int cs_world_add_half_plane(cs_world* world, cs_vec2 point, cs_vec2 normal, double friction,
                                double restitution, cs_error* err);

    const cs_world_def* cs_world_get_def(const cs_world* world);

    // Stepping -------------------------------------------------------------------------------------
    // Advances one time step h. Fails when memory runs out, or with CS_ERR_VALUE when the step would produce
    // a non-finite or exploding value (cs_health); the world is then not advanced and cs_world_last_error
    // says why.
    cs_status cs_world_step(cs_world* world);
    const char* cs_world_last_error(const cs_world* world);
    const cs_step_stats* cs_world_stats(const cs_world* world);

    // Solver selection: switching keeps λ (the warm start); it never restarts the scene.
    void cs_world_set_solver(cs_world* world, int solver_index);
    int cs_world_solver(const cs_world* world);
    // False, changing nothing, for parameters out of the sane ranges (docs/SCENES.md "Ranges").
    bool cs_world_set_solver_params(cs_world* world, const cs_solver_params* params);
    const cs_solver_params* cs_world_solver_params(const cs_world* world);
    void cs_world_set_frictionless(cs_world* world, bool frictionless);
    // Takes effect from the next step; false, changing nothing, for a value out of range.
    bool cs_world_set_row_order(cs_world* world, cs_row_order order);
    // Takes effect from the next step; false, changing nothing, for a value out of range.
    bool cs_world_set_formulation(cs_world* world, cs_formulation formulation);
    // Threads per step: 1 (default) to 8, the caller included. With more than 1 the step's per-body and
    // per-contact stages split over worker threads (started here, asleep between steps) and the
    // split-impulse position solve runs beside the velocity solve (when they are big enough to repay the
    // hand-over); the results are the same bits for every count. Returns false, changing nothing, for any
    // other count or when the threads cannot be started.
    bool cs_world_set_threads(cs_world* world, int threads);
    int cs_world_threads(const cs_world* world);

    // Residual per iteration of the last velocity solve (off by default; allocates when turned on).
    cs_status cs_world_set_record_history(cs_world* world, bool on, cs_error* err);
    // Returns the number of entries (iteration 0 = start point); arrays stay valid until the next step.
    int cs_world_history(const cs_world* world, const double** res_lcp, const double** res_nat);

    // Bodies, walls, contacts -----------------------------------------------------------------------
    // Body ids: a body keeps its id for its whole life, whatever is added or removed; a removed body's id
    // is refused from then on (the id carries a generation). While nothing was removed the ids are
    // 0, 1, 2, … in the order of addition.
    // The bodies alive.
    int cs_world_body_count(const cs_world* world);
    // The id of the k-th body alive, k in [0, cs_world_body_count), or -1 (iteration; the order changes
    // when a body is removed).
    int cs_world_body_id(const cs_world* world, int k);
    // The k of a body alive (cs_world_body_id(world, k) == id), or -1: per-body arrays the caller keeps
    // in iteration order are indexed with it. Valid until the next removal.
    int cs_world_body_index(const cs_world* world, int id);
    // True for the id of a body alive.
    bool cs_world_body_alive(const cs_world* world, int id);
    // Removes a body (its contacts end: cs_world_contact_events reports them after the next step). The ids
    // of all other bodies stay valid and unchanged. CS_ERR_USAGE, changing nothing, for an id not alive.
    cs_status cs_world_remove_circle(cs_world* world, int id);
    // A zeroed state for an id not alive.
    cs_body_state cs_world_body(const cs_world* world, int id);
    // The largest linear speed |v| (m/s) of the bodies alive (kinematic ones included: they move), 0 for
    // a world without bodies. Iterates live ids, so it stays right after removals.
    double cs_world_max_speed(const cs_world* world);
    // CS_BODY_DYNAMIC for an id not alive (check cs_world_body_alive first when it matters).
    cs_body_type cs_world_body_type(const cs_world* world, int id);
    // Dynamic and kinematic bodies (a static body keeps zero velocity: the call changes nothing for it).
    // False, changing nothing, for an id not alive, a static body or a velocity out of the sane ranges
    // (docs/SCENES.md).
    bool cs_world_set_body_velocity(cs_world* world, int id, cs_vec2 velocity, double angular_velocity);
    // A force applied at the body centre during the next steps until cleared (mouse spring and the like).
    // False, changing nothing, for an unknown id or a non-finite force (a force that makes a step explode
    // is caught by cs_world_health).
    bool cs_world_set_body_force(cs_world* world, int id, cs_vec2 force);
    void cs_world_clear_forces(cs_world* world);
    // Sleeping by islands (off by default): an island of touching or jointed dynamic bodies that has moved
    // slower than 0.05 m/s at its rim (|v| + |ω|r) for 0.5 s sleeps — its bodies skip the step until
    // something awake reaches it, or one of them is given a velocity, a force or a joint, or loses a
    // neighbour. Turning it off wakes everything. A step with every body asleep (and no kinematic body) only
    // advances time.
    void cs_world_enable_sleeping(cs_world* world, bool on);
    // Continuous collision (on by default, Box2D v3's enableContinuous): a dynamic circle's path through a
    // step is swept against walls and static circles, a bullet's against every circle, so that a circle
    // knocked fast within a step never passes through them. Off: speculative contacts only.
    void cs_world_enable_continuous(cs_world* world, bool on);
    bool cs_world_continuous_enabled(const cs_world* world);
    bool cs_world_sleeping_enabled(const cs_world* world);
    bool cs_world_body_asleep(const cs_world* world, int id);
    int cs_world_wall_count(const cs_world* world);
    cs_wall cs_world_wall(const cs_world* world, int index);
    int cs_world_contact_count(const cs_world* world);
    cs_contact_info cs_world_contact(const cs_world* world, int index);
    // The colour (0, 1, …) contact `index` had in the last step's coloured row order (world_rows.c): rows
    // of one colour in a block of 64 contacts share no body and are swept together. -1 in key order.
    int cs_world_contact_colour(const cs_world* world, int index);
    // Axis-aligned bounds of bodies and finite walls (for fitting a view).
    void cs_world_bounds(const cs_world* world, cs_vec2* lower, cs_vec2* upper);

    // Frozen problems --------------------------------------------------------------------------------
    // The velocity problem of the last step, with lambda0 = the warm start it was solved from.
    const cs_lcp* cs_world_last_problem(const cs_world* world);
    // The λ the last step's solve produced (row order of cs_world_last_problem).
    const double* cs_world_last_lambda(const cs_world* world);

    // Snapshots (docs/RELIABILITY.md "Snapshots") ------------------------------------------------------
    // A JSON file with everything the next step reads: settings (world incl. sleep and events, solver and
    // its parameters), walls, every body slot (removed ones with their generations, types, filters,
    // sensor/bullet flags, forces, sleep state and islands), the iteration order and free list, joints with
    // their warm-start impulses, the contacts of the last step with theirs, the events' touching lists and
    // the step count. A world loaded from it steps on bit for bit as the saved one would have (the state
    // hash of save-at-100 + load + 100 steps is that of 200 steps; ids and events match too). Thread count
    // and residual history, which do not change results, are not kept. Fails (CS_ERR_VALUE) for a world
    // holding a non-finite number.
    cs_status cs_world_save_state(const cs_world* world, const char* path, cs_error* err);
    // A new world from a snapshot, validated like a scene: errors are one line "FILE:LINE:COL: PATH:
    // message"; files over 512 MiB are refused. NULL on any error; nothing half-loaded is returned.
    cs_world* cs_world_load_state(const char* path, cs_error* err);
    cs_world* cs_world_load_state_string(const char* text, const char* display_name, cs_error* err);

    // Determinism ----------------------------------------------------------------------------------
    // FNV-1a over the bit patterns of every body's position, angle and velocities.
    uint64_t cs_world_hash(const cs_world* world);

#ifdef __cplusplus
}
#endif

#endif
