// Continuous collision. Speculative contacts (a contact exists while the gap may close within the step)
// stop a fast circle whose pair the step found: the row's half-plane, taken at the closest points, holds
// the whole straight path on the circle's side of a convex obstacle. What they cannot stop is a circle
// whose speed the solve itself creates — a resting circle knocked to 300 m/s by a heavy one, or pushed by
// a kinematic paddle: its reach at the broad phase was its radius, so it has no row with the peg or wall
// behind it and flies through. Here, after integration, every dynamic circle that moved more than a
// quarter of its radius has its path p₀ → p₁ swept against the walls and the static circles near it (found
// on the broad phase's grid), and a bullet's against every circle; the time of impact of two circles, or of
// a circle and a wall, is closed form. A circle that would have passed is put back at the first impact,
// its velocity unchanged: the next step finds the contact touching and approaching, and the contact rows
// bounce it with the restitution of the approach speed, as at any contact instant. A wall counts as passed
// only when the circle's centre crossed it (an overlap short of that is the rows' business, not a tunnel).
#include <math.h>
#include <string.h>

#include "world/world_internal.h"

typedef struct sweep
{
    int mover;
    bool bullet;
    cs_vec2 from, delta;
    double radius;
    double t; // the earliest impact so far (1: none)
} sweep;

static bool sweep_visit(const cs_world* w, int slot, void* ctx)
{
    sweep* s = ctx;
    if (slot == s->mover || (!s->bullet && w->body_type[slot] != CS_BODY_STATIC) ||
        !cs_pair_collides(w, s->mover, slot))
    {
        return true;
    }
    double t;
    cs_vec2 normal;
    // Already touching at the start (normal zero): the contact rows have it.
    if (cs_ray_circle(s->from, s->delta, s->t, w->px[slot], w->py[slot], s->radius + w->radius[slot], &t,
                      &normal) &&
        (normal.x != 0.0 || normal.y != 0.0) && t < s->t)
    {
        s->t = t;
    }
    return true;
}

static double dot(cs_vec2 a, cs_vec2 b)
{
    return a.x * b.x + a.y * b.y;
}

static cs_vec2 sub(cs_vec2 a, cs_vec2 b)
{
    cs_vec2 d = {a.x - b.x, a.y - b.y};
    return d;
}

// Distance from p to the segment a–b.
static double segment_distance(cs_vec2 p, cs_vec2 a, cs_vec2 b)
{
    cs_vec2 e = sub(b, a), q = sub(p, a);
    double u = dot(q, e) / dot(e, e);
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    return hypot(q.x - u * e.x, q.y - u * e.y);
}

// The first time t in [0, 1] at which a circle of radius r moving p → p + d touches the segment: the side
// of its offset line the circle starts on (within the segment's extent) or a circle of radius r around an
// end. 1 when none.
static double segment_toi(const cs_wall* wall, cs_vec2 p, cs_vec2 d, double r)
{
    double t_best = 1.0;
    cs_vec2 e = sub(wall->p1, wall->p0);
    double side = dot(wall->normal, sub(p, wall->p0)) >= 0.0 ? 1.0 : -1.0;
    cs_vec2 n = {side * wall->normal.x, side * wall->normal.y};
    double approach = -dot(n, d);
    if (approach > 0.0)
    {
        double t = (dot(n, sub(p, wall->p0)) - r) / approach;
        cs_vec2 at = {p.x + t * d.x - wall->p0.x, p.y + t * d.y - wall->p0.y};
        double u = dot(at, e) / dot(e, e);
        if (t >= 0.0 && t < t_best && u >= 0.0 && u <= 1.0)
        {
            t_best = t;
        }
    }
    for (int end = 0; end < 2; ++end)
    {
        cs_vec2 c = end == 0 ? wall->p0 : wall->p1, normal;
        double t;
        if (cs_ray_circle(p, d, t_best, c.x, c.y, r, &t, &normal) && t < t_best)
        {
            t_best = t;
        }
    }
    return t_best;
}

// Whether the path p → p + d crosses the segment's line within the segment.
static bool crosses_segment(const cs_wall* wall, cs_vec2 p, cs_vec2 d)
{
    cs_vec2 e = sub(wall->p1, wall->p0);
    double den = d.x * e.y - d.y * e.x;
    if (den == 0.0)
    {
        return false;
    }
    cs_vec2 q = sub(wall->p0, p);
    double t = (q.x * e.y - q.y * e.x) / den, u = (q.x * d.y - q.y * d.x) / den;
    return t >= 0.0 && t <= 1.0 && u >= 0.0 && u <= 1.0;
}

