// One fixed time step (DESIGN.md "One time step"):
//   forces → broad phase → narrow phase → rows + warm start → velocity solve → split-impulse position
//   solve → symplectic Euler integration → stats.
// Every buffer lives in the world and only grows, so a steady-state step allocates nothing.
#include <math.h>
#include <string.h>

#include "contact/contact_order.h"
#include "contact/contact_rows.h"
#include "contact/narrowphase.h"
#include "core/array.h"
#include "world/world_internal.h"

// max of two finite numbers; fmax is a library call without -ffinite-math-only.
static inline double cs_max(double x, double y)
{
    return x > y ? x : y;
}

static bool push_contact(cs_contact_list* list, const cs_contact* c)
{
    if (!CS_GROW(list->items, list->capacity, list->count + 1))
    {
        return false;
    }
    list->items[list->count++] = *c;
    return true;
}

static cs_status find_contacts(cs_world* w, cs_error* err)
{
    const cs_broadphase* bp = &w->broadphase;
    double margin = w->def.speculative_margin;
    cs_contact c;
    bool filtering = w->filter_count + w->nondynamic_count + w->no_collide_joints + w->asleep_count > 0;
    for (int k = 0; k < bp->pair_count; ++k)
    {
        int a = bp->pairs[k].a, b = bp->pairs[k].b;
        if (filtering && !cs_pair_collides(w, a, b))
        {
            continue; // filtered pairs never make rows (filter.c)
        }
        // The broad phase's predicate: the gap may close by both circles' travel this step.
        double reach = margin + (w->reach[a] - w->radius[a]) + (w->reach[b] - w->radius[b]);
        if (cs_collide_circles(a, b, w->px[a], w->py[a], w->radius[a], w->px[b], w->py[b], w->radius[b],
                               reach, &c))
        {
            c.friction = sqrt(w->friction[a] * w->friction[b]);
            c.restitution = cs_max(w->restitution[a], w->restitution[b]);
            if (!push_contact(&w->contacts, &c))
            {
                return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
            }
        }
    }
    // Walls are few: each is tested against every circle, O(N·W), keys stay sorted (wall-major).
    for (int k = 0; k < w->wall_count; ++k)
    {
        const cs_wall* wall = w->walls + k;
        for (int b = 0; b < w->body_count; ++b)
        {
            // Static, kinematic and removed circles (inv_mass 0) do not meet walls; sensors meet nothing.
            if (!(isfinite(w->px[b]) && isfinite(w->py[b])) || w->inv_mass[b] == 0.0 ||
                (w->sensor_count > 0 && (w->body_flags[b] & CS_BODY_SENSOR)))
            {
                continue;
            }
            double reach = margin + (w->reach[b] - w->radius[b]);
            if (cs_collide_wall(wall, k, b, w->px[b], w->py[b], w->radius[b], reach, &c))
            {
                c.friction = sqrt(wall->friction * w->friction[b]);
                c.restitution = cs_max(wall->restitution, w->restitution[b]);
                if (!push_contact(&w->contacts, &c))
                {
                    return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
                }
            }
        }
    }
    return CS_OK;
}

// Both lists are sorted by key: a merge gives each persisting contact last step's impulses.
static void warm_start(cs_contact_list* now, const cs_contact_list* before)
{
    int j = 0;
    for (int i = 0; i < now->count; ++i)
    {
        cs_contact* c = now->items + i;
        while (j < before->count && before->items[j].key < c->key)
        {
            ++j;
        }
        if (j < before->count && before->items[j].key == c->key)
        {
            c->normal_impulse = before->items[j].normal_impulse;
            c->friction_impulse = before->items[j].friction_impulse;
        }
        else
        {
            c->normal_impulse = 0.0;
            c->friction_impulse = 0.0;
        }
    }
}

static cs_status fill_bodies(cs_lcp* p, const cs_world* w, cs_error* err)
{
    cs_status st = cs_lcp_reserve(p, w->body_count, 0, err);
    if (st != CS_OK)
    {
        return st;
    }
    int n = w->body_count;
    p->body_count = n;
    memcpy(p->inv_mass, w->inv_mass, (size_t)n * sizeof(double));
    memcpy(p->inv_inertia, w->inv_inertia, (size_t)n * sizeof(double));
    memcpy(p->v, w->v, (size_t)(3 * n) * sizeof(double));
    return CS_OK;
}

