// The restitution pass's state, shared by its two files: restitution_sweep.c (a row's visit, the sweeps and
// their quiet rows) and restitution.c (the pass: its seeds, its releases and its sweeps until nothing moves).
#ifndef CS_RESTITUTION_PASS_H
#define CS_RESTITUTION_PASS_H

#include "contact/impact.h"
#include "contact/impact_reach.h"
#include "contact/restitution_pack.h"

#include <stdbool.h>

// The restitution pass: the bodies, the step, and each body's position offset so far, o = −Σ s M⁻¹JᵀΔλ
// over the impulses that act from s > 0, so that after its last collision a body is at x₀ + o + t v at
// time t into the step (the impact shift, accumulated as the pass goes). The sweeps work on the compact
// records (restitution_pack.h): the listed contacts' rows and the claimed bodies' velocities, masses and
// offsets.
typedef struct cs_restitution_pass
{
    const cs_impact_bodies* bd;
    cs_impact_reach* reach; // the contacts it visits, and per component the bounces' budget
    cs_pass_pack* pack;
    cs_contact* contacts; // the fields only a pending or bouncing contact reads (closing, restitution, ...)
    double h;
    double threshold;
    double resting;  // slop/h: a velocity change below it is no load
    double absorbed; // kinetic energy the ordinary rows took in this pass (the bounces' budget)
    bool frictionless;
    bool stirred;    // this sweep did something besides an update that changed no bit (sweep's early exit)
    bool quiet_rows; // the sweeps skip quiet rows (restitution_sweep.c, sweep_quiet)
    bool moved_only; // the sweeps skip unmoved rows ("Unmoved rows")
    bool marking;    // moved_only, and the visiting row has a body not yet marked moved
    int links;       // the listed contacts that were ordinary rows (neither pending nor bouncing) when listed
} cs_restitution_pass;

// One Gauss-Seidel sweep over the reached contacts (restitution_sweep.c; with p->quiet_rows its quiet rows
// left out); links_only: the resting links alone. Returns whether it changed any bit of the pass's state.
bool cs_restitution_sweep(cs_restitution_pass* p, bool links_only);

// What the pass's release (restitution.c) does to a fresh row, as a visit does it: v −= M⁻¹Jᵀ(dn, 0) (its
// released normal impulse dn taken back) with the mark of that change (moved_only), o −= s M⁻¹Jᵀ(dn, dt) for
// a row acting from s > 0, and the row's quiet stamp cleared (its bodies may have moved).
void cs_restitution_release_row(cs_restitution_pass* p, cs_pass_row* c, double dn);
void cs_restitution_offset_add(const cs_restitution_pass* p, const cs_pass_row* c, double s, double dn,
                               double dt);
void cs_restitution_unquiet(cs_restitution_pass* p, cs_pass_row* c);

#endif
