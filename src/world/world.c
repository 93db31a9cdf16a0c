// World creation and destruction, its definition's defaults and names, and the accessors of its bodies, walls
// and contacts. Adding is world_add.c's, settings are world_settings.c's, the step is step.c's.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/restitution_pack.h"
#include "core/array.h"
#include "world/limits.h"
#include "world/world_internal.h"

cs_world_def cs_world_def_default(void)
{
    cs_world_def d;
    memset(&d, 0, sizeof d);
    d.gravity.x = 0.0;
    d.gravity.y = -9.80665;
    d.time_step = 1.0 / 60.0;
    d.speculative_margin = 0.02;
    d.linear_slop = 0.001;
    d.baumgarte = 0.2;
    d.max_correction = 0.2;
    d.position_iterations = 20;
    d.position_tolerance = 1e-8; // docs/PERFORMANCE.md "Ending the position sweeps early"
    d.restitution_threshold = 1.0;
    d.hit_event_threshold = 1.0;
    d.contact_events = true;
    d.enable_continuous = true;
    d.frictionless = false;
    d.row_order = CS_ROW_ORDER_COLOURED;
    d.formulation = CS_FORMULATION_RELAX;
    d.spook_stiffness = 3e4;
    d.spook_damping_time = 0.05;
    d.solver = cs_solver_find("pgs");
    d.solver_params = cs_solver_params_default();
    return d;
}

static const char* const row_order_names[CS_ROW_ORDER_COUNT] = {"coloured", "key"};
static const char* const formulation_names[CS_FORMULATION_COUNT] = {"split", "spook", "soft", "relax"};

const char* cs_formulation_name(cs_formulation formulation)
{
    return (int)formulation >= 0 && formulation < CS_FORMULATION_COUNT ? formulation_names[formulation]
                                                                       : NULL;
}

int cs_formulation_find(const char* name)
{
    for (int i = 0; name != NULL && i < CS_FORMULATION_COUNT; ++i)
    {
        if (strcmp(name, formulation_names[i]) == 0)
        {
            return i;
        }
    }
    return -1;
}

const char* cs_row_order_name(cs_row_order order)
{
    return (int)order >= 0 && order < CS_ROW_ORDER_COUNT ? row_order_names[order] : NULL;
}

int cs_row_order_find(const char* name)
{
    for (int i = 0; name != NULL && i < CS_ROW_ORDER_COUNT; ++i)
    {
        if (strcmp(name, row_order_names[i]) == 0)
        {
            return i;
        }
    }
    return -1;
}

cs_circle_def cs_circle_def_default(void)
{
    cs_circle_def d;
    memset(&d, 0, sizeof d);
    d.radius = 0.5;
    d.mass = 1.0;
    d.friction = 0.1;
    d.restitution = 0.2;
    d.type = CS_BODY_DYNAMIC;
    d.category_bits = 1;
    d.mask_bits = UINT32_MAX;
    return d;
}

cs_world* cs_world_create(const cs_world_def* def, cs_error* err)
{
    cs_world_def d = def != NULL ? *def : cs_world_def_default();
    cs_error why = {CS_OK, ""};
    const char* key = cs_world_def_problem(&d, &why); // limits.c: the sane ranges
    if (key != NULL)
    {
        cs_fail(err, CS_ERR_VALUE, "world: %s: %s", key, why.message);
        return NULL;
    }
    if (cs_formulation_name(d.formulation) == NULL ||
        !(isfinite(d.spook_stiffness) && d.spook_stiffness > 0.0) ||
        !(isfinite(d.spook_damping_time) && d.spook_damping_time >= 0.0))
    {
        cs_fail(err, CS_ERR_VALUE,
                "world: formulation must be split, spook, soft or relax, spook_stiffness finite and > 0, "
                "spook_damping_time finite and >= 0");
        return NULL;
    }
    if (d.solver < 0 || d.solver >= cs_solver_count())
    {
        cs_fail(err, CS_ERR_USAGE, "world: no such solver index %d (solvers: %s)", d.solver,
                cs_solver_names());
        return NULL;
    }
    if (cs_row_order_name(d.row_order) == NULL)
    {
        cs_fail(err, CS_ERR_VALUE, "world: no such row order %d (coloured, key)", (int)d.row_order);
        return NULL;
    }
    cs_world* w = calloc(1, sizeof *w);
    if (w == NULL)
    {
        cs_fail(err, CS_ERR_MEMORY, "world: out of memory");
        return NULL;
    }
    w->def = d;
    w->threads = 1;
    w->health.ok = true;
    w->sleeping = d.enable_sleep;
    w->broadphase.list.skin_fraction = CS_BROADPHASE_SKIN; // broadphase_list.c: pairs kept across steps
    return w;
}

