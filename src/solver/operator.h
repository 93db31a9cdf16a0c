// A = J M⁻¹ Jᵀ as an operator for the methods that need more than one row at a time (lemke, the Newton
// methods): its dense entries and matrix-free products through J and M⁻¹. Malformed input (NaN, an empty
// box, a friction link that is not a normal row) never reaches them: the driver's cs_problem_check
// (check.c) stops the solve first, and cs_solve_start refuses body indices out of range.
#ifndef CS_SOLVER_OPERATOR_H
#define CS_SOLVER_OPERATOR_H

#include "solver/solver_internal.h"

// A_ij = Σ over the bodies rows i and j share of J_i,body · (M⁻¹J_jᵀ)_body (mjt: work->mjt, filled for
// CS_SOLVER_DENSE methods).
double cs_dense_entry(const cs_lcp* p, const double* mjt, int i, int j);

// out = A x without forming A: u = M⁻¹Jᵀx (u has 3·bodies entries, scratch), out_i = J_i u.
void cs_apply_a(const cs_lcp* p, const double* x, double* u, double* out);

// lemke.c, lemke_blcp.c
cs_status cs_lemke_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_lemke_sweep(cs_solve_ctx* ctx);
// Lemke warm-started from box index sets (ppm's fallback): sets[i] = −1 at the lower bound, 0 inside the
// box, 1 at the upper bound (a friction row whose normal is at 0: −1 when it slips forwards, w_t > 0, 1
// backwards); lambda (the iterate the sets come from) orders a free friction or free box row's sign. Both
// are read before anything is written, so they may live in work->x and work->scratch. When the warm start
// ends without an exact answer (its covering vector has no sign: rays happen), the cold start runs, capped
// at cold_per_variable pivots per LCP variable per attempt. The answer waits in work->x, as lemke's;
// *pivots = the complementary pivots made, *from_warm whether the warm start found the answer. An error when
// neither reaches an exact answer.
// independent: the sets' columns are known to be independent (purified): none is dropped.
cs_status cs_lemke_warm(cs_solve_ctx* ctx, const double* sets, const double* lambda, bool independent,
                        int cold_per_variable, bool* from_warm, int* pivots, cs_error* err);
// lemke_crash.c: PGS sweeps on the driver's packed rows from ctx->lambda until res_nat ≤ tol or max_sweeps
// (the crash of lemke and ppm).
void cs_crash_sweeps(cs_solve_ctx* ctx, double tol, int max_sweeps);
// lemke_crash.c: PGS sweeps from ctx->lambda, the mid-map's sets at the point reached, then cs_lemke_warm
// from them (and its cold fallback); ctx->lambda is the start point again on return, the answer in work->x.
cs_status cs_lemke_crash(cs_solve_ctx* ctx, int cold_per_variable, bool* from_warm, int* pivots,
                         cs_error* err);
// ppm.c: block principal pivoting on the frictional BLCP.
cs_status cs_ppm_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_ppm_sweep(cs_solve_ctx* ctx);

// newton.c: the generalised Newton methods on the min-map and Fischer–Burmeister reformulations.
cs_status cs_newton_minmap_begin(cs_solve_ctx* ctx, cs_error* err);
cs_status cs_newton_fb_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_newton_sweep(cs_solve_ctx* ctx);

// ipm.c: the primal-dual interior-point method (Mehrotra predictor-corrector, crossover to pgs-sm's
// subspace phase).
cs_status cs_ipm_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_ipm_sweep(cs_solve_ctx* ctx);

#endif
