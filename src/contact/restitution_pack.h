// The restitution pass's compact records (restitution_pack.c; docs/PERFORMANCE.md "The restitution pass on
// compact records"): what its sweeps read and write of a contact (104 bytes, where a cs_contact holds 160 in
// three cache lines) and of a body (its velocity beside its masses and offsets: 64 bytes), copied in
// when a contact joins the pass's list and written back when the pass ends. The fields a pending or bouncing
// contact alone reads (closing, restitution, rebound, target) stay in its cs_contact.
#ifndef CS_RESTITUTION_PACK_H
#define CS_RESTITUTION_PACK_H

#include "contact/contact.h"
#include "contact/impact.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cs_pass_row
{
    double nx, ny;
    double ra, rb;
    double inv_a; // 1 / A_nn = 1 / (m_a⁻¹ + m_b⁻¹), as the pass computed it per visit before
    double att; // A_tt = m_a⁻¹ + m_b⁻¹ + I_a⁻¹ r_a² + I_b⁻¹ r_b² (the same expression, the same bits)
    double normal_impulse;
    double friction_impulse;
    double bias;
    double impact_time;
    double friction;
    int a, b; // body indices (a: -1 for a wall)
    uint32_t
        quiet; // 1 + the pack's tick at this row's last visit if it changed nothing (0: none since packed)
    bool pending;
    bool bounce;
} cs_pass_row;

typedef struct cs_pass_body
{
    double v[3]; // vx, vy, ω: the pass's copy of the world's
    double inv_mass;
    double inv_inertia;
    double offset[2]; // the pass's position offset (impact.h), from 0 when the body is claimed
    uint16_t moves;   // the offset's third slot is not 0 (0: held, cs_impact_held): the offset accumulates
    uint16_t
        moved; // a visit or release in this pass moved it by >= slop/h (restitution_sweep.c "Unmoved rows")
    uint32_t touched; // the pack's tick when the pass last changed this body's velocity or offset
} cs_pass_body;

// The pass's records: rows and bodies indexed like the contacts and the bodies (only the listed contacts'
// and the claimed bodies' hold anything), and the claimed bodies in claim order (for the write-back).
typedef struct cs_pass_pack
{
    cs_pass_row* rows;    // per contact
    cs_pass_body* bodies; // per body
    int* claimed;         // per body
    int claimed_count;
    uint32_t tick; // counts the pass's changes to bodies (restitution_sweep.c "Quiet rows"), from 0 each pass
    int64_t skipped; // the last pass's row visits left out as quiet (up to (iterations + 2) × rows)
    int64_t unmoved; // the last pass's row visits left out as unmoved (moved_only)
    int sweeps;      // the last pass's sweeps (0: none ran)
} cs_pass_pack;

// Copies contact k into its row (its bodies' records must hold their masses: claim them first).
void cs_pack_row(cs_pass_pack* pack, const cs_contact* contacts, int k);
// Copies body b's velocity and masses in and sets whether the shift moves it (moves) and its touched stamp
// (the pack's tick); its offset starts at 0.
void cs_pack_claim(cs_pass_pack* pack, const cs_impact_bodies* bodies, const double* v, int body);
// Writes the rows of the listed contacts (list entries: k << 1 | edge) and the claimed bodies' velocities
// back. (Not the offsets: the impact shift works out its own from the contacts' impulses, impact_shift.c.)
void cs_pack_write_back(const cs_pass_pack* pack, const int* list, int count, cs_contact* contacts,
                        double* v);

#endif
