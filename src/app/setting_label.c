#include "app/setting_label.h"

#include <stdio.h>

// "amgs α=0.2 k=10 cold frictionless key-order": every setting that changes the iterates, so two
// curves with different labels come from different methods and two with the same label from the same one.
void setting_label(const cs_solver_params* params, int solver, bool frictionless, cs_row_order order,
                   char* out, size_t size)
{
    const cs_solver_info* info = cs_solver_at(solver);
    size_t n = 0;
#define ADD(...)                                                                                             \
    do                                                                                                       \
    {                                                                                                        \
        int k = n < size ? snprintf(out + n, size - n, __VA_ARGS__) : 0;                                     \
        n += k > 0 ? (size_t)k : 0;                                                                          \
    } while (0)
    ADD("%s", info != NULL ? info->name : "?");
    if (info != NULL && (info->flags & CS_SOLVER_USES_ALPHA) != 0)
    {
        ADD(" α=%.2g", params->alpha);
    }
    if (info != NULL && (info->flags & CS_SOLVER_USES_GAMMA) != 0)
    {
        ADD(" γ=%.2g", params->gamma);
    }
    if (info != NULL && (info->flags & CS_SOLVER_USES_RELAXATION) != 0)
    {
        ADD(" ω=%.2g", params->relaxation);
    }
    ADD(" k=%d", params->iterations);
    if (params->tolerance > 0.0)
    {
        ADD(" tol=%.0e", params->tolerance);
    }
    if (!params->warm_start)
    {
        ADD(" cold");
    }
    if (frictionless)
    {
        ADD(" frictionless");
    }
    if (order != CS_ROW_ORDER_COLOURED)
    {
        ADD(" %s-order", cs_row_order_name(order));
    }
#undef ADD
}
