// The restitution pass's sweeps (restitution_pass.h): a row's visit — its collision if it is pending, its
// bounce if it is bouncing, its condition and friction if it is an ordinary row — and the Gauss-Seidel sweeps
// over the reached contacts, with or without their quiet rows. The pass that runs them is restitution.c.
#include "contact/restitution_pass.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef cs_restitution_pass pass;

// The friction direction t = (−n_y, n_x) and the row's angular entries (DESIGN.md convention). A wall
// half (a = −1) contributes nothing (the same bits as dot3's 0.0: x − 0.0 is x).
static inline double tangent_velocity(const cs_pass_row* c, const cs_pass_body* bodies)
{
    double tx = -c->ny, ty = c->nx;
    const double* vb = bodies[c->b].v;
    double vt = tx * vb[0] + ty * vb[1];
    if (c->a >= 0)
    {
        const double* va = bodies[c->a].v;
        vt -= tx * va[0] + ty * va[1];
        vt -= c->rb * vb[2];
        vt -= c->ra * va[2];
        return vt;
    }
    return vt - c->rb * vb[2];
}

// Relative normal velocity of b with respect to a along the row's normal.
static inline double row_normal_velocity(const cs_pass_row* c, const cs_pass_body* bodies)
{
    const double* vb = bodies[c->b].v;
    double vn = c->nx * vb[0] + c->ny * vb[1];
    if (c->a >= 0)
    {
        const double* va = bodies[c->a].v;
        vn -= c->nx * va[0] + c->ny * va[1];
    }
    return vn;
}

// v += M⁻¹Jᵀ (dn, dt) for the contact's normal and friction rows. Inlined into its callers: the call
// cost ~18 of its ~60 instructions.
static inline __attribute__((always_inline)) void apply_impulse(const cs_pass_row* c, cs_pass_body* bodies,
                                                                double dn, double dt)
{
    double tx = -c->ny, ty = c->nx;
    double jx = c->nx * dn + tx * dt, jy = c->ny * dn + ty * dt;
    cs_pass_body* b = bodies + c->b;
    b->v[0] += b->inv_mass * jx;
    b->v[1] += b->inv_mass * jy;
    b->v[2] -= b->inv_inertia * c->rb * dt;
    if (c->a >= 0)
    {
        cs_pass_body* a = bodies + c->a;
        a->v[0] -= a->inv_mass * jx;
        a->v[1] -= a->inv_mass * jy;
        a->v[2] -= a->inv_inertia * c->ra * dt;
    }
}
// o −= s M⁻¹Jᵀ(dn, dt), linear part (held bodies: none, as in the shift).
static void offset_add(const pass* p, const cs_pass_row* c, double s, double dn, double dt)
{
    double tx = -c->ny, ty = c->nx;
    double jx = s * (c->nx * dn + tx * dt), jy = s * (c->ny * dn + ty * dt);
    cs_pass_body* b = p->pack->bodies + c->b;
    if (b->moves)
    {
        b->offset[0] -= b->inv_mass * jx;
        b->offset[1] -= b->inv_mass * jy;
    }
    if (c->a >= 0 && p->pack->bodies[c->a].moves)
    {
        cs_pass_body* a = p->pack->bodies + c->a;
        a->offset[0] += a->inv_mass * jx;
        a->offset[1] += a->inv_mass * jy;
    }
}

// The gap a pending contact has left to close along n on its bodies' latest motion (first_collision).
static inline double closing_gap(const pass* p, const cs_pass_row* c, const cs_contact* cold)
{
    const cs_pass_body* bodies = p->pack->bodies;
    const double* ob = bodies[c->b].offset;
    double closing = cold->closing + c->nx * ob[0] + c->ny * ob[1];
    if (c->a >= 0)
    {
        const double* oa = bodies[c->a].offset;
        closing -= c->nx * oa[0] + c->ny * oa[1];
    }
    return closing;
}

// Whether a pending contact approaching at vn collides now (first_collision's test, without its changes).
// (A chained contact also needs vn < −bias: a glancing pair that passes by at its free motion approaches
// along n as fast as its bias allows, and the straight line misses.)
static inline bool collides(const pass* p, const cs_pass_row* c, const cs_contact* cold, double vn)
{
    return vn < 0.0 && closing_gap(p, c, cold) + p->h * vn < 0.0 && (c->bounce || vn < -c->bias);
}

