// The restitution pass (impact.h, cs_contact_restitution): after the velocity solve, the step's collisions
// replayed from their approach in Gauss-Seidel sweeps over the contacts an impact can reach (impact_reach.h),
// each body's position offset accumulated for the impact shift (impact_shift.c). The contact instants it
// starts from are impact.c's. This file runs the pass (its seeds, its releases, its sweeps until one changes
// nothing); a row's visit and the sweeps themselves are restitution_sweep.c's.
#include "contact/impact.h"

#include "contact/impact_reach.h"
#include "contact/impact_velocity.h"
#include "contact/restitution_pack.h"
#include "contact/restitution_pass.h"

#include <stdint.h>

typedef cs_restitution_pass pass;

// Whether a contact's solve impulse goes back at the start of the pass. A bouncing one's always: the solve
// only touched it if neighbours pushed its bodies together faster than their free approach; its collision
// is replayed from the approach. A pending one's only when it is no load, its own impulse changing its
// normal velocity by less than the resting tolerance (slop/h: a row at its limit with a rounding-error λ);
// one that carries load (a pile's) is an ordinary row from then on.
static bool released(const pass* p, cs_pass_row* c)
{
    if (c->bounce || !(c->pending && c->normal_impulse > 0.0))
    {
        return c->bounce;
    }
    const cs_pass_body* bodies = p->pack->bodies;
    double ima = c->a >= 0 ? bodies[c->a].inv_mass : 0.0;
    c->pending = (ima + bodies[c->b].inv_mass) * c->normal_impulse < p->resting;
    return c->pending;
}

// The replay starts from the approach: the contacts that joined the list (reach->fresh: all of them at the
// start, a grown component's after the sweep that brought it in) get their records (their bodies' first:
// claimed, with their offsets from 0), the released ones' solve impulses go back, and the offsets start
// from the impulses left that act from s > 0.
static void release(pass* p, const double* v)
{
    cs_impact_reach* r = p->reach;
    cs_pass_pack* pack = p->pack;
    for (int i = 0; i < r->fresh_count; ++i)
    {
        const cs_contact* c = p->contacts + r->fresh[i];
        if (cs_reach_claim(r, c->b))
        {
            cs_pack_claim(pack, p->bd, v, c->b);
        }
        if (c->a >= 0 && cs_reach_claim(r, c->a))
        {
            cs_pack_claim(pack, p->bd, v, c->a);
        }
    }
    for (int i = 0; i < r->fresh_count; ++i)
    {
        cs_pack_row(pack, p->contacts, r->fresh[i]);
    }
    for (int i = 0; i < r->fresh_count; ++i)
    {
        cs_pass_row* c = pack->rows + r->fresh[i];
        if (released(p, c))
        {
            cs_restitution_release_row(p, c, c->normal_impulse);
            c->normal_impulse = 0.0;
        }
        if (c->impact_time > 0.0)
        {
            cs_restitution_offset_add(p, c, c->impact_time, c->normal_impulse,
                                      p->frictionless ? 0.0 : c->friction_impulse);
        }
        if (p->quiet_rows)
        {
            cs_restitution_unquiet(p, c); // (a grown list's release may move bodies of quiet rows)
        }
        p->links += !c->pending && !c->bounce;
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

// A sweep, and the components it brought in (their contacts released, as at the start). Returns whether it
// changed any bit of the pass's state.
static bool sweep_and_grow(pass* p, int count, const double* v, bool links_only)
{
    bool stirred = cs_restitution_sweep(p, links_only);
    if (p->reach->grown)
    {
        cs_reach_rebuild(p->reach, count);
        release(p, v);
    }
    return stirred;
}

// The sweeps. A sweep that changed no bit (no impulse, velocity, offset, contact state or budget: p->stirred,
// and nothing grew) leaves the next one the same state to start from, so it would change nothing either:
// the pass ends there (docs/PERFORMANCE.md "The restitution pass on compact records" has the argument, and
// how often it ends early). The links' sweeps visit a subset of the same rows in the same order. every_sweep
// (tests): no early exit.
static void sweeps(pass* p, int count, const double* v, int iterations, bool every_sweep)
{
    for (int it = 0; it < iterations; ++it)
    {
        p->pack->sweeps += 1;
        if (!sweep_and_grow(p, count, v, false) && !every_sweep)
        {
            return;
        }
    }
    for (int it = 0; it < CS_LINK_SWEEPS; ++it)
    {
        p->pack->sweeps += 1;
        if (!sweep_and_grow(p, count, v, true) && !every_sweep)
        {
            return;
        }
    }
}

int cs_contact_restitution(cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                           const cs_restitution_params* params, cs_impact_reach* reach, cs_pass_pack* pack,
                           double* v)
{
    pass p = {.bd = bodies,
              .reach = reach,
              .pack = pack,
              .contacts = contacts,
              .h = params->time_step,
              .threshold = cs_bounce_threshold(params),
              .resting = params->linear_slop / params->time_step,
              .absorbed = 0.0,
              .frictionless = params->frictionless,
              .moved_only = params->moved_only};
    bool begun = false;
    pack->sweeps = 0;
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
    pack->claimed_count = 0;
    pack->tick = params->tick_origin; // (0 but in tests)
    pack->skipped = 0;
    pack->unmoved = 0;
    cs_reach_rebuild(reach, count);
    release(&p, v);
    // Quiet rows pay where collisions meet few resting links (a gas: half its visits left out); in a pile
    // Gauss-Seidel moves nearly every row in every sweep (stream-2000: under 1 % quiet), and the stamps
    // would cost some 25 instructions a visit.
    p.quiet_rows = !params->every_sweep && (params->quiet_always || 8 * p.links < reach->count);
    sweeps(&p, count, v, params->iterations > 0 ? params->iterations : 1, params->every_sweep);
    cs_pack_write_back(pack, reach->list, reach->count, contacts, v);
    int bounced = 0;
    for (int i = 0; i < reach->count; ++i)
    {
        const cs_pass_row* c = pack->rows + (reach->list[i] >> 1);
        bounced += c->bounce && c->normal_impulse > 0.0 ? 1 : 0;
    }
    return bounced;
}
