// The walls' contacts, after the circle pairs' (cs_stage_wall_contacts; docs/PERFORMANCE.md "Threads").
//
// Walls are few: each is tested against every circle that may meet one, O(N·W), and the contacts go to the
// list wall-major, bodies ascending (keys sorted). Which circles may meet a wall is the same for every wall
// (static, kinematic and removed circles, inv_mass 0, do not meet walls; sensors meet nothing).
//
// On one thread, with one chunk of bodies, or past CS_WALLS_ON_POOL_MAX walls, one pass fills the list in
// place. On the workers each chunk of CS_STAGE_CHUNK bodies lists, for each wall, the circles its box test
// lets through (a (wall, chunk) task's circles); their counts give each task, in wall-major order, a run of
// the list; each task fills its run with the contacts it finds, and the runs are closed up in task order: the
// same list as one pass's.
#include <math.h>
#include <string.h>

#include "contact/narrowphase.h"
#include "core/array.h"
#include "world/world_internal.h"

// The most walls whose contacts go to the worker pool (per-wall lists of circles: 4 bytes a wall and body).
#define CS_WALLS_ON_POOL_MAX 16

// Whether body b may meet a wall (& on the conditions, no short-circuit: a branch-free test).
static inline bool meets_walls(const cs_world* w, bool sensors, int b)
{
    return isfinite(w->px[b]) & isfinite(w->py[b]) & (w->inv_mass[b] != 0.0) &
           !(sensors && (w->body_flags[b] & CS_BODY_SENSOR));
}

// How far beyond touching body b may be and still get a contact: the margin plus its travel this step.
static inline double wall_reach(const cs_world* w, int b)
{
    return w->def.speculative_margin + (w->reach[b] - w->radius[b]);
}

// Fills c for body b and wall k; false when they do not touch within the reach.
static inline bool wall_contact(const cs_world* w, int k, int b, cs_contact* c)
{
    const cs_wall* wall = w->walls + k;
    if (!cs_collide_wall(wall, k, b, w->px[b], w->py[b], w->radius[b], wall_reach(w, b), c))
    {
        return false;
    }
    c->friction = sqrt(wall->friction * w->friction[b]);
    c->restitution = cs_max(wall->restitution, w->restitution[b]);
    return true;
}

// The most walls one pass over the bodies tests (a bit each in a body's mask).
#define CS_WALL_GROUP 64
// (walls_near's single near_walls pass over a pooled world's walls relies on it)
_Static_assert(CS_WALLS_ON_POOL_MAX <= CS_WALL_GROUP, "a pooled world's walls fit in one group");

// The circles of bodies [first, end) that may meet a wall of [k0, k0 + count) (count <= CS_WALL_GROUP), in
// body order, with a mask of those walls: bit k − k0 where cs_half_plane_beyond does not rule wall k out (a
// wall other than a half-plane always gets its bit: cs_collide_wall decides). masks has room for
// end − first entries: each wall first sets its bit over all the bodies, in a loop of plain array reads that
// the compiler takes two bodies at a time; then the bodies with a bit that may meet a wall (meets_walls) are
// closed up in place. (A loop over walls and circles with a call per circle cost ~35 instructions a wall and
// circle; one pass a body with the walls inside it ~22.)
static int near_walls(const cs_world* w, int first, int end, int k0, int count, int* ids, uint64_t* masks)
{
    const int n = end - first;
    const double margin = w->def.speculative_margin;
    const double *px = w->px + first, *py = w->py + first, *radius = w->radius + first,
                 *reach = w->reach + first;
    for (int i = 0; i < n; ++i)
    {
        masks[i] = 0;
    }
    for (int k = 0; k < count; ++k)
    {
        const cs_wall* wall = w->walls + k0 + k;
        const uint64_t bit = (uint64_t)1 << k;
        if (wall->kind != CS_WALL_HALF_PLANE)
        {
            for (int i = 0; i < n; ++i)
            {
                masks[i] |= bit;
            }
            continue;
        }
        const double nx = wall->normal.x, ny = wall->normal.y, x0 = wall->p0.x, y0 = wall->p0.y;
        for (int i = 0; i < n; ++i)
        {
            const double m = margin + (reach[i] - radius[i]); // wall_reach
            masks[i] |= cs_half_plane_beyond(nx, ny, x0, y0, px[i], py[i], radius[i], m) ? 0 : bit;
        }
    }
    const bool sensors = w->sensor_count > 0;
    int near = 0;
    for (int i = 0; i < n; ++i)
    {
        if (masks[i] != 0 && meets_walls(w, sensors, first + i)) // (most circles are far from every wall)
        {
            ids[near] = first + i;
            masks[near] = masks[i];
            near += 1;
        }
    }
    return near;
}

