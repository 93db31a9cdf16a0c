// The contact instant (impact.h). Velocities are the integrator's: symplectic Euler stores at t_n the
// mean velocity of the step that ended there, which for a free body is the exact velocity at t_n − h/2.
// So a separated pair whose relative normal velocity was vn⁻ over the last step and is vn* over this one
// (after forces) moves, exactly for constant forces, with
//     u(s) = vn⁻ + a (s + h/2),   a = (vn* − vn⁻)/h,   gap(s) = gap + s (vn⁻ + a h/2) + a s²/2
// at time t_n + s. The impact time s* is the first root of gap(s) in (0, h], the approach speed u(s*).
// After a bounce the pair moves freely again with u⁺ = −e u(s*), so the mean velocity over the step the
// next steps need is u⁺ + a (h − s* − h/2) (the rebound), and the positions lag h·v by s*·(impulse's Δv).
#include "contact/impact.h"

#include "contact/impact_reach.h"
#include "contact/narrowphase.h"

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

// The restitution pass: the bodies, the step, and each body's position offset so far, o = −Σ s M⁻¹JᵀΔλ
// over the impulses that act from s > 0, so that after its last collision a body is at x₀ + o + t v at
// time t into the step (the impact shift, accumulated as the pass goes).
typedef struct pass
{
    const cs_impact_bodies* bd;
    cs_impact_reach* reach; // the contacts it visits, and per component the bounces' budget
    double h;
    double threshold;
    double resting;  // slop/h: a velocity change below it is no load
    double absorbed; // kinetic energy the ordinary rows took in this pass (the bounces' budget)
    bool frictionless;
    double* offset; // 3 per body (impact.h)
} pass;

// o −= s M⁻¹Jᵀ(dn, dt), linear part (held bodies: none, as in the shift).
static void offset_add(const pass* p, const cs_contact* c, double s, double dn, double dt)
{
    double tx = -c->ny, ty = c->nx;
    double jx = s * (c->nx * dn + tx * dt), jy = s * (c->ny * dn + ty * dt);
    if (!cs_impact_held(p->offset, c->b))
    {
        p->offset[3 * c->b] -= p->bd->inv_mass[c->b] * jx;
        p->offset[3 * c->b + 1] -= p->bd->inv_mass[c->b] * jy;
    }
    if (c->a >= 0 && !cs_impact_held(p->offset, c->a))
    {
        p->offset[3 * c->a] += p->bd->inv_mass[c->a] * jx;
        p->offset[3 * c->a + 1] += p->bd->inv_mass[c->a] * jy;
    }
}

// A pending contact's first collision, if it closes within the step on the bodies' latest motion (their
// velocities now and their offsets along n): at s = closing / (−vn), its impact time from then on (an
// undisturbed bounce meets at its s* exactly; one whose bodies a collision earlier in the step sped up or
// turned meets when they really do). A chained contact collides elastically only when faster than the
// threshold (else it is plastic, an ordinary row from then on). False: no collision (yet).
static bool first_collision(const pass* p, cs_contact* c, double vn)
{
    const double* o = p->offset;
    double closing = c->closing + c->nx * o[3 * c->b] + c->ny * o[3 * c->b + 1];
    if (c->a >= 0)
    {
        closing -= c->nx * o[3 * c->a] + c->ny * o[3 * c->a + 1];
    }
    // (A chained contact also needs vn < −bias: a glancing pair that passes by at its free motion
    // approaches along n as fast as its bias allows, and the straight line misses.)
    if (!(vn < 0.0 && closing + p->h * vn < 0.0 && (c->bounce || vn < -c->bias)))
    {
        return false;
    }
    if (c->impact_time != 0.0) // (a touching contact acts from the step's start)
    {
        c->impact_time = closing > 0.0 ? closing / -vn : 0.0;
    }
    c->bias = 0.0;
    c->pending = false;
    if (!c->bounce)
    {
        c->bounce = -vn > p->threshold;
        c->rebound = 0.0; // ρ: the forces' share over a fraction of the step is left out
    }
    return true;
}

// The kinetic energy an impulse change dl gives a row whose normal velocity is vn: dl (vn + A dl / 2).
static double work(double dl, double vn, double inv_a)
{
    return dl * (vn + 0.5 * dl / inv_a);
}

// A collision from the approach vn: the contact leaves with max(0, ρ − e vn), its target from then on.
// It changes the kinetic energy by Δλ (1 − e) vn / 2 <= 0 (without forces: ρ = 0), so a sequence of them
// never gains energy.
static double collide(cs_contact* c, double* vn, double inv_a)
{
    double out = c->bounce ? c->rebound - c->restitution * *vn : 0.0;
    out = out > 0.0 ? out : 0.0;
    double dl = (out - *vn) * inv_a;
    *vn = out;
    c->target = out;
    return dl;
}