void cs_world_destroy(cs_world* w)
{
    if (w == NULL)
    {
        return;
    }
    cs_workers_destroy(w->workers); // stops and joins the worker threads
    double** arrays[] = {&w->px,          &w->py,       &w->angle,       &w->v,
                         &w->v_pre,       &w->fx,       &w->fy,          &w->radius,
                         &w->mass,        &w->inv_mass, &w->inv_inertia, &w->friction,
                         &w->restitution, &w->reach,    &w->start_x,     &w->start_y};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i)
    {
        free(*arrays[i]);
    }
    cs_world_free_ids(w);
    free(w->fresh);
    free(w->joints);
    free(w->joint_head);
    void* sleep_arrays[] = {w->asleep, w->sleep_time, w->island_next, w->island_parent, w->island_rest};
    for (size_t i = 0; i < sizeof sleep_arrays / sizeof sleep_arrays[0]; ++i)
    {
        free(sleep_arrays[i]);
    }
    cs_event_state_free(&w->events);
    free(w->walls);
    free(w->wall_bodies);
    free(w->wall_masks);
    cs_broadphase_free(&w->broadphase);
    free(w->contacts.items);
    cs_contact_order_free(&w->order);
    free(w->previous.items);
    cs_lcp_free(&w->velocity_problem);
    free(w->relax_contacts.items);
    cs_lcp_free(&w->relax_problem);
    free(w->relax_lambda);
    free(w->shock_ints);
    free(w->shock_edges);
    free(w->shock_plan);
    free(w->lambda);
    cs_solver_work_free(&w->work);
    free(w->position_bias);
    free(w->position_lambda);
    cs_split_work_free(&w->split_work);
    free(w->pseudo_v);
    free(w->impact_offset);
    free(w->reach_parent);
    free(w->reach_flags);
    free(w->reach_roots);
    free(w->reach_list);
    free(w->reach_spare);
    free(w->reach_next);
    free(w->reach_rows);
    free(w->reach_listed);
    free(w->reach_bodies);
    free(w->reach_claimed);
    free(w->pair_hits);
    free(w->chunk_ints);
    free(w->chunk_doubles);
    free(w->penetration_parts);
    free(w);
}

bool cs_world_reserve_bodies(cs_world* w, int needed)
{
    if (needed <= w->body_capacity)
    {
        return true;
    }
    int cap = cs_grow_capacity(w->body_capacity, needed);
    bool ok = CS_RESIZE(w->px, cap) && CS_RESIZE(w->py, cap) && CS_RESIZE(w->angle, cap) &&
              CS_RESIZE(w->v, 3 * cap) && CS_RESIZE(w->v_pre, 3 * cap) && CS_RESIZE(w->fx, cap) &&
              CS_RESIZE(w->fy, cap) && CS_RESIZE(w->radius, cap) && CS_RESIZE(w->reach, cap) &&
              CS_RESIZE(w->start_x, cap) && CS_RESIZE(w->start_y, cap) && CS_RESIZE(w->mass, cap) &&
              CS_RESIZE(w->inv_mass, cap) && CS_RESIZE(w->inv_inertia, cap) && CS_RESIZE(w->friction, cap) &&
              CS_RESIZE(w->restitution, cap) && CS_RESIZE(w->body_type, cap) &&
              CS_RESIZE(w->body_flags, cap) && CS_RESIZE(w->active, cap) && CS_RESIZE(w->category, cap) &&
              CS_RESIZE(w->mask, cap) && CS_RESIZE(w->group, cap) && CS_RESIZE(w->generation, cap) &&
              CS_RESIZE(w->dense, cap) && CS_RESIZE(w->dense_of, cap) && CS_RESIZE(w->joint_head, cap) &&
              CS_RESIZE(w->asleep, cap) && CS_RESIZE(w->sleep_time, cap) && CS_RESIZE(w->island_next, cap) &&
              CS_RESIZE(w->island_parent, cap) && CS_RESIZE(w->island_rest, cap) &&
              CS_RESIZE(w->impact_offset, 3 * cap) && CS_RESIZE(w->reach_parent, cap) &&
              CS_RESIZE(w->reach_flags, cap) && CS_RESIZE(w->reach_bodies, cap) &&
              CS_RESIZE(w->reach_claimed, cap);
    if (ok)
    {
        w->body_capacity = cap;
    }
    return ok;
}

int cs_world_body_count(const cs_world* w)
{
    return w->alive_count;
}

cs_body_state cs_world_body(const cs_world* w, int id)
{
    cs_body_state s;
    memset(&s, 0, sizeof s);
    int i = cs_world_slot(w, id);
    if (i < 0)
    {
        return s;
    }
    s.position.x = w->px[i];
    s.position.y = w->py[i];
    s.angle = w->angle[i];
    s.velocity.x = w->v[3 * i];
    s.velocity.y = w->v[3 * i + 1];
    s.angular_velocity = w->v[3 * i + 2];
    s.radius = w->radius[i];
    s.mass = w->mass[i];
    return s;
}

