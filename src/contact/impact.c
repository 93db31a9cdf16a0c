// The contact instant (impact.h). Velocities are the integrator's: symplectic Euler stores at t_n the
// mean velocity of the step that ended there, which for a free body is the exact velocity at t_n − h/2.
// So a separated pair whose relative normal velocity was vn⁻ over the last step and is vn* over this one
// (after forces) moves, exactly for constant forces, with
//     u(s) = vn⁻ + a (s + h/2),   a = (vn* − vn⁻)/h,   gap(s) = gap + s (vn⁻ + a h/2) + a s²/2
// at time t_n + s. The impact time s* is the first root of gap(s) in (0, h], the approach speed u(s*).
// After a bounce the pair moves freely again with u⁺ = −e u(s*), so the mean velocity over the step the
// next steps need is u⁺ + a (h − s* − h/2) (the rebound), and the positions lag h·v by s*·(impulse's Δv).
#include "contact/impact.h"

#include <math.h>

static inline double dot3(const double* v, int body, double x, double y)
{
    return body >= 0 ? x * v[3 * body] + y * v[3 * body + 1] : 0.0;
}

// Relative normal velocity of b with respect to a along (nx, ny).
static inline double normal_velocity(const cs_contact* c, const double* v, double nx, double ny)
{
    return dot3(v, c->b, nx, ny) - dot3(v, c->a, nx, ny);
}

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

// Two circles: the relative motion over the step is a straight line (both feel the same gravity), with the
// mean of the two relative velocities (exact for a constant relative force). Returns s* and turns the
// contact's normal to the line of centres at that instant; -1 when they do not meet this step.
static double circles_meet(cs_contact* c, const cs_impact_bodies* bd, double h)
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
    c->nx = ex / d;
    c->ny = ey / d;
    // They touch then: the arms are the radii.
    double ra = c->ra - 0.5 * c->gap, rb = c->rb - 0.5 * c->gap;
    c->ra = ra;
    c->rb = rb;
    return s;
}

// The normal row's bias b (the row asks vn >= −b): a contact may close its gap this step (gap/h); a
// speculative one the free motion keeps open at least moves as freely as it would (also when the approach
// along n alone would close it: a glancing pass), so its row only acts when others push its bodies
// together; one the free motion closes at s* acts from then on, so after its impulse it may not approach
// (0). Penetration is removed by the position problem, never by velocity bias, so no energy is injected.
static double row_bias(const cs_contact* c, const cs_impact_bodies* bd, double h)
{
    double bias = c->gap > 0.0 && c->impact_time == 0.0 ? c->gap / h : 0.0;
    if (c->impact_time < 0.0)
    {
        double free_vn = -normal_velocity(c, bd->v_star, c->nx, c->ny);
        bias = c->gap / h > free_vn ? c->gap / h : free_vn;
    }
    return bias;
}

// s* of a separated contact that was not supported last step: when the free motion closes it during this
// step, or −1 (circle pairs also turn their normal to the instant).
static double impact_time(cs_contact* c, const cs_impact_bodies* bd, double h)
{
    if (c->a >= 0)
    {
        return circles_meet(c, bd, h);
    }
    double vn_pre = normal_velocity(c, bd->v_pre, c->nx, c->ny);
    double acc = (normal_velocity(c, bd->v_star, c->nx, c->ny) - vn_pre) / h;
    return first_root(c->gap, vn_pre + 0.5 * h * acc, acc, h);
}

// The rebound of a contact whose approach speed at s* is u: −e u plus the step's remaining force (the mean
// velocity over the step after the bounce), or 0 when it could not leave within the step (it rests).
static double rebound_velocity(const cs_contact* c, double u, double acc, double s, double h)
{
    double rebound = -c->restitution * u + acc * (0.5 * h - s);
    return rebound > 0.0 ? rebound : 0.0;
}

// A touching contact (s* = 0): its approach speed is the velocity the last step ended with (its constraint
// held it, so there is no free-flight phase). The common case, kept short: most contacts of a pile.
static void touching(cs_contact* c, const cs_impact_bodies* bd, double h, double threshold)
{
    c->impact_time = 0.0;
    c->bias = c->gap > 0.0 ? c->gap / h : 0.0;
    c->bounce = false;
    c->rebound = -c->bias;
    if (c->restitution > 0.0)
    {
        double u = normal_velocity(c, bd->v_pre, c->nx, c->ny);
        if (u < -threshold)
        {
            double acc = (normal_velocity(c, bd->v_star, c->nx, c->ny) - u) / h;
            c->bounce = true;
            c->rebound = rebound_velocity(c, u, acc, 0.0, h);
        }
    }
}

