// Internals of pgs-sm / pgs-kz (pgs_sm.c): the subspace phase's state, the sparse assembly of
// A = J M⁻¹ Jᵀ (subspace_matrix.c) and the two solvers of the reduced system A_FF δ = r_F: sparse
// Cholesky through CHOLMOD (subspace_cholmod.c) and matrix-free Jacobi-preconditioned CG
// (subspace_pcg.c). Solver code: rows only, no shapes.
#ifndef CS_SOLVER_SUBSPACE_H
#define CS_SOLVER_SUBSPACE_H

#include "solver/solver_internal.h"

// The upper triangle of A = J M⁻¹ Jᵀ, diagonal included (plus ε_j of a regularised row: A + Σ), in compressed
// columns (CHOLMOD's stype = 1 layout): column j holds A_kj for the rows k <= j that share a body with row j,
// sorted by k.
typedef struct cs_amatrix
{
    int rows;
    int nnz;
    int* col_start; // [rows + 1]
    int* row_index; // [nnz]
    double* value;  // [nnz] A_kj
    int* diag_at;   // [rows] index of A_jj in value
    // Assembly scratch: rows of each body (CSR) and a per-row marker.
    int* body_start; // [bodies + 1]
    int* body_rows;  // [2·rows]
    int* mark;       // [rows]
    int row_capacity, body_capacity, nnz_capacity;
} cs_amatrix;

// Assembles A's pattern and values in O(Σ_bodies deg²) = O(nnz(A)): for each row j, the rows on its
// bodies (deduplicated with a marker). Grows the arrays (nothing allocated when they are large enough).
cs_status cs_amatrix_build(cs_amatrix* a, const cs_lcp* p, cs_error* err);
void cs_amatrix_free(cs_amatrix* a);

// CHOLMOD's state (opaque here so that only subspace_cholmod.c includes cholmod.h).
typedef struct cs_cholmod cs_cholmod;

typedef struct cs_subspace
{
    cs_subspace_stats stats;
    int row_capacity;
    int body_capacity; // 3·bodies + 3 doubles in each body array
    // Per row
    double* z0; // λ at the start of the phase, clamped into the frozen box
    double* lo; // the box frozen at the start of the phase (friction: ±μ·z0[link])
    double* hi;
    double* zb; // the backtracking point z^b (eq. 3.5)
    double* q;  // q = J v* + b, for φ(z) = ½ zᵀAz + qᵀz = ½ Σ z_i (w_i + q_i)
    int* slot;  // row → its index in `free`, or -1 (active or empty)
    // Per free row (free_count of them)
    int* free;
    int free_count;
    double* rhs;  // r_F = −w_F at the current point
    double* step; // δ_F
    double* cg_r; // PCG vectors
    double* cg_z;
    double* cg_p;
    double* cg_ap;
    // Per body (velocities, with the zero slot)
    double* vb; // v at z^b
    double* u;  // PCG: M⁻¹J_Fᵀ p
    // The reduced system
    cs_amatrix a;
    double* masked; // [a.nnz] Ã: A_FF in the rows of F, the identity in the others
    int masked_capacity;
    cs_cholmod* chol;
    // ipm: a diagonal added to the free rows of the reduced matrix, (A + Σ)_FF + diag(shift)_FF (the
    // interior-point method's barrier term, ipm.c; indexed by row); NULL for pgs-sm.
    const double* shift;
    double beta;      // the regularisation this solve has needed so far (0: none)
    double rhs_floor; // 1e-14·max|q|: free rows with max |w_F| below it need no subspace step
} cs_subspace;

// Creates or grows the work's subspace state for ctx's problem and resets its stats: q = J v* + b, the
// step floor and, when `matrix` and the CHOLMOD path is chosen, A (+ Σ) assembled and analysed.
cs_status cs_subspace_prepare(cs_solve_ctx* ctx, bool matrix, cs_subspace** out, cs_error* err);
// The subspace phase of pgs_sm.c's file comment (steps 1–3) from ctx's current λ: up to ksm reduced solves
// on the rows strictly inside their frozen box, projection, safeguard; kz: Kocvara–Zowe's z^b only.
void cs_subspace_phase(const cs_solve_ctx* ctx, cs_subspace* s, int ksm, bool kz);
// The state of the work's pgs-sm (created on first use; freed with the work).
cs_status cs_subspace_get(cs_solver_work* w, cs_subspace** out, cs_error* err);
void cs_subspace_free(void* subspace);
// The stats of the last solve for methods that have a subspace phase (zero for the others).
cs_subspace_stats cs_subspace_report(const cs_solver_work* w, unsigned flags);

// CHOLMOD on Ã (subspace_cholmod.c). analyze: order and analyse A's pattern once per problem (skipped
// when the pattern equals the previous problem's). solve: factorise Ã + βD (β from s->beta upwards
// until every pivot is positive, see the file) and solve for δ_F; false when no usable factor exists.
cs_status cs_cholmod_analyze(cs_subspace* s, cs_error* err);
bool cs_cholmod_solve(cs_subspace* s);
// cs_cholmod_solve in two halves, for several right-hand sides on one factor (ipm's predictor and
// corrector): factorise Ã + βD once, then solve for s->rhs into s->step as often as needed.
bool cs_cholmod_factor(cs_subspace* s);
bool cs_cholmod_backsolve(cs_subspace* s);
void cs_cholmod_free(cs_cholmod* c);

// Matrix-free Jacobi-preconditioned CG on A_FF δ = r_F with products J_F M⁻¹ J_Fᵀ from the packed rows
// (subspace_pcg.c). False when the step is not finite.
bool cs_pcg_solve(cs_subspace* s, const cs_solver_work* w, int bodies);

#endif
