// Four independent rows at once. A sweep is Gauss-Seidel in row order; when four consecutive rows (or
// normal/friction pairs) touch four different bodies, updating them one after the other or side by side
// in the lanes of one vector gives the same numbers, so the sweep may do the latter. The coloured row order
// (cs_row_order) makes such runs common. This file has the lane layouts, the schedule that says which rows
// go in lanes, and the kernels (simd_avx2.c: x86-64 AVX2, compiled for that target and picked at run time;
// every other CPU takes the scalar sweeps, which give the same bits).
#ifndef CS_SOLVER_SIMD_H
#define CS_SOLVER_SIMD_H

#include <stdbool.h>
#include <stdint.h>

#include "solver/solver_internal.h"

struct cs_split_work; // split.h's workspace, named only (split.c includes this file: no include circle)

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define CS_SIMD_X86 1
#else
#define CS_SIMD_X86 0
#endif

enum
{
    CS_LANES = 4
};

// A run of a sweep: rows [first, first + count) one by one (quad < 0), or in the lanes of record `quad`:
// count = CS_LANES circle normal rows (a cs_normal_quad) or count = 2·CS_LANES rows, CS_LANES
// normal/friction pairs (a cs_pair_quad).
typedef struct cs_sweep_item
{
    int32_t first;
    int32_t count;
    int32_t quad;
} cs_sweep_item;

// Four circle normal rows (CS_PACK_NORMAL_ROW: no angular terms, bounds [0, ∞)) by lane: the split-impulse
// problem's rows, and a frictionless velocity problem's.
typedef struct cs_normal_quad
{
    double jax[CS_LANES], jay[CS_LANES], jbx[CS_LANES], jby[CS_LANES]; // J / A_ii
    double max[CS_LANES], may[CS_LANES], mbx[CS_LANES], mby[CS_LANES]; // M⁻¹Jᵀ
    double bias[CS_LANES];
    int32_t a[CS_LANES], b[CS_LANES]; // 3·body; distinct across lanes except the zero slot
} cs_normal_quad;

// Four normal/friction pairs (CS_PACK_NORMAL_ROW | CS_PACK_PAIR and its friction row) by lane, in the
// lane order of their λ: pairs 0, 2, 1, 3 (so that two loads of the interleaved λ_n, λ_f unpack into
// vectors of λ_n and λ_f). Fields as in cs_packed_row.
typedef struct cs_pair_quad
{
    // First what the split-impulse solve reads too (the normal rows and the bodies), in 288 contiguous bytes.
    double nax[CS_LANES], nay[CS_LANES], nbx[CS_LANES], nby[CS_LANES];
    double nmax[CS_LANES], nmay[CS_LANES], nmbx[CS_LANES], nmby[CS_LANES];
    int32_t a[CS_LANES], b[CS_LANES];
    double nbias[CS_LANES], coupling[CS_LANES];
    double fax[CS_LANES], fay[CS_LANES], fbx[CS_LANES], fby[CS_LANES], fwb[CS_LANES], fwa[CS_LANES];
    double fmax[CS_LANES], fmay[CS_LANES], fmbx[CS_LANES], fmby[CS_LANES], fmwb[CS_LANES], fmwa[CS_LANES];
    double fbias[CS_LANES], mu[CS_LANES];
} cs_pair_quad;

// The lane pair k (0..3) of a run takes in a cs_pair_quad: 0, 2, 1, 3 (its own inverse: also the pair in lane
// k).
static inline int cs_pair_lane(int k)
{
    return ((k & 1) << 1) | (k >> 1);
}

// lane_records.c: the records of pair k of pair quad q (rows `row`, its normal row, and row + 1) and of lane
// l of normal quad q, from the lanes (a linear row's angular fields, not in the lanes, are 0).
void cs_pair_from_lane(const cs_pair_quad* q, int k, int row, cs_packed_row* n);
void cs_normal_from_lane(const cs_normal_quad* q, int l, cs_packed_row* r);

// schedule.c: whether no body appears twice among the halves a[0..3], b[0..3] (the zero slot aside), and a
// run of rows [first, first + count) one at a time appended to items (merged into the last item when that is
// one too).
bool cs_lanes_independent(const int32_t* a, const int32_t* b, int32_t zero_slot);
void cs_push_rows(cs_sweep_item* items, int* item_count, int first, int count);

