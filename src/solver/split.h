// The split-impulse position solve's rows, workspace and entry (split.c; docs/PHYSICS.md step 7): PGS on the
// velocity problem's normal rows with the position problem's right-hand side, reading what cs_solve packed.
#ifndef CS_SPLIT_H
#define CS_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "solver/fuse.h"
#include "solver/solver_internal.h"

// A row of the split-impulse problem, copied from the velocity problem's packed normal row (80 of its 128
// bytes: at 50 000 circles the 20 position sweeps stream these from memory).
typedef struct cs_split_row
{
    cs_v2 ja, jb; // J_i / A_ii
    cs_v2 ma, mb; // M⁻¹J_iᵀ
    double bias;  // b_k / A_ii
    int32_t a, b; // as in cs_packed_row; a = -1: not a circle normal row, swept from its packed record
} cs_split_row;

_Static_assert(sizeof(cs_split_row) == 80, "a split row is 80 bytes");

// The split solve's convergence measure (cs_solve_split): whether a row update by d = λ_new − λ_old, with
// M⁻¹Jᵀ halves ma and mb, changed one of its bodies' pseudo-velocities by sqrt(limit2) or more:
//     max(|ma·d|², |mb·d|²) >= limit2,
// in the operations the AVX2 kernels do by lane (max as maxpd, the test as _CMP_NLT_UQ), so every path
// finds the same answer for the same λ. A NaN counts as moved when both halves are NaN (as a NaN d makes
// them) or b's is; a NaN in a's half alone does not (maxpd passes its second operand when either is NaN).
static inline bool cs_split_moved(cs_v2 ma, cs_v2 mb, double d, double limit2)
{
    cs_v2 da = ma * d, db = mb * d;
    double a = da[0] * da[0] + da[1] * da[1];
    double b = db[0] * db[0] + db[1] * db[1];
    return !((a > b ? a : b) < limit2);
}

// From this many split rows cs_solve_split compacts its own rows and schedule even where the velocity
// sweeps are not fused (split.c; INT_MAX, never, by default: tests lower it to sweep that path on pools).
extern int cs_split_own_min_rows;

// Workspace of cs_solve_split, grown by cs_split_work_reserve (nothing allocated in the steady state).
typedef struct cs_split_work
{
    cs_split_row* rows;           // per row
    struct cs_normal_quad* quads; // runs of four independent rows, by lane (simd.h)
    struct cs_sweep_item* items;  // the sweep's schedule
    int32_t* runs;                // its runs of quads (simd.h, cs_sweep_runs)
    double* quad_lanes; // split rows in the velocity problem's quads, per quad: b / A_ii by lane, then λ
    int item_count;
    int capacity;      // rows
    int own_capacity;  // rows that quads and items can hold
    int lane_capacity; // rows that quad_lanes can hold
    cs_fuse_plan fuse; // the fused order of items for the sweeps after the first (fuse.h)
} cs_split_work;

// Grows the work for a cs_solve_split of `count` rows with these arguments after `solved` was packed (it
// allocates only what that solve's path uses). Call it before each cs_solve_split, on the thread that posts
// it: when the split rows are compacted from records it writes the quads' records here (so that a split
// solve on a worker writes nothing that the velocity solve reads).
cs_status cs_split_work_reserve(cs_split_work* work, const cs_solver_work* solved, bool simd, int first,
                                int stride, int count, cs_error* err);
void cs_split_work_free(cs_split_work* work);

// schedule.c: the vector-lane schedule of the split problem's compact rows (work->rows → work->items and
// work->quads).
void cs_schedule_split(cs_split_work* work, int count, int32_t zero_slot);

// Split impulses (docs/PHYSICS.md, step 7) on the rows the last cs_solve packed into `solved`: PGS over
// the `count` rows first, first + stride, … (normal rows, bounds [0, +∞)) with the right-hand side
// b[k] in place of theirs, v* = 0 and λ⁰ = 0, for `iterations` sweeps in that order. The result is
// bit for bit what cs_solve with pgs gives on those rows as a problem of their own (their J, A_ii and
// packed records are the same), without building or packing it again. lambda (count entries) and v
// (3·bodies + 3, the last three the zero slot) are outputs.
// simd: put runs of four consecutive independent rows in vector lanes (cs_solver_params.simd; the same bits).
// dv_limit > 0: the first sweep is measured, and when no row's update in it changed a body's pseudo-velocity
// by dv_limit or more (cs_split_moved; an OR over rows, so the same answer on every path) the problem is
// settled and the solve ends there; otherwise, and for dv_limit = 0, all `iterations` sweeps run (the later
// ones unmeasured). Returns the sweeps taken: 1 or iterations, 0 for count = 0 (no rows, no sweep).
int cs_solve_split(const cs_solver_work* solved, int bodies, int first, int stride, int count,
                   const double* b, int iterations, double dv_limit, bool simd, cs_split_work* work,
                   double* lambda, double* v);

#endif
