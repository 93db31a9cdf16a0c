// Point, box and ray queries on the broad phase's uniform grid (broadphase.c), never a scan of all bodies.
//
// The grid is the one the last step built: it holds each circle in the cell of its centre at the start of
// that step. Since then no circle moved farther than w->query_slack (step.c measures it), and no circle
// reaches farther than half a cell from its centre (the cell is at least the largest grid diameter), so
// a circle that overlaps a region has its grid centre in the cells within half a cell + slack of it; each
// candidate is then tested exactly at its current position. Circles too large for the grid (its `large`
// list) and circles added since the grid was built (w->fresh, flagged CS_BODY_FRESH and skipped in the
// grid, where their slot may still hold a removed body) are tested one by one; walls are few and tested
// all.
#include <math.h>
#include <stdlib.h>

#include "core/array.h"
#include "circlesim/query.h"
#include "world/world_internal.h"

cs_query_filter cs_query_filter_default(void)
{
    cs_query_filter f = {1u, UINT32_MAX};
    return f;
}

bool cs_query_note_added(cs_world* w, int slot)
{
    w->body_flags[slot] |= CS_BODY_FRESH;
    if (w->body_flags[slot] & CS_BODY_LISTED)
    {
        return true;
    }
    if (!CS_GROW(w->fresh, w->fresh_capacity, w->fresh_count + 1))
    {
        return false;
    }
    w->fresh[w->fresh_count++] = slot;
    w->body_flags[slot] |= CS_BODY_LISTED;
    return true;
}

void cs_query_grid_updated(cs_world* w, int slots)
{
    for (int k = 0; k < w->fresh_count; ++k)
    {
        w->body_flags[w->fresh[k]] &= (uint8_t) ~(CS_BODY_FRESH | CS_BODY_LISTED);
    }
    w->fresh_count = 0;
    w->grid_bodies = slots;
    w->query_slack = 0.0;
}

static bool seen_by(const cs_world* w, int slot, const cs_query_filter* f)
{
    return (w->body_flags[slot] & (CS_BODY_ALIVE | CS_BODY_SENSOR)) == CS_BODY_ALIVE &&
           (w->category[slot] & f->mask_bits) != 0 && (w->mask[slot] & f->category_bits) != 0;
}

// A grid entry stands for its slot unless the slot was freed or refilled since the grid was built.
static bool visit_grid_slot(const cs_world* w, int slot, cs_visit_fn* fn, void* ctx)
{
    if ((w->body_flags[slot] & (CS_BODY_ALIVE | CS_BODY_FRESH)) != CS_BODY_ALIVE)
    {
        return true;
    }
    return fn(w, slot, ctx);
}

static bool visit_cell(const cs_world* w, int cell, cs_visit_fn* fn, void* ctx)
{
    const cs_broadphase* bp = &w->broadphase;
    for (int k = bp->cell_start[cell]; k < bp->cell_start[cell + 1]; ++k)
    {
        if (!visit_grid_slot(w, bp->sorted[k], fn, ctx))
        {
            return false;
        }
    }
    return true;
}

// The circles outside the grid: too large for it, or added since it was built.
static bool visit_loose(const cs_world* w, cs_visit_fn* fn, void* ctx)
{
    const cs_broadphase* bp = &w->broadphase;
    for (int k = 0; w->grid_bodies > 0 && k < bp->large_count; ++k)
    {
        if (!visit_grid_slot(w, bp->large[k], fn, ctx))
        {
            return false;
        }
    }
    for (int k = 0; k < w->fresh_count; ++k)
    {
        int slot = w->fresh[k];
        if ((w->body_flags[slot] & CS_BODY_ALIVE) && !fn(w, slot, ctx))
        {
            return false;
        }
    }
    return true;
}

static bool grid_ready(const cs_world* w)
{
    return w->grid_bodies > 0 && w->broadphase.cells_x > 0 && w->broadphase.cell_start != NULL;
}

static int clamp_int(double x, int hi)
{
    return x < 0.0 ? 0 : (x > (double)hi ? hi : (int)x);
}

