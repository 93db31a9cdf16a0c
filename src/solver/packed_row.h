// The packed row: one row of a solve in the record the sweeps stream (solve.c and schedule.c pack it), and
// the two-double vector it is made of (core/v2.h).
#ifndef CS_SOLVER_PACKED_ROW_H
#define CS_SOLVER_PACKED_ROW_H

#include "core/v2.h"

#include <stdint.h>

// Nonzero when any of x[0 .. n) is not finite (cs_nonfinite_bits OR-ed, two lanes, no branch; check.c).
uint64_t cs_nonfinite_any(const double* x, int n);

// A row packed for the sweeps (solve.c builds them once per solve): everything one velocity-form update
// of row i reads, in one 128-byte record, so that a sweep streams a single array besides v and λ. J is
// stored divided by A_ii, so the step w_i / A_ii = j·v + bias costs no division and no extra multiply
// on the sweep's dependency chain (each row's update waits for the previous row that shares a body).
// The angular entries of both halves share one vector, b first, because the step sums pair them so:
//     w_i / A_ii = (bias + ((jb·vb_xy) + jw₀·ωb)) + ((ja·va_xy) + jw₁·ωa)
// (a circle contact's rows, CS_PACK_OPPOSED, from the relative velocity: cs_halves_step_opposed).
typedef struct cs_packed_row
{
    cs_v2 ja, jb, jw; // J_i / A_ii: linear part of half a, of half b; angular parts (b, a). Static half: 0
    cs_v2 ma, mb, mw; // M⁻¹J_iᵀ in the same layout
    double bias;      // b_i / A_ii
    double mu;        // friction: μ; a PAIR's normal row: the coupling (J_f M⁻¹ J_iᵀ)/A_ff of the pair
    int32_t a, b;     // 3·body of each half; a static half points at the zero slot after the last body
    int32_t link;     // friction: the normal row whose λ bounds this one; otherwise -1
    uint32_t kind;    // CS_PACK_* bits
} cs_packed_row;

_Static_assert(sizeof(cs_packed_row) == 128, "a packed row is two cache lines");

enum
{
    CS_PACK_SKIP = 1u << 0,     // A_ii = 0: no columns, nothing to move
    CS_PACK_FRICTION = 1u << 1, // bounds ±μ·λ[link] from the current λ
    CS_PACK_LINEAR = 1u << 2,   // no angular terms (circle normal rows): 2 of each half's 3 columns
    CS_PACK_SHARED = 1u << 3,   // both halves on one body: updates must go through memory in order
    CS_PACK_NONNEG = 1u << 4,   // bounds [0, +∞) (normal rows, and box rows with those bounds)
    // This NORMAL_ROW and the next, a FRICTION_ROW f linked to it, share both bodies: their velocities
    // stay in registers across the two updates, and f's step is taken before the normal row moves v, plus
    // the coupling (J_f M⁻¹ J_iᵀ / A_ff)·Δλ_i (kept in mu), which takes f off the dependency chain.
    CS_PACK_PAIR = 1u << 5,
    // A regularised row (cs_lcp.reg): A_ii includes ε_i, and the step adds ε_i λ_i / A_ii, kept in mu.
    // Only the generic path takes it (the kinds above are compared exactly).
    CS_PACK_SOFT = 1u << 6,
    // A linear row whose half a moves opposite to half b (cs_pack_opposed): J_a = −J_b in x and y, or half a
    // static, as a circle contact's normal row: the fast paths take its step from the halves' relative
    // velocity (cs_halves_step_opposed), which is the row's step only for such a row. (Marked on linear rows
    // only; a PAIR's friction row is opposed by cs_pair_compact.)
    CS_PACK_OPPOSED = 1u << 7,
};

// Whether half a's linear J is −(half b's) bit for bit, or half a is static (its slot the zero slot, whose
// velocity is +0): then J_a·v_a + J_b·v_b = J_b·(v_b − v_a) in the linear terms (CS_PACK_OPPOSED). J and
// J / A_ii are opposed together ((−x)·s = −(x·s) exactly). A half a of a body whose J is zero is not
// static: it is opposed only when J_b is −0 too, an empty row.
static inline bool cs_pack_opposed(cs_v2 ja, cs_v2 jb, bool static_a)
{
    const cs_u2 sign = {1ull << 63, 1ull << 63};
    cs_u2 d = (cs_u2)ja ^ (cs_u2)jb ^ sign;
    return static_a | ((d[0] | d[1]) == 0);
}

// The kinds the sweeps have fast paths for; any other row takes the generic path, which reads box
// bounds from the problem itself.
#define CS_PACK_NORMAL_ROW   (CS_PACK_LINEAR | CS_PACK_NONNEG | CS_PACK_OPPOSED) // a circle's normal row
#define CS_PACK_FRICTION_ROW (CS_PACK_FRICTION) // two distinct bodies, all six columns

#endif
