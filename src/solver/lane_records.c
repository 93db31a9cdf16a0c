// A quad's lanes back into packed records (cs_pack_lanes writes rows straight into lanes; the rows that
// leave a pending quad, and every reader of records, take them from there).
#include "solver/pack.h"
#include "solver/simd.h"
#include "solver/solver_internal.h"

static inline cs_v2 lane_xy(const double* x, const double* y, int l)
{
    return cs_v2_set(x[l], y[l]);
}

// The records of pair k of quad q, rows `row` (normal) and row + 1, each number as cs_pair_quad says it
// follows from the lanes. A normal row's angular fields are not in the lanes: they are 0 here, and no reader
// of a linear row's record looks at them.
void cs_pair_from_lane(const cs_pair_quad* q, int k, int row, cs_packed_row* n)
{
    const cs_v2 zero = {0.0, 0.0};
    int l = cs_pair_lane(k);
    cs_pair_normal r = cs_pair_lane_normal(q, l);
    *n = (cs_packed_row){.ja = r.ja,
                         .jb = r.jb,
                         .jw = zero,
                         .ma = r.ma,
                         .mb = r.mb,
                         .mw = zero,
                         .bias = q->nbias[l],
                         .mu = q->coupling[l],
                         .a = q->a[l],
                         .b = q->b[l],
                         .link = -1,
                         .kind = CS_PACK_NORMAL_ROW | CS_PACK_PAIR};
    cs_v2 fjb = cs_v2_set(q->fbx[l], q->fby[l]);
    n[1] = (cs_packed_row){.ja = r.fixed ? zero : -fjb,
                           .jb = fjb,
                           .jw = lane_xy(q->fwb, q->fwa, l),
                           .ma = cs_v2_set(r.fixed ? 0.0 : -r.ma[1], r.ma[0]),
                           .mb = cs_v2_set(-r.mb[1], r.mb[0]),
                           .mw = lane_xy(q->fmwb, q->fmwa, l),
                           .bias = q->fbias[l],
                           .mu = q->mu[l],
                           .a = q->a[l],
                           .b = q->b[l],
                           .link = row,
                           .kind = CS_PACK_FRICTION_ROW};
}

void cs_pair_to_lane(cs_pair_quad* q, int k, const cs_packed_row* n, const cs_packed_row* f)
{
    int l = cs_pair_lane(k);
    q->nbx[l] = n->jb[0], q->nby[l] = n->jb[1];
    q->nmbx[l] = n->mb[0], q->nmby[l] = n->mb[1];
    q->nmax[l] = n->ma[0], q->nmay[l] = n->ma[1];
    q->a[l] = n->a;
    q->b[l] = n->b;
    q->nbias[l] = n->bias;
    q->coupling[l] = n->mu;
    q->fbx[l] = f->jb[0], q->fby[l] = f->jb[1];
    q->fwb[l] = f->jw[0], q->fwa[l] = f->jw[1];
    q->fmwb[l] = f->mw[0], q->fmwa[l] = f->mw[1];
    q->fbias[l] = f->bias;
    q->mu[l] = f->mu;
}

void cs_pair_null_lane(cs_pair_quad* q, int k, int32_t zero_slot)
{
    const cs_packed_row null = {.a = zero_slot, .b = zero_slot}; // every number +0
    cs_pair_to_lane(q, k, &null, &null);
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

void cs_pack_records_of_quad(const cs_solver_work* w, const cs_sweep_item* it)
{
    cs_packed_row* records = w->packed;
    int units = it->pairs > 0 ? it->pairs : CS_LANES;
    for (int u = 0; it->quad >= 0 && u < units; ++u)
    {
        if (it->pairs > 0)
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

void cs_pack_records_from_lanes(const cs_solver_work* w)
{
    const cs_sweep_item* items = w->schedule;
    for (int k = 0; w->lanes_only && k < w->schedule_count; ++k)
    {
        cs_pack_records_of_quad(w, items + k);
    }
}
