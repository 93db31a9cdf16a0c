// A deep copy of a world: bodies, walls, forces, the contacts of the last step (the next step's warm
// start), settings and counters. Stepping the copy gives the same bits as stepping the original, which
// is what the viewer's duels fork from.
#include <string.h>

#include "core/array.h"
#include "world/world_internal.h"

static bool copy_doubles(double* dst, const double* src, size_t count)
{
    if (count > 0)
    {
        memcpy(dst, src, count * sizeof(double));
    }
    return true;
}

static cs_status copy_bodies(cs_world* w, const cs_world* src, cs_error* err)
{
    // Adding each body sizes every per-body array the way the world does; the copies below then carry
    // the exact bits (velocities, forces, derived inverse masses) whatever add_circle would compute.
    if (src->alive_count != src->body_count || src->sleeping)
    {
        // Slots of removed bodies (their generations and the free ring) and sleep state are not
        // copied yet: refuse rather than fork a world that would step differently.
        cs_fail(err, CS_ERR_USAGE,
                "world clone: a world with removed bodies or sleeping on cannot be cloned yet");
        return CS_ERR_USAGE;
    }
    for (int i = 0; i < src->body_count; ++i)
    {
        cs_circle_def d = cs_circle_def_default();
        d.position = (cs_vec2){src->px[i], src->py[i]};
        d.radius = src->radius[i];
        d.mass = src->mass[i];
        d.type = (cs_body_type)src->body_type[i];
        d.sensor = (src->body_flags[i] & CS_BODY_SENSOR) != 0;
        d.category_bits = src->category[i];
        d.mask_bits = src->mask[i];
        d.group = src->group[i];
        if (cs_world_add_circle(w, &d, err) < 0)
        {
            return err != NULL && err->status != CS_OK ? err->status : CS_ERR_MEMORY;
        }
    }
    size_t n = (size_t)src->body_count;
    const double* from[] = {src->px,          src->py,       src->angle,       src->fx,
                            src->fy,          src->radius,   src->mass,        src->inv_mass,
                            src->inv_inertia, src->friction, src->restitution, src->reach};
    double* to[] = {w->px,   w->py,       w->angle,       w->fx,       w->fy,          w->radius,
                    w->mass, w->inv_mass, w->inv_inertia, w->friction, w->restitution, w->reach};
    for (size_t k = 0; k < sizeof to / sizeof to[0]; ++k)
    {
        copy_doubles(to[k], from[k], n);
    }
    copy_doubles(w->v, src->v, 3 * n);
    // Joints name slots, and the slots are the same: their records (with warm-start impulses) copy as they
    // are.
    if (src->joint_count > 0)
    {
        if (!CS_GROW(w->joints, w->joint_capacity, src->joint_count))
        {
            cs_fail(err, CS_ERR_MEMORY, "world clone: out of memory for %d joints", src->joint_count);
            return CS_ERR_MEMORY;
        }
        memcpy(w->joints, src->joints, (size_t)src->joint_count * sizeof *src->joints);
        memcpy(w->joint_head, src->joint_head, n * sizeof *src->joint_head);
        w->joint_count = src->joint_count;
        w->no_collide_joints = src->no_collide_joints;
        w->joint_rows_first = src->joint_rows_first;
    }
    copy_doubles(w->v_pre, src->v_pre, 3 * n);
    return CS_OK;
}

static cs_status copy_contacts(cs_contact_list* dst, const cs_contact_list* src, cs_error* err)
{
    if (!CS_GROW(dst->items, dst->capacity, src->count))
    {
        cs_fail(err, CS_ERR_MEMORY, "world clone: out of memory for %d contacts", src->count);
        return CS_ERR_MEMORY;
    }
    if (src->count > 0)
    {
        memcpy(dst->items, src->items, (size_t)src->count * sizeof *src->items);
    }
    dst->count = src->count;
    return CS_OK;
}

cs_world* cs_world_clone(const cs_world* src, cs_error* err)
{
    cs_world* w = cs_world_create(&src->def, err);
    if (w == NULL)
    {
        return NULL;
    }
    cs_status st = copy_bodies(w, src, err);
    if (st == CS_OK && src->wall_count > 0)
    {
        if (!CS_GROW(w->walls, w->wall_capacity, src->wall_count))
        {
            cs_fail(err, CS_ERR_MEMORY, "world clone: out of memory for %d walls", src->wall_count);
            st = CS_ERR_MEMORY;
        }
        else
        {
            memcpy(w->walls, src->walls, (size_t)src->wall_count * sizeof *src->walls);
            w->wall_count = src->wall_count;
        }
    }
    // The step swaps `contacts` into `previous` and warm-starts from it: the last step's contacts with
    // their impulses are the whole warm start.
    if (st == CS_OK)
    {
        st = copy_contacts(&w->contacts, &src->contacts, err);
    }
    if (st == CS_OK && src->work.record_history)
    {
        st = cs_world_set_record_history(w, true, err);
    }
    if (st != CS_OK)
    {
        cs_world_destroy(w);
        return NULL;
    }
    w->threads = src->threads;
    w->stats = src->stats;
    w->last_error = src->last_error;
    return w;
}