// A contact that collided keeps its target velocity against the resting links around it (a striker
// against a touching row bounces off the row as one block, the simultaneous answer), but may give the
// bodies back no more kinetic energy than those links (ordinary rows) took so far in this pass: a bounce
// whose approach a later collision in the step took away (a chain) is not bounced again. It only pushes
// (what a collision gave is never taken back); approaching again, it collides again.
static double bounce_update(pass* p, cs_contact* c, double vn, double inv_a)
{
    double lambda = c->normal_impulse;
    if (vn < 0.0)
    {
        lambda += collide(c, &vn, inv_a);
    }
    double dl = (c->target - vn) * inv_a;
    if (!(dl > 0.0))
    {
        return lambda; // a collision only pushes
    }
    double dw = work(dl, vn, inv_a);
    if (dw > p->absorbed)
    {
        // The largest push within the budget: ½ A dl² + vn dl = absorbed.
        double budget = p->absorbed > 0.0 ? p->absorbed : 0.0;
        dl = (sqrt(vn * vn + 2.0 * budget / inv_a) - vn) * inv_a;
        dw = work(dl, vn, inv_a);
    }
    p->absorbed -= dw;
    return lambda + dl;
}

// The normal impulse of one contact after its turn in a sweep (vn: its normal velocity now, inv_a =
// 1/A_nn). A pending contact collides when its gap closes; a bouncing one as bounce_update says; any other
// keeps its row's condition vn >= −bias on the total impulse (it may give back what the solve did), and the
// energy it takes is the budget of the bounces' targets.
static double normal_update(pass* p, cs_contact* c, double vn, double inv_a)
{
    double old = c->normal_impulse;
    if (c->pending)
    {
        return first_collision(p, c, vn) ? old + collide(c, &vn, inv_a) : old;
    }
    if (c->bounce)
    {
        return bounce_update(p, c, vn, inv_a);
    }
    double next = old - (vn + c->bias) * inv_a;
    next = next > 0.0 ? next : 0.0;
    p->absorbed -= next > old ? work(next - old, vn, inv_a) : 0.0;
    return next;
}

// A contact's turn in a sweep: its normal row, then friction re-solved within the cone of the new normal
// impulse. Returns whether it changed an impulse.
static bool update(pass* p, cs_contact* c, double* v)
{
    const cs_impact_bodies* bd = p->bd;
    double ima = c->a >= 0 ? bd->inv_mass[c->a] : 0.0;
    double iia = c->a >= 0 ? bd->inv_inertia[c->a] : 0.0;
    double imb = bd->inv_mass[c->b], iib = bd->inv_inertia[c->b];
    // Normal row: A_nn = m_a⁻¹ + m_b⁻¹ (no angular terms for circles).
    double old = c->normal_impulse;
    double next = normal_update(p, c, normal_velocity(c, v, c->nx, c->ny), 1.0 / (ima + imb));
    c->normal_impulse = next;
    if (next != old)
    {
        apply_impulse(c, bd, next - old, 0.0, v, v + 1, v + 2, 3);
    }
    double f_old = c->friction_impulse, f = f_old;
    if (!p->frictionless && (next > 0.0 || c->friction_impulse != 0.0))
    {
        double att = ima + imb + iia * c->ra * c->ra + iib * c->rb * c->rb;
        double limit = c->friction * next;
        f = f_old - tangent_velocity(c, v) / att;
        f = f < -limit ? -limit : (f > limit ? limit : f);
        c->friction_impulse = f;
        apply_impulse(c, bd, 0.0, f - f_old, v, v + 1, v + 2, 3);
    }
    if (c->impact_time > 0.0)
    {
        offset_add(p, c, c->impact_time, next - old, f - f_old);
    }
    return next != old || f != f_old;
}

// One Gauss-Seidel sweep over the reached contacts (key order): a bounce may send a body into any
// neighbour, loaded or not. An edge contact that acts brings its other component in (from the next sweep
// on). links_only: the resting links alone (CS_LINK_SWEEPS).
static void sweep(pass* p, cs_contact* contacts, double* v, bool links_only)
{
    cs_impact_reach* r = p->reach;
    const int* list = r->list; // (fixed within a sweep: a grown list is built after it)
    int n = r->count;
    for (int i = 0; i < n; ++i)
    {
        int entry = list[i];
        cs_contact* c = contacts + (entry >> 1);
        if (links_only && (c->pending || c->bounce))
        {
            continue;
        }
        if (update(p, c, v) && (entry & CS_REACH_EDGE) != 0)
        {
            cs_reach_link(r, entry >> 1);
        }
    }
}

