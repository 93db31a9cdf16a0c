// The residuals' AVX2 kernel (residual_avx2.c), called by residual.c's pass over the rows.
#ifndef CS_SOLVER_RESIDUAL_AVX2_H
#define CS_SOLVER_RESIDUAL_AVX2_H

#include "circlesim/lcp.h"

#include <stdbool.h>

// Whether this CPU runs cs_avx2_residual_pairs (AVX2; false where it is not compiled).
bool cs_avx2_residual_cpu(void);

// From row i on, while rows i .. i + 7 are four contacts' normal/friction pairs (each friction row linked to
// its normal row, on the same bodies) of a problem with a body and without cs_lcp.reg: adds their terms of
// both residuals' sums (natural: r² of each row; LCP: min(λ, w)² of each normal row) to *sum_lcp and *sum_nat
// in row order, each term the bits of residual.c's row-by-row pass. Returns the first row it did not take (i
// when rows i .. i + 7 are not such pairs). Call only when cs_avx2_residual_cpu().
int cs_avx2_residual_pairs(const cs_lcp* p, const double* v, const double* lambda, int i, double* sum_lcp,
                           double* sum_nat);

#endif
