// A quad's lanes back into packed records (cs_pack_lanes writes rows straight into lanes; the rows that
// leave a pending quad, and every reader of records, take them from there).
#include "solver/pack.h"
#include "solver/simd.h"
#include "solver/solver_internal.h"

static inline cs_v2 lane_xy(const double* x, const double* y, int l)
{
    return cs_v2_set(x[l], y[l]);
}

// The records of pair k of quad q, rows `row` (normal) and row + 1. A normal row's angular fields are not in
// the lanes: they are 0 here, and no reader of a linear row's record looks at them.
void cs_pair_from_lane(const cs_pair_quad* q, int k, int row, cs_packed_row* n)
{
    const cs_v2 zero = {0.0, 0.0};
    int l = cs_pair_lane(k);
    cs_packed_row* f = n + 1;
    *n = (cs_packed_row){.ja = lane_xy(q->nax, q->nay, l),
                         .jb = lane_xy(q->nbx, q->nby, l),
                         .jw = zero,
                         .ma = lane_xy(q->nmax, q->nmay, l),
                         .mb = lane_xy(q->nmbx, q->nmby, l),
                         .mw = zero,
                         .bias = q->nbias[l],
                         .mu = q->coupling[l],
                         .a = q->a[l],
                         .b = q->b[l],
                         .link = -1,
                         .kind = CS_PACK_NORMAL_ROW | CS_PACK_PAIR};
    *f = (cs_packed_row){.ja = lane_xy(q->fax, q->fay, l),
                         .jb = lane_xy(q->fbx, q->fby, l),
                         .jw = lane_xy(q->fwb, q->fwa, l),
                         .ma = lane_xy(q->fmax, q->fmay, l),
                         .mb = lane_xy(q->fmbx, q->fmby, l),
                         .mw = lane_xy(q->fmwb, q->fmwa, l),
                         .bias = q->fbias[l],
                         .mu = q->mu[l],
                         .a = q->a[l],
                         .b = q->b[l],
                         .link = row,
                         .kind = CS_PACK_FRICTION_ROW};
}

void cs_normal_from_lane(const cs_normal_quad* q, int l, cs_packed_row* r)
{
    const cs_v2 zero = {0.0, 0.0};
    *r = (cs_packed_row){.ja = lane_xy(q->jax, q->jay, l),
                         .jb = lane_xy(q->jbx, q->jby, l),
                         .jw = zero,
                         .ma = lane_xy(q->max, q->may, l),
                         .mb = lane_xy(q->mbx, q->mby, l),
                         .mw = zero,
                         .bias = q->bias[l],
                         .mu = 0.0,
                         .a = q->a[l],
                         .b = q->b[l],
                         .link = -1,
                         .kind = CS_PACK_NORMAL_ROW};
}

void cs_pack_records_from_lanes(const cs_solver_work* w)
{
    cs_packed_row* records = w->packed;
    const cs_sweep_item* items = w->schedule;
    for (int k = 0; w->lanes_only && k < w->schedule_count; ++k)
    {
        const cs_sweep_item* it = items + k;
        for (int u = 0; it->quad >= 0 && u < CS_LANES; ++u)
        {
            if (it->count == 2 * CS_LANES)
            {
                int row = it->first + 2 * u;
                cs_pair_from_lane((const cs_pair_quad*)w->quads + it->quad, u, row, records + row);
            }
            else
            {
                cs_normal_from_lane((const cs_normal_quad*)w->normal_quads + it->quad, u,
                                    records + it->first + u);
            }
        }
    }
}
