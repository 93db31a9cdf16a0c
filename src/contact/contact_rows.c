// Jacobian rows and biases of DESIGN.md's sign convention: w = Aλ + q, q = J v* + b, normal n from a to b,
// tangent t = (−n_y, n_x). For circles the contact offsets are parallel to n (both reach the contact point
// p midway between the surfaces), so the normal row has no angular terms, and the friction row's angular
// terms are the lever arms: r_a × t = ra, r_b × t = −rb with ra = r_a + gap/2, rb = r_b + gap/2.
#include "contact/contact_rows.h"

#include <math.h>
#include <stddef.h>

// A row's six Jacobian numbers: −(jx, jy) and jwa on a's half (0 for a wall: two_sided false), then
// (jx, jy) and jwb on b's.
static inline void set_jacobian(double* j, bool two_sided, double jx, double jy, double jwa, double jwb)
{
    if (two_sided)
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

static void set_row(cs_lcp* p, int row, const cs_contact* c, double jx, double jy, double jwa, double jwb)
{
    p->body_a[row] = c->a;
    p->body_b[row] = c->b;
    set_jacobian(p->jac + 6 * row, c->a >= 0, jx, jy, jwa, jwb);
}

cs_status cs_contact_rows_velocity_reserve(int count, const cs_row_params* rp, cs_lcp* p, cs_error* err)
{
    int per = rp->frictionless ? 1 : 2;
    cs_status st = cs_lcp_reserve_reg(p, rp->spook || rp->soft_joints, err);
    if (st != CS_OK || (st = cs_lcp_reserve(p, p->body_count, count * per, err)) != CS_OK)
    {
        return st;
    }
    p->row_count = count * per;
    return CS_OK;
}

cs_status cs_contact_rows_velocity(const cs_contact* contacts, const int* order, int count,
                                   const cs_row_params* rp, cs_lcp* p, cs_error* err)
{
    cs_status st = cs_contact_rows_velocity_reserve(count, rp, p, err);
    if (st == CS_OK)
    {
        cs_contact_rows_velocity_range(contacts, order, 0, count, rp, p, NULL, 0);
    }
    return st;
}

// The numbers position_bias reads of cs_row_params, read once per pass: a store of a bias (a double) may
// alias rp's doubles, so read through rp they were loaded again for every contact.
typedef struct position_params
{
    double h, slop, baumgarte, max_correction;
} position_params;

static position_params position_params_of(const cs_row_params* rp)
{
    return (position_params){rp->time_step, rp->linear_slop, rp->baumgarte, rp->max_correction};
}

// C < 0: penetration beyond the slop, removed at the rate β C / h (capped). C >= 0: the pseudo velocity
// may close at most C this step, so correction never pushes a body into a neighbour.
static inline double position_bias_of(const cs_contact* c, position_params pp)
{
    double h = pp.h;
    double C = c->gap + pp.slop;
    double correction = pp.baumgarte * C; // < 0, capped at −max_correction (a comparison: no fmax call)
    return C >= 0.0 ? C / h : (correction > -pp.max_correction ? correction : -pp.max_correction) / h;
}

// The rows of contacts order[first] .. order[end − 1] (and their position biases when position_bias is not
// NULL); with `fixed` false, without the numbers every contact row has (kind, link, the normal row's μ, lo,
// hi: the row already holds them). Inlined three times: with the flags of the common step as constants
// (coloured order, no SPOOK, friction, no reg, the split's biases), with and without the fixed numbers, and
// with the flags read from the arguments, so the common step's loop tests none of them per contact.
static inline __attribute__((always_inline)) void rows_loop(const cs_contact* contacts, const int* order,
                                                            int first, int end, const cs_row_params* rp,
                                                            cs_lcp* p, double* position_bias, bool ordered,
                                                            bool spook, bool frictionless, bool has_reg,
                                                            bool has_bias, bool fixed)
{
    double h = rp->time_step;
    double upsilon = 1.0 / (1.0 + 4.0 * rp->spook_damping_time / h);
    double eps = 4.0 * upsilon / (h * h * rp->spook_stiffness);
    // The arrays and flags read once: a store through p->kind (uint8_t, which may alias anything) made the
    // compiler load every array pointer and rp's flags again after it, for every row.
    const double linear_slop = rp->linear_slop;
    const position_params pp = position_params_of(rp);
    const double* v_pre = rp->v_pre;
    int* body_a = p->body_a;
    int* body_b = p->body_b;
    double* jac = p->jac;
    double* bias_out = p->bias;
    uint8_t* kind = p->kind;
    int* link = p->link;
    double* mu = p->mu;
    double* lo = p->lo;
    double* hi = p->hi;
    double* lambda0 = p->lambda0;
    double* reg_out = p->reg;
    int row = frictionless ? first : 2 * first;
    for (int k = first; k < end; ++k)
    {
        const cs_contact* c = contacts + (ordered ? order[k] : k);
        double nx = c->nx, ny = c->ny;

        double bias = c->bias; // impact.c: row_bias
        double reg = 0.0;
        if (spook && c->impact_time == 0.0 && !c->bounce) // (a bounce is the restitution pass's)
        {
            // Touching: a SPOOK row. The correction of gap + slop comes from real impulses (stabilised
            // over the damping time) and the regularisation makes the contact a stiff spring-damper.
            double vn0 = nx * v_pre[3 * c->b] + ny * v_pre[3 * c->b + 1];
            if (c->a >= 0)
            {
                vn0 -= nx * v_pre[3 * c->a] + ny * v_pre[3 * c->a + 1];
            }
            bias = 4.0 * upsilon / h * (c->gap + linear_slop) - upsilon * vn0;
            reg = eps;
        }
        // Everything the friction row and the position bias read of the contact, read before the first
        // store.
        int a = c->a, b = c->b;
        double ra = c->ra, rb = c->rb, friction = c->friction, friction_impulse = c->friction_impulse;
        double normal_impulse = c->normal_impulse;
        double split_bias = has_bias ? position_bias_of(c, pp) : 0.0;

        set_jacobian(jac + 6 * row, a >= 0, nx, ny, 0.0, 0.0);
        body_a[row] = a;
        body_b[row] = b;
        bias_out[row] = bias;
        if (fixed)
        {
            kind[row] = CS_ROW_NORMAL;
            link[row] = -1;
            mu[row] = 0.0;
            lo[row] = 0.0;
            hi[row] = INFINITY;
        }
        lambda0[row] = normal_impulse;
        if (has_reg)
        {
            reg_out[row] = reg;
        }
        int normal_row = row;
        row += 1;

        if (!frictionless)
        {
            double tx = -ny, ty = nx;
            set_jacobian(jac + 6 * row, a >= 0, tx, ty, -ra, -rb);
            body_a[row] = a;
            body_b[row] = b;
            bias_out[row] = 0.0;
            if (fixed)
            {
                kind[row] = CS_ROW_FRICTION;
                link[row] = normal_row;
                lo[row] = 0.0;
                hi[row] = 0.0;
            }
            mu[row] = friction;
            lambda0[row] = friction_impulse;
            if (has_reg)
            {
                reg_out[row] = 0.0; // friction stays hard
            }
            row += 1;
        }
        if (has_bias)
        {
            position_bias[k] = split_bias;
        }
    }
}

void cs_contact_rows_velocity_range(const cs_contact* contacts, const int* order, int first, int end,
                                    const cs_row_params* rp, cs_lcp* p, double* position_bias, int laid)
{
    const bool ordered = order != NULL, has_reg = p->reg != NULL, has_bias = position_bias != NULL;
    if (ordered && !rp->spook && !rp->frictionless && !has_reg && has_bias)
    {
        const int mid = laid < first ? first : (laid > end ? end : laid);
        rows_loop(contacts, order, first, mid, rp, p, position_bias, true, false, false, false, true, false);
        rows_loop(contacts, order, mid, end, rp, p, position_bias, true, false, false, false, true, true);
    }
    else
    {
        rows_loop(contacts, order, first, end, rp, p, position_bias, ordered, rp->spook, rp->frictionless,
                  has_reg, has_bias, true);
    }
}

void cs_contact_position_bias(const cs_contact* contacts, const int* order, int count,
                              const cs_row_params* rp, double* bias)
{
    const position_params pp = position_params_of(rp);
    for (int k = 0; k < count; ++k)
    {
        bias[k] = position_bias_of(contacts + (order != NULL ? order[k] : k), pp);
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
    const position_params pp = position_params_of(rp);
    for (int k = 0; k < count; ++k)
    {
        const cs_contact* c = contacts + k;
        set_row(p, k, c, c->nx, c->ny, 0.0, 0.0);
        p->bias[k] = position_bias_of(c, pp);
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
