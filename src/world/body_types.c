// Static and kinematic circles in the rows. The narrow phase and the row builder treat every circle alike
// (the relative velocities they measure include a kinematic circle's own); here, before the solve, each
// row's half on a circle that cannot move becomes a static half, as a wall's: its Jacobian numbers go,
// its body index becomes -1, and J_s v_s (the moving circle's contribution to q = J v* + b) moves into the
// bias. The solvers then see the rows they know — one static half, the moving body on side b — and no
// solver ever divides by a zero mass or serialises the sweep on a peg that every ball touches.
#include "world/world_internal.h"

static double half_velocity(const double* j, const double* v)
{
    return j[0] * v[0] + j[1] * v[1] + j[2] * v[2];
}

void cs_rows_static_halves(const cs_world* w, cs_lcp* p)
{
    if (w->nondynamic_count == 0)
    {
        return;
    }
    for (int r = 0; r < p->row_count; ++r)
    {
        double* j = p->jac + 6 * r;
        int a = p->body_a[r], b = p->body_b[r];
        if (a >= 0 && w->body_type[a] != CS_BODY_DYNAMIC)
        {
            p->bias[r] += half_velocity(j, p->v + 3 * a);
            p->body_a[r] = -1;
            j[0] = j[1] = j[2] = 0.0;
        }
        else if (w->body_type[b] != CS_BODY_DYNAMIC)
        {
            // The moving body goes to side b (where a wall row has it).
            p->bias[r] += half_velocity(j + 3, p->v + 3 * b);
            p->body_b[r] = a;
            p->body_a[r] = -1;
            j[3] = j[0];
            j[4] = j[1];
            j[5] = j[2];
            j[0] = j[1] = j[2] = 0.0;
        }
    }
}

cs_body_type cs_world_body_type(const cs_world* w, int id)
{
    int slot = cs_world_slot(w, id);
    return slot >= 0 ? (cs_body_type)w->body_type[slot] : CS_BODY_DYNAMIC;
}