// Every circle that may overlap the box [lx, ux] × [ly, uy].
void cs_query_visit_box(const cs_world* w, double lx, double ly, double ux, double uy, cs_visit_fn* fn,
                        void* ctx)
{
    if (!visit_loose(w, fn, ctx) || !grid_ready(w))
    {
        return;
    }
    const cs_broadphase* bp = &w->broadphase;
    double cell = bp->cell_size;
    double pad = 0.5 * cell + w->query_slack;
    int x0 = clamp_int(floor((lx - pad - bp->origin_x) / cell), bp->cells_x - 1);
    int x1 = clamp_int(floor((ux + pad - bp->origin_x) / cell), bp->cells_x - 1);
    int y0 = clamp_int(floor((ly - pad - bp->origin_y) / cell), bp->cells_y - 1);
    int y1 = clamp_int(floor((uy + pad - bp->origin_y) / cell), bp->cells_y - 1);
    if (ux + pad < bp->origin_x || uy + pad < bp->origin_y)
    {
        return; // entirely below or left of the grid (clamping would have kept cell 0)
    }
    for (int y = y0; y <= y1; ++y)
    {
        for (int x = x0; x <= x1; ++x)
        {
            if (!visit_cell(w, y * bp->cells_x + x, fn, ctx))
            {
                return;
            }
        }
    }
}

static bool finite2(cs_vec2 v)
{
    return isfinite(v.x) && isfinite(v.y);
}

// Point and box ------------------------------------------------------------------------------------------

typedef struct point_query
{
    cs_vec2 p;
    cs_query_filter filter;
    int best;
    double best_d2;
} point_query;

static bool point_visit(const cs_world* w, int slot, void* ctx)
{
    point_query* q = ctx;
    double dx = q->p.x - w->px[slot], dy = q->p.y - w->py[slot];
    double d2 = dx * dx + dy * dy;
    double r = w->radius[slot];
    if (seen_by(w, slot, &q->filter) && d2 <= r * r &&
        (q->best < 0 || d2 < q->best_d2 || (d2 == q->best_d2 && slot < q->best)))
    {
        q->best = slot;
        q->best_d2 = d2;
    }
    return true;
}

int cs_world_query_point(const cs_world* w, cs_vec2 point)
{
    if (!finite2(point))
    {
        return -1;
    }
    point_query q = {point, cs_query_filter_default(), -1, 0.0};
    cs_query_visit_box(w, point.x, point.y, point.x, point.y, point_visit, &q);
    return q.best >= 0 ? cs_world_slot_id(w, q.best) : -1;
}

typedef struct box_query
{
    cs_vec2 lo, hi;
    cs_query_filter filter;
    int* ids;
    int capacity;
    int count;
} box_query;

static bool box_visit(const cs_world* w, int slot, void* ctx)
{
    box_query* q = ctx;
    double x = w->px[slot], y = w->py[slot], r = w->radius[slot];
    // Distance from the centre to the box, by its nearest point.
    double nx = x < q->lo.x ? q->lo.x : (x > q->hi.x ? q->hi.x : x);
    double ny = y < q->lo.y ? q->lo.y : (y > q->hi.y ? q->hi.y : y);
    double dx = x - nx, dy = y - ny;
    if (seen_by(w, slot, &q->filter) && dx * dx + dy * dy <= r * r)
    {
        if (q->count < q->capacity)
        {
            q->ids[q->count] = cs_world_slot_id(w, slot);
        }
        q->count += 1;
    }
    return true;
}

int cs_world_query_aabb_filtered(const cs_world* w, cs_vec2 lower, cs_vec2 upper, cs_query_filter filter,
                                 int* ids, int capacity)
{
    if (!finite2(lower) || !finite2(upper) || !(lower.x <= upper.x && lower.y <= upper.y))
    {
        return 0;
    }
    box_query q = {lower, upper, filter, ids, ids != NULL && capacity > 0 ? capacity : 0, 0};
    cs_query_visit_box(w, lower.x, lower.y, upper.x, upper.y, box_visit, &q);
    return q.count;
}

int cs_world_query_aabb(const cs_world* w, cs_vec2 lower, cs_vec2 upper, int* ids, int capacity)
{
    return cs_world_query_aabb_filtered(w, lower, upper, cs_query_filter_default(), ids, capacity);
}

// Rays ---------------------------------------------------------------------------------------------------

typedef struct ray_query
{
    cs_vec2 o, d; // origin, translation
    cs_query_filter filter;
    cs_ray_callback* callback;
    void* context;
    double max_fraction; // hits beyond are not reported (clipped by the callback)
    int hits;
    bool stopped;
} ray_query;

