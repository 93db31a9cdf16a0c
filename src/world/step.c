// One fixed time step (DESIGN.md "One time step"):
//   forces → broad phase → narrow phase (+ the contact instant) → rows + warm start → velocity solve and
//   split-impulse position solve → restitution, symplectic Euler integration, impact-time shift → stats.
// Every buffer lives in the world and only grows, so a steady-state step allocates nothing.
#include <math.h>
#include <string.h>

#include "contact/contact_order.h"
#include "contact/contact_rows.h"
#include "contact/impact.h"
#include "contact/restitution_pack.h"
#include "core/array.h"
#include "world/world_internal.h"

// The narrow phase: the broad phase's circle pairs, then the walls (contact_stages.c, split over the
// workers).
static cs_status find_contacts(cs_world* w, cs_error* err)
{
    cs_status st = cs_stage_pair_contacts(w, err);
    return st != CS_OK ? st : cs_stage_wall_contacts(w, err);
}

// The velocity problem's bodies (reserved by solve_phases, v* written by the forces stage).
static void fill_bodies(cs_lcp* p, cs_world* w)
{
    p->body_count = w->body_count;
    cs_stage_problem_bodies(w); // step_stages.c
}

// Threads ------------------------------------------------------------------------------------------------

// Below this many row updates (contacts × position sweeps) the hand-over costs more than it saves.
// Measured on the 2-vCPU development VM: waking the helper and waiting for it cost ~50 µs, and the two
// threads slow each other's sweeps by ~30%, so Pool 1 (12 000 updates) loses (128 → 143 µs/step) while a
// 5 000-circle pool (200 000 updates) gains 1.38× and a 50 000-circle one 1.31×.
#define CS_PARALLEL_SPLIT_MIN 40000

// Rows below which the velocity solve's final residuals are computed in place (~2 ns a row; a hand-over
// to a spinning worker costs ~1 µs, to a sleeping one ~50 µs).
#define CS_PARALLEL_RESIDUAL_MIN 8192

static void split_task(void* job, int task, int thread)
{
    (void)task;
    (void)thread;
    cs_split_job_run(job);
}

// The phases of one step -----------------------------------------------------------------------------

// A step of a world without bodies: nothing moves and nothing touches (its arrays may not exist yet), only
// time passes.
static void step_empty(cs_world* w, double t_start)
{
    cs_step_stats* s = &w->stats;
    s->step += 1;
    s->time = (double)s->step * w->def.time_step;
    s->bodies = s->contacts = s->rows = s->iterations = s->position_sweeps = s->restitution_sweeps = 0;
    s->res_lcp = s->res_nat = s->max_penetration = s->mean_penetration = s->kinetic_energy = 0.0;
    s->broadphase_seconds = s->narrowphase_seconds = s->solver_seconds = s->position_seconds = 0.0;
    s->step_seconds = cs_seconds() - t_start;
}

// 2. Broad phase. Contacts are speculative: a pair is found while its gap is below the margin plus the
// distance both circles can travel this step, so fast bodies meet a contact before they overlap.
static cs_status broad_phase(cs_world* w, cs_error* err)
{
    const int n = w->body_count;                                              // (reach: the forces stage's)
    w->broadphase.active = w->alive_count < w->body_count ? w->active : NULL; // skip free slots
    w->broadphase.list.base_radius = w->radius; // (reach − radius: the travel a kept list must allow)
    cs_status st = cs_broadphase_update_on(&w->broadphase, w->px, w->py, w->reach, n,
                                           w->def.speculative_margin, cs_world_workers(w), err);
    if (st == CS_OK)
    {
        if (cs_broadphase_grid_built(&w->broadphase)) // (else the kept list gave the pairs: the old grid)
        {
            cs_query_grid_updated(w, n);
        }
        cs_sleep_wake_touched(w); // sleep.c
    }
    return st;
}