// True when the AVX2 kernels can run here (checked once).
bool cs_simd_cpu(void);

// One sweep of ctx's problem with rule (CS_RULE_PGS, CS_RULE_PSOR or CS_RULE_AMGS) along work->schedule:
// quads in lanes, the rest one row at a time (cs_sweep). Only when work->schedule_count > 0.
void cs_sweep_lanes(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx);

// The scalar sweep of rows [begin, end), for the rows a vector schedule leaves out.
typedef void (*cs_rows_fn)(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, int begin, int end);
// The split solve's: returns whether a row's update changed a body's pseudo-velocity by the limit or more
// (cs_split_moved; always true when not measuring).
typedef bool (*cs_split_rows_fn)(const void* arg, int begin, int end, double* lambda, double* v);

// How the split-impulse solve (split row k = velocity row first + k·stride, first = 0) uses a velocity
// schedule item: the normal rows of a pair quad (stride 2), a normal quad (stride 1), or one split row
// at a time for the rows in the item's range.
typedef enum cs_split_lane_kind
{
    CS_SPLIT_ROWS,
    CS_SPLIT_FROM_PAIRS,
    CS_SPLIT_FROM_NORMALS,
} cs_split_lane_kind;

static inline cs_split_lane_kind cs_split_lanes(const cs_sweep_item* it, int stride)
{
    if (it->quad >= 0 && stride == 2 && it->count == 2 * CS_LANES)
    {
        return CS_SPLIT_FROM_PAIRS;
    }
    if (it->quad >= 0 && stride == 1 && it->count == CS_LANES)
    {
        return CS_SPLIT_FROM_NORMALS;
    }
    return CS_SPLIT_ROWS;
}

// The split rows [k0, k1) whose velocity rows k·stride lie in the item.
static inline void cs_split_range(const cs_sweep_item* it, int stride, int* k0, int* k1)
{
    *k0 = (it->first + stride - 1) / stride;
    *k1 = (it->first + it->count + stride - 1) / stride;
}

// What cs_avx2_pack_pairs writes: the pair quad's lanes, rows i .. i + 7 of lambda (the start point), diag
// and inv_diag, v's warm start; and returns the slots by pair (a[k], b[k]: pack_lanes' pending units) and the
// problem check's share (bad: nonzero unless every number is finite; ok: the diagonals' and μ's ranges).
typedef struct cs_pack4_out
{
    cs_pair_quad* quad;
    double *lambda, *diag, *inv_diag, *v;
    int32_t zero_slot;
    int32_t a[CS_LANES], b[CS_LANES];
    uint64_t bad;
    bool ok;
    bool distinct; // the eight slots all differ (then the quad's units are independent)
} cs_pack4_out;

#if CS_SIMD_X86
// pack_lanes.c's pack_contact for the four contacts of rows i .. i + 7 at once, in the lanes of out->quad
// (pair k in lane cs_pair_lane(k)): the same numbers, written in the same places, and the warm start applied
// pair by pair in row order. False, with nothing written, unless all four are pairs that pack_contact packs.
bool cs_avx2_pack_pairs(const cs_lcp* p, const double* start, int i, cs_pack4_out* out);
// One sweep along work->schedule: each quad's four pairs (rows first .. first + 7 of λ, and of st->x, st->c,
// st->diag for AMGS) or four normal rows (rows first .. first + 3) in lanes with rule CS_RULE_PGS or
// CS_RULE_AMGS (not the literal variant), other items through `rows`.
void cs_avx2_sweep(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, cs_rows_fn rows);
// One PGS sweep of the split problem along work->items: quads (λ at lambda + first) in lanes, other items
// through rows(rows_arg, …). limit2 > 0: returns whether any row's update moved (cs_split_moved, the same
// operations by lane); limit2 = 0: measures nothing and returns true.
bool cs_avx2_sweep_split(const struct cs_split_work* work, double limit2, double* lambda, double* v,
                         cs_split_rows_fn rows, const void* rows_arg);
// The same along the velocity schedule of `solved` (cs_split_lanes): quads from the velocity quads' normal
// rows with their bias and λ from work->quad_lanes (by lane), the other split rows through rows(rows_arg, …).
bool cs_avx2_sweep_split_on(const cs_solver_work* solved, int stride, const struct cs_split_work* work,
                            double limit2, double* lambda, double* v, cs_split_rows_fn rows,
                            const void* rows_arg);
#endif

#endif
