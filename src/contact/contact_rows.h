// Contacts → rows of the velocity problem and of the split-impulse position problem.
#ifndef CS_CONTACT_ROWS_H
#define CS_CONTACT_ROWS_H

#include "circlesim/lcp.h"
#include "contact/contact.h"

typedef struct cs_row_params
{
    double time_step;
    double restitution_threshold;
    double linear_slop;
    double baumgarte;
    double max_correction;
    bool frictionless;
    // SPOOK (Lacoursière eqs. (1)-(3)): touching contacts become regularised, stabilised rows, with
    // ε = 4/(h² k (1 + 4τ/h)) in p->reg and bias (4Υ/h)(gap + slop) − Υ·vn₀, Υ = 1/(1 + 4τ/h). Off: p->reg
    // is dropped and every row is hard.
    bool spook;
    bool soft_joints;          // springs follow: the problem keeps its reg (0 on hard contact rows)
    double spook_stiffness;    // k
    double spook_damping_time; // τ
    const double* v_pre;       // 3 per body: v₀, the velocity the last step ended with (SPOOK's Υ G v₀)
} cs_row_params;

// Appends rows for the contacts to p, whose bodies (inv masses, v*) are already filled, in the order
// contacts[order[0]], contacts[order[1]], … (order NULL: list order). Per contact a normal row and, unless
// frictionless, a friction row right after it. lambda0 comes from the contacts'
// stored impulses (the warm start). The contacts' impact times (cs_contact_impacts) must be set.
cs_status cs_contact_rows_velocity(const cs_contact* contacts, const int* order, int count,
                                   const cs_row_params* rp, cs_lcp* p, cs_error* err);
// The same in parts, for a step that splits its contacts over threads: room for count contacts' rows
// (row_count set), then the rows of the contacts order[first] .. order[end − 1] (rows per·first on; each
// part writes only its own rows) and, unless position_bias is NULL, their position biases
// (cs_contact_position_bias) in position_bias[first .. end − 1], in the same pass. `laid`: the rows of the
// first `laid` contacts already hold the numbers every contact row has (kind, link, the normal row's μ, lo,
// hi), left by an earlier pass with the same rp->frictionless and not overwritten since; they may be left
// as they are (0: write them all).
cs_status cs_contact_rows_velocity_reserve(int count, const cs_row_params* rp, cs_lcp* p, cs_error* err);
void cs_contact_rows_velocity_range(const cs_contact* contacts, const int* order, int first, int end,
                                    const cs_row_params* rp, cs_lcp* p, double* position_bias, int laid);

// The split-impulse position problem (pseudo-velocities that remove penetration beyond the slop): the
// velocity problem's normal rows with v* = 0, λ⁰ = 0 and this bias per contact. The step solves it on
// the velocity problem's packed rows (cs_solve_split) and only needs the biases, in the same order.
void cs_contact_position_bias(const cs_contact* contacts, const int* order, int count,
                              const cs_row_params* rp, double* bias);

// The same problem written out as rows of its own (p's bodies must be filled with v = 0), for tests and
// inspection.
cs_status cs_contact_rows_position(const cs_contact* contacts, int count, const cs_row_params* rp, cs_lcp* p,
                                   cs_error* err);

#endif
