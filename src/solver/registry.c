// The solver registry: one table row per method, looked up by name from scenes, the CLI and keys.
#include "circlesim/solver.h"

#include "solver/operator.h"
#include "solver/solver_internal.h"

#include <stdio.h>
#include <string.h>

// One line per method; the order is the order of menus and key cycling (append new ones).
// clang-format off
static const cs_solver_entry solvers[] = {
    {{"pgs", "PGS", "projected Gauss-Seidel in velocity form (sequential impulses), paper eq. (4)",
      CS_SOLVER_SIMD},
     NULL, cs_pgs_sweep},
    {{"amgs", "AMGS", "accelerated modulus-based Gauss-Seidel, Method 3.1 in velocity form, Omega = alpha D",
      CS_SOLVER_USES_ALPHA | CS_SOLVER_USES_GAMMA | CS_SOLVER_SIMD},
     cs_amgs_begin, cs_amgs_sweep},
    {{"amgs-omega", "AMGS-wE", "AMGS with Omega = w E, w = mean(A_ii)/gamma per problem (Remark 4.5)",
      CS_SOLVER_USES_GAMMA | CS_SOLVER_SIMD},
     cs_amgs_omega_begin, cs_amgs_sweep},
    {{"amgs-dense", "AMGS-dense", "AMGS Method 2.2 on the explicit dense A (the paper's O(m^2) baseline)",
      CS_SOLVER_USES_ALPHA | CS_SOLVER_USES_GAMMA | CS_SOLVER_DENSE},
     cs_amgs_dense_begin, cs_amgs_dense_sweep},
    {{"lemke", "Lemke", "Lemke's pivoting on the BLCP as an LCP (friction: Erleben's contact LCP model); exact, dense",
      CS_SOLVER_DENSE | CS_SOLVER_PIVOTING},
     cs_lemke_begin, cs_lemke_sweep},
    {{"newton-minmap", "Newton-min", "generalised Newton on the min-map (mid-map) reformulation, GMRES, projected Armijo",
      0},
     cs_newton_minmap_begin, cs_newton_sweep},
    {{"newton-fb", "Newton-FB", "generalised Newton on the Fischer-Burmeister (Billups box) reformulation, GMRES, projected Armijo",
      0},
     cs_newton_fb_begin, cs_newton_sweep},
};
// clang-format on

enum
{
    SOLVER_COUNT = (int)(sizeof solvers / sizeof solvers[0])
};

int cs_solver_count(void)
{
    return SOLVER_COUNT;
}

const cs_solver_entry* cs_solver_entry_at(int index)
{
    return index >= 0 && index < SOLVER_COUNT ? &solvers[index] : NULL;
}

const cs_solver_info* cs_solver_at(int index)
{
    const cs_solver_entry* e = cs_solver_entry_at(index);
    return e != NULL ? &e->info : NULL;
}

int cs_solver_find(const char* name)
{
    if (name == NULL)
    {
        return -1;
    }
    for (int i = 0; i < SOLVER_COUNT; ++i)
    {
        if (strcmp(solvers[i].info.name, name) == 0)
        {
            return i;
        }
    }
    return -1;
}

const char* cs_solver_names(void)
{
    // Built on every call from the constant table, so concurrent callers write the same bytes.
    static char names[512];
    size_t used = 0;
    names[0] = '\0';
    for (int i = 0; i < SOLVER_COUNT && used < sizeof names; ++i)
    {
        int n = snprintf(names + used, sizeof names - used, "%s%s", i > 0 ? ", " : "", solvers[i].info.name);
        if (n < 0)
        {
            break;
        }
        used += (size_t)n;
    }
    return names;
}
