// Dense LU with partial pivoting (Golub & Van Loan Alg. 3.4.1) for the pivoting methods: lemke's basis
// block (lemke_basis.c) and ppm's reduced systems (ppm.c). Internal to src/solver.
#ifndef CS_SOLVER_DENSE_LU_H
#define CS_SOLVER_DENSE_LU_H

#include <stdbool.h>

// In-place LU with partial pivoting of the k×k row-major a: P a = L U, piv[i] = the row swapped into i.
// Returns false when a pivot is below tol (numerically singular). Zero multipliers are skipped, so a sparse
// matrix costs what its fill costs.
bool cs_dense_lu_factor(double* a, int k, int* piv, double tol);
// x ← (P a)⁻¹ x with the factors of cs_dense_lu_factor.
void cs_dense_lu_solve(const double* a, int k, const int* piv, double* x);
// The same for w right-hand sides at once: x is k × w row-major (row i holds component i of each), and each
// column gets cs_dense_lu_solve's operations in its order, bit for bit (one code, dense_lu.c); a row's update
// is one pass over w contiguous numbers (lemke's refactorisation solves k of them, 32 at a time).
void cs_dense_lu_solve_rows(const double* a, int k, const int* piv, double* x, int w);

#endif
