// The contact instant: when in the step a contact closes, how fast it approaches then, and what follows
// from it after the velocity solve (restitution and a position consistent with the impact time).
// docs/PHYSICS.md "The contact instant" derives the rules.
#ifndef CS_IMPACT_H
#define CS_IMPACT_H

#include "contact/contact.h"

// The bodies' state at the start of the step, as the contact code reads it.
typedef struct cs_impact_bodies
{
    const double* px;
    const double* py;
    const double* inv_mass;
    const double* inv_inertia;
    const double* v_pre;  // 3 per body: the velocity the last step ended with (before forces)
    const double* v_star; // 3 per body: v* = v_pre + h M⁻¹ f
} cs_impact_bodies;

// Sets impact_time, bias, bounce and rebound of every contact (and, for two circles that meet during
// the step, the normal at the time of impact). A contact that already carried impulse (its warm start) or
// overlaps is touching: s* = 0 and its approach speed is the relative normal velocity the last step ended
// with. A separated contact that the bodies' free motion closes during the step gets its s* and the
// approach speed at that instant; one it keeps open gets impact_time −1. Restitution applies when the
// approach speed exceeds the threshold.
void cs_contact_impacts(cs_contact* contacts, int count, const cs_impact_bodies* bodies, double h,
                        double restitution_threshold);

// After the velocity solve (v holds its velocities; each contact its λ), when some contact that carried
// impulse bounces: Gauss-Seidel sweeps (`iterations`) over the contacts that carry impulse, driving each
// bouncing one's normal relative velocity to its rebound and keeping the others' row conditions
// (vn >= −bias), so a bounce cannot push a body through its neighbours; friction is re-solved within the
// grown cones. Updates v and the contacts' impulses; returns the number of bouncing contacts.
// (A contact that only closes because a bounce in the same step sends a body into it collides
// inelastically: docs/PHYSICS.md, limits.)
int cs_contact_restitution(cs_contact* contacts, int count, const cs_impact_bodies* bodies, int iterations,
                           bool frictionless, double* v);

// Position consistency: a contact whose impulse acted at s* > 0 moved its bodies with their pre-impulse
// velocities until then, so their positions (already advanced by h·v) go back by s*·M⁻¹Jᵀλ.
void cs_contact_impact_shift(const cs_contact* contacts, int count, const cs_impact_bodies* bodies,
                             bool frictionless, double* px, double* py, double* angle);

#endif
