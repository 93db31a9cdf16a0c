// Jacobian rows and biases of DESIGN.md's sign convention: w = Aλ + q, q = J v* + b, normal n from a to b,
// tangent t = (−n_y, n_x). For circles the contact offsets are parallel to n (both reach the contact point
// p midway between the surfaces), so the normal row has no angular terms, and the friction row's angular
// terms are the lever arms: r_a × t = ra, r_b × t = −rb with ra = r_a + gap/2, rb = r_b + gap/2.
#include "contact/contact_rows.h"

#include <math.h>
#include <stddef.h>

static void set_row(cs_lcp* p, int row, const cs_contact* c, double jx, double jy, double jwa, double jwb)
{
    double* j = p->jac + 6 * row;
    p->body_a[row] = c->a;
    p->body_b[row] = c->b;
    if (c->a >= 0)
    {
        j[0] = -jx;
        j[1] = -jy;
        j[2] = jwa;
    }
    else
    {
        j[0] = 0.0;
        j[1] = 0.0;
        j[2] = 0.0;
    }
    j[3] = jx;
    j[4] = jy;
    j[5] = jwb;
}

cs_status cs_contact_rows_velocity(const cs_contact* contacts, const int* order, int count,
                                   const cs_row_params* rp, cs_lcp* p, cs_error* err)
{
    int per = rp->frictionless ? 1 : 2;
    cs_status st = cs_lcp_reserve_reg(p, rp->spook || rp->soft_joints, err);
    if (st != CS_OK || (st = cs_lcp_reserve(p, p->body_count, count * per, err)) != CS_OK)
    {
        return st;
    }
    double h = rp->time_step;
    double upsilon = 1.0 / (1.0 + 4.0 * rp->spook_damping_time / h);
    double eps = 4.0 * upsilon / (h * h * rp->spook_stiffness);
    int row = 0;
    for (int k = 0; k < count; ++k)
    {
        const cs_contact* c = contacts + (order != NULL ? order[k] : k);
        double nx = c->nx, ny = c->ny;

        double bias = c->bias; // impact.c: row_bias
        double reg = 0.0;
        if (rp->spook && c->impact_time == 0.0 && !c->bounce) // (a bounce is the restitution pass's)
        {
            // Touching: a SPOOK row. The correction of gap + slop comes from real impulses (stabilised
            // over the damping time) and the regularisation makes the contact a stiff spring-damper.
            double vn0 = nx * rp->v_pre[3 * c->b] + ny * rp->v_pre[3 * c->b + 1];
            if (c->a >= 0)
            {
                vn0 -= nx * rp->v_pre[3 * c->a] + ny * rp->v_pre[3 * c->a + 1];
            }
            bias = 4.0 * upsilon / h * (c->gap + rp->linear_slop) - upsilon * vn0;
            reg = eps;
        }

        set_row(p, row, c, nx, ny, 0.0, 0.0);
        p->bias[row] = bias;
        p->kind[row] = CS_ROW_NORMAL;
        p->link[row] = -1;
        p->mu[row] = 0.0;
        p->lo[row] = 0.0;
        p->hi[row] = INFINITY;
        p->lambda0[row] = c->normal_impulse;
        if (p->reg != NULL)
        {
            p->reg[row] = reg;
        }
        int normal_row = row;
        row += 1;

        if (!rp->frictionless)
        {
            double tx = -ny, ty = nx;
            set_row(p, row, c, tx, ty, -c->ra, -c->rb);
            p->bias[row] = 0.0;
            p->kind[row] = CS_ROW_FRICTION;
            p->link[row] = normal_row;
            p->mu[row] = c->friction;
            p->lo[row] = 0.0;
            p->hi[row] = 0.0;
            p->lambda0[row] = c->friction_impulse;
            if (p->reg != NULL)
            {
                p->reg[row] = 0.0; // friction stays hard
            }
            row += 1;
        }
    }
    p->row_count = row;
    return CS_OK;
}

// C < 0: penetration beyond the slop, removed at the rate β C / h (capped). C >= 0: the pseudo velocity
// may close at most C this step, so correction never pushes a body into a neighbour.
static double position_bias(const cs_contact* c, const cs_row_params* rp)
{
    double h = rp->time_step;
    double C = c->gap + rp->linear_slop;
    double correction = rp->baumgarte * C; // < 0, capped at −max_correction (a comparison: no fmax call)
    return C >= 0.0 ? C / h : (correction > -rp->max_correction ? correction : -rp->max_correction) / h;
}

void cs_contact_position_bias(const cs_contact* contacts, const int* order, int count,
                              const cs_row_params* rp, double* bias)
{
    for (int k = 0; k < count; ++k)
    {
        bias[k] = position_bias(contacts + (order != NULL ? order[k] : k), rp);
    }
}

cs_status cs_contact_rows_position(const cs_contact* contacts, int count, const cs_row_params* rp, cs_lcp* p,
                                   cs_error* err)
{
    cs_status st = cs_lcp_reserve(p, p->body_count, count, err);
    if (st != CS_OK)
    {
        return st;
    }
    for (int k = 0; k < count; ++k)
    {
        const cs_contact* c = contacts + k;
        set_row(p, k, c, c->nx, c->ny, 0.0, 0.0);
        p->bias[k] = position_bias(c, rp);
        p->kind[k] = CS_ROW_NORMAL;
        p->link[k] = -1;
        p->mu[k] = 0.0;
        p->lo[k] = 0.0;
        p->hi[k] = INFINITY;
        p->lambda0[k] = 0.0;
    }
    p->row_count = count;
    return CS_OK;
}
