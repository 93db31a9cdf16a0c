// Lemke's complementary pivoting on a dense LCP  ζ = M z + r ≥ 0 ⟂ z ≥ 0  with the covering vector
// d = 1 (Murty 1988, ch. 2; Erleben's slides, "Connection to Positive Cones"). The caller supplies M one
// column at a time, so a reformulation (lemke_blcp.c) need not store it. Internal to src/solver.
#ifndef CS_SOLVER_LEMKE_H
#define CS_SOLVER_LEMKE_H

#include <stdbool.h>

typedef enum cs_lemke_outcome
{
    CS_LEMKE_SOLVED = 0, // z0 left the basis: z solves the LCP
    CS_LEMKE_RAY = 1,    // the entering column has no blocking row: secondary ray, no solution reached
    CS_LEMKE_PIVOT_CAP =
        2, // more pivots than max_pivots: cycling in floating point (lexicographic rule failed)
    CS_LEMKE_SINGULAR = 3, // a refactorisation found the basis numerically singular
} cs_lemke_outcome;

typedef void (*cs_lemke_column_fn)(const void* data, int k, double* out); // out = M[:, k] (n entries)

// Right-hand sides a refactorisation solves at once (cs_dense_lu_solve_rows): wide enough for the vector
// units, narrow enough that a block of them (CS_LEMKE_RHS·n doubles) stays in L2.
#define CS_LEMKE_RHS 32

typedef struct cs_lemke
{
    int n;
    const double* r; // [n]
    cs_lemke_column_fn column;
    const void* data;
    int max_pivots;
    // Warm start (start NULL: the cold start from B = I): start[k] = 1 puts z_k, 0 its complement ζ_k, in
    // the first basis. cs_lemke_run drops the z columns that make that basis singular (on redundant
    // contacts a guessed set is a superset of a basis) and covers what the basis leaves negative with
    // d = B·1: B⁻¹d = 1, so z0 = −min x̄ makes the start point feasible and the most negative row leaves
    // first, as in the cold start. d then has no sign and the theory of d > 0 is lost: the caller answers
    // a ray, a singular basis or the pivot cap with the cold start. cover: n doubles of workspace.
    int* start;
    // The start's z columns are known to be independent (a purified answer, lemke_purify.c): none is
    // dropped; a singular basis is then the refactorisation's verdict.
    bool keep_start;
    double* cover;
    // Workspace, caller-owned: binv and lu n·n doubles each (B⁻¹ column-major, a column not yet touched by
    // a pivot is e_j and is not stored; lu: the k×k block a refactorisation factorises), xb, d, col, z:
    // n doubles each; basis, touched, tlist, lu_rows, lu_vars, lu_piv: n ints each; where: 2n + 1.
    // rhs: CS_LEMKE_RHS·n doubles (the right-hand sides a refactorisation solves at once).
    double *binv, *lu, *xb, *d, *col, *z, *rhs;
    int *basis, *touched, *tlist, *where, *lu_rows, *lu_vars, *lu_piv;
    int touched_count; // entries of tlist (the stored columns of B⁻¹)
    // Results.
    int pivots;
    int refactorisations;
    int entering; // at a ray: the variable that could not enter (n..2n−1 = z_k, 0..n−1 = ζ_k)
    int dropped;  // warm start: z columns of start dropped as dependent
    int warm;     // 1 when the run started from start (0: the cold start, also after a warm one failed)
    bool covered; // z0's column is −cover, not −1 (internal to cs_lemke_run)
} cs_lemke;

// Runs the pivoting; on CS_LEMKE_SOLVED, z holds the solution of the final basis, B⁻¹ freshly refactorised.
cs_lemke_outcome cs_lemke_run(cs_lemke* L);
// Iterative refinement of the final basis, for a column callback that may now return a different M (the
// unregularised one): x_B ← x_B + B⁻¹(r − B x_B) while the residual of B x_B = r falls by 4× a round, at
// most `rounds` rounds; then z as cs_lemke_solution.
void cs_lemke_refine(cs_lemke* L, int rounds);
// z from the basic values (negative round-off clamped to 0).
void cs_lemke_solution(cs_lemke* L);

// The basis (lemke_basis.c). out = the tableau column of variable var (ζ_k = k, z_k = n + k, z0 = 2n).
void cs_lemke_column_of(const cs_lemke* L, int var, double* out);
// d = B⁻¹ c.
void cs_lemke_apply_binv(const cs_lemke* L, const double* c, double* d);
// res = r − B x_B; returns its largest magnitude. Uses L->col.
double cs_lemke_basis_residual(const cs_lemke* L, double* res);
// Rebuilds B⁻¹ of the current basis from an LU factorisation and recomputes x_B = B⁻¹ r (positions are
// renumbered: ζ_i at position i). False when the basis is numerically singular. Uses L->col, L->rhs and
// lu_piv past its first k entries as scratch.
bool cs_lemke_refactor(cs_lemke* L);

#endif