// The segment o + t d, t in [0, max_t], against a circle: the entry fraction and normal. A segment that
// starts inside hits at 0 with a zero normal.
bool cs_ray_circle(cs_vec2 o, cs_vec2 d, double max_t, double cx, double cy, double r, double* t_out,
                   cs_vec2* normal)
{
    double sx = o.x - cx, sy = o.y - cy;
    double c = sx * sx + sy * sy - r * r;
    if (c < 0.0)
    {
        *t_out = 0.0;
        normal->x = normal->y = 0.0;
        return true;
    }
    double a = d.x * d.x + d.y * d.y;
    double b = sx * d.x + sy * d.y;
    if (a == 0.0 || b >= 0.0)
    {
        return false; // no length, or moving away (or along the surface from a point on it)
    }
    double disc = b * b - a * c; // |closest approach|² ≤ r² ⇔ disc ≥ 0; tangent: disc = 0
    if (disc < 0.0)
    {
        return false;
    }
    double t = (-b - sqrt(disc)) / a;
    if (t < 0.0 || t > max_t)
    {
        return false;
    }
    *t_out = t;
    normal->x = (sx + t * d.x) / r;
    normal->y = (sy + t * d.y) / r;
    return true;
}

static bool ray_wall(cs_vec2 o, cs_vec2 d, double max_t, const cs_wall* wall, double* t_out, cs_vec2* normal)
{
    double n_d = wall->normal.x * d.x + wall->normal.y * d.y;
    if (wall->kind == CS_WALL_HALF_PLANE)
    {
        double s = wall->normal.x * (o.x - wall->p0.x) + wall->normal.y * (o.y - wall->p0.y);
        if (s < 0.0)
        {
            *t_out = 0.0; // starts in the solid side
            normal->x = normal->y = 0.0;
            return true;
        }
        if (!(n_d < 0.0) || -s / n_d > max_t)
        {
            return false;
        }
        *t_out = -s / n_d;
        *normal = wall->normal;
        return true;
    }
    // Segment p0 + u e, u in [0, 1]: o + t d = p0 + u e.
    double ex = wall->p1.x - wall->p0.x, ey = wall->p1.y - wall->p0.y;
    double den = d.x * ey - d.y * ex;
    if (den == 0.0)
    {
        return false; // parallel
    }
    double qx = wall->p0.x - o.x, qy = wall->p0.y - o.y;
    double t = (qx * ey - qy * ex) / den;
    double u = (qx * d.y - qy * d.x) / den;
    if (t < 0.0 || t > max_t || u < 0.0 || u > 1.0)
    {
        return false;
    }
    *t_out = t;
    double sign = n_d > 0.0 ? -1.0 : 1.0; // two-sided: the normal faces the ray
    normal->x = sign * wall->normal.x;
    normal->y = sign * wall->normal.y;
    return true;
}

static void report(ray_query* q, int body, int wall, double t, cs_vec2 normal)
{
    cs_ray_hit hit;
    hit.body = body;
    hit.wall = wall;
    hit.point.x = q->o.x + t * q->d.x;
    hit.point.y = q->o.y + t * q->d.y;
    hit.normal = normal;
    hit.fraction = t;
    q->hits += 1;
    double r = q->callback(&hit, q->context);
    if (r == 0.0)
    {
        q->stopped = true;
        q->max_fraction = 0.0;
    }
    else if (r > 0.0 && r < q->max_fraction)
    {
        q->max_fraction = r;
    }
}

static bool ray_visit(const cs_world* w, int slot, void* ctx)
{
    ray_query* q = ctx;
    double t;
    cs_vec2 n;
    if (seen_by(w, slot, &q->filter) &&
        cs_ray_circle(q->o, q->d, q->max_fraction, w->px[slot], w->py[slot], w->radius[slot], &t, &n))
    {
        report(q, cs_world_slot_id(w, slot), -1, t, n);
    }
    return !q->stopped;
}

