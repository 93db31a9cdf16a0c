// Circlesim's frozen problems handed to Siconos Numerics through its dense drivers: shared by the referee
// test (tests/test_siconos_referee.c) and the comparison bench (bench/siconos/siconos_bench.c).
// W = J M⁻¹ Jᵀ and q = J v* + b are formed here from the rows, independently of the library's solvers,
// in Siconos's order: frictionless, the normal rows; with friction, per contact [normal, tangent].
#ifndef CS_SICONOS_PROBLEM_H
#define CS_SICONOS_PROBLEM_H

#include "circlesim/lcp.h"

#include <stdint.h>

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NumericsMatrix.h>

typedef struct sico_dense
{
    int n, contacts;
    bool friction;
    int* order; // [n] circlesim row of each entry
    double* W;  // [n*n], symmetric (so column-major = row-major)
    double* q;
    double* mu; // [contacts]
} sico_dense;

// A = J M⁻¹ Jᵀ + Σ (row-major, rows × rows, zeroed by the caller) and q = J v* + b in circlesim's row order.
void sico_row_matrix(const cs_lcp* p, double* A, double* q);
// False, with the reason in why, when the rows make neither an LCP nor an fc2d problem (box rows, which
// joints make; siconos_mlcp.h poses those), a normal row without its friction row in a frictional
// problem. W includes a regularised row's ε (SPOOK's A + Σ).
bool sico_dense_make(const cs_lcp* p, sico_dense* d, char* why, size_t why_size);
void sico_dense_free(sico_dense* d);
// u = W r + q.
void sico_velocity(const sico_dense* d, const double* r, double* u);
// ‖r − clamp(r − u)‖₂ with bounds normal [0, ∞), tangent [−μ r_n, μ r_n] (circlesim's res_nat, formed
// densely).
double sico_residual(const sico_dense* d, const double* r, const double* u);

// Siconos's problem over the dense data (the structs are filled here, so only the matrix is Siconos's).
typedef struct sico_problem
{
    NumericsMatrix* M;
    LinearComplementarityProblem lcp;
    FrictionContactProblem* fc;
} sico_problem;

void sico_problem_make(const sico_dense* d, sico_problem* s);
void sico_problem_free(sico_problem* s);
// Siconos's own error of r (lcp_compute_error, or fc2d_compute_error unnormalised), u recomputed as W r + q.
double sico_error(const sico_dense* d, sico_problem* s, const double* r);
// Runs Siconos solver `id` (SICONOS_LCP_* or SICONOS_FRICTION_2D_*) from r (in: start, out: solution) with
// its tolerance and iteration cap; u receives its velocities. Returns Siconos's info (0 = it says solved);
// *iterations the iterations (or pivots) it reports.
int sico_solve(const sico_dense* d, sico_problem* s, int id, double tol, int max_iterations, double* r,
               double* u, int* iterations);

// A seeded random pile (referee test and profile): `bodies` discs, each touching a wall and the next disc,
// normal rows along random unit normals and, with friction, a tangent row right after each (mu in
// [0.1, 0.8]); biases mostly approaching; lambda0 = 0. *rng is the xorshift state, advanced.
cs_status sico_random_problem(cs_lcp* p, int bodies, bool friction, uint64_t* rng, cs_error* err);

#endif