// A pending contact's first collision, if it closes within the step on the bodies' latest motion (their
// velocities now and their offsets along n): at s = closing / (−vn), its impact time from then on (an
// undisturbed bounce meets at its s* exactly; one whose bodies a collision earlier in the step sped up or
// turned meets when they really do). A chained contact collides elastically only when faster than the
// threshold (else it is plastic, an ordinary row from then on). False: no collision (yet).
static bool first_collision(pass* p, cs_pass_row* c, cs_contact* cold, double vn)
{
    if (!collides(p, c, cold, vn))
    {
        return false;
    }
    double closing = closing_gap(p, c, cold);
    p->stirred = true;
    if (c->impact_time != 0.0) // (a touching contact acts from the step's start)
    {
        c->impact_time = closing > 0.0 ? closing / -vn : 0.0;
    }
    c->bias = 0.0;
    c->pending = false;
    if (!c->bounce)
    {
        c->bounce = -vn > p->threshold;
        cold->rebound = 0.0; // ρ: the forces' share over a fraction of the step is left out
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
static double collide(pass* p, const cs_pass_row* c, cs_contact* cold, double* vn)
{
    p->stirred = true;
    double out = c->bounce ? cold->rebound - cold->restitution * *vn : 0.0;
    out = out > 0.0 ? out : 0.0;
    double dl = (out - *vn) * c->inv_a;
    *vn = out;
    cold->target = out;
    return dl;
}

// A contact that collided keeps its target velocity against the resting links around it (a striker
// against a touching row bounces off the row as one block, the simultaneous answer), but may give the
// bodies back no more kinetic energy than those links (ordinary rows) took so far in this pass: a bounce
// whose approach a later collision in the step took away (a chain) is not bounced again. It only pushes
// (what a collision gave is never taken back); approaching again, it collides again.
static double bounce_update(pass* p, const cs_pass_row* c, cs_contact* cold, double vn)
{
    double inv_a = c->inv_a;
    double lambda = c->normal_impulse;
    if (vn < 0.0)
    {
        lambda += collide(p, c, cold, &vn);
    }
    double dl = (cold->target - vn) * inv_a;
    if (!(dl > 0.0))
    {
        return lambda; // a collision only pushes
    }
    p->stirred = true; // (it reads and lowers the budget, which other contacts may have raised)
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

// An ordinary row's normal impulse after its turn (neither pending nor bouncing): its condition vn >= −bias
// on the total impulse (it may give back what the solve did); the energy it takes lowers *absorbed, the
// bounces' budget (normal_update's p->absorbed, or the sweep's local: visit_link).
static inline __attribute__((always_inline)) double link_impulse(const cs_pass_row* c, double vn,
                                                                 double* absorbed)
{
    double old = c->normal_impulse;
    double next = old - (vn + c->bias) * c->inv_a;
    next = next > 0.0 ? next : 0.0;
    if (next > old) // (absorbed − 0.0 would be absorbed, bit for bit)
    {
        *absorbed -= work(next - old, vn, c->inv_a);
    }
    return next;
}

// The normal impulse of one contact after its turn in a sweep (vn: its normal velocity now). A pending
// contact collides when its gap closes; a bouncing one as bounce_update says; any other keeps its row's
// condition vn >= −bias on the total impulse (it may give back what the solve did), and the energy it
// takes is the budget of the bounces' targets.
static double normal_update(pass* p, cs_pass_row* c, int k, double vn)
{
    double old = c->normal_impulse;
    if (c->pending)
    {
        cs_contact* cold = p->contacts + k;
        return first_collision(p, c, cold, vn) ? old + collide(p, c, cold, &vn) : old;
    }
    if (c->bounce)
    {
        return bounce_update(p, c, p->contacts + k, vn);
    }
    return link_impulse(c, vn, &p->absorbed);
}

static inline uint64_t bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

// Whether a friction apply that changed nothing may still change a bit: M⁻¹Jᵀ(0, 0) adds (or subtracts)
// zeros of either sign; v ± 0 is v for every v but −0, which a +0 turns into +0 (+0 ± 0 stays +0).
static inline bool negative_zero(double x)
{
    return bits(x) == UINT64_C(1) << 63;
}

static inline bool zero_velocity(const cs_pass_row* c, const cs_pass_body* bodies)
{
    const double* vb = bodies[c->b].v;
    bool zero = negative_zero(vb[0]) || negative_zero(vb[1]) || negative_zero(vb[2]);
    if (c->a >= 0)
    {
        const double* va = bodies[c->a].v;
        zero = zero || negative_zero(va[0]) || negative_zero(va[1]) || negative_zero(va[2]);
    }
    return zero;
}

// Unmoved rows (moved_only: the hard formulations, relax and split). The pass is there for the impacts, but
// its sweeps over a pile an impact never reached continue the velocity solve's Gauss-Seidel: in stream-2000
// the pile is one component with the falling discs, and three visits in five are such rows. An ordinary row
// (neither pending nor bouncing) is visited only when a body of it was moved — a visit or release in this
// pass changed one of its contacts' normal or tangent velocity by at least the resting tolerance slop/h — or
// its row is violated by more than slop/h (vn < −bias − slop/h: the unconverged solve's worst rows, which the
// sweeps over a collapsing pile used to take up; without them Pool 1 at 6 iterations collapsed to 16 mm
// instead of 12). A skipped row keeps its impulses, as a visit that changed nothing would. Under SPOOK and
// soft the rows are compliant and the pass makes them hard, so every reached row is visited there.
// docs/PHYSICS.md ("Collisions within a step", Unmoved rows) has its quality over ensembles, and
// docs/PERFORMANCE.md (the session of 28 Nov 2026, 18:05) what it saves.
static inline void mark_moved(const pass* p, const cs_pass_row* c, double dn, double dt)
{
    // Δvn = A_nn dn, Δvt = A_tt dt (the rows' own changes; NaN marks nothing and is caught downstream).
    if (fabs(dn) >= p->resting * c->inv_a || fabs(dt) * c->att >= p->resting)
    {
        p->pack->bodies[c->b].moved = 1;
        if (c->a >= 0)
        {
            p->pack->bodies[c->a].moved = 1;
        }
    }
}

// Whether the sweep leaves an ordinary row out (moved_only, above). Sets *marking for the visit: whether it
// may still mark a body (a collapse marks nearly every body early, and the test then costs more than it
// saves).
static inline bool leave_out(const cs_pass_body* bodies, const cs_pass_row* c, double resting, bool* marking)
{
    bool b_moved = bodies[c->b].moved != 0;
    bool a_moved = c->a >= 0 && bodies[c->a].moved != 0;
    *marking = !(b_moved && (a_moved || c->a < 0));
    if (b_moved || a_moved || c->pending || c->bounce)
    {
        return false;
    }
    return row_normal_velocity(c, bodies) + c->bias >= -resting; // (NaN: visited)
}

static inline bool unmoved(pass* p, const cs_pass_row* c)
{
    return leave_out(p->pack->bodies, c, p->resting, &p->marking);
}

// The rest of a visit once its row's new normal impulse `next` is known (vt: the tangent velocity before
// it): friction re-solved within the cone of the new normal impulse, the change applied, the offset and the
// marks. Returns whether it changed an impulse; sets *stirred when it changed any bit of the pass's state.
// *stirred is update's p->stirred or the sweep's local (visit_link).
static inline __attribute__((always_inline)) bool finish_visit(const pass* p, cs_pass_body* bodies,
                                                               cs_pass_row* c, double vt, double next,
                                                               bool marking, bool* stirred)
{
    double old = c->normal_impulse, f_old = c->friction_impulse, f = f_old;
    c->normal_impulse = next;
    bool friction = !p->frictionless && (next > 0.0 || f_old != 0.0);
    if (friction)
    {
        double limit = c->friction * next;
        f = f_old - vt / c->att;
        // Two selects (maxsd, minsd): limit = μ λn is >= 0 (or NaN), so the same result as one nested test.
        double lo = -limit;
        f = f < lo ? lo : f;
        f = f > limit ? limit : f;
        c->friction_impulse = f;
    }
    if (next != old || friction)
    {
        if (!*stirred && next == old && f == f_old && zero_velocity(c, bodies))
        {
            *stirred = true; // (adding zeros may still turn a −0 into +0)
        }
        apply_impulse(c, bodies, next - old, f - f_old);
    }
    if (c->impact_time > 0.0)
    {
        offset_add(p, c, c->impact_time, next - old, f - f_old);
    }
    if (marking)
    {
        mark_moved(p, c, next - old, f - f_old);
    }
    // (Stirred by bits: NaN impulses that compare unequal but kept their bits leave the next sweep the same
    // state; the change returned only decides the edge link, and a list that grows stirs.)
    *stirred |= ((bits(next) ^ bits(old)) | (bits(f) ^ bits(f_old))) != 0;
    return next != old || f != f_old;
}

// Contact k's turn in a sweep: its normal row, then friction re-solved within the cone of the new normal
// impulse. Returns whether it changed an impulse; sets p->stirred when it changed any bit of the pass's
// state (an impulse's, a velocity's, a contact's state or the budget).
static bool update(pass* p, cs_pass_row* c, int k)
{
    cs_pass_body* bodies = p->pack->bodies;
    // Both rows' velocities first: a normal impulse leaves the tangent velocity as it was (t·n = 0, and
    // through the centres it turns neither body), so the friction row may read it before the normal row
    // moves v, and the divide runs beside the normal row instead of after it (the sweeps are a chain of
    // visits sharing bodies, so a visit's latency is the pass's time).
    double vt = tangent_velocity(c, bodies);
    double next = normal_update(p, c, k, row_normal_velocity(c, bodies));
    return finish_visit(p, bodies, c, vt, next, p->marking, &p->stirred);
}

// An ordinary row's visit (neither pending nor bouncing): update's, with normal_update's ordinary branch
// inlined and the pass's budget and stirred flag in the sweep's locals (*absorbed, *stirred), not in the
// pass's fields, which every store into a body's velocity might alias. The same bits as update.
static inline __attribute__((always_inline)) bool
visit_link(const pass* p, cs_pass_body* bodies, cs_pass_row* c, bool marking, double* absorbed, bool* stirred)
{
    double vt = tangent_velocity(c, bodies);
    double next = link_impulse(c, row_normal_velocity(c, bodies), absorbed);
    return finish_visit(p, bodies, c, vt, next, marking, stirred);
}

// A pending row (k) with no impulse that does not collide now (collides: most of a falling pile's
// speculative contacts, approaching or not): update's visit would compute no collision, no friction (λn = 0
// and λt = 0: no cone to solve in) and no impulse, so what is left of it is the offset and the mark of a
// zero change (+0, +0: the differences it would take), done here. Returns whether it was such a row; the
// same bits as update, without its tangent velocity and its calls. (Not in sweep_quiet: its quiet rows
// leave such rows out from their second visit on, and the test there cost more than it saved in the gas.)
static inline __attribute__((always_inline)) bool pending_apart(const pass* p, const cs_pass_row* c, int k)
{
    if (!c->pending || c->bounce || c->normal_impulse != 0.0 || c->friction_impulse != 0.0 ||
        collides(p, c, p->contacts + k, row_normal_velocity(c, p->pack->bodies)))
    {
        return false;
    }
    if (c->impact_time > 0.0)
    {
        offset_add(p, c, c->impact_time, 0.0, 0.0);
    }
    if (p->marking)
    {
        mark_moved(p, c, 0.0, 0.0);
    }
    return true;
}

// One Gauss-Seidel sweep over the reached contacts (key order): a bounce may send a body into any
// neighbour, loaded or not. An edge contact that acts brings its other component in (from the next sweep
// on). links_only: the resting links alone (CS_LINK_SWEEPS). Returns whether it changed any bit of the
// pass's state (p->stirred). The ordinary rows (most of a pile's) go through visit_link with the budget and
// the stirred flag in locals; a pending or bouncing row through update (or pending_apart), the locals handed
// over around it.
static bool sweep(pass* p, bool links_only)
{
    cs_impact_reach* r = p->reach;
    const int* list = r->list; // (fixed within a sweep: a grown list is built after it)
    cs_pass_row* rows = p->pack->rows;
    cs_pass_body* bodies = p->pack->bodies;
    const bool moved_only = p->moved_only;
    const double resting = p->resting;
    int n = r->count;
    int64_t left_out = 0; // unmoved rows
    double absorbed = p->absorbed;
    bool stirred = false;
    for (int i = 0; i < n; ++i)
    {
        int entry = list[i];
        cs_pass_row* c = rows + (entry >> 1);
        bool changed;
        if (c->pending || c->bounce)
        {
            if (links_only)
            {
                continue;
            }
            if (moved_only)
            {
                (void)unmoved(p, c); // (never true here: it sets p->marking)
            }
            if (pending_apart(p, c, entry >> 1))
            {
                continue;
            }
            p->absorbed = absorbed;
            p->stirred = stirred;
            changed = update(p, c, entry >> 1);
            absorbed = p->absorbed;
            stirred = p->stirred;
        }
        else
        {
            bool marking = false;
            if (moved_only && leave_out(bodies, c, resting, &marking))
            {
                left_out += 1;
                continue;
            }
            changed = visit_link(p, bodies, c, marking, &absorbed, &stirred);
        }
        if (changed && (entry & CS_REACH_EDGE) != 0)
        {
            cs_reach_link(r, entry >> 1);
        }
    }
    p->absorbed = absorbed;
    p->stirred = stirred;
    p->pack->unmoved += left_out;
    return stirred || r->grown;
}

// Quiet rows. A visit that changed no bit of the pass's state (update did not stir, and returned no change:
// the impulses compare equal, so their differences were exactly +0 where finite — and they are finite —
// and the applies and offset_add added zeros that change no bit) leaves the row's next visit the same
// inputs unless its bodies changed: a visit reads the row's record (only its own visits write it), its
// contact's cold fields (closing, restitution, rebound, target: written only by its own visits, which then
// stir), its bodies' velocities and offsets, and the bounces' budget `absorbed` — which a quiet visit never
// reads: an ordinary row reads and lowers it only when its impulse grows, a bouncing one only when it pushes
// (which stirs), a pending one never. Nor does a quiet visit link an edge (it returned no change). So a row
// whose last visit was quiet, at tick t, and neither of whose bodies a visit that was not quiet or a release
// touched since (touched <= t), is left out: the sweeps compute exactly what visiting it computes, in the
// same order, and say stirred alike. The tick counts those touches, one a visit that was not quiet or a
// release: up to (iterations + 2) × rows a pass, which can pass 2^32 (iterations up to 1e8). Before it would
// wrap (a stamp from before would then look newer than the touches after), restart_tick clears the stamps
// and starts it again: a cleared row is visited, which computes what leaving it out would.
// tests/test_restitution_pack.c checks it step by step against every row visited (every_sweep), also with
// the tick started just below the wrap (tick_origin).
#define CS_TICK_LAST (UINT32_MAX - 1u) // the last tick: a quiet stamp (tick + 1) stays below 2^32

static void restart_tick(pass* p)
{
    cs_pass_pack* pack = p->pack;
    const int* list = p->reach->list;
    for (int i = 0; i < p->reach->count; ++i)
    {
        pack->rows[list[i] >> 1].quiet = 0;
    }
    for (int i = 0; i < pack->claimed_count; ++i)
    {
        pack->bodies[pack->claimed[i]].touched = 0;
    }
    pack->tick = 0;
}

static inline void stamp_quiet(pass* p, cs_pass_row* c, bool quiet)
{
    if (quiet)
    {
        c->quiet = p->pack->tick + 1;
        return;
    }
    if (p->pack->tick >= CS_TICK_LAST)
    {
        restart_tick(p);
    }
    c->quiet = 0;
    uint32_t tick = ++p->pack->tick;
    p->pack->bodies[c->b].touched = tick;
    if (c->a >= 0)
    {
        p->pack->bodies[c->a].touched = tick;
    }
}

// Whether the row's last visit was quiet and no visit touched its bodies since.
static inline bool still_quiet(const cs_pass_row* c, const cs_pass_body* bodies)
{
    return c->quiet > bodies[c->b].touched && (c->a < 0 || c->quiet > bodies[c->a].touched);
}

// sweep with quiet rows left out: each visit's own stirring tells whether it was quiet.
__attribute__((flatten)) static bool sweep_quiet(pass* p, bool links_only)
{
    cs_impact_reach* r = p->reach;
    const int* list = r->list;
    cs_pass_row* rows = p->pack->rows;
    int n = r->count;
    bool stirred = false;
    int64_t left_out = 0; // unmoved rows
    for (int i = 0; i < n; ++i)
    {
        int entry = list[i];
        cs_pass_row* c = rows + (entry >> 1);
        if (links_only && (c->pending || c->bounce))
        {
            continue;
        }
        if (p->moved_only && unmoved(p, c))
        {
            left_out += 1;
            continue;
        }
        if (still_quiet(c, p->pack->bodies))
        {
            p->pack->skipped += 1;
            continue;
        }
        p->stirred = false;
        bool changed = update(p, c, entry >> 1);
        stamp_quiet(p, c,
                    !changed && !p->stirred && isfinite(c->normal_impulse) && isfinite(c->friction_impulse));
        stirred |= p->stirred;
        if (changed && (entry & CS_REACH_EDGE) != 0)
        {
            cs_reach_link(r, entry >> 1);
        }
    }
    p->stirred = stirred;
    p->pack->unmoved += left_out;
    return stirred || r->grown;
}

bool cs_restitution_sweep(pass* p, bool links_only)
{
    return p->quiet_rows ? sweep_quiet(p, links_only) : sweep(p, links_only);
}

void cs_restitution_release_row(pass* p, cs_pass_row* c, double dn)
{
    if (p->moved_only)
    {
        mark_moved(p, c, dn, 0.0);
    }
    apply_impulse(c, p->pack->bodies, -dn, 0.0);
}

void cs_restitution_offset_add(const pass* p, const cs_pass_row* c, double s, double dn, double dt)
{
    offset_add(p, c, s, dn, dt);
}

void cs_restitution_unquiet(pass* p, cs_pass_row* c)
{
    stamp_quiet(p, c, false);
}