// The grid's cells near the segment, column by column along its major axis (rows of cells when it is more
// vertical): a column's circles cannot be met before the ray comes within half a cell + slack of it, so
// the walk stops at the first column beyond the clipped fraction.
static void ray_grid(const cs_world* w, ray_query* q)
{
    const cs_broadphase* bp = &w->broadphase;
    double cell = bp->cell_size;
    double pad = 0.5 * cell + w->query_slack;
    bool major_x = fabs(q->d.x) >= fabs(q->d.y);
    double ou = major_x ? q->o.x - bp->origin_x : q->o.y - bp->origin_y;
    double ov = major_x ? q->o.y - bp->origin_y : q->o.x - bp->origin_x;
    double du = major_x ? q->d.x : q->d.y;
    double dv = major_x ? q->d.y : q->d.x;
    int cells_u = major_x ? bp->cells_x : bp->cells_y;
    int cells_v = major_x ? bp->cells_y : bp->cells_x;
    int dir = du >= 0.0 ? 1 : -1;
    double u_end = ou + du * q->max_fraction;
    double u_lo = (du >= 0.0 ? ou : u_end) - pad, u_hi = (du >= 0.0 ? u_end : ou) + pad;
    if (u_hi < 0.0 || u_lo > cells_u * cell)
    {
        return;
    }
    int c_lo = clamp_int(floor(u_lo / cell), cells_u - 1), c_hi = clamp_int(floor(u_hi / cell), cells_u - 1);
    for (int c = dir > 0 ? c_lo : c_hi; c >= c_lo && c <= c_hi && !q->stopped; c += dir)
    {
        double col0 = c * cell - pad, col1 = (c + 1) * cell + pad;
        double ta = 0.0, tb = q->max_fraction;
        if (du != 0.0)
        {
            double t0 = (col0 - ou) / du, t1 = (col1 - ou) / du;
            ta = t0 < t1 ? t0 : t1;
            tb = t0 < t1 ? t1 : t0;
            if (ta > q->max_fraction)
            {
                break; // this column and all later ones lie beyond the clipped ray
            }
            ta = ta > 0.0 ? ta : 0.0;
            tb = tb < q->max_fraction ? tb : q->max_fraction;
            if (ta > tb)
            {
                continue;
            }
        }
        double va = ov + dv * ta, vb = ov + dv * tb;
        double v_lo = (va < vb ? va : vb) - pad, v_hi = (va < vb ? vb : va) + pad;
        if (v_hi < 0.0)
        {
            continue;
        }
        int r_lo = clamp_int(floor(v_lo / cell), cells_v - 1),
            r_hi = clamp_int(floor(v_hi / cell), cells_v - 1);
        for (int r = r_lo; r <= r_hi; ++r)
        {
            int index = major_x ? r * bp->cells_x + c : c * bp->cells_x + r;
            if (!visit_cell(w, index, ray_visit, q))
            {
                return;
            }
        }
    }
}

int cs_world_ray_cast(const cs_world* w, cs_vec2 origin, cs_vec2 translation, cs_query_filter filter,
                      cs_ray_callback* callback, void* context)
{
    if (!finite2(origin) || !finite2(translation) || callback == NULL)
    {
        return 0;
    }
    ray_query q = {origin, translation, filter, callback, context, 1.0, 0, false};
    for (int k = 0; k < w->wall_count && !q.stopped; ++k)
    {
        double t;
        cs_vec2 n;
        if (ray_wall(origin, translation, q.max_fraction, w->walls + k, &t, &n))
        {
            report(&q, -1, k, t, n);
        }
    }
    if (!q.stopped && visit_loose(w, ray_visit, &q) && grid_ready(w))
    {
        ray_grid(w, &q);
    }
    return q.hits;
}

typedef struct closest
{
    cs_ray_hit hit;
    bool found;
} closest;

// Clips the ray at every hit: the last one reported is the nearest (ties: the first found).
static double keep_closest(const cs_ray_hit* hit, void* context)
{
    closest* c = context;
    if (!c->found || hit->fraction < c->hit.fraction)
    {
        c->hit = *hit;
        c->found = true;
    }
    return hit->fraction > 0.0 ? hit->fraction : 0.0;
}

bool cs_world_ray_cast_closest_filtered(const cs_world* w, cs_vec2 origin, cs_vec2 translation,
                                        cs_query_filter filter, cs_ray_hit* hit)
{
    closest c;
    c.found = false;
    cs_world_ray_cast(w, origin, translation, filter, keep_closest, &c);
    if (c.found && hit != NULL)
    {
        *hit = c.hit;
    }
    return c.found;
}

bool cs_world_ray_cast_closest(const cs_world* w, cs_vec2 origin, cs_vec2 translation, cs_ray_hit* hit)
{
    return cs_world_ray_cast_closest_filtered(w, origin, translation, cs_query_filter_default(), hit);
}
