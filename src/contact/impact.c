// The contact instant (impact.h). Velocities are the integrator's: symplectic Euler stores at t_n the
// mean velocity of the step that ended there, which for a free body is the exact velocity at t_n − h/2.
// So a separated pair whose relative normal velocity was vn⁻ over the last step and is vn* over this one
// (after forces) moves, exactly for constant forces, with
//     u(s) = vn⁻ + a (s + h/2),   a = (vn* − vn⁻)/h,   gap(s) = gap + s (vn⁻ + a h/2) + a s²/2
// at time t_n + s. The impact time s* is the first root of gap(s) in (0, h], the approach speed u(s*).
// After a bounce the pair moves freely again with u⁺ = −e u(s*), so the mean velocity over the step the
// next steps need is u⁺ + a (h − s* − h/2) (the rebound), and the positions lag h·v by s*·(impulse's Δv).
#include "contact/impact.h"
#include "contact/impact_velocity.h"

#include "contact/narrowphase.h"

#include <math.h>

// First root in (0, h] of gap + u0 s + (a/2) s² with gap > 0; -1 when there is none.
static double first_root(double gap, double u0, double a, double h)
{
    double disc = u0 * u0 - 2.0 * a * gap;
    if (disc < 0.0)
    {
        return -1.0;
    }
    // The two roots as q/(a/2) and gap/q (no cancellation between u0 and the square root).
    double q = -0.5 * (u0 + copysign(sqrt(disc), u0));
    double best = -1.0;
    if (q != 0.0)
    {
        double r = gap / q;
        best = r > 0.0 ? r : best;
    }
    if (a != 0.0)
    {
        double r = q / (0.5 * a);
        best = r > 0.0 && (best < 0.0 || r < best) ? r : best;
    }
    return best <= h ? best : -1.0;
}

// Where a separated contact acts if it acts at s*: its normal and lever arms then (a wall contact's stay).
typedef struct instant
{
    double nx, ny, ra, rb;
} instant;

// Two circles: the relative motion over the step is a straight line (both feel the same gravity), with the
// mean of the two relative velocities (exact for a constant relative force). Returns s* and turns the
// normal (at) to the line of centres at that instant; -1 when they do not meet this step.
static double circles_meet(const cs_contact* c, const cs_impact_bodies* bd, double h, instant* at)
{
    int a = c->a, b = c->b;
    double dx = bd->px[b] - bd->px[a], dy = bd->py[b] - bd->py[a];
    double wx = 0.5 * ((bd->v_pre[3 * b] + bd->v_star[3 * b]) - (bd->v_pre[3 * a] + bd->v_star[3 * a]));
    double wy = 0.5 * ((bd->v_pre[3 * b + 1] + bd->v_star[3 * b + 1]) -
                       (bd->v_pre[3 * a + 1] + bd->v_star[3 * a + 1]));
    double reach = c->ra + c->rb - c->gap; // r_a + r_b (the arms are r + gap/2)
    double A = wx * wx + wy * wy, B = dx * wx + dy * wy, C = dx * dx + dy * dy - reach * reach;
    double disc = B * B - A * C;
    if (!(B < 0.0) || disc < 0.0 || C <= 0.0)
    {
        return -1.0;
    }
    double s = C / (-B + sqrt(disc)); // the smaller root, without cancellation
    if (s > h)
    {
        return -1.0;
    }
    double ex = dx + s * wx, ey = dy + s * wy;
    double d = sqrt(ex * ex + ey * ey);
    at->nx = ex / d;
    at->ny = ey / d;
    // They touch then: the arms are the radii.
    at->ra = c->ra - 0.5 * c->gap;
    at->rb = c->rb - 0.5 * c->gap;
    return s;
}

// The normal row's bias b (the row asks vn >= −b): a contact may close its gap this step (gap/h); a
// speculative one the free motion keeps open at least moves as freely as it would (also when the approach
// along n alone would close it: a glancing pass), so its row only acts when others push its bodies
// together; one the free motion closes at s* acts from then on, so after its impulse it may not approach
// (0). A bouncing contact gets the speculative rule too: its collision is the restitution pass's, so the
// solve must not make it plastic (nor, through it, its neighbours). Penetration is removed by the position
// problem, never by velocity bias, so no energy is injected.
static double free_bias(const cs_contact* c, const cs_impact_bodies* bd, double h)
{
    double free_vn = -normal_velocity(c, bd->v_star, c->nx, c->ny);
    return c->gap / h > free_vn ? c->gap / h : free_vn;
}

