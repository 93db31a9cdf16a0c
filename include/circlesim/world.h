// circlesim — the world: dynamic circles, static walls, and the fixed-step pipeline.
#ifndef CIRCLESIM_WORLD_H
#define CIRCLESIM_WORLD_H

#include "circlesim/solver.h"

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

    typedef struct cs_world_def
    {
        cs_vec2 gravity;              // default (0, -9.80665) m/s²
        double time_step;             // h, default 1/60 s
        double speculative_margin;    // contacts exist while gap < margin; default 0.02 m
        double linear_slop;           // penetration left uncorrected; default 0.001 m
        double baumgarte;             // β of the split-impulse position correction; default 0.2
        double max_correction;        // cap on one step's position correction; default 0.2 m
        int position_iterations;      // PGS sweeps of the split-impulse position problem; default 20
        double restitution_threshold; // restitution applies above this approach speed; default 1 m/s
        bool frictionless;            // no friction rows at all (the paper's Table 1)
        cs_row_order row_order;       // default CS_ROW_ORDER_COLOURED
        int solver;                   // registry index; default pgs
        cs_solver_params solver_params;
    } cs_world_def;

    cs_world_def cs_world_def_default(void);

    typedef struct cs_circle_def
    {
        cs_vec2 position;
        double angle;
        cs_vec2 velocity;
        double angular_velocity;
        double radius;      // > 0
        double mass;        // > 0; inertia is m r² / 2
        double friction;    // μ >= 0 (default 0.1); a pair uses sqrt(μa μb)
        double restitution; // e in [0, 1] (default 0.2); a pair uses max(ea, eb)
    } cs_circle_def;

    cs_circle_def cs_circle_def_default(void);

    typedef enum cs_wall_kind
    {
        CS_WALL_SEGMENT = 0,
        CS_WALL_HALF_PLANE = 1,
    } cs_wall_kind;

    typedef struct cs_wall
    {
        cs_wall_kind kind;
        cs_vec2 p0, p1; // segment end points; half-plane: p0 is a point on the boundary line
        cs_vec2 normal; // half-plane: unit normal pointing into the free side; segment: left normal of p0→p1
        double friction;
        double restitution;
    } cs_wall;

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
        double step_seconds;
    } cs_step_stats;

    // Creation and content --------------------------------------------------------------------------
    cs_world* cs_world_create(const cs_world_def* def, cs_error* err);
    void cs_world_destroy(cs_world* world);
    // A deep copy (world_clone.c): bodies, walls, forces, settings, counters and the last step's contacts
    // with their impulses (the warm start), so stepping the copy gives the same bits as stepping `world`.
    // The copy's last problem and history are empty until it steps. NULL with err when memory runs out.
    cs_world* cs_world_clone(const cs_world* world, cs_error* err);
    // Returns the new body id, or -1 with err set (radius/mass not finite and positive, …).
    int cs_world_add_circle(cs_world* world, const cs_circle_def* def, cs_error* err);
    int cs_world_add_segment(cs_world* world, cs_vec2 p0, cs_vec2 p1, double friction, double restitution,
                             cs_error* err);
    int cs_world_add_half_plane(cs_world* world, cs_vec2 point, cs_vec2 normal, double friction,
                                double restitution, cs_error* err);

    const cs_world_def* cs_world_get_def(const cs_world* world);

    // Stepping -------------------------------------------------------------------------------------
    // Advances one time step h. Fails only when memory runs out (the world is then not advanced in position
    // and cs_world_last_error says why).
    cs_status cs_world_step(cs_world* world);
    const char* cs_world_last_error(const cs_world* world);
    const cs_step_stats* cs_world_stats(const cs_world* world);

    // Solver selection: switching keeps λ (the warm start); it never restarts the scene.
    void cs_world_set_solver(cs_world* world, int solver_index);
    int cs_world_solver(const cs_world* world);
    void cs_world_set_solver_params(cs_world* world, const cs_solver_params* params);
    const cs_solver_params* cs_world_solver_params(const cs_world* world);
    void cs_world_set_frictionless(cs_world* world, bool frictionless);
    // Takes effect from the next step; false, changing nothing, for a value out of range.
    bool cs_world_set_row_order(cs_world* world, cs_row_order order);
    // Threads per step: 1 (default) or 2. With 2 the split-impulse position solve runs on a second thread
    // while the velocity solve runs (when it is big enough to repay the hand-over); the results are the
    // same bits as with 1. Returns false, changing nothing, for any other count.
    bool cs_world_set_threads(cs_world* world, int threads);
    int cs_world_threads(const cs_world* world);

    // Residual per iteration of the last velocity solve (off by default; allocates when turned on).
    cs_status cs_world_set_record_history(cs_world* world, bool on, cs_error* err);
    // Returns the number of entries (iteration 0 = start point); arrays stay valid until the next step.
    int cs_world_history(const cs_world* world, const double** res_lcp, const double** res_nat);

    // Bodies, walls, contacts -----------------------------------------------------------------------
    int cs_world_body_count(const cs_world* world);
    cs_body_state cs_world_body(const cs_world* world, int id);
    void cs_world_set_body_velocity(cs_world* world, int id, cs_vec2 velocity, double angular_velocity);
    // A force applied at the body centre during the next steps until cleared (mouse spring and the like).
    void cs_world_set_body_force(cs_world* world, int id, cs_vec2 force);
    void cs_world_clear_forces(cs_world* world);
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

    // Determinism ----------------------------------------------------------------------------------
    // FNV-1a over the bit patterns of every body's position, angle and velocities.
    uint64_t cs_world_hash(const cs_world* world);

#ifdef __cplusplus
}
#endif

#endif