static cs_restitution_params restitution_params(const cs_world* w)
{
    cs_restitution_params p = {w->def.time_step,           w->def.restitution_threshold,
                               w->def.linear_slop,         w->def.solver_params.iterations,
                               w->def.frictionless,        hypot(w->def.gravity.x, w->def.gravity.y),
                               w->restitution_every_sweep, w->restitution_quiet_always,
                               w->restitution_tick_origin, cs_formulation_splits(w->def.formulation)};
    return p;
}

static cs_impact_bodies impact_bodies(const cs_world* w)
{
    cs_impact_bodies b = {w->px,
                          w->py,
                          w->inv_mass,
                          w->inv_inertia,
                          w->v_pre,
                          w->v,
                          w->impact_offset,
                          w->radius,
                          w->walls,
                          cs_formulation_splits(w->def.formulation)};
    return b;
}

// The restitution pass's workspace (per body: world.c; per contact: build_rows).
static cs_impact_reach impact_reach(const cs_world* w)
{
    cs_impact_reach r = {.body_count = w->body_count,
                         .parent = w->reach_parent,
                         .flags = w->reach_flags,
                         .roots = w->reach_roots,
                         .list = w->reach_list,
                         .spare = w->reach_spare,
                         .next = w->reach_next,
                         .listed = w->reach_listed};
    return r;
}

// The restitution pass's compact records (per contact: build_rows; per body: world.c).
static cs_pass_pack pass_pack(const cs_world* w)
{
    cs_pass_pack p = {.rows = w->reach_rows, .bodies = w->reach_bodies, .claimed = w->reach_claimed};
    return p;
}

// 3. Narrow phase into a fresh list (last step's list is kept for the warm start), the contact instant of
// each contact, and the order the sweeps take them in (*order: NULL for key order).
static cs_status narrow_phase(cs_world* w, const int** order, cs_error* err)
{
    cs_contact_list tmp = w->previous;
    w->previous = w->contacts;
    w->contacts = tmp;
    w->contacts.count = 0;
    cs_status st = find_contacts(w, err);
    if (st != CS_OK)
    {
        return st;
    }
    // (The per-contact sums; the warm start's penetration sums.)
    if (!cs_stage_chunk_reserve(w, cs_stage_chunks(w->contacts.count)) || !cs_stage_warm_start(w))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    cs_impact_bodies bodies = impact_bodies(w);
    cs_restitution_params rp = restitution_params(w);
    cs_stage_impacts(w, &bodies, &rp);
    *order = NULL;
    if (w->def.row_order == CS_ROW_ORDER_COLOURED)
    {
        st = cs_stage_order(w, err); // contact_stages.c
        if (st != CS_OK)
        {
            return st;
        }
        *order = w->order.order;
    }
    return CS_OK;
}