static double row_bias(const cs_contact* c, const cs_impact_bodies* bd, double h)
{
    if (c->impact_time < 0.0)
    {
        return free_bias(c, bd, h);
    }
    return c->gap > 0.0 && c->impact_time == 0.0 ? c->gap / h : 0.0;
}

// s* of a separated contact that was not supported last step: when the free motion closes it during this
// step, or −1 (circle pairs also turn their normal to the instant, in at).
static double impact_time(const cs_contact* c, const cs_impact_bodies* bd, double h, instant* at)
{
    if (c->a >= 0)
    {
        return circles_meet(c, bd, h, at);
    }
    double vn_pre = normal_velocity(c, bd->v_pre, c->nx, c->ny);
    double acc = (normal_velocity(c, bd->v_star, c->nx, c->ny) - vn_pre) / h;
    return first_root(c->gap, vn_pre + 0.5 * h * acc, acc, h);
}

// The rebound of a contact whose approach speed at s* is u is −e u plus the step's remaining force (the
// mean velocity over the step after the bounce). The restitution pass replays the bounce from whatever
// normal velocity vn the contact has when its turn comes (in a cluster, its neighbours' bounces change it),
// as max(0, ρ − e vn): 0 when it could not leave within the step (it rests). ρ = rebound + e vn* makes the
// replay from the free motion's vn* exactly the rebound; without forces ρ = 0.
static double rebound_offset(const cs_contact* c, const cs_impact_bodies* bd, double u, double acc, double s,
                             double h)
{
    double e = c->restitution;
    return -e * u + acc * (0.5 * h - s) + e * normal_velocity(c, bd->v_star, c->nx, c->ny);
}

// A touching contact (s* = 0): its approach speed is the velocity the last step ended with (its constraint
// held it, so there is no free-flight phase). The common case, kept short: most contacts of a pile.
static void touching(cs_contact* c, const cs_impact_bodies* bd, double h, double threshold)
{
    c->impact_time = 0.0;
    c->bias = c->gap > 0.0 ? c->gap / h : 0.0;
    c->bounce = false;
    c->pending = false;
    c->closing = c->gap;
    c->rebound = -c->bias;
    if (c->restitution > 0.0)
    {
        double u = normal_velocity(c, bd->v_pre, c->nx, c->ny);
        double free_vn = normal_velocity(c, bd->v_star, c->nx, c->ny);
        if (u < -threshold)
        {
            c->bounce = true;
            c->pending = true;
            c->bias = free_bias(c, bd, h); // the solve leaves it to the restitution pass
            c->rebound = rebound_offset(c, bd, u, (free_vn - u) / h, 0.0, h);
        }
        else
        {
            c->pending = free_vn > 0.0; // e.g. a pair that bounced last step: only a neighbour closes it
        }
    }
}

// A separated contact that was not supported last step: the free motion decides whether and when it
// closes (circle pairs: the normal then, in `at`).
static void separated(cs_contact* c, const cs_impact_bodies* bd, double h, double threshold)
{
    instant at = {c->nx, c->ny, c->ra, c->rb}; // (not a copy of the whole contact: 160 bytes each)
    double s = impact_time(c, bd, h, &at);
    double u = 0.0, acc = 0.0;
    bool bounce = false;
    if (s > 0.0)
    {
        double vn_pre = normal_velocity(c, bd->v_pre, at.nx, at.ny);
        acc = (normal_velocity(c, bd->v_star, at.nx, at.ny) - vn_pre) / h;
        u = vn_pre + acc * (s + 0.5 * h); // the approach speed at the instant
        bounce = c->restitution > 0.0 && u < -threshold;
        if (bounce || c->a < 0)
        {
            // It acts at s*, along the normal then.
            c->nx = at.nx;
            c->ny = at.ny;
            c->ra = at.ra;
            c->rb = at.rb;
        }
        else
        {
            // Two circles that meet without bouncing keep the normal of the step's start and close their
            // gap by its end (no shift): with the normal at s* and no shift the pair's impulse would have
            // a moment (d₀ × n ≠ 0), and the shift keeps angular momentum only for an isolated pair.
            s = 0.0;
        }
    }
    c->impact_time = s; // −1: the free motion keeps it open this step
    c->bias = bounce ? free_bias(c, bd, h) : row_bias(c, bd, h); // a bounce is the pass's
    c->bounce = bounce;
    c->pending = bounce || (s < 0.0 && c->restitution > 0.0);
    // A bounce: the free motion closes s*·(−vn*) along n before s* (so the pass's replay of the free motion
    // meets at s* exactly); an opening contact must close its gap.
    c->closing = bounce ? -s * normal_velocity(c, bd->v_star, c->nx, c->ny) : c->gap;
    c->rebound = bounce ? rebound_offset(c, bd, u, acc, s, h) : -c->bias;
}

