// The Morales–Nocedal–Smelyanskiy paper's Table 2 measure for `converge --active-set`.
#ifndef CS_CLI_ACTIVE_SET_H
#define CS_CLI_ACTIVE_SET_H

#include <stdio.h>

#include "circlesim/circlesim.h"
#include "cli/variants.h"

// Prints, for each variant, the fraction of the optimal active set (rows whose contact velocity in the
// reference answer, lemke's or a converged newton-minmap's when lemke fails, puts them at a bound) that
// its iterate has at that bound after k = 1, 2, 5, 10, 50 iterations from the problem's warm start; also as
// CSV when csv_path is not NULL ('-': standard output); the table goes to `table`. Returns the exit status
// (0, or 1 when a file cannot be written or no reference is found).
int cs_active_set_table(const cs_lcp* problem, const char* scene, const cs_variant* variants, int count,
                        double gamma, bool simd, const char* csv_path, FILE* table);

#endif
