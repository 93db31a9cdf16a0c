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
};

// The kinds the sweeps have fast paths for; any other row takes the generic path, which reads box
// bounds from the problem itself.
#define CS_PACK_NORMAL_ROW   (CS_PACK_LINEAR | CS_PACK_NONNEG) // a circle's normal row: 0 <= λ, no spin
#define CS_PACK_FRICTION_ROW (CS_PACK_FRICTION)                // two distinct bodies, all six columns

#endif