// Restitution applies above the threshold and the resting tolerance: one slop per step, or what gravity
// adds in one step (the integrator's mean and instant velocities differ by that much). A pile's contacts
// approach that slowly from the solver's residual; counted as impacts they left the solve and only pushed
// in the pass, and a pile at threshold 0 (Pool 2) was pushed apart step after step.
double cs_bounce_threshold(const cs_restitution_params* params)
{
    double h = params->time_step, slop = params->linear_slop / h, fall = params->gravity * h;
    double resting = slop > fall ? slop : fall;
    return params->threshold > resting ? params->threshold : resting;
}

// A held body: one that a touching contact (impact time 0, no bounce) held last step, its warm-start
// impulse changing the normal velocity by at least the resting tolerance slop/h (a pile's load). It did
// not move freely until an impact at s* > 0: its loaded contacts answer the impact with impulses of their
// own at s* (a disc struck on top of a pile is held up by the discs below it), which the solve and the
// pass time from the step's start. So the impact's impulse alone does not say where it was before s*: the
// shift −s* M⁻¹Jᵀλ pulled it back into the striker (Pool 1: 123 mm overlaps). The pass gives held bodies
// no position offset and the shift leaves them where h·v put them (the rule before the contact instant,
// every impulse from the step's start). docs/PHYSICS.md "The impact shift in a pile". Marked on the
// shares cs_contact_impacts starts at 1 (every step: the pass may run on a pending contact alone).
static void mark_held(const cs_contact* c, const cs_impact_bodies* bd, double resting)
{
    double ima = c->a >= 0 ? bd->inv_mass[c->a] : 0.0;
    if (c->impact_time == 0.0 && !c->bounce && (ima + bd->inv_mass[c->b]) * c->normal_impulse >= resting)
    {
        bd->offset[3 * c->b + 2] = 0.0;
        if (c->a >= 0)
        {
            bd->offset[3 * c->a + 2] = 0.0;
        }
    }
}

void cs_contact_impacts_range(cs_contact* contacts, int first, int end, const cs_impact_bodies* bodies,
                              const cs_restitution_params* params)
{
    double h = params->time_step, threshold = cs_bounce_threshold(params);
    for (int k = first; k < end; ++k)
    {
        cs_contact* c = contacts + k;
        if (c->gap > 0.0 && !(c->normal_impulse > 0.0))
        {
            separated(c, bodies, h, threshold);
        }
        else
        {
            touching(c, bodies, h, threshold);
        }
    }
}

void cs_contact_impacts_held(const cs_contact* contacts, int count, int body_count,
                             const cs_impact_bodies* bodies, const cs_restitution_params* params)
{
    double resting = params->linear_slop / params->time_step;
    for (int i = 0; i < body_count; ++i)
    {
        bodies->offset[3 * i + 2] = 1.0; // (mark_held)
    }
    for (int k = 0; k < count; ++k)
    {
        mark_held(contacts + k, bodies, resting);
    }
}

void cs_contact_impacts(cs_contact* contacts, int count, int body_count, const cs_impact_bodies* bodies,
                        const cs_restitution_params* params)
{
    cs_contact_impacts_range(contacts, 0, count, bodies, params);
    cs_contact_impacts_held(contacts, count, body_count, bodies, params);
}
