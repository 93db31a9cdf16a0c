#include "cli/variants.h"

int cs_variants_expand(const int* solvers, int solver_count, const double* alphas, int alpha_count,
                       cs_variant* out, int max)
{
    int n = 0;
    for (int s = 0; s < solver_count; ++s)
    {
        bool uses_alpha = (cs_solver_at(solvers[s])->flags & CS_SOLVER_USES_ALPHA) != 0;
        int count = uses_alpha ? alpha_count : 1;
        for (int a = 0; a < count && n < max; ++a)
        {
            out[n].solver = solvers[s];
            out[n].alpha = uses_alpha ? alphas[a] : 0.0;
            n += 1;
        }
    }
    return n;
}

void cs_variant_print_alpha(FILE* f, const cs_variant* v)
{
    if (cs_solver_at(v->solver)->flags & CS_SOLVER_USES_ALPHA)
    {
        fprintf(f, "%g", v->alpha);
    }
}

const char* cs_variant_label(const cs_variant* v, char* buffer, size_t size)
{
    const cs_solver_info* info = cs_solver_at(v->solver);
    if (info->flags & CS_SOLVER_USES_ALPHA)
    {
        snprintf(buffer, size, "%s(alpha=%g)", info->name, v->alpha);
    }
    else
    {
        snprintf(buffer, size, "%s", info->name);
    }
    return buffer;
}
