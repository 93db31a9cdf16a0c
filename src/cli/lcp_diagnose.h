// `lcp info` diagnostics that need the explicit A = J M⁻¹ Jᵀ (dense, so only up to CS_DIAGNOSE_MAX_ROWS
// rows): its rank and whether it is singular, a condition estimate of the normal-row block, and which
// registered solvers a convergence theorem covers on this problem.
#ifndef CS_CLI_LCP_DIAGNOSE_H
#define CS_CLI_LCP_DIAGNOSE_H

#include <stdbool.h>
#include <stdio.h>

#include "circlesim/lcp.h"

enum
{
    CS_DIAGNOSE_MAX_ROWS = 3000 // A is m² doubles (72 MB here) and the rank costs O(m²·rank)
};

typedef struct cs_lcp_diagnosis
{
    bool dense;         // false: over CS_DIAGNOSE_MAX_ROWS rows, the fields below are not computed
    int rows;           // rows of A
    int rank;           // numerical rank of A (pivoted Cholesky, relative tolerance 1e-10)
    int dof;            // 3 × bodies with a nonzero inverse mass or inertia: rank(A) <= dof
    int normal_rows;    // rows of the normal block A_NN
    int normal_rank;    // its numerical rank
    double cond_normal; // 2-norm condition estimate of A_NN (inf when singular, 1 when empty)
    bool positive_diag; // every A_ii > 0
    bool fixed_bounds;  // no friction rows: the bounds do not move with λ (a true box LCP)
} cs_lcp_diagnosis;

// Fills d from p; false only when memory runs out (with d->dense = false).
bool cs_lcp_diagnose(const cs_lcp* p, cs_lcp_diagnosis* d);

// Prints "converges=…", "no_guarantee=…" and one "why_NAME=…" line per registered solver: what the
// theorems behind each method promise on a problem with this diagnosis.
void cs_lcp_print_guarantees(FILE* out, const cs_lcp_diagnosis* d);

#endif
