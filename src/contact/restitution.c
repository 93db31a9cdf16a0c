// The restitution pass (impact.h, cs_contact_restitution): after the velocity solve, the step's collisions
// replayed from their approach in Gauss-Seidel sweeps over the contacts an impact can reach (impact_reach.h),
// each body's position offset accumulated for the impact shift (impact_shift.c). The contact instants it
// starts from are impact.c's.
#include "contact/impact.h"

#include "contact/impact_reach.h"
#include "contact/impact_velocity.h"

#include <math.h>

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
// uses it on positions). Inlined into its three callers: the call cost ~18 of its ~60 instructions.
static inline __attribute__((always_inline)) void apply_impulse(const cs_contact* c,
                                                                const cs_impact_bodies* bd, double dn,
                                                                double dt, double* x, double* y, double* w,
                                                                int stride)
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