// One pass on this thread: for each group of walls, the circles that may meet one of them found once, then
// each wall against those whose mask has its bit.
static cs_status walls_in_one_pass(cs_world* w, cs_error* err)
{
    cs_contact_list* list = &w->contacts;
    if (!CS_GROW(w->wall_bodies, w->wall_bodies_capacity, w->body_count) ||
        !CS_GROW(w->wall_masks, w->wall_masks_capacity, w->body_count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    for (int k0 = 0; k0 < w->wall_count; k0 += CS_WALL_GROUP)
    {
        const int count = w->wall_count - k0 < CS_WALL_GROUP ? w->wall_count - k0 : CS_WALL_GROUP;
        const int near = near_walls(w, 0, w->body_count, k0, count, w->wall_bodies, w->wall_masks);
        const int* ids = w->wall_bodies;
        const uint64_t* masks = w->wall_masks;
        for (int k = 0; k < count; ++k)
        {
            for (int i = 0; i < near; ++i)
            {
                if (!((masks[i] >> k) & 1u))
                {
                    continue; // (most circles)
                }
                // The list's next free entry, filled in place (a contact is 160 bytes: filling a local and
                // copying it in cost ~15 M instructions per 1 000 steps of Pool 1); kept by counting it.
                if (!CS_GROW(list->items, list->capacity, list->count + 1))
                {
                    return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
                }
                list->count += wall_contact(w, k0 + k, ids[i], list->items + list->count);
            }
        }
    }
    return CS_OK;
}

typedef struct walls_job
{
    cs_world* w;
    int chunks;    // chunks of bodies
    int* ids;      // [walls × bodies]: wall k's circles past the box test, chunk c's from k·bodies + first
    int* near;     // per (wall, chunk) task, wall-major: how many; then the task's first entry in the list
    int* contacts; // per task: the contacts it found
} walls_job;

// A chunk of bodies: the circles that may meet a wall (near_walls), then for each wall those its box test
// lets through.
static void walls_near(void* ctx, int chunk, int thread)
{
    (void)thread;
    const walls_job* j = ctx;
    const cs_world* w = j->w;
    int first, end;
    cs_stage_range(chunk, w->body_count, &first, &end);
    int candidates[CS_STAGE_CHUNK];
    uint64_t masks[CS_STAGE_CHUNK];
    const int count = near_walls(w, first, end, 0, w->wall_count, candidates, masks); // (<= 16 walls)
    for (int k = 0; k < w->wall_count; ++k)
    {
        int* ids = j->ids + (size_t)k * (size_t)w->body_count + first;
        int near = 0;
        for (int i = 0; i < count; ++i)
        {
            ids[near] = candidates[i];
            near += (int)((masks[i] >> k) & 1u);
        }
        j->near[k * j->chunks + chunk] = near;
    }
}

// A (wall, chunk) task: its circles' contacts into its run of the list.
static void walls_fill(void* ctx, int task, int thread)
{
    (void)thread;
    const walls_job* j = ctx;
    const int k = task / j->chunks;
    int first, end;
    cs_stage_range(task % j->chunks, j->w->body_count, &first, &end);
    const int* ids = j->ids + (size_t)k * (size_t)j->w->body_count + first;
    cs_contact* run = j->w->contacts.items + j->near[task];
    int found = 0;
    for (int i = 0, n = j->contacts[task]; i < n; ++i)
    {
        found += wall_contact(j->w, k, ids[i], run + found);
    }
    j->contacts[task] = found;
}

cs_status cs_stage_wall_contacts(cs_world* w, cs_error* err)
{
    if (w->wall_count == 0)
    {
        return CS_OK;
    }
    const int chunks = cs_stage_chunks(w->body_count);
    cs_workers* pool = cs_world_workers(w);
    // One list of circles per wall holds wall_count × body_count ints: past CS_WALLS_ON_POOL_MAX walls (a
    // scene of many segments, where a list per wall would cost more memory than the contacts) one pass.
    if (pool == NULL || chunks <= 1 || w->wall_count > CS_WALLS_ON_POOL_MAX)
    {
        return walls_in_one_pass(w, err);
    }
    const int tasks = w->wall_count * chunks;
    if (!cs_stage_chunk_reserve(w, tasks) ||
        !CS_GROW(w->wall_bodies, w->wall_bodies_capacity, w->wall_count * w->body_count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    walls_job j = {w, chunks, w->wall_bodies, w->chunk_ints, w->chunk_ints + tasks};
    cs_workers_for(pool, chunks, walls_near, &j);
    memcpy(j.contacts, j.near, (size_t)tasks * sizeof(int)); // (each task's circles, for walls_fill)
    if (cs_stage_runs(w, j.near, tasks) < 0)
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    cs_workers_for(pool, tasks, walls_fill, &j);
    cs_contact* items = w->contacts.items;
    for (int t = 0; t < tasks; ++t) // (in place: a run only moves down)
    {
        if (j.near[t] != w->contacts.count)
        {
            memmove(items + w->contacts.count, items + j.near[t], (size_t)j.contacts[t] * sizeof(cs_contact));
        }
        w->contacts.count += j.contacts[t];
    }
    return CS_OK;
}
