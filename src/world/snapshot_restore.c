// What a snapshot does not hold because it follows from what it holds (snapshot.h): rebuilt after the
// reader has filled the slots, the iteration order, the free list, the joints and the contacts. Kept
// beside the world's own bookkeeping rules: inverse masses as cs_world_add_circle and cs_sleep_wake set
// them, counters as add and remove keep them, joint lists as cs_world_add_distance_joint links them.
#include "world/snapshot.h"
#include "world/world_internal.h"

static void restore_slot(cs_world* w, int i)
{
    bool alive = (w->body_flags[i] & CS_BODY_ALIVE) != 0;
    bool dynamic = w->body_type[i] == CS_BODY_DYNAMIC;
    // A sleeping body has zero inverse mass until its island wakes (sleep.c); removed, static and
    // kinematic slots always do.
    bool moves = alive && dynamic && !w->asleep[i];
    w->inv_mass[i] = moves ? 1.0 / w->mass[i] : 0.0;
    w->inv_inertia[i] = moves ? 2.0 / (w->mass[i] * w->radius[i] * w->radius[i]) : 0.0;
    w->active[i] = alive ? 1 : 0;
    w->joint_head[i] = -1;
    w->island_parent[i] = i;
    w->island_rest[i] = 0.0;
    if (!alive)
    {
        return;
    }
    uint8_t flags = w->body_flags[i];
    w->nondynamic_count += dynamic ? 0 : 1;
    w->kinematic_count += w->body_type[i] == CS_BODY_KINEMATIC;
    w->sensor_count += (flags & CS_BODY_SENSOR) ? 1 : 0;
    w->bullet_count += (flags & CS_BODY_BULLET) ? 1 : 0;
    w->filter_count +=
        (flags & CS_BODY_SENSOR) || w->category[i] != 1 || w->mask[i] != UINT32_MAX || w->group[i] != 0;
    w->asleep_count += w->asleep[i];
}

// Joints link into their bodies' lists in index order, as they were added (removal keeps the order).
static void link_joints(cs_world* w)
{
    for (int k = 0; k < w->joint_count; ++k)
    {
        cs_joint* j = w->joints + k;
        j->next_a = j->next_b = -1;
        if (!j->alive)
        {
            continue;
        }
        if (j->a >= 0)
        {
            j->next_a = w->joint_head[j->a];
            w->joint_head[j->a] = k;
        }
        j->next_b = w->joint_head[j->b];
        w->joint_head[j->b] = k;
        w->no_collide_joints += !j->collide && j->a >= 0;
    }
}

bool cs_snapshot_restore_derived(cs_world* w)
{
    w->nondynamic_count = w->kinematic_count = w->sensor_count = w->bullet_count = 0;
    w->filter_count = w->asleep_count = w->no_collide_joints = 0;
    for (int i = 0; i < w->body_count; ++i)
    {
        restore_slot(w, i);
    }
    for (int k = 0; k < w->alive_count; ++k)
    {
        w->dense_of[w->dense[k]] = k;
    }
    link_joints(w);
    // The query grid is built by the next step (no kept pair list: broadphase_list.c); until then queries
    // find every body among the fresh ones.
    w->grid_bodies = 0;
    w->query_slack = 0.0;
    w->broadphase.list.count = 0;
    for (int k = 0; k < w->alive_count; ++k)
    {
        if (!cs_query_note_added(w, w->dense[k]))
        {
            return false;
        }
    }
    return true;
}
