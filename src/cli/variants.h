// Solver × α combinations for the experiment commands (converge, table2, bench).
#ifndef CS_CLI_VARIANTS_H
#define CS_CLI_VARIANTS_H

#include <stdio.h>

#include "circlesim/solver.h"

#define CS_MAX_VARIANTS 64

typedef struct cs_variant
{
    int solver;
    double alpha; // meaningful only when the solver uses α
} cs_variant;

// Expands each solver over the α list when it uses α (CS_SOLVER_USES_ALPHA), once otherwise.
int cs_variants_expand(const int* solvers, int solver_count, const double* alphas, int alpha_count,
                       cs_variant* out, int max);
// Writes the α column: the value when the solver uses α, nothing otherwise.
void cs_variant_print_alpha(FILE* f, const cs_variant* v);
// "amgs(α=0.2)" / "pgs", for tables.
const char* cs_variant_label(const cs_variant* v, char* buffer, size_t size);

#endif