bool cs_world_set_body_velocity(cs_world* w, int id, cs_vec2 velocity, double angular_velocity)
{
    int i = cs_world_slot(w, id);
    if (i < 0 || w->body_type[i] == CS_BODY_STATIC || !cs_limit_ok(&cs_limit_speed, velocity.x) ||
        !cs_limit_ok(&cs_limit_speed, velocity.y) ||
        !cs_limit_ok(&cs_limit_angular_velocity, angular_velocity))
    {
        return false;
    }
    cs_sleep_wake(w, i);
    w->v[3 * i] = velocity.x;
    w->v[3 * i + 1] = velocity.y;
    w->v[3 * i + 2] = angular_velocity;
    return true;
}

bool cs_world_set_body_force(cs_world* w, int id, cs_vec2 force)
{
    int i = cs_world_slot(w, id);
    if (i < 0 || !cs_vec2_finite(force))
    {
        return false;
    }
    if (force.x != 0.0 || force.y != 0.0)
    {
        cs_sleep_wake(w, i);
    }
    w->fx[i] = force.x;
    w->fy[i] = force.y;
    return true;
}

void cs_world_clear_forces(cs_world* w)
{
    for (int i = 0; i < w->body_count; ++i)
    {
        w->fx[i] = 0.0;
        w->fy[i] = 0.0;
    }
}

int cs_world_wall_count(const cs_world* w)
{
    return w->wall_count;
}

cs_wall cs_world_wall(const cs_world* w, int index)
{
    cs_wall none;
    memset(&none, 0, sizeof none);
    return index >= 0 && index < w->wall_count ? w->walls[index] : none;
}

int cs_world_contact_count(const cs_world* w)
{
    return w->contacts.count;
}

cs_contact_info cs_world_contact(const cs_world* w, int index)
{
    cs_contact_info info;
    memset(&info, 0, sizeof info);
    if (index < 0 || index >= w->contacts.count)
    {
        return info;
    }
    const cs_contact* c = w->contacts.items + index;
    info.body_a = c->a >= 0 ? cs_world_slot_id(w, c->a) : -1;
    info.body_b = cs_world_slot_id(w, c->b);
    info.wall = c->wall;
    info.point.x = c->px;
    info.point.y = c->py;
    info.normal.x = c->nx;
    info.normal.y = c->ny;
    info.gap = c->gap;
    info.normal_impulse = c->normal_impulse;
    info.friction_impulse = c->friction_impulse;
    return info;
}

void cs_world_bounds(const cs_world* w, cs_vec2* lower, cs_vec2* upper)
{
    double lx = INFINITY, ly = INFINITY, ux = -INFINITY, uy = -INFINITY;
    for (int k = 0; k < w->alive_count; ++k)
    {
        int i = w->dense[k];
        if (!(isfinite(w->px[i]) && isfinite(w->py[i])))
        {
            continue;
        }
        lx = fmin(lx, w->px[i] - w->radius[i]);
        ly = fmin(ly, w->py[i] - w->radius[i]);
        ux = fmax(ux, w->px[i] + w->radius[i]);
        uy = fmax(uy, w->py[i] + w->radius[i]);
    }
    for (int k = 0; k < w->wall_count; ++k)
    {
        const cs_wall* wall = w->walls + k;
        lx = fmin(lx, fmin(wall->p0.x, wall->p1.x));
        ly = fmin(ly, fmin(wall->p0.y, wall->p1.y));
        ux = fmax(ux, fmax(wall->p0.x, wall->p1.x));
        uy = fmax(uy, fmax(wall->p0.y, wall->p1.y));
    }
    if (!(lx <= ux))
    {
        lx = ly = -1.0;
        ux = uy = 1.0;
    }
    lower->x = lx;
    lower->y = ly;
    upper->x = ux;
    upper->y = uy;
}

const cs_lcp* cs_world_last_problem(const cs_world* w)
{
    return &w->velocity_problem;
}

const double* cs_world_last_lambda(const cs_world* w)
{
    return w->lambda;
}

uint64_t cs_world_hash(const cs_world* w)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < w->body_count; ++i)
    {
        double fields[6] = {w->px[i], w->py[i], w->angle[i], w->v[3 * i], w->v[3 * i + 1], w->v[3 * i + 2]};
        const unsigned char* bytes = (const unsigned char*)fields;
        for (size_t k = 0; k < sizeof fields; ++k)
        {
            h ^= bytes[k];
            h *= 1099511628211ull;
        }
    }
    return h;
}
