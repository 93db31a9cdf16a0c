// Internals shared by the solver files: the per-solve context, the method table entry, the methods'
// entry points and the solve in two halves. The packed row, the row kernels and the sweep skeleton every
// velocity-form method is built from have their own headers, included here for every solver file.
#ifndef CS_SOLVER_INTERNAL_H
#define CS_SOLVER_INTERNAL_H

#include "circlesim/solver.h"
#include "solver/packed_row.h"
#include "solver/row_kernels.h"
#include "solver/sweep.h"

#include <math.h>
#include <string.h>

// Everything a method sees during one cs_solve. The driver (solve.c) owns the loop over sweeps,
// the history and the tolerance test, so a method only writes `begin` (once per solve) and
// `sweep` (one pass over the rows). After begin and after each sweep the method must leave
// `lambda` holding its current iterate and `work->v` = v* + M⁻¹Jᵀλ, because residuals are
// computed from those two arrays.
typedef struct cs_solve_ctx
{
    const cs_lcp* p;
    const cs_solver_params* params;
    cs_solver_work* work;
    double* lambda;
    double method[8]; // scalars a method's begin leaves for its sweeps (AMGS: γΩ_ii coefficients)
    int pivots;       // a CS_SOLVER_PIVOTING method's begin: the pivots it made (cs_solver_stats.pivots)
} cs_solve_ctx;

typedef cs_status (*cs_solver_begin_fn)(cs_solve_ctx* ctx, cs_error* err);
typedef void (*cs_solver_sweep_fn)(cs_solve_ctx* ctx);
// `sweeps` sweeps at once, when nothing is observed between them: the same bits as that many sweep calls.
typedef void (*cs_solver_sweeps_fn)(cs_solve_ctx* ctx, int sweeps);

typedef struct cs_solver_entry
{
    cs_solver_info info;
    cs_solver_begin_fn begin; // may be NULL
    cs_solver_sweep_fn sweep;
    // Its begin and sweeps read the packed rows only through the vector schedule when there is one
    // (cs_sweep_lanes): the rows in lanes then need no record (schedule.c, cs_pack_lanes).
    bool schedule_only;
    // Its begin builds its own vector schedule (pgs-f32's float lanes): the driver packs every row's record
    // and builds none of the double lanes, whatever CS_SOLVER_SIMD and params->simd say.
    bool own_lanes;
    // May be NULL. The driver's loop hands it the whole budget when no history or tolerance watches the
    // sweeps (fuse.h: a row-local method whose sweeps can run as a wavefront, built at the start when the
    // problem is big enough, cs_fuse_min_rows).
    cs_solver_sweeps_fn sweeps;
} cs_solver_entry;

// registry.c
const cs_solver_entry* cs_solver_entry_at(int index);

// The methods (one file each).
void cs_pgs_sweep(cs_solve_ctx* ctx);
void cs_pgs_sweeps(cs_solve_ctx* ctx, int sweeps);            // fused when the work has a plan (fuse.h)
cs_status cs_pgs_f32_begin(cs_solve_ctx* ctx, cs_error* err); // pgs_f32.c: PGS in single precision
void cs_pgs_f32_sweep(cs_solve_ctx* ctx);
cs_status cs_psor_begin(cs_solve_ctx* ctx, cs_error* err); // checks ω in (0, 2)
void cs_psor_sweep(cs_solve_ctx* ctx);
void cs_psor_sweeps(cs_solve_ctx* ctx, int sweeps); // fused when the work has a plan, as pgs
void cs_pssor_sweep(cs_solve_ctx* ctx);
cs_status cs_jacobi_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_jacobi_sweep(cs_solve_ctx* ctx);
cs_status cs_apgd_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_apgd_sweep(cs_solve_ctx* ctx);
// jacobi.c, shared with apgd.c: the mass-split step. cs_split_scales grows work->dense to [m] scales
// ω/n_i (n_i: the most rows on either body of row i; 0 for rows without columns), then row_arrays arrays of
// m and body_arrays arrays of 3(bodies + 1) for the method; cs_split_body_array is body array k.
// cs_split_project: to_i = clamp(from_i − scale_i·steps_i) with bounds read from bounds_from, pass 0 for
// every row but friction rows, pass 1 for friction rows (so that they may see the new λ_n).
cs_status cs_split_scales(cs_solve_ctx* ctx, double omega, int row_arrays, int body_arrays, cs_error* err);
double* cs_split_body_array(const cs_solve_ctx* ctx, int row_arrays, int k);
void cs_split_project(const cs_solve_ctx* ctx, const double* from, const double* steps,
                      const double* bounds_from, double* to, int pass);
