// The state of one `ppm` solve (ppm.c: the method, its crash start, attempts and fallback) and the block
// principal pivoting on it (ppm_pivot.c: the sets, the reduced system, the verification and the pivot loop).
#ifndef CS_SOLVER_PPM_H
#define CS_SOLVER_PPM_H

#include "solver/solver_internal.h"

#include <stdbool.h>

#define CS_PPM_EPS 1e-10 // the proximal term, relative to each row's A_ii (the polish and first attempt)

// The set a row sits in.
enum
{
    CS_PPM_ROW_LOW = -1,
    CS_PPM_ROW_FREE = 0,
    CS_PPM_ROW_UP = 1,
};

typedef struct cs_ppm
{
    const cs_lcp* p;
    int m, k;         // rows; rows in the current reduced system
    double* a;        // [m·m] A + Σ, row-major
    double* g;        // [m·m] the reduced matrix G + εD, then its LU
    double* lam;      // [m] the iterate
    double* w;        // [m] its contact velocities (A + Σ)λ + q
    double* x;        // [m] the reduced unknowns (λ of the FREE rows)
    double* res;      // [m] −w_F, then the correction
    double* v;        // [3·bodies + 3] velocities
    int* state;       // [m] CS_PPM_ROW_LOW / CS_PPM_ROW_FREE / CS_PPM_ROW_UP
    int* next;        // [m] the set a row asks for (its state when feasible)
    int* slot;        // [m] position in the reduced system, or -1
    int* rows;        // [m] the reduced system's rows
    int* piv;         // [m] LU pivots
    int* best_state;  // [m] the sets of the iterate with the fewest infeasible rows of all attempts
    double* best_lam; // [m] that iterate's λ
    int best_count;   // its infeasible rows (INT_MAX before the first)
    double scale;     // max(1, |q|∞)
    int solves;       // block pivots: reduced systems factorised and solved
    int pivots;       // principal pivots: rows that changed sets
    int cap;          // most solves
    double eps_used;  // the largest proximal term a factorisation needed
} cs_ppm;

typedef enum cs_ppm_outcome
{
    CS_PPM_SOLVED,
    CS_PPM_CAP,
    CS_PPM_SINGULAR,
    CS_PPM_INEXACT,
    CS_PPM_LEMKE, // solved by the Lemke fallback; the answer is in work->x
} cs_ppm_outcome;

static inline bool cs_ppm_is_friction(const cs_lcp* p, int i)
{
    return p->kind[i] == CS_ROW_FRICTION;
}

// w = (A + Σ)λ + q of the iterate, through the velocities (O(nnz(J)), the driver's own residual).
void cs_ppm_velocities(cs_ppm* s);
// The crash guess: the mid-map's decision at an approximate answer (λ, w in s->lam, s->w).
void cs_ppm_guess_sets(cs_ppm* s);
// Júdice–Pires block principal pivoting from the sets in s->state, with Murty's single pivots as the fallback
// (ppm_pivot.c); eps0 the proximal term of this attempt. *res_nat: the natural residual of the answer.
cs_ppm_outcome cs_ppm_pivot_loop(cs_ppm* s, double eps0, double* res_nat);

#endif
