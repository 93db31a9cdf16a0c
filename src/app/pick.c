#include "app/pick.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define PICK_MAX 64 // circles overlapping a point: more than a pile ever stacks there

int pick_body_at(const cs_world* w, cs_vec2 p)
{
    if (w == NULL)
    {
        return -1;
    }
    // Every category and mask: the viewer picks what the user points at, not what a filter lets through.
    cs_query_filter all = {UINT32_MAX, UINT32_MAX};
    int ids[PICK_MAX];
    int n = cs_world_query_aabb_filtered(w, p, p, all, ids, PICK_MAX);
    int best = -1;
    double best_d = INFINITY;
    for (int k = 0; k < n && k < PICK_MAX; ++k)
    {
        cs_body_state b = cs_world_body(w, ids[k]);
        double d = hypot(p.x - b.position.x, p.y - b.position.y);
        if (d <= b.radius && (d < best_d || (d == best_d && ids[k] < best)))
        {
            best = ids[k];
            best_d = d;
        }
    }
    return best;
}
