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

#include "core/cpu.h" // CS_SIMD_X86, cs_simd_cpu
#include "solver/solver_internal.h"

struct cs_split_work; // split.h's workspace, named only (split.c includes this file: no include circle)

enum
{
    CS_LANES = 4
};

// A run of a sweep: rows [first, first + count) one by one (quad < 0), or in the lanes of record `quad`:
// count = CS_LANES circle normal rows (a cs_normal_quad, pairs = 0) or count = 2·pairs rows, `pairs`
// normal/friction pairs (a cs_pair_quad). A pair quad holds 2 .. CS_LANES pairs: pair k in lane
// cs_pair_lane(k), the lanes past its pairs null (cs_pair_null_lane), so that a short run of pairs (a
// colour's last two or three) is swept in lanes too rather than one row at a time.
typedef struct cs_sweep_item
{
    int32_t first;
    int32_t count;
    int32_t quad;
    int32_t pairs; // a pair quad's pairs; 0 for a normal quad and for rows
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

// Four normal/friction pairs (CS_PACK_NORMAL_ROW | CS_PACK_PAIR and its friction row; a short quad's two or
// three, the other lanes null: cs_sweep_item) by lane, in the lane order of their λ: pairs 0, 2, 1, 3 (so
// that two loads of the interleaved λ_n, λ_f unpack into vectors of λ_n and λ_f). Fields as in cs_packed_row,
// but only the b half's linear numbers and the a half's M⁻¹Jᵀ of the normal row: the lanes take pairs whose
// other linear numbers follow from those (checked bit for bit by cs_pair_compact, which the packing passes
// call; others are swept one row at a time):
//     a half present (nma ≠ (+0, +0)):  J_n,a/A_nn = −J_n,b/A_nn   J_f,a/A_ff = −J_f,b/A_ff
//                                       M⁻¹J_f,aᵀ = (−nmay, nmax)  M⁻¹J_f,bᵀ = (−nmby, nmbx)
//     static a half (nma = (+0, +0)):   every a number +0, M⁻¹J_f,bᵀ as above
// (a circle's rows: J_n = (−n; n), J_f = (−t; t) with t = (−n_y, n_x), each M⁻¹Jᵀ entry m·J rounded once,
// and (−x)·m = −(x·m) bit for bit). 16 numbers and two slots a lane, 136 bytes a contact (28 and 232
// before: docs/PERFORMANCE.md, "Fewer bytes per contact").
typedef struct cs_pair_quad
{
    // First what the split-impulse solve reads too (the normal rows and the bodies), in 224 contiguous bytes.
    double nbx[CS_LANES], nby[CS_LANES];   // J_n,b / A_nn
    double nmbx[CS_LANES], nmby[CS_LANES]; // M⁻¹J_n,bᵀ
    double nmax[CS_LANES], nmay[CS_LANES]; // M⁻¹J_n,aᵀ (+0 exactly for a static half)
    int32_t a[CS_LANES], b[CS_LANES];
    double nbias[CS_LANES], coupling[CS_LANES];
    double fbx[CS_LANES], fby[CS_LANES]; // J_f,b / A_ff
    double fwb[CS_LANES], fwa[CS_LANES], fmwb[CS_LANES], fmwa[CS_LANES];
    double fbias[CS_LANES], mu[CS_LANES];
} cs_pair_quad;

_Static_assert(sizeof(cs_pair_quad) == 136 * CS_LANES, "136 bytes a contact (docs/PERFORMANCE.md)");

// Whether a pair's normal row (J/A: nja, njb; M⁻¹Jᵀ: nma, nmb) and friction row (fja, fjb, fma, fmb) have
// the structure of cs_pair_quad, bit for bit: then its lanes give back every number (cs_pair_from_lane).
static inline bool cs_pair_compact(cs_v2 nja, cs_v2 njb, cs_v2 nma, cs_v2 nmb, cs_v2 fja, cs_v2 fjb,
                                   cs_v2 fma, cs_v2 fmb)
{
    const cs_u2 sign = {1ull << 63, 1ull << 63}, flip = {1ull << 63, 0}, zero = {0, 0};
    cs_u2 ma = (cs_u2)nma, mb = (cs_u2)nmb;
    cs_u2 keep = (ma[0] | ma[1]) == 0 ? zero : ~zero; // zero for a static half
    cs_u2 fma_of = (cs_u2){ma[1], ma[0]} ^ flip;      // (−y, x)
    cs_u2 fmb_of = (cs_u2){mb[1], mb[0]} ^ flip;
    cs_u2 diff = ((cs_u2)nja ^ (((cs_u2)njb ^ sign) & keep)) | ((cs_u2)fja ^ (((cs_u2)fjb ^ sign) & keep)) |
                 ((cs_u2)fma ^ (fma_of & keep)) | ((cs_u2)fmb ^ fmb_of);
    return (diff[0] | diff[1]) == 0;
}

// The normal row of the pair in lane l of q, as cs_pair_quad says it follows from the lanes: J/A_nn of its
// halves (ja, jb) and their M⁻¹Jᵀ (ma, mb); fixed: the a half is static.
typedef struct cs_pair_normal
{
    cs_v2 ja, jb, ma, mb;
    bool fixed;
} cs_pair_normal;

static inline cs_pair_normal cs_pair_lane_normal(const cs_pair_quad* q, int l)
{
    const cs_v2 zero = {0.0, 0.0};
    cs_v2 jb = cs_v2_set(q->nbx[l], q->nby[l]), ma = cs_v2_set(q->nmax[l], q->nmay[l]);
    cs_u2 bits = (cs_u2)ma;
    bool fixed = (bits[0] | bits[1]) == 0;
    cs_pair_normal n = {fixed ? zero : -jb, jb, ma, cs_v2_set(q->nmbx[l], q->nmby[l]), fixed};
    return n;
}

static inline bool cs_pair_compact_rows(const cs_packed_row* n, const cs_packed_row* f)
{
    return cs_pair_compact(n->ja, n->jb, n->ma, n->mb, f->ja, f->jb, f->ma, f->mb);
}

// The lane pair k (0..3) of a run takes in a cs_pair_quad: 0, 2, 1, 3 (its own inverse: also the pair in lane
// k).
static inline int cs_pair_lane(int k)
{
    return ((k & 1) << 1) | (k >> 1);
}

// lane_records.c: the records of pair k of pair quad q (rows `row`, its normal row, and row + 1) and of lane
// l of normal quad q, from the lanes (a linear row's angular fields, not in the lanes, are 0); and pair k of
// q from the records of its normal row n and friction row f (which cs_pair_compact_rows accepted).
void cs_pair_from_lane(const cs_pair_quad* q, int k, int row, cs_packed_row* n);
void cs_pair_to_lane(cs_pair_quad* q, int k, const cs_packed_row* n, const cs_packed_row* f);
void cs_normal_from_lane(const cs_normal_quad* q, int l, cs_packed_row* r);
// Pair k's lane of q made null: both halves the zero slot, every number +0. Swept in lanes (with λ⁰ = 0, the
// kernels' load of the rows past a quad's pairs), it keeps λ = +0 and adds +0 to the zero slot, whatever the
// rule (docs/PERFORMANCE.md, "Short runs of pairs in lanes").
void cs_pair_null_lane(cs_pair_quad* q, int k, int32_t zero_slot);
// The records of the rows of schedule item `it` of w from its lanes (nothing unless it is a quad), as
// cs_pack_records_from_lanes writes them for every quad.
void cs_pack_records_of_quad(const cs_solver_work* w, const cs_sweep_item* it);

// schedule.c: whether no body appears twice among the halves a[0..3], b[0..3] (the zero slot aside), and a
// run of rows [first, first + count) one at a time appended to items (merged into the last item when that is
// one too).
bool cs_lanes_independent(const int32_t* a, const int32_t* b, int32_t zero_slot);
void cs_push_rows(cs_sweep_item* items, int* item_count, int first, int count);

// The sweeps' runs of quads: work->schedule_runs[k] is how many items from k on are quads of item k's kind —
// whole pair quads (pairs = CS_LANES) or normal quads — whose quads and rows follow each other (item k + j:
// quad q + j, rows first + count·j, as both builders make them: they number each kind's quads and cover the
// rows in schedule order); 0 when item k is rows or a short quad. A sweep then walks a run's quads with no
// item to read between them (cs_avx2_sweep, the split solve on the velocity quads): ~13 of the ~137
// instructions a whole pair quad took (docs/PERFORMANCE.md, "Runs of quads"). Both schedule builders call it
// last; false when out of memory.
bool cs_schedule_runs(cs_solver_work* w);
// The same of any items (a fused order's: fuse.h) into runs[0 .. count).
void cs_sweep_runs(const cs_sweep_item* items, int count, int32_t* runs);

// One sweep of ctx's problem with rule (CS_RULE_PGS, CS_RULE_PSOR or CS_RULE_AMGS) along work->schedule:
// quads in lanes, the rest one row at a time (cs_sweep). Only when work->schedule_count > 0.
void cs_sweep_lanes(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx);
// `sweeps` such sweeps in the wavefront order of the work's fused-sweep plan (fuse.h: the same bits as one
// after the other) when this solve has one; false, with nothing done, when it has none.
bool cs_sweep_lanes_fused(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, int sweeps);
// A method's cs_solver_entry.sweeps: cs_sweep_lanes_fused, or else `sweeps` calls of its sweep `one`.
void cs_sweeps_fused_or(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, int sweeps,
                        cs_solver_sweep_fn one);

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
    if (it->quad >= 0 && stride == 2 && it->pairs > 0)
    {
        return CS_SPLIT_FROM_PAIRS;
    }
    if (it->quad >= 0 && stride == 1 && it->pairs == 0)
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
// One sweep along work->schedule, in lanes with rule CS_RULE_PGS or CS_RULE_AMGS (not the literal variant):
// each pair quad's pairs (rows first .. first + 2·pairs − 1 of λ, and of st->x, st->c, st->diag for AMGS;
// nothing past them is read or written), each normal quad's four rows; other items through `rows`.
void cs_avx2_sweep(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, cs_rows_fn rows);
// The same over items[begin .. end) only (a segment of a fused pass: items in the fused order, fuse.h), with
// their runs (cs_sweep_runs) or NULL.
void cs_avx2_sweep_items(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, cs_rows_fn rows,
                         const cs_sweep_item* items, const int32_t* runs, int begin, int end);
// One PGS sweep of the split problem along work->items (their runs: work->runs): quads (λ at lambda + first)
// in lanes, other items through rows(rows_arg, …). limit2 > 0: returns whether any row's update moved
// (cs_split_moved, the same operations by lane); limit2 = 0: measures nothing and returns true.
bool cs_avx2_sweep_split(const struct cs_split_work* work, double limit2, double* lambda, double* v,
                         cs_split_rows_fn rows, const void* rows_arg);
// The same without measuring over items[begin .. end) only (a segment of a fused pass: work->items in the
// fused order, fuse.h), with their runs (cs_sweep_runs).
void cs_avx2_sweep_split_items(const struct cs_split_work* work, const cs_sweep_item* items,
                               const int32_t* runs, int begin, int end, double* lambda, double* v,
                               cs_split_rows_fn rows, const void* rows_arg);
// The same along the velocity schedule of `solved` (cs_split_lanes): quads from the velocity quads' normal
// rows with their bias and λ from work->quad_lanes (by lane), the other split rows through rows(rows_arg, …).
bool cs_avx2_sweep_split_on(const cs_solver_work* solved, int stride, const struct cs_split_work* work,
                            double limit2, double* lambda, double* v, cs_split_rows_fn rows,
                            const void* rows_arg);
#endif

#endif
