// Continuous collision against circles. Speculative contacts (a contact exists while the gap may close
// within the step) stop a fast circle that heads straight at another, but their normal is the one at the
// start of the step: a circle that passes a static circle off-centre at 300 m/s meets the row of a
// direction it does not travel along, and goes through. Here, after integration, every dynamic circle
// that moved more than a quarter of its radius has its path p₀ → p₁ swept against the static circles
// near it (found on the broad phase's grid), and a bullet's against every circle; the time of impact of
// two circles is closed form (|p₀ + t Δ − c| = r + R, the smaller root). A circle that would have passed
// is put back at the first impact, its velocity unchanged: the next step finds the contact touching and
// approaching, and the contact rows bounce it with the restitution of the approach speed, as at any
// contact instant. Walls need none of this: a wall's speculative row has the right normal all along.
#include <math.h>

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

void cs_continuous(cs_world* w)
{
    if (w->nondynamic_count == 0 && w->bullet_count == 0)
    {
        return;
    }
    const double h = w->def.time_step;
    for (int i = 0; i < w->body_count; ++i)
    {
        if (w->inv_mass[i] == 0.0 || (w->body_flags[i] & CS_BODY_SENSOR))
        {
            continue; // static, kinematic, asleep or free
        }
        double dx = h * (w->v[3 * i] + w->pseudo_v[3 * i]),
               dy = h * (w->v[3 * i + 1] + w->pseudo_v[3 * i + 1]);
        double r = w->radius[i];
        if (dx * dx + dy * dy <= 0.0625 * r * r)
        {
            continue; // slow: the speculative contacts hold it
        }
        sweep s = {i,  (w->body_flags[i] & CS_BODY_BULLET) != 0, {w->px[i] - dx, w->py[i] - dy}, {dx, dy}, r,
                   1.0};
        double lx = s.from.x < w->px[i] ? s.from.x : w->px[i], ux = s.from.x < w->px[i] ? w->px[i] : s.from.x;
        double ly = s.from.y < w->py[i] ? s.from.y : w->py[i], uy = s.from.y < w->py[i] ? w->py[i] : s.from.y;
        cs_query_visit_box(w, lx - r, ly - r, ux + r, uy + r, sweep_visit, &s);
        if (s.t < 1.0)
        {
            w->px[i] = s.from.x + s.t * dx;
            w->py[i] = s.from.y + s.t * dy;
        }
    }
}