// The helper thread ------------------------------------------------------------------------------------

// Below this many row updates (contacts × position sweeps) the hand-over costs more than it saves.
// Measured on the 2-vCPU development VM: waking the helper and waiting for it cost ~50 µs, and the two
// threads slow each other's sweeps by ~30%, so Pool 1 (12 000 updates) loses (128 → 143 µs/step) while a
// 5 000-circle pool (200 000 updates) gains 1.38× and a 50 000-circle one 1.31×.
#define CS_PARALLEL_SPLIT_MIN 40000

static void run_split_job(cs_split_job* job)
{
    double t0 = cs_seconds();
    cs_solve_split(job->solved, job->bodies, job->first, job->stride, job->count, job->bias, job->iterations,
                   job->simd, job->work, job->lambda, job->v);
    job->seconds = cs_seconds() - t0;
}

static int helper_main(void* arg)
{
    cs_helper* h = arg;
    mtx_lock(&h->lock);
    for (;;)
    {
        while (!h->posted && !h->quit)
        {
            cnd_wait(&h->wake, &h->lock);
        }
        if (h->quit)
        {
            break;
        }
        mtx_unlock(&h->lock);
        run_split_job(&h->job);
        mtx_lock(&h->lock);
        h->posted = false;
        cnd_signal(&h->done);
    }
    mtx_unlock(&h->lock);
    return 0;
}

// Hands the job to the helper thread, starting it on first use. False (run it here) when the thread
// cannot be started.
static bool helper_post(cs_helper* h, const cs_split_job* job)
{
    if (!h->running)
    {
        if (mtx_init(&h->lock, mtx_plain) != thrd_success)
        {
            return false;
        }
        if (cnd_init(&h->wake) != thrd_success)
        {
            mtx_destroy(&h->lock);
            return false;
        }
        if (cnd_init(&h->done) != thrd_success)
        {
            cnd_destroy(&h->wake);
            mtx_destroy(&h->lock);
            return false;
        }
        h->posted = false;
        h->quit = false;
        if (thrd_create(&h->thread, helper_main, h) != thrd_success)
        {
            cnd_destroy(&h->done);
            cnd_destroy(&h->wake);
            mtx_destroy(&h->lock);
            return false;
        }
        h->running = true;
    }
    mtx_lock(&h->lock);
    h->job = *job;
    h->posted = true;
    cnd_signal(&h->wake);
    mtx_unlock(&h->lock);
    return true;
}

// Waits for the posted job; copies it back (its time).
static void helper_wait(cs_helper* h, cs_split_job* job)
{
    mtx_lock(&h->lock);
    while (h->posted)
    {
        cnd_wait(&h->done, &h->lock);
    }
    *job = h->job;
    mtx_unlock(&h->lock);
}

void cs_helper_stop(cs_helper* h)
{
    if (!h->running)
    {
        return;
    }
    mtx_lock(&h->lock);
    h->quit = true;
    cnd_signal(&h->wake);
    mtx_unlock(&h->lock);
    thrd_join(h->thread, NULL);
    cnd_destroy(&h->done);
    cnd_destroy(&h->wake);
    mtx_destroy(&h->lock);
    h->running = false;
}

