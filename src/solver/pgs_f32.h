// pgs-f32's single-precision layouts (pgs_f32.c builds them, simd_avx2_f32.c sweeps eight lanes of them).
// The double problem stays as it is: v⁰ = v* + M⁻¹Jᵀλ⁰ and each row's start step (J_i·v⁰ + b_i)/A_ii are
// computed in double once per solve, and the sweeps move only the velocity DELTAS dv = v − v⁰ and λ, in
// float. Bodies are four floats apart (vx, vy, ω, 0) so that one 16-byte load takes a body.
#ifndef CS_SOLVER_PGS_F32_H
#define CS_SOLVER_PGS_F32_H

#include "solver/simd.h"

enum
{
    CS_F32_LANES = 8,
};

// One row in float: cs_packed_row's fields (J / A_ii, M⁻¹Jᵀ, angular parts as (b, a)), a and b as 4·body.
// bias is the row's step at v⁰, (J_i·v⁰ + b_i)/A_ii, rounded once.
typedef struct cs_f32_row
{
    float ja[2], jb[2], jw[2];
    float ma[2], mb[2], mw[2];
    float bias; // (J_i·v⁰ + b_i) / A_ii
    float mu;   // as cs_packed_row: friction μ, a PAIR's coupling, a SOFT row's ε_i / A_ii
    int32_t a, b;
    int32_t link;
    uint32_t kind; // CS_PACK_* bits
} cs_f32_row;

// Eight (or four) normal/friction pairs (CS_PACK_NORMAL_ROW | CS_PACK_PAIR and its friction row) on sixteen
// (eight) distinct bodies, the zero slot aside, by lane. With eight lanes lane l holds pair
// cs_f32_pair_lane(l) of the run: 0, 1, 4, 5, 2, 3, 6, 7, the order in which two 8-float loads of the
// interleaved λ_n, λ_f shuffle into a vector of each (per 128-bit half); with four, lane l holds pair l.
typedef struct cs_f32_lanes
{
    float nax[8], nay[8], nbx[8], nby[8];
    float nmax[8], nmay[8], nmbx[8], nmby[8];
    float nbias[8], coupling[8];
    float fax[8], fay[8], fbx[8], fby[8], fwb[8], fwa[8];
    float fmax[8], fmay[8], fmbx[8], fmby[8], fmwb[8], fmwa[8];
    float fbias[8], mu[8];
    int32_t a[8], b[8];
} cs_f32_lanes;

static inline int cs_f32_pair_lane(int l, int lanes)
{
    static const int lane[CS_F32_LANES] = {0, 1, 4, 5, 2, 3, 6, 7}; // its own inverse
    return lanes == CS_F32_LANES ? lane[l] : l;
}

// The float state of one solve, carved from work->dense by cs_pgs_f32_begin.
typedef struct cs_f32_state
{
    float* dv;           // [4(bodies + 1)] the deltas; the last body is the zero slot
    float* lambda;       // [rows]
    cs_f32_row* rows;    // [rows]
    cs_f32_lanes* lanes; // [rows / 8]
    cs_sweep_item* item; // the schedule: lanes (quad >= 0; 16 or 8 rows: eight or four pairs), runs of rows
    int32_t* stamps;     // [3(bodies + 1)] scratch of the schedule's independence test, at 3·body
    int item_count;
} cs_f32_state;

// The state pgs-f32's begin laid out in work->dense for problem p (the last solve's: tests read its
// schedule).
cs_f32_state cs_pgs_f32_state(const cs_lcp* p, const cs_solver_work* work);

#if CS_SIMD_X86
// One sweep along s->item: eight pairs in AVX2 float lanes, four in SSE ones, runs through rows(ctx, s, …).
typedef void (*cs_f32_rows_fn)(const cs_solve_ctx* ctx, const cs_f32_state* s, int begin, int end);
void cs_avx2_sweep_f32(const cs_solve_ctx* ctx, const cs_f32_state* s, cs_f32_rows_fn rows);
#endif

#endif