// 4–5. The velocity problem's rows, bias and warm start λ⁰, and the split-impulse position problem's
// biases and workspace (*job).
static cs_status build_rows(cs_world* w, const int* order, cs_split_job* job, cs_error* err)
{
    const int n = w->body_count;
    cs_row_params rp = {.time_step = w->def.time_step,
                        .restitution_threshold = w->def.restitution_threshold,
                        .linear_slop = w->def.linear_slop,
                        .baumgarte = w->def.baumgarte,
                        .max_correction = w->def.max_correction,
                        .frictionless = w->def.frictionless,
                        .spook = w->def.formulation == CS_FORMULATION_SPOOK ||
                                 w->def.formulation == CS_FORMULATION_SOFT,
                        .soft_joints = w->joint_count > 0 && cs_joint_any_soft(w),
                        .spook_stiffness = w->def.spook_stiffness,
                        .spook_damping_time = w->def.spook_damping_time,
                        .v_pre = w->v_pre};
    cs_lcp* vp = &w->velocity_problem;
    // Split impulses: pseudo-velocities that remove penetration and are then forgotten, so position
    // correction never adds kinetic energy (Baumgarte in the velocity problem would). The position
    // problem is the velocity problem's normal rows with another bias, v* = 0 and λ⁰ = 0, so it is solved
    // on the rows the velocity solve packs (one normal row every `per` rows); it needs nothing else from
    // the velocity solve, so with threads it runs alongside it.
    int per = w->def.frictionless ? 1 : 2;
    int count = w->contacts.count;
    if (count > w->position_capacity)
    {
        int cap = cs_grow_capacity(w->position_capacity, count);
        if (!CS_RESIZE(w->position_bias, cap) || !CS_RESIZE(w->position_lambda, cap) ||
            !CS_RESIZE(w->reach_roots, 2 * cap) || !CS_RESIZE(w->reach_list, 2 * cap) ||
            !CS_RESIZE(w->reach_spare, 2 * cap) || !CS_RESIZE(w->reach_next, 2 * cap) ||
            !CS_RESIZE(w->reach_rows, cap) || !CS_RESIZE(w->reach_listed, cap))
        {
            return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
        }
        w->position_capacity = cap;
    }
    if (!CS_GROW(w->pseudo_v, w->pseudo_v_capacity, 3 * n + 3))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    fill_bodies(vp, w);
    cs_status st = cs_stage_rows(w, order, &rp, w->position_bias, err); // contact_stages.c
    if (st != CS_OK)
    {
        return st;
    }
    if (w->joint_count > 0)
    {
        cs_stage_rows_overwritten(w, count); // (the joints' rows follow the contacts')
    }
    if ((st = cs_joint_rows(w, vp, err)) != CS_OK) // joint.c: after the contact rows
    {
        return st;
    }
    cs_rows_static_halves(w, vp);                     // body_types.c
    if ((st = cs_health_check_rows(w, err)) != CS_OK) // health.c: a regularisation the solver would refuse
    {
        return st;
    }
    if (!w->def.solver_params.warm_start)
    {
        // The frozen problem then says what the solve really started from.
        memset(vp->lambda0, 0, (size_t)vp->row_count * sizeof(double));
    }
    if (!CS_GROW(w->lambda, w->lambda_capacity, vp->row_count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    // The tolerance is a distance a body's correction moves over the step: h times a pseudo-velocity.
    cs_split_job j = {.solved = &w->work,
                      .bodies = n,
                      .first = 0,
                      .stride = per,
                      .count = count,
                      .iterations = w->def.position_iterations,
                      .bias = w->position_bias,
                      .simd = w->def.solver_params.simd,
                      .work = &w->split_work,
                      .lambda = w->position_lambda,
                      .v = w->pseudo_v,
                      .dv_limit = w->def.position_tolerance / w->def.time_step};
    *job = j;
    return CS_OK;
}

// What the phases up to the solve hand on to the rest of the step.
typedef struct step_run
{
    double t[4];      // broad phase start, narrow phase start, narrow phase end, step start
    const int* order; // the sweeps' contact order (NULL: key order)
    cs_split_job job;
    cs_solver_stats vstats;
    cs_solve_run run;      // the velocity solve (run.defer_residuals: its final residuals are still to come)
    bool residuals_posted; // they are being computed on a worker (join_residuals)
} step_run;

// The velocity solve's final residuals (two sums over every row, in row order: serial) on a worker, beside
// the restitution pass, which does not touch the rows, the solve's v or λ.
static void residuals_task(void* run, int task, int thread)
{
    (void)task;
    (void)thread;
    step_run* r = run;
    cs_solve_residuals(&r->run, &r->vstats);
}

static void post_residuals(cs_world* w, step_run* r)
{
    r->residuals_posted = r->run.defer_residuals && cs_workers_post(w->workers, residuals_task, r);
    if (r->run.defer_residuals && !r->residuals_posted)
    {
        cs_solve_residuals(&r->run, &r->vstats);
    }
}

static void join_residuals(cs_world* w, step_run* r)
{
    if (r->residuals_posted)
    {
        cs_workers_join(w->workers);
        r->residuals_posted = false;
    }
}

// 6. Velocity solve with the selected solver (and the position solve, on the helper thread when it is big
// enough); the contacts keep their λ (the next step's warm start).
static cs_status solve(cs_world* w, step_run* r, cs_error* err)
{
    const cs_solver_params* params = &w->def.solver_params;
    cs_lcp* vp = &w->velocity_problem;
    int per = w->def.frictionless ? 1 : 2;
    int count = w->contacts.count;
    const int* order = r->order;
    cs_split_job* job = &r->job;
    cs_solve_run* run = &r->run;
    // SPOOK corrects positions with the velocity solve's impulses: no split solve (and no split work, whose
    // reserve may write the quads' records for it). The helper's threshold counts all position_iterations
    // sweeps, though a settled pile under position_tolerance takes ~1/20 of them: harmless, as the helper
    // runs the split solve beside the velocity solve, not after it.
    bool split = cs_formulation_splits(w->def.formulation);
    cs_status st = cs_solve_start(vp, w->def.solver, params, &w->work, w->lambda, run, err);
    if (st != CS_OK || (split && (st = cs_split_work_reserve(&w->split_work, &w->work, params->simd, 0, per,
                                                             count, err)) != CS_OK))
    {
        return st;
    }
    bool parallel = split && (int64_t)count * w->def.position_iterations >= CS_PARALLEL_SPLIT_MIN &&
                    cs_workers_post(cs_world_workers(w), split_task, job);
    // With workers the final residuals wait (step(): post_residuals after the health check).
    run->defer_residuals = cs_world_workers(w) != NULL && vp->row_count >= CS_PARALLEL_RESIDUAL_MIN &&
                           run->check.stop != CS_STOP_BAD_PROBLEM;
    cs_solve_finish(run, &r->vstats);
    cs_stage_copy_velocities(w, w->v, w->work.v);
    cs_stage_store_impulses(w, order, per, w->lambda); // contact_stages.c
    cs_joint_store(w, w->lambda);
    if (parallel)
    {
        cs_workers_join(w->workers);
    }
    else if (split)
    {
        cs_split_job_run(job);
    }
    else
    {
        // No pseudo-velocity (spook, soft); the health check reads it (it held garbage: cradle under SPOOK
        // was refused at step 1).
        memset(w->pseudo_v, 0, (size_t)(3 * w->body_count + 3) * sizeof(double));
    }
    return CS_OK;
}

// A chunk of contacts' part of the bound on the impact shifts: Σ s*·(|λn| + |λt|)·max(1/m).
static void shift_part(void* ctx, int first, int end, double* part)
{
    const cs_world* w = ctx;
    double shift = 0.0;
    for (int k = first; k < end; ++k)
    {
        const cs_contact* c = w->contacts.items + k;
        if (c->impact_time > 0.0 && c->normal_impulse > 0.0)
        {
            double inv_m = cs_max(c->a >= 0 ? w->inv_mass[c->a] : 0.0, w->inv_mass[c->b]);
            shift += c->impact_time * (c->normal_impulse + fabs(c->friction_impulse)) * inv_m;
        }
    }
    part[0] = shift;
}

// 7. Restitution at the contact instant (impact.h), then symplectic Euler: positions move with the new
// velocity plus the pseudo-velocity, and go back by s*·M⁻¹Jᵀλ for contacts whose impulse acted at s* > 0.
// Returns a bound on how far any body moved: the queries look that far beyond the broad phase's grid
// (query.c). The shifts back add at most Σ s*·(|λn| + |λt|)·max(1/m) over the contacts that hit.
static double integrate(cs_world* w, step_run* r)
{
    const int* order = r->order;
    cs_impact_bodies bodies = impact_bodies(w);
    cs_restitution_params rp = restitution_params(w);
    cs_impact_reach reach = impact_reach(w);
    cs_pass_pack pack = pass_pack(w);
    cs_contact_restitution(w->contacts.items, w->contacts.count, &bodies, &rp, &reach, &pack, w->v);
    w->stats.restitution_sweeps = pack.sweeps;
    w->restitution_skipped = pack.skipped;
    join_residuals(w, r); // (the stages below want every thread)
    // (SPOOK has no pseudo-velocity: its correction is in v.)
    const double* vp_pseudo = cs_formulation_splits(w->def.formulation) ? w->pseudo_v : NULL;
    double move2 = cs_stage_integrate(w, vp_pseudo); // step_stages.c
    cs_contact_impact_shift_on(w->contacts.items, w->contacts.count, &bodies, w->body_count,
                               w->def.frictionless, w->reach_roots, w->px, w->py, w->angle,
                               cs_world_workers(w));
    if (w->def.formulation == CS_FORMULATION_RELAX)
    {
        cs_relax_split(w, order); // relax.c: the split impulses taken back at the new normals
    }
    const double* parts = cs_stage_parts(w, w->contacts.count, 1, shift_part, w); // (in chunk order)
    double shift = 0.0;
    for (int c = 0; c < cs_stage_chunks(w->contacts.count); ++c)
    {
        shift += parts[c];
    }
    return sqrt(move2) + shift;
}

// A chunk of bodies' kinetic energy (a static or kinematic circle's motion is given, not energy of the
// system).
static void energy_part(void* ctx, int first, int end, double* part)
{
    const cs_world* w = ctx;
    double ke = 0.0;
    for (int i = first; i < end; ++i)
    {
        if (w->inv_mass[i] == 0.0)
        {
            continue;
        }
        double vx = w->v[3 * i], vy = w->v[3 * i + 1], om = w->v[3 * i + 2];
        ke += 0.5 * w->mass[i] * (vx * vx + vy * vy) + 0.5 * om * om / w->inv_inertia[i];
    }
    part[0] = ke;
}

// 8. Stats (the sums over chunks, in chunk order: the same bits on any thread count).
static void record_stats(cs_world* w, const cs_solver_stats* vstats, const cs_split_job* job,
                         const double t[4])
{
    cs_step_stats* s = &w->stats;
    const int n = w->body_count;
    s->step += 1;
    s->time = (double)s->step * w->def.time_step;
    s->bodies = w->alive_count;
    s->contacts = w->contacts.count;
    s->rows = w->velocity_problem.row_count;
    s->iterations = vstats->iterations;
    s->res_lcp = vstats->res_lcp;
    s->res_nat = vstats->res_nat;
    s->solve_stop = (int)vstats->stop;
    double max_pen = 0.0, sum_pen = 0.0, touching = 0.0;
    const double* pen = w->penetration_parts; // (the warm start's, per chunk of contacts)
    for (int c = 0; c < cs_stage_chunks(w->contacts.count); ++c)
    {
        max_pen = cs_max(max_pen, pen[3 * c]);
        sum_pen += pen[3 * c + 1];
        touching += pen[3 * c + 2];
    }
    s->max_penetration = max_pen;
    s->mean_penetration = touching > 0.0 ? sum_pen / touching : 0.0;
    double ke = 0.0;
    const double* energy = cs_stage_parts(w, n, 1, energy_part, w);
    for (int c = 0; c < cs_stage_chunks(n); ++c)
    {
        ke += energy[c];
    }
    s->kinetic_energy = ke;
    s->broadphase_seconds = t[1] - t[0];
    s->narrowphase_seconds = t[2] - t[1];
    s->solver_seconds = vstats->seconds;
    s->position_seconds = job->seconds;
    s->position_sweeps = job->sweeps;
    s->step_seconds = cs_seconds() - t[3];
}

// A phase failed before positions moved: the step is undone as health.c undoes a refused one, so the world
// keeps its last good state (velocities of the step's start; last step's contacts back in place once the
// narrow phase swapped them out).
static cs_status undo_step(cs_world* w, bool contacts_swapped, cs_status st)
{
    memcpy(w->v, w->v_pre, (size_t)(3 * w->body_count) * sizeof(double));
    if (contacts_swapped)
    {
        cs_contact_list tmp = w->contacts;
        w->contacts = w->previous;
        w->previous = tmp;
    }
    return st;
}

// Phases 1–6 (and the relax formulation's shock pass): the velocities solved, nothing moved yet. A failed
// phase is undone (undo_step). scripts/physics/*_ledger.c run it too, then measure the rest.
static cs_status solve_phases(cs_world* w, step_run* r, cs_error* err)
{
    // (The per-body stages' results; the velocity problem's bodies, whose v* the forces stage writes.)
    if (!cs_stage_chunk_reserve(w, cs_stage_chunks(w->body_count)))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    cs_status st = cs_lcp_reserve(&w->velocity_problem, w->body_count, 0, err);
    if (st != CS_OK)
    {
        return st;
    }
    cs_stage_forces(w); // 1. v_pre = v; v* = v + h M⁻¹ f; reach (step_stages.c)
    r->t[0] = cs_seconds();
    st = broad_phase(w, err);
    if (st != CS_OK)
    {
        return undo_step(w, false, st);
    }
    r->t[1] = cs_seconds();
    r->order = NULL;
    if ((st = narrow_phase(w, &r->order, err)) != CS_OK)
    {
        return undo_step(w, true, st);
    }
    r->t[2] = cs_seconds();
    r->job.seconds = 0.0;
    if ((st = build_rows(w, r->order, &r->job, err)) != CS_OK || (st = solve(w, r, err)) != CS_OK)
    {
        return undo_step(w, true, st);
    }
    if (w->def.formulation == CS_FORMULATION_RELAX && (st = cs_shock_propagate(w, err)) != CS_OK)
    {
        return undo_step(w, true, st);
    }
    return CS_OK;
}

static cs_status step(cs_world* w, cs_error* err)
{
    step_run r;
    r.t[3] = cs_seconds();
    r.residuals_posted = false;
    if (cs_sleep_idle_step(w))
    {
        return CS_OK; // everything asleep: only time passes (sleep.c)
    }
    if (w->body_count == 0)
    {
        step_empty(w, r.t[3]);
        return CS_OK;
    }
    cs_status st = solve_phases(w, &r, err);
    if (st != CS_OK)
    {
        return st;
    }
    // Nothing non-finite or exploding moves the world: such a step is undone and says where (health.c).
    if ((st = cs_health_check_step(w, err)) != CS_OK)
    {
        return st;
    }
    post_residuals(w, &r);
    cs_continuous_begin(w); // continuous.c: the paths start here
    w->step_move = integrate(w, &r);
    if (w->def.formulation == CS_FORMULATION_SOFT &&
        (st = cs_relax_step(w, r.order, &r.job.seconds, err)) != CS_OK)
    {
        return st; // (out of memory only)
    }
    if (w->joint_count > 0)
    {
        w->step_move += cs_joint_project(w); // joint.c: joint drift, at the position level
    }
    w->query_slack += w->step_move; // (0 after a step that built the grid: cs_query_grid_updated)
    cs_continuous(w); // continuous.c: no fast circle through a static one (or a bullet through any)
    if ((st = cs_events_update(w, err)) != CS_OK)
    {
        return st;
    }
    cs_sleep_update(w); // sleep.c
    record_stats(w, &r.vstats, &r.job, r.t);
    return CS_OK;
}

cs_status cs_world_step(cs_world* w)
{
    cs_error err = {CS_OK, ""};
    cs_status st = step(w, &err);
    if (st != CS_OK)
    {
        w->last_error = err;
    }
    return st;
}

const char* cs_world_last_error(const cs_world* w)
{
    return w->last_error.message;
}
