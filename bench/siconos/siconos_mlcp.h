// A circlesim problem with joint rows posed to Siconos Numerics as a mixed LCP (issue 17): the referee of
// joints (tests/test_siconos_joints.c). Siconos's MLCP is
//     M z + q = w,   z = [u; v],  w = [w₁; w₂],   w₁ = 0 (u free),   0 ≤ w₂ ⟂ v ≥ 0.
// circlesim's rows map to it through λ = c + T z, formed here from the rows (W = J M⁻¹ Jᵀ + Σ and
// q = J v* + b as in siconos_problem.c), independently of the library's solvers:
//   - a rod (box −∞..+∞): one free variable, λ = u, its equation w = 0;
//   - a one-sided row: one complementarity variable, sign s and offset o with λ = o + s·v: a normal row or
//     a box [lo, +∞) (s = +1, o = lo), a rope or any box (−∞, hi] (s = −1, o = hi); its w is s·(Aλ + q);
//   - a friction row (|λ_t| ≤ μ λ_n): Erleben's β model, exact in 2D: λ_t = λ⁺ − λ⁻ and
//       0 ≤ λ⁺ ⟂ w_t + β ≥ 0,   0 ≤ λ⁻ ⟂ β − w_t ≥ 0,   0 ≤ β ⟂ μ λ_n − λ⁺ − λ⁻ ≥ 0
//     (β = |w_t| when sliding; Stewart & Trinkle's LCP, which Lemke's method processes).
// A box with two finite bounds has no such form and is refused. Without friction M = Sᵀ(A + Σ)S is symmetric
// positive semidefinite and w = Aλ + q is the same for every solution.
#ifndef CS_SICONOS_MLCP_H
#define CS_SICONOS_MLCP_H

#include "circlesim/lcp.h"

#include <siconos/numerics/MixedLinearComplementarityProblem.h>
#include <siconos/numerics/NumericsMatrix.h>

typedef struct sico_mlcp
{
    int rows;        // circlesim rows
    int n, m;        // free (equality) and complementarity variables; z has n + m entries
    bool friction;   // some row is a friction row (β model: M is not symmetric)
    int* var;        // [rows] z index of λ (friction: of λ⁺)
    int* var_minus;  // [rows] friction: z index of λ⁻ (β follows it); otherwise −1
    double* sign;    // [rows] s
    double* offset;  // [rows] o
    double* A;       // [rows*rows] A + Σ, row-major, circlesim's row order
    double* q_rows;  // [rows] J v* + b
    double* M;       // [(n+m)²] column-major
    double* q;       // [n+m]
    double* abcd[4]; // the same M as blocks A (n×n), B (m×m), C (n×m), D (m×n), column-major
    int blocks_rows[3];
    int blocks_comp[2];
    NumericsMatrix* nm;
    MixedLinearComplementarityProblem problem; // both storages filled (Siconos's solvers read one each)
} sico_mlcp;

// False, with the reason in why, for a row the MLCP cannot hold (a box with two finite bounds, a friction
// row whose normal row is not a plain normal row).
bool sico_mlcp_make(const cs_lcp* p, sico_mlcp* x, char* why, size_t why_size);
void sico_mlcp_free(sico_mlcp* x);
// λ of z (circlesim's row order).
void sico_mlcp_lambda(const sico_mlcp* x, const double* z, double* lambda);
// w = (A + Σ)λ + q in circlesim's row order (the dense velocities the referee compares).
void sico_mlcp_row_velocity(const sico_mlcp* x, const double* lambda, double* w);
// ‖λ − clamp(λ − w, lo, hi)‖₂ formed densely (circlesim's res_nat; friction bounds from λ of the link).
double sico_mlcp_residual(const sico_mlcp* x, const cs_lcp* p, const double* lambda);
// Siconos's own error of z (mlcp_compute_error, w recomputed as M z + q). It is relative to 1 + ‖w‖ of the
// complementarity block, so z itself sets its scale: an answer with one huge entry (β of an open contact,
// whose row μλ_n − λ⁺ − λ⁻ is identically 0, so any β ≥ 0 is complementary) reads as accurate however far
// the other rows are from their conditions. sico_mlcp_miss is the check that z cannot inflate.
double sico_mlcp_error(sico_mlcp* x, const double* z);
// How far z is from solving the posed MLCP, on the problem's own scale: max over rows of |w| (free rows)
// or |min(z, w)| (complementarity rows), w = M z + q, divided by 1 + ‖q‖∞. *row: the worst row, *norm_z:
// ‖z‖∞ (for the messages).
double sico_mlcp_miss(const sico_mlcp* x, const double* z, int* row, double* norm_z);
// Siconos's MLCP solver `id` (SICONOS_MLCP_*) through mlcp_driver from z (in: start, out: solution); an MLCP
// without free variables goes to the LCP driver with LCP Lemke for MLCP_LCP_LEMKE, and MLCP_LCP_LEMKE
// without complementarity variables to enumeration (one linear solve). Returns Siconos's info
// (0 = it says solved), *iterations what it reports.
int sico_mlcp_solve(sico_mlcp* x, int id, double tol, int max_iterations, double* z, int* iterations);
const char* sico_mlcp_solver_name(int id);

#endif