cs_status cs_pgs_block_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_pgs_block_sweep(cs_solve_ctx* ctx);
cs_status cs_amgs_begin(cs_solve_ctx* ctx, cs_error* err);       // Ω = αD
cs_status cs_amgs_omega_begin(cs_solve_ctx* ctx, cs_error* err); // Ω = ω̄E
void cs_amgs_sweep(cs_solve_ctx* ctx);
void cs_amgs_sweeps(cs_solve_ctx* ctx, int sweeps);                 // fused when the work has a plan, as pgs
void cs_amgs_set_alpha(cs_solve_ctx* ctx, double alpha);            // Ω = αD from the next sweep on
cs_status cs_amgs_adaptive_begin(cs_solve_ctx* ctx, cs_error* err); // amgs_adaptive.c: α from the sweeps
void cs_amgs_adaptive_sweep(cs_solve_ctx* ctx);
cs_status cs_amgs_dense_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_amgs_dense_sweep(cs_solve_ctx* ctx);
cs_status cs_pgs_sm_begin(cs_solve_ctx* ctx, cs_error* err); // pgs_sm.c: MNS Algorithm 3.1
cs_status cs_pgs_kz_begin(cs_solve_ctx* ctx, cs_error* err); // Kocvara–Zowe: k_sm = 1, z^b only
void cs_pgs_sm_sweep(cs_solve_ctx* ctx);                     // one iteration: k_gs sweeps + subspace phase

// cs_solve in two halves, so that a caller can do other work on the packed rows between them (the
// world's split-impulse solve on a second thread): cs_solve_start checks the arguments, packs the rows,
// sets the start point and runs the method's begin; cs_solve_finish runs the sweeps and fills stats
// (stats->seconds counts from the start). cs_solve is exactly start then finish. A caller that sets
// defer_residuals after a start that found the problem good (check.stop != CS_STOP_BAD_PROBLEM) gets stats
// without the final residuals and their verdict on the stop; cs_solve_residuals adds them later (the world
// computes them on a worker), as long as the rows, work->v and λ are unchanged.
typedef struct cs_solve_run
{
    cs_solve_ctx ctx;
    const cs_solver_entry* method;
    double t0;
    cs_solver_stats check; // stop = CS_STOP_BAD_PROBLEM (with its reason) when cs_problem_check failed
    bool defer_residuals;
} cs_solve_run;

// check.c: false, with out->stop = CS_STOP_BAD_PROBLEM and the reason, row and body, when p (with A_ii in
// diag and the start point lambda) is a problem no method can solve; out is untouched otherwise. rows_good:
// the packing pass proved every row good (pack.h, cs_pack_proven); only the bodies are looked at then, and
// the exact checks otherwise.
bool cs_problem_check(const cs_lcp* p, bool rows_good, const double* diag, const double* lambda,
                      cs_solver_stats* out);

cs_status cs_solve_start(const cs_lcp* p, int solver, const cs_solver_params* params, cs_solver_work* work,
                         double* lambda, cs_solve_run* run, cs_error* err);
void cs_solve_finish(cs_solve_run* run, cs_solver_stats* stats);
void cs_solve_residuals(const cs_solve_run* run, cs_solver_stats* stats);

// schedule.c: the vector-lane schedule of a packed problem's normal/friction pairs and normal rows (into
// work->schedule, work->quads and work->normal_quads); the split problem's is in split.h.
cs_status cs_schedule_rows(const cs_lcp* p, cs_solver_work* w, cs_error* err);
// The packing pass and cs_schedule_rows in one, for a schedule_only method: each row packed once (pack.h)
// straight into the quad lanes it is swept in, or into its record when it is swept one at a time; the same
// schedule, the same numbers. It also sets the start point, lambda[i] = start[i] (0 for start NULL), as it
// goes. Sets work->lanes_only; *rows_good as precompute_rows' result (check.c).
cs_status cs_pack_lanes(const cs_lcp* p, cs_solver_work* work, const double* start, double* lambda,
                        bool* rows_good, cs_error* err);
// After cs_pack_lanes: the records of the rows in quads, from their lanes, for a reader of every record (the
// split solve off the velocity schedule). Writes only those records (a sweep running meanwhile reads none).
void cs_pack_records_from_lanes(const cs_solver_work* work);

// residual.c: cs_residual_lcp and cs_residual_nat in one pass.
void cs_residuals(const cs_lcp* p, const double* v, const double* lambda, double* res_lcp, double* res_nat);

// solve.c: the packed rows of the current solve.
static inline const cs_packed_row* cs_packed_rows(const cs_solver_work* w)
{
    return (const cs_packed_row*)w->packed;
}
// solve.c: grows a double array geometrically (contents kept), for work arrays a method owns.
cs_status cs_grow_doubles(double** array, int* capacity, int needed, cs_error* err);

#endif
