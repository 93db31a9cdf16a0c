// The contact instant: when in the step a contact closes, how fast it approaches then, and what follows
// from it after the velocity solve (restitution and a position consistent with the impact time).
// docs/PHYSICS.md "The contact instant" derives the rules.
#ifndef CS_IMPACT_H
#define CS_IMPACT_H

#include "circlesim/wall.h"
#include "contact/contact.h"
#include "contact/impact_reach.h"
#include "core/workers.h"

// The bodies' state at the start of the step, as the contact code reads it.
typedef struct cs_impact_bodies
{
    const double* px;
    const double* py;
    const double* inv_mass;
    const double* inv_inertia;
    const double* v_pre;  // 3 per body: the velocity the last step ended with (before forces)
    const double* v_star; // 3 per body: v* = v_pre + h M⁻¹ f
    double* offset;       // 3 per body: the pass's position offsets (x, y) and the share of its impact shift
                          // the body may take (0: held, impact.c mark_held; the shift lowers it)
    const double* radius; // the shift measures the gaps it would make (clamp_shift)
    const cs_wall* walls;
    bool clamp; // whether the shift is scaled down where it would close a contact (clamp_shift)
} cs_impact_bodies;

// The restitution pass's settings (the world's).
typedef struct cs_restitution_params
{
    double time_step;
    double threshold;   // restitution applies above this approach speed
    double linear_slop; // slop/h: a velocity change below it carries no load (the pass)
    int iterations;     // Gauss-Seidel sweeps
    bool frictionless;
    double gravity;       // |g|: an approach slower than max(slop/h, |g| h) is resting, not an impact
    bool every_sweep;     // no early exit: every sweep runs (tests/test_restitution_pack.c, the same bits)
    bool quiet_always;    // quiet rows left out whatever the links (tests: restitution_sweep.c "Quiet rows")
    uint32_t tick_origin; // where the quiet rows' tick starts (0; tests: near its wrap, restitution_sweep.c)
    bool moved_only;      // rows visited where the pass moved a body (restitution_sweep.c "Unmoved rows")
} cs_restitution_params;

// Sets impact_time, bias, bounce and rebound of every contact (and, for two circles that meet during
// the step, the normal at the time of impact). A contact that already carried impulse (its warm start) or
// overlaps is touching: s* = 0 and its approach speed is the relative normal velocity the last step ended
// with. A separated contact that the bodies' free motion closes during the step gets its s* and the
// approach speed at that instant; one it keeps open gets impact_time −1. Restitution applies when the
// approach speed exceeds the threshold and the resting tolerance max(slop/h, |g| h) (a pile's contacts
// approach that slowly from the solver's residual and one step of gravity, not from an impact). Marks the
// bodies a touching contact held last step (in bodies->offset, every body_count body; the pass and the shift
// read it).
void cs_contact_impacts(cs_contact* contacts, int count, int body_count, const cs_impact_bodies* bodies,
                        const cs_restitution_params* params);
// The same in two parts, for a step that splits its contacts over threads: the contacts first .. end − 1
// (each writes only its own contact), then, once all are done, the bodies held (every step: they read every
// contact, and the pass may run on a pending contact alone).
void cs_contact_impacts_range(cs_contact* contacts, int first, int end, const cs_impact_bodies* bodies,
                              const cs_restitution_params* params);
void cs_contact_impacts_held(const cs_contact* contacts, int count, int body_count,
                             const cs_impact_bodies* bodies, const cs_restitution_params* params);

// After the velocity solve (v holds its velocities; each contact its λ), in a step where some contact
// bounces (or a pending one approaches faster than the threshold): the step's collisions are replayed from
// their approach, in Gauss-Seidel sweeps over the contacts an impact can reach (impact_reach.h: the
// components that hold such a contact, grown when a contact on their edge acts; the others keep the solve's
// answer, as in a step without a bounce). Bouncing contacts (the solve left
// them alone: their rows only act against a push faster than the free approach) and pending opening ones
// (impact.c: only a neighbour's bounce can close them) collide when their gap closes within the step on the
// bodies' latest motion, at the instant that gives (their impact time, so the shift puts them where such a
// collision leaves them), and leave with max(0, ρ − e vn) from the approach they have then: a sequence of
// binary collisions, which gains no energy without forces. The other contacts keep their rows' condition (vn
// >= −bias), so a bounce cannot push a body through a neighbour; friction is re-solved within the grown
// cones; then two sweeps over the resting links alone take back the approach the replay's last collisions
// left in them. Updates v and the
// contacts' impulses (reach and pack: the workspace, sized for the bodies and the contacts;
// restitution_pack.h: the sweeps' compact records); returns the number of contacts that bounced.
// docs/PHYSICS.md "Collisions within a step" derives it.
struct cs_pass_pack;
int cs_contact_restitution(cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                           const cs_restitution_params* params, cs_impact_reach* reach,
                           struct cs_pass_pack* pack, double* v);

// The approach speed above which a contact bounces: the world's threshold, at least the resting tolerance
// max(slop/h, |g| h).
double cs_bounce_threshold(const cs_restitution_params* params);
// Whether mark_held (impact.c) marked the body held: its share of the shift, offset's third slot, is 0.
static inline bool cs_impact_held(const double* offset, int body)
{
    return offset[3 * body + 2] == 0.0;
}

// (impact_shift.c) Position consistency: a contact whose impulse acted at s* > 0 moved its bodies with their
// pre-impulse velocities until then, so their positions (already advanced by h·v) go back by s*·M⁻¹Jᵀλ.
// Bodies a touching contact held last step stay where h·v put them (impact.c, mark_held), and with
// bodies->clamp a body's shift is scaled down as far as needed for it to close no contact of the step beyond
// touching or beyond where h·v alone leaves it (clamp_shift).
// scratch: 2 per contact (the lists of the shifted contacts and of those the clamp visits again);
// body_count: the bodies' (offset's), whose position offsets it starts from 0.
void cs_contact_impact_shift(const cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                             int body_count, bool frictionless, int* scratch, double* px, double* py,
                             double* angle);
// The same with its scans of every contact and body in chunks on pool's threads (NULL: this thread): the
// same bits.
void cs_contact_impact_shift_on(const cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                                int body_count, bool frictionless, int* scratch, double* px, double* py,
                                double* angle, cs_workers* pool);

#endif