// A separated contact that was not supported last step: the free motion decides whether and when it
// closes (circle pairs: the normal then, in `at`).
static void separated(cs_contact* c, const cs_impact_bodies* bd, double h, double threshold)
{
    cs_contact at = *c;
    double s = impact_time(&at, bd, h);
    double u = 0.0, acc = 0.0;
    bool bounce = false;
    if (s > 0.0)
    {
        double vn_pre = normal_velocity(&at, bd->v_pre, at.nx, at.ny);
        acc = (normal_velocity(&at, bd->v_star, at.nx, at.ny) - vn_pre) / h;
        u = vn_pre + acc * (s + 0.5 * h); // the approach speed at the instant
        bounce = c->restitution > 0.0 && u < -threshold;
        if (bounce || c->a < 0)
        {
            *c = at; // it acts at s*, along the normal then
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
    c->bias = row_bias(c, bd, h);
    c->bounce = bounce;
    c->rebound = bounce ? rebound_velocity(c, u, acc, s, h) : -c->bias;
}

void cs_contact_impacts(cs_contact* contacts, int count, const cs_impact_bodies* bodies, double h,
                        double restitution_threshold)
{
    for (int k = 0; k < count; ++k)
    {
        cs_contact* c = contacts + k;
        if (c->gap > 0.0 && !(c->normal_impulse > 0.0))
        {
            separated(c, bodies, h, restitution_threshold);
        }
        else
        {
            touching(c, bodies, h, restitution_threshold);
        }
    }
}

// The friction direction t = (−n_y, n_x) and the row's angular entries (DESIGN.md convention).
static inline double tangent_velocity(const cs_contact* c, const double* v)
{
    double tx = -c->ny, ty = c->nx;
    double vt = dot3(v, c->b, tx, ty) - dot3(v, c->a, tx, ty) - c->rb * v[3 * c->b + 2];
    if (c->a >= 0)
    {
        vt -= c->ra * v[3 * c->a + 2];
    }
    return vt;
}

// v += M⁻¹Jᵀ (dn, dt) for the contact's normal and friction rows; scale multiplies the result (the shift
// uses it on positions).
static void apply_impulse(const cs_contact* c, const cs_impact_bodies* bd, double dn, double dt, double* x,
                          double* y, double* w, int stride)
{
    double tx = -c->ny, ty = c->nx;
    double jx = c->nx * dn + tx * dt, jy = c->ny * dn + ty * dt;
    int b = c->b;
    x[stride * b] += bd->inv_mass[b] * jx;
    y[stride * b] += bd->inv_mass[b] * jy;
    w[stride * b] -= bd->inv_inertia[b] * c->rb * dt;
    if (c->a >= 0)
    {
        int a = c->a;
        x[stride * a] -= bd->inv_mass[a] * jx;
        y[stride * a] -= bd->inv_mass[a] * jy;
        w[stride * a] -= bd->inv_inertia[a] * c->ra * dt;
    }
}

// One Gauss-Seidel sweep of the restitution pass over the contacts that carry impulse or bounce: the
// bouncing ones are driven to their rebound, the others keep their rows' condition vn >= −bias, on the
// total normal impulses (the bounces happen at the velocity solve's instant, so it may also take back
// what the solve did). Friction is re-solved within the cone of the new normal impulse.
static void sweep(cs_contact* contacts, int count, const cs_impact_bodies* bd, bool frictionless, double* v)
{
    for (int k = 0; k < count; ++k)
    {
        cs_contact* c = contacts + k;
        if (!(c->bounce || c->normal_impulse > 0.0))
        {
            continue;
        }
        double ima = c->a >= 0 ? bd->inv_mass[c->a] : 0.0;
        double iia = c->a >= 0 ? bd->inv_inertia[c->a] : 0.0;
        double imb = bd->inv_mass[c->b], iib = bd->inv_inertia[c->b];
        // Normal row: A_nn = m_a⁻¹ + m_b⁻¹ (no angular terms for circles).
        double vn = normal_velocity(c, v, c->nx, c->ny);
        double old = c->normal_impulse;
        double next = old - (vn - c->rebound) / (ima + imb);
        next = next > 0.0 ? next : 0.0;
        c->normal_impulse = next;
        apply_impulse(c, bd, next - old, 0.0, v, v + 1, v + 2, 3);
        if (!frictionless && (next > 0.0 || c->friction_impulse != 0.0))
        {
            double att = ima + imb + iia * c->ra * c->ra + iib * c->rb * c->rb;
            double limit = c->friction * next;
            double f_old = c->friction_impulse;
            double f = f_old - tangent_velocity(c, v) / att;
            f = f < -limit ? -limit : (f > limit ? limit : f);
            c->friction_impulse = f;
            apply_impulse(c, bd, 0.0, f - f_old, v, v + 1, v + 2, 3);
        }
    }
}

int cs_contact_restitution(cs_contact* contacts, int count, const cs_impact_bodies* bodies, int iterations,
                           bool frictionless, double* v)
{
    int bounced = 0;
    for (int k = 0; k < count; ++k)
    {
        cs_contact* c = contacts + k;
        if (c->bounce)
        {
            c->bounce = c->normal_impulse > 0.0; // only contacts that carried impulse bounce
            bounced += c->bounce ? 1 : 0;
        }
    }
    for (int it = 0; bounced > 0 && it < (iterations > 0 ? iterations : 1); ++it)
    {
        sweep(contacts, count, bodies, frictionless, v);
    }
    return bounced;
}

void cs_contact_impact_shift(const cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                             bool frictionless, double* px, double* py, double* angle)
{
    for (int k = 0; k < count; ++k)
    {
        const cs_contact* c = contacts + k;
        if (c->impact_time > 0.0 && c->normal_impulse > 0.0)
        {
            double s = -c->impact_time;
            double dt = frictionless ? 0.0 : s * c->friction_impulse;
            apply_impulse(c, bodies, s * c->normal_impulse, dt, px, py, angle, 1);
        }
    }
}
