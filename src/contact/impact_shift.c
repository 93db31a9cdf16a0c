// The impact shift (impact.h cs_contact_impact_shift): positions consistent with collisions at their
// contact instants, clamped so that no shift closes a contact (docs/PHYSICS.md "No shift into a contact").
#include "contact/impact.h"

#include "contact/narrowphase.h"

#include <math.h>
#include <stddef.h>

static inline bool shifted(const cs_contact* c)
{
    return c->impact_time > 0.0 && c->normal_impulse > 0.0;
}

// A contact's gap with its bodies at (px, py) plus t times their shares of their shifts (a body's offset
// holds its whole shift and, in its third slot, its share: 0 for a held body).
static double shifted_gap(const cs_contact* c, const cs_impact_bodies* bd, const double* px, const double* py,
                          double t)
{
    const double* o = bd->offset;
    int b = c->b;
    double f = t * o[3 * b + 2];
    double bx = px[b] + f * o[3 * b], by = py[b] + f * o[3 * b + 1];
    if (c->a < 0)
    {
        cs_contact at;
        cs_collide_wall(bd->walls + c->wall, c->wall, b, bx, by, bd->radius[b], INFINITY, &at);
        return at.gap;
    }
    int a = c->a;
    f = t * o[3 * a + 2];
    double dx = bx - (px[a] + f * o[3 * a]), dy = by - (py[a] + f * o[3 * a + 1]);
    return sqrt(dx * dx + dy * dy) - bd->radius[a] - bd->radius[b];
}

// Whether the body's share of its shift moves it.
static inline bool moves(const double* o, int body)
{
    return o[3 * body + 2] > 0.0 && (o[3 * body] != 0.0 || o[3 * body + 1] != 0.0);
}

// How far below its floor a clamped contact may still end (the chord's t leaves it a little deep).
#define CS_CLAMP_TOLERANCE 1e-9

// Scales down the shares of a contact's bodies so that their shifts close it to no less than
// min(0, its gap without them). Its gap along t·shifts is convex in t (a distance to a convex set along a
// line), so the chord's t still leaves it a little too deep: the caller repeats. Returns whether it scaled.
static bool clamp_contact(const cs_contact* c, const cs_impact_bodies* bd, const double* px, const double* py)
{
    double* o = bd->offset;
    if (!(moves(o, c->b) || (c->a >= 0 && moves(o, c->a))))
    {
        return false; // (most contacts of a pile: the shift moves neither body)
    }
    double g1 = shifted_gap(c, bd, px, py, 1.0);
    if (!(g1 < -CS_CLAMP_TOLERANCE))
    {
        return false; // (the common case: the shift leaves it open)
    }
    double g0 = shifted_gap(c, bd, px, py, 0.0);
    double floor = g0 < 0.0 ? g0 : 0.0;
    if (!(g1 < floor - CS_CLAMP_TOLERANCE))
    {
        return false;
    }
    double t = (g0 - floor) / (g0 - g1);
    o[3 * c->b + 2] *= t;
    if (c->a >= 0)
    {
        o[3 * c->a + 2] *= t;
    }
    return true;
}

// No shift may push a body into another. The shift is exact for a body whose own impulses are all that
// changed its motion at s*; but a pile under a struck body answers the blow with impulses the solve times
// from the step's start, and the whole shift then moved the pair (or a neighbour) into each other by up to
// s*·λ·(1/m_a + 1/m_b) — 118 mm in Pool 1's collapse, 477 mm in a stream — and collisions the pass replays
// out of time order do the same in a gas. So the shares are scaled down until no contact of the step is
// closed beyond touching or beyond its gap without the shift. A free bounce ends with the pair apart (gap
// (h − s*)·u⁺ ≥ 0) and is not scaled. Shares only shrink and zero shares close nothing, so the last
// resort (no shift for the bodies of a contact still too deep after CS_CLAMP_SWEEPS) ends it.
#define CS_CLAMP_SWEEPS 8

// The sweeps visit only the contacts with a body the shift moves (`near`, n of them): a contact whose
// bodies do not move before the first sweep never will (shares only shrink), and one whose bodies stop
// moving makes clamp_contact return at once. They are found in chunks on the pool (filter_contacts).
static void clamp_shift(const cs_contact* contacts, int n, const cs_impact_bodies* bd, const double* px,
                        const double* py, const int* near)
{
    bool again = false;
    for (int i = 0; i < n; ++i)
    {
        again = clamp_contact(contacts + near[i], bd, px, py) || again;
    }
    for (int sweep = 1; again; ++sweep)
    {
        again = false;
        for (int i = 0; i < n; ++i)
        {
            const cs_contact* c = contacts + near[i];
            if (clamp_contact(c, bd, px, py))
            {
                again = true;
                if (sweep >= CS_CLAMP_SWEEPS)
                {
                    bd->offset[3 * c->b + 2] = 0.0;
                    if (c->a >= 0)
                    {
                        bd->offset[3 * c->a + 2] = 0.0;
                    }
                }
            }
        }
    }
}