// Whether a contact's solve impulse goes back at the start of the pass. A bouncing one's always: the solve
// only touched it if neighbours pushed its bodies together faster than their free approach; its collision
// is replayed from the approach. A pending one's only when it is no load, its own impulse changing its
// normal velocity by less than the resting tolerance (slop/h: a row at its limit with a rounding-error λ);
// one that carries load (a pile's) is an ordinary row from then on.
static bool released(const pass* p, cs_contact* c)
{
    if (c->bounce || !(c->pending && c->normal_impulse > 0.0))
    {
        return c->bounce;
    }
    double ima = c->a >= 0 ? p->bd->inv_mass[c->a] : 0.0;
    c->pending = (ima + p->bd->inv_mass[c->b]) * c->normal_impulse < p->resting;
    return c->pending;
}

// The replay starts from the approach: the released contacts' solve impulses go back; the offsets start
// from the impulses left that act from s > 0. For the contacts that joined the list (reach->fresh): all of
// them at the start, a grown component's after the sweep that brought it in.
static void release(const pass* p, cs_contact* contacts, double* v)
{
    cs_impact_reach* r = p->reach;
    for (int i = 0; i < r->fresh_count; ++i)
    {
        const cs_contact* c = contacts + r->fresh[i];
        if (cs_reach_claim(r, c->b))
        {
            p->offset[3 * c->b] = p->offset[3 * c->b + 1] = 0.0;
        }
        if (c->a >= 0 && cs_reach_claim(r, c->a))
        {
            p->offset[3 * c->a] = p->offset[3 * c->a + 1] = 0.0;
        }
    }
    for (int i = 0; i < r->fresh_count; ++i)
    {
        cs_contact* c = contacts + r->fresh[i];
        if (released(p, c))
        {
            apply_impulse(c, p->bd, -c->normal_impulse, 0.0, v, v + 1, v + 2, 3);
            c->normal_impulse = 0.0;
        }
        if (c->impact_time > 0.0)
        {
            offset_add(p, c, c->impact_time, c->normal_impulse, p->frictionless ? 0.0 : c->friction_impulse);
        }
    }
}

// After the replay, Gauss-Seidel sweeps over the resting links alone (the ordinary rows: not pending, not
// bouncing). The replay's sweeps end on collisions that came after their neighbours' links in the last sweep,
// so in a collapsing pile the links were left approaching: Pool 1's touching contacts closed by up to 20 mm
// in one step after the pass (5 mm after the solve). These sweeps take that approach back before positions
// move; the collisions keep their outcome (their rows are not visited), and an isolated bounce, a chain of
// binary collisions and a gas without pressed links are untouched. Two: docs/PHYSICS.md "The impact shift in
// a pile" has the survey (one to ten tried).
#define CS_LINK_SWEEPS 2

// Where an impact starts: a bouncing contact, or a pending one the solve left approaching faster than the
// threshold (its first collision may be elastic).
static bool seeds(const pass* p, const cs_contact* c, const double* v)
{
    if (c->bounce || !c->pending)
    {
        return c->bounce;
    }
    double vn = normal_velocity(c, v, c->nx, c->ny);
    return vn < -c->bias && -vn > p->threshold;
}

// A sweep, and the components it brought in (their contacts released, as at the start).
static void sweep_and_grow(pass* p, cs_contact* contacts, int count, double* v, bool links_only)
{
    sweep(p, contacts, v, links_only);
    if (p->reach->grown)
    {
        cs_reach_rebuild(p->reach, count);
        release(p, contacts, v);
    }
}

int cs_contact_restitution(cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                           const cs_restitution_params* params, cs_impact_reach* reach, double* v)
{
    pass p = {.bd = bodies,
              .reach = reach,
              .h = params->time_step,
              .threshold = cs_bounce_threshold(params),
              .resting = params->linear_slop / params->time_step,
              .absorbed = 0.0,
              .frictionless = params->frictionless,
              .offset = bodies->offset};
    bool begun = false;
    for (int k = 0; k < count; ++k)
    {
        if (seeds(&p, contacts + k, v))
        {
            if (!begun)
            {
                cs_reach_begin(reach, contacts, count, bodies->inv_mass);
                begun = true;
            }
            cs_reach_seed(reach, k);
        }
    }
    if (!begun)
    {
        return 0;
    }
    cs_reach_rebuild(reach, count);
    release(&p, contacts, v);
    for (int it = 0; it < (params->iterations > 0 ? params->iterations : 1); ++it)
    {
        sweep_and_grow(&p, contacts, count, v, false);
    }
    for (int it = 0; it < CS_LINK_SWEEPS; ++it)
    {
        sweep_and_grow(&p, contacts, count, v, true);
    }
    int bounced = 0;
    for (int i = 0; i < reach->count; ++i)
    {
        const cs_contact* c = contacts + (reach->list[i] >> 1);
        bounced += c->bounce && c->normal_impulse > 0.0 ? 1 : 0;
    }
    return bounced;
}
