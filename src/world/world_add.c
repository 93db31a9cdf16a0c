// Adding to a world: circles (a slot, its material and mass, its place in the broad phase) and walls
// (segments and half-planes). Removing is world_remove.c's.
#include <math.h>

#include "core/array.h"
#include "world/limits.h"
#include "world/world_internal.h"

static bool valid_material(double friction, double restitution)
{
    return cs_limit_ok(&cs_limit_friction, friction) && restitution >= 0.0 && restitution <= 1.0;
}

int cs_world_add_circle(cs_world* w, const cs_circle_def* def, cs_error* err)
{
    cs_error why = {CS_OK, ""};
    const char* key = cs_circle_def_problem(def, &why); // limits.c: the sane ranges
    if (key != NULL)
    {
        cs_fail(err, CS_ERR_VALUE, "circle: %s: %s", key, why.message);
        return -1;
    }
    bool dynamic = def->type == CS_BODY_DYNAMIC;
    int i = cs_world_acquire_slot(w);
    if (i < 0)
    {
        cs_fail(err, CS_ERR_MEMORY, "circle: out of memory");
        return -1;
    }
    w->px[i] = def->position.x;
    w->py[i] = def->position.y;
    w->angle[i] = def->angle;
    w->v[3 * i] = def->velocity.x;
    w->v[3 * i + 1] = def->velocity.y;
    w->v[3 * i + 2] = def->angular_velocity;
    w->fx[i] = 0.0;
    w->fy[i] = 0.0;
    w->radius[i] = def->radius;
    w->min_radius = w->alive_count == 1 || def->radius < w->min_radius ? def->radius : w->min_radius;
    // Static and kinematic circles: infinite mass (the rows never move them; mass reads 0).
    w->mass[i] = dynamic ? def->mass : 0.0;
    w->inv_mass[i] = dynamic ? 1.0 / def->mass : 0.0;
    w->inv_inertia[i] = dynamic ? 2.0 / (def->mass * def->radius * def->radius) : 0.0; // disc: I = m r² / 2
    w->friction[i] = def->friction;
    w->restitution[i] = def->restitution;
    w->body_type[i] = (uint8_t)def->type;
    w->body_flags[i] |= def->sensor ? CS_BODY_SENSOR : 0;
    w->sensor_count += def->sensor ? 1 : 0;
    w->body_flags[i] |= def->bullet ? CS_BODY_BULLET : 0;
    w->bullet_count += def->bullet ? 1 : 0;
    w->category[i] = def->category_bits;
    w->mask[i] = def->mask_bits;
    w->group[i] = def->group;
    w->nondynamic_count += dynamic ? 0 : 1;
    w->kinematic_count += def->type == CS_BODY_KINEMATIC;
    w->filter_count +=
        def->sensor || def->category_bits != 1 || def->mask_bits != UINT32_MAX || def->group != 0;
    if (!cs_query_note_added(w, i))
    {
        cs_world_remove_circle(w, cs_world_slot_id(w, i));
        cs_fail(err, CS_ERR_MEMORY, "circle: out of memory");
        return -1;
    }
    return cs_world_slot_id(w, i);
}

static int add_wall(cs_world* w, const cs_wall* wall, cs_error* err)
{
    if (!CS_GROW(w->walls, w->wall_capacity, w->wall_count + 1))
    {
        cs_fail(err, CS_ERR_MEMORY, "wall: out of memory");
        return -1;
    }
    w->walls[w->wall_count] = *wall;
    return w->wall_count++;
}

int cs_world_add_segment(cs_world* w, cs_vec2 p0, cs_vec2 p1, double friction, double restitution,
                         cs_error* err)
{
    double dx = p1.x - p0.x, dy = p1.y - p0.y;
    double len = sqrt(dx * dx + dy * dy);
    cs_error why = {CS_OK, ""};
    if (!cs_wall_point_ok(p0, &why) || !cs_wall_point_ok(p1, &why))
    {
        cs_fail(err, CS_ERR_VALUE, "segment: end point: %s", why.message);
        return -1;
    }
    if (!(len > 0.0) || !isfinite(len))
    {
        cs_fail(err, CS_ERR_VALUE, "segment: end points must be distinct");
        return -1;
    }
    if (!valid_material(friction, restitution))
    {
        cs_fail(err, CS_ERR_VALUE, "segment: friction must be in [0, 1000] and restitution in [0, 1]");
        return -1;
    }
    cs_wall wall = {CS_WALL_SEGMENT, p0, p1, {-dy / len, dx / len}, friction, restitution};
    return add_wall(w, &wall, err);
}

int cs_world_add_half_plane(cs_world* w, cs_vec2 point, cs_vec2 normal, double friction, double restitution,
                            cs_error* err)
{
    double len = sqrt(normal.x * normal.x + normal.y * normal.y);
    cs_error why = {CS_OK, ""};
    if (!cs_wall_point_ok(point, &why))
    {
        cs_fail(err, CS_ERR_VALUE, "half-plane: point: %s", why.message);
        return -1;
    }
    if (!cs_vec2_finite(normal) || !(len > 0.0) || !isfinite(len))
    {
        cs_fail(err, CS_ERR_VALUE, "half-plane: point must be finite and normal finite and non-zero");
        return -1;
    }
    if (!valid_material(friction, restitution))
    {
        cs_fail(err, CS_ERR_VALUE, "half-plane: friction must be in [0, 1000] and restitution in [0, 1]");
        return -1;
    }
    cs_vec2 n = {normal.x / len, normal.y / len};
    cs_wall wall = {CS_WALL_HALF_PLANE, point, point, n, friction, restitution};
    return add_wall(w, &wall, err);
}