// Each body's whole shift (linear part; held bodies' shares are 0), from the shifted contacts (`list`).
static void whole_shifts(const cs_contact* contacts, const int* list, int n, const cs_impact_bodies* bodies,
                         bool frictionless)
{
    double* o = bodies->offset;
    for (int i = 0; i < n; ++i)
    {
        const cs_contact* c = contacts + list[i];
        double s = -c->impact_time;
        double dn = s * c->normal_impulse, dt = frictionless ? 0.0 : s * c->friction_impulse;
        if (!cs_impact_held(o, c->b))
        {
            o[3 * c->b] += bodies->inv_mass[c->b] * (c->nx * dn - c->ny * dt);
            o[3 * c->b + 1] += bodies->inv_mass[c->b] * (c->ny * dn + c->nx * dt);
        }
        if (c->a >= 0 && !cs_impact_held(o, c->a))
        {
            o[3 * c->a] -= bodies->inv_mass[c->a] * (c->nx * dn - c->ny * dt);
            o[3 * c->a + 1] -= bodies->inv_mass[c->a] * (c->ny * dn + c->nx * dt);
        }
    }
}

// The contacts a predicate keeps, in order, found in chunks of CS_SHIFT_CHUNK contacts on the pool: each
// chunk writes its contacts to its own part of `ids` (then a -1 if it kept fewer than its size); the parts
// are then closed up on the caller, at the cost of a copy of the kept ones.
#define CS_SHIFT_CHUNK 1024

typedef struct filter_job
{
    const cs_contact* contacts;
    int count;
    const double* offset; // NULL: keep the shifted contacts; else those with a body the shift moves
    int* ids;
} filter_job;

static void filter_chunk(void* ctx, int chunk, int thread)
{
    (void)thread;
    const filter_job* j = ctx;
    const double* o = j->offset;
    int first = chunk * CS_SHIFT_CHUNK;
    int end = first + CS_SHIFT_CHUNK < j->count ? first + CS_SHIFT_CHUNK : j->count;
    int n = first;
    for (int k = first; k < end; ++k)
    {
        const cs_contact* c = j->contacts + k;
        j->ids[n] = k;
        n += o == NULL ? shifted(c) : (moves(o, c->b) || (c->a >= 0 && moves(o, c->a)));
    }
    if (n < end)
    {
        j->ids[n] = -1;
    }
}

static int filter_contacts(const cs_contact* contacts, int count, const double* offset, int* ids,
                           cs_workers* pool)
{
    filter_job j = {contacts, count, offset, ids};
    cs_workers_for(pool, (count + CS_SHIFT_CHUNK - 1) / CS_SHIFT_CHUNK, filter_chunk, &j);
    int n = 0;
    for (int first = 0; first < count; first += CS_SHIFT_CHUNK)
    {
        int end = first + CS_SHIFT_CHUNK < count ? first + CS_SHIFT_CHUNK : count;
        for (int k = first; k < end && ids[k] >= 0; ++k)
        {
            ids[n++] = ids[k];
        }
    }
    return n;
}

// Every body's whole shift (offset's first two slots) from 0, in chunks of CS_SHIFT_CHUNK bodies. (It was a
// loop over the contacts, zeroing their bodies': the same values wherever the shift reads them — only
// contacts' bodies — but a serial pass over every contact, 0.3–0.9 ms of a 20 000-circle step.)
typedef struct zero_job
{
    double* offset;
    int body_count;
} zero_job;

static void zero_chunk(void* ctx, int chunk, int thread)
{
    (void)thread;
    const zero_job* j = ctx;
    int first = chunk * CS_SHIFT_CHUNK;
    int end = first + CS_SHIFT_CHUNK < j->body_count ? first + CS_SHIFT_CHUNK : j->body_count;
    for (int i = first; i < end; ++i)
    {
        j->offset[3 * i] = j->offset[3 * i + 1] = 0.0;
    }
}

void cs_contact_impact_shift(const cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                             int body_count, bool frictionless, int* scratch, double* px, double* py,
                             double* angle)
{
    cs_contact_impact_shift_on(contacts, count, bodies, body_count, frictionless, scratch, px, py, angle,
                               NULL);
}

void cs_contact_impact_shift_on(const cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                                int body_count, bool frictionless, int* scratch, double* px, double* py,
                                double* angle, cs_workers* pool)
{
    // The shifted contacts; only their bodies have a shift (a body of several contacts moves once).
    int* list = scratch;
    int n = filter_contacts(contacts, count, NULL, list, pool);
    if (n == 0)
    {
        return;
    }
    double* o = bodies->offset;
    zero_job z = {o, body_count};
    cs_workers_for(pool, (body_count + CS_SHIFT_CHUNK - 1) / CS_SHIFT_CHUNK, zero_chunk, &z);
    whole_shifts(contacts, list, n, bodies, frictionless);
    if (bodies->clamp)
    {
        int* near = scratch + count;
        int near_count = filter_contacts(contacts, count, o, near, pool);
        clamp_shift(contacts, near_count, bodies, px, py, near);
    }
    // The shares of the shifts, and the same shares of the angles' shifts.
    for (int i = 0; i < n && !frictionless; ++i)
    {
        const cs_contact* c = contacts + list[i];
        double dt = -c->impact_time * c->friction_impulse;
        angle[c->b] -= o[3 * c->b + 2] * bodies->inv_inertia[c->b] * c->rb * dt;
        if (c->a >= 0)
        {
            angle[c->a] -= o[3 * c->a + 2] * bodies->inv_inertia[c->a] * c->ra * dt;
        }
    }
    for (int i = 0; i < n; ++i)
    {
        const cs_contact* c = contacts + list[i];
        for (int side = 0; side < 2; ++side)
        {
            int b = side == 0 ? c->b : c->a;
            if (b >= 0 && o[3 * b + 2] > 0.0)
            {
                px[b] += o[3 * b + 2] * o[3 * b];
                py[b] += o[3 * b + 2] * o[3 * b + 1];
                o[3 * b] = o[3 * b + 1] = 0.0; // (a body of several contacts moves once)
            }
        }
    }
}
