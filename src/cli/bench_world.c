// circlesim worlds from the benchmark scenes of bench_scenes.c.
#include "cli/bench_world.h"

#include <stddef.h>

#include "cli/commands.h"

bool cs_bench_world_add(cs_world* w, const cs_bench_scene* s, const cs_bench_disc* discs, int n,
                        cs_error* err)
{
    cs_circle_def d = cs_circle_def_default();
    d.friction = s->friction;
    d.restitution = s->restitution;
    for (int i = 0; i < n; ++i)
    {
        d.position = (cs_vec2){discs[i].x, discs[i].y};
        d.velocity = (cs_vec2){discs[i].vx, discs[i].vy};
        d.radius = discs[i].r;
        d.mass = discs[i].m;
        if (cs_world_add_circle(w, &d, err) < 0)
        {
            return false;
        }
    }
    return true;
}

cs_world* cs_bench_world(const cs_bench_scene* s, cs_error* err)
{
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0.0, s->gravity_y};
    def.restitution_threshold = s->restitution_threshold;
    def.frictionless = s->friction == 0.0;
    cs_world* w = cs_world_create(&def, err);
    if (w == NULL)
    {
        return NULL;
    }
    for (int k = 0; k < s->wall_count; ++k)
    {
        const cs_bench_wall* h = &s->walls[k];
        if (cs_world_add_half_plane(w, (cs_vec2){h->x0, h->y0}, (cs_vec2){h->nx, h->ny}, s->friction,
                                    s->restitution, err) < 0)
        {
            cs_world_destroy(w);
            return NULL;
        }
    }
    if (!cs_bench_world_add(w, s, s->discs, s->count, err))
    {
        cs_world_destroy(w);
        return NULL;
    }
    return w;
}

// The scale suite's pools: cs_bench_pool_world(221, 13) is exactly scenes/pool1.json.
cs_world* cs_bench_pool_world(int count, int columns, cs_error* err)
{
    cs_bench_scene s;
    if (!cs_bench_scene_pool(count, columns, &s))
    {
        cs_fail(err, CS_ERR_MEMORY, "pool of %d circles in %d columns: out of memory or out of range", count,
                columns);
        return NULL;
    }
    cs_world* w = cs_bench_world(&s, err);
    cs_bench_scene_free(&s);
    return w;
}