static cs_status step(cs_world* w, cs_error* err)
{
    double t_start = cs_seconds();
    const double h = w->def.time_step;
    const int n = w->body_count;
    cs_status st;

    // 1. External forces: v* = v + h M⁻¹ f.
    if (cs_sleep_idle_step(w))
    {
        return CS_OK; // everything asleep: only time passes (sleep.c)
    }
    if (n == 0)
    {
        // Nothing moves and nothing touches (its arrays may not exist yet): only time passes.
        cs_step_stats* s = &w->stats;
        s->step += 1;
        s->time = (double)s->step * h;
        s->bodies = s->contacts = s->rows = s->iterations = 0;
        s->res_lcp = s->res_nat = s->max_penetration = s->mean_penetration = s->kinetic_energy = 0.0;
        s->broadphase_seconds = s->narrowphase_seconds = s->solver_seconds = s->position_seconds = 0.0;
        s->step_seconds = cs_seconds() - t_start;
        return CS_OK;
    }
    memcpy(w->v_pre, w->v, (size_t)(3 * n) * sizeof(double));
    for (int i = 0; i < n; ++i)
    {
        if (w->inv_mass[i] == 0.0)
        {
            continue; // static, kinematic or a free slot: no force moves it
        }
        w->v[3 * i] += h * (w->def.gravity.x + w->fx[i] * w->inv_mass[i]);
        w->v[3 * i + 1] += h * (w->def.gravity.y + w->fy[i] * w->inv_mass[i]);
    }

    // 2. Broad phase. Contacts are speculative: a pair is found while its gap is below the margin plus
    // the distance both circles can travel this step, so fast bodies meet a contact before they overlap.
    double t0 = cs_seconds();
    for (int i = 0; i < n; ++i)
    {
        w->reach[i] = w->radius[i] + h * sqrt(w->v[3 * i] * w->v[3 * i] + w->v[3 * i + 1] * w->v[3 * i + 1]);
    }
    w->broadphase.active = w->alive_count < w->body_count ? w->active : NULL; // skip free slots
    st = cs_broadphase_update(&w->broadphase, w->px, w->py, w->reach, n, w->def.speculative_margin, err);
    if (st != CS_OK)
    {
        return st;
    }
    cs_query_grid_updated(w, n);
    cs_sleep_wake_touched(w); // sleep.c
    double t1 = cs_seconds();

    // 3. Narrow phase into a fresh list; last step's list is kept for the warm start.
    cs_contact_list tmp = w->previous;
    w->previous = w->contacts;
    w->contacts = tmp;
    w->contacts.count = 0;
    st = find_contacts(w, err);
    if (st != CS_OK)
    {
        return st;
    }
    warm_start(&w->contacts, &w->previous);
    const int* order = NULL; // key order
    if (w->def.row_order == CS_ROW_ORDER_COLOURED)
    {
        st = cs_contact_order_build(&w->order, w->contacts.items, w->contacts.count, n, CS_ORDER_BLOCK, err);
        if (st != CS_OK)
        {
            return st;
        }
        order = w->order.order;
    }
    double t2 = cs_seconds();

    // 4–5. Rows, bias, warm start λ⁰.
    cs_row_params rp = {h,
                        w->def.restitution_threshold,
                        w->def.linear_slop,
                        w->def.baumgarte,
                        w->def.max_correction,
                        w->def.frictionless};
    cs_lcp* vp = &w->velocity_problem;
    if ((st = fill_bodies(vp, w, err)) != CS_OK ||
        (st = cs_contact_rows_velocity(w->contacts.items, order, w->contacts.count, w->v_pre, &rp, vp,
                                       err)) != CS_OK)
    {
        return st;
    }
    if ((st = cs_joint_rows(w, vp, err)) != CS_OK) // joint.c: after the contact rows
    {
        return st;
    }
    cs_rows_static_halves(w, vp); // body_types.c
    const cs_solver_params* params = &w->def.solver_params;
    if (!params->warm_start)
    {
        // The frozen problem then says what the solve really started from.
        memset(vp->lambda0, 0, (size_t)vp->row_count * sizeof(double));
    }
    int m = vp->row_count;
    if (!CS_GROW(w->lambda, w->lambda_capacity, m))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }

    // Split impulses: pseudo-velocities that remove penetration and are then forgotten, so position
    // correction never adds kinetic energy (Baumgarte in the velocity problem would). The position
    // problem is the velocity problem's normal rows with another bias, v* = 0 and λ⁰ = 0, so it is solved
    // on the rows the velocity solve packs (one normal row every `per` rows); it needs nothing else from
    // the velocity solve, so with two threads it runs alongside it.
    int per = w->def.frictionless ? 1 : 2;
    int count = w->contacts.count;
    if (count > w->position_capacity)
    {
        int cap = cs_grow_capacity(w->position_capacity, count);
        if (!CS_RESIZE(w->position_bias, cap) || !CS_RESIZE(w->position_lambda, cap))
        {
            return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
        }
        w->position_capacity = cap;
    }
    if (!CS_GROW(w->pseudo_v, w->pseudo_v_capacity, 3 * n + 3))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    cs_contact_position_bias(w->contacts.items, order, count, &rp, w->position_bias);
    cs_split_job job = {&w->work,
                        n,
                        0,
                        per,
                        count,
                        w->def.position_iterations,
                        w->position_bias,
                        params->simd,
                        &w->split_work,
                        w->position_lambda,
                        w->pseudo_v,
                        0.0};

    // 6. Velocity solve with the selected solver (and the position solve on the helper thread).
    cs_solve_run run;
    st = cs_solve_start(vp, w->def.solver, params, &w->work, w->lambda, &run, err);
    if (st != CS_OK ||
        (st = cs_split_work_reserve(&w->split_work, &w->work, params->simd, 0, per, count, err)) != CS_OK)
    {
        return st;
    }
    bool parallel = w->threads > 1 && (int64_t)count * w->def.position_iterations >= CS_PARALLEL_SPLIT_MIN &&
                    helper_post(&w->helper, &job);
    cs_solver_stats vstats;
    cs_solve_finish(&run, &vstats);
    memcpy(w->v, w->work.v, (size_t)(3 * n) * sizeof(double));
    for (int k = 0; k < w->contacts.count; ++k)
    {
        cs_contact* c = w->contacts.items + (order != NULL ? order[k] : k);
        c->normal_impulse = w->lambda[per * k];
        c->friction_impulse = per == 2 ? w->lambda[per * k + 1] : 0.0;
    }
    cs_joint_store(w, w->lambda);
    if (parallel)
    {
        helper_wait(&w->helper, &job);
    }
    else
    {
        run_split_job(&job);
    }

    // 7. Symplectic Euler: positions move with the new velocity plus the pseudo-velocity.
    // The largest move is how far the queries must look beyond the broad phase's grid (query.c).
    const double* vp_pseudo = w->pseudo_v;
    double move2 = 0.0;
    for (int i = 0; i < n; ++i)
    {
        double dx = h * (w->v[3 * i] + vp_pseudo[3 * i]);
        double dy = h * (w->v[3 * i + 1] + vp_pseudo[3 * i + 1]);
        w->px[i] += dx;
        w->py[i] += dy;
        w->angle[i] += h * (w->v[3 * i + 2] + vp_pseudo[3 * i + 2]);
        move2 = cs_max(move2, dx * dx + dy * dy);
    }
    if (w->joint_count > 0)
    {
        cs_joint_project(w); // joint.c: joint drift, at the position level
    }
    w->query_slack = sqrt(move2);
    cs_continuous(w); // continuous.c: no fast circle through a static one (or a bullet through any)
    if ((st = cs_events_update(w, err)) != CS_OK)
    {
        return st;
    }
    cs_sleep_update(w); // sleep.c

    // 8. Stats.
    cs_step_stats* s = &w->stats;
    s->step += 1;
    s->time = (double)s->step * h;
    s->bodies = w->alive_count;
    s->contacts = w->contacts.count;
    s->rows = m;
    s->iterations = vstats.iterations;
    s->res_lcp = vstats.res_lcp;
    s->res_nat = vstats.res_nat;
    double max_pen = 0.0, sum_pen = 0.0;
    int touching = 0;
    for (int k = 0; k < w->contacts.count; ++k)
    {
        double g = w->contacts.items[k].gap;
        if (g < 0.0)
        {
            max_pen = cs_max(max_pen, -g);
            sum_pen += -g;
            touching += 1;
        }
    }
    s->max_penetration = max_pen;
    s->mean_penetration = touching > 0 ? sum_pen / touching : 0.0;
    double ke = 0.0;
    for (int i = 0; i < n; ++i)
    {
        if (w->inv_mass[i] == 0.0)
        {
            continue; // a static or kinematic circle's motion is given, not energy of the system
        }
        double vx = w->v[3 * i], vy = w->v[3 * i + 1], om = w->v[3 * i + 2];
        ke += 0.5 * w->mass[i] * (vx * vx + vy * vy) + 0.5 * om * om / w->inv_inertia[i];
    }
    s->kinetic_energy = ke;
    s->broadphase_seconds = t1 - t0;
    s->narrowphase_seconds = t2 - t1;
    s->solver_seconds = vstats.seconds;
    s->position_seconds = job.seconds;
    s->step_seconds = cs_seconds() - t_start;
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