// The time of impact in [0, 1) of a circle moving p → p + d against a wall it passed — its centre went to
// the far side — or 1. A circle touching the wall at the start is the contact rows' case, and so is one
// that ends deep but short of the far side (a solve that has not converged under a heavy pile leaves such
// overlaps; the split impulses remove them, and rewinding them would change the paper scenes' motion).
static double wall_toi(const cs_wall* wall, cs_vec2 p, cs_vec2 d, double r)
{
    if (wall->kind == CS_WALL_HALF_PLANE)
    {
        cs_vec2 end = {p.x + d.x, p.y + d.y};
        double s0 = dot(wall->normal, sub(p, wall->p0)), s1 = dot(wall->normal, sub(end, wall->p0));
        if (s0 < r || s1 >= 0.0)
        {
            return 1.0;
        }
        return (s0 - r) / (s0 - s1);
    }
    if (segment_distance(p, wall->p0, wall->p1) < r || !crosses_segment(wall, p, d))
    {
        return 1.0;
    }
    return segment_toi(wall, p, d, r);
}

void cs_world_enable_continuous(cs_world* w, bool on)
{
    w->def.enable_continuous = on;
}

bool cs_world_continuous_enabled(const cs_world* w)
{
    return w->def.enable_continuous;
}

// Something to sweep against: walls, static circles, or a bullet's every circle.
static bool continuous_active(const cs_world* w)
{
    return w->def.enable_continuous && (w->nondynamic_count > 0 || w->bullet_count > 0 || w->wall_count > 0);
}

// The start positions of a chunk of bodies.
static void begin_range(void* ctx, int first, int end)
{
    cs_world* w = ctx;
    size_t bytes = (size_t)(end - first) * sizeof(double);
    memcpy(w->start_x + first, w->px + first, bytes);
    memcpy(w->start_y + first, w->py + first, bytes);
}

void cs_continuous_begin(cs_world* w)
{
    if (continuous_active(w))
    {
        cs_stage_for_range(w, w->body_count, begin_range, w); // step_stages.c
    }
}

// The sweeps of a chunk of bodies. A circle that is no bullet sweeps against static circles alone, which no
// sweep moves, and moves only itself: chunks of them are independent (the same bits on any thread count).
// A bullet sweeps against every circle, some of them moved by earlier sweeps: with bullets the bodies go
// through in id order on one thread.
static void sweep_range(void* ctx, int first, int end)
{
    cs_world* w = ctx;
    for (int i = first; i < end; ++i)
    {
        if (w->inv_mass[i] == 0.0 || (w->body_flags[i] & CS_BODY_SENSOR))
        {
            continue; // static, kinematic, asleep or free
        }
        double dx = w->px[i] - w->start_x[i], dy = w->py[i] - w->start_y[i];
        double r = w->radius[i];
        if (dx * dx + dy * dy <= 0.0625 * r * r)
        {
            continue; // slow: the speculative contacts hold it
        }
        sweep s = {i,  (w->body_flags[i] & CS_BODY_BULLET) != 0, {w->start_x[i], w->start_y[i]}, {dx, dy}, r,
                   1.0};
        for (int k = 0; k < w->wall_count; ++k)
        {
            double t = wall_toi(w->walls + k, s.from, s.delta, r);
            s.t = t < s.t ? t : s.t;
        }
        if (w->nondynamic_count > 0 || s.bullet)
        {
            double lx = fmin(s.from.x, w->px[i]), ux = fmax(s.from.x, w->px[i]);
            double ly = fmin(s.from.y, w->py[i]), uy = fmax(s.from.y, w->py[i]);
            cs_query_visit_box(w, lx - r, ly - r, ux + r, uy + r, sweep_visit, &s);
        }
        if (s.t < 1.0)
        {
            w->px[i] = s.from.x + s.t * dx;
            w->py[i] = s.from.y + s.t * dy;
        }
    }
}

// The path is start → end of the step as it happened (a circle that bounced at a contact instant went
// there and back: its straight chord is what is swept, not a line along its final velocity).
void cs_continuous(cs_world* w)
{
    // step_move bounds every body's move this step (step.c): when no circle can have moved a quarter of
    // the smallest radius, none is swept (a settled pool pays only the copy of the start positions).
    if (!continuous_active(w) || w->step_move <= 0.25 * w->min_radius)
    {
        return;
    }
    if (w->bullet_count > 0)
    {
        sweep_range(w, 0, w->body_count);
    }
    else
    {
        cs_stage_for_range(w, w->body_count, sweep_range, w); // step_stages.c
    }
}
