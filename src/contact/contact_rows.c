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

// The arrays rows_loop writes, read once: a store through p->kind (uint8_t, which may alias anything) made
// the compiler load every array pointer and rp's flags again after it, for every row.
typedef struct row_arrays
{
    int* body_a;
    int* body_b;
    double* jac;
    double* bias;
    uint8_t* kind;
    int* link;
    double* mu;
    double* lo;
    double* hi;
    double* lambda0;
    double* reg;
} row_arrays;

static inline __attribute__((always_inline)) row_arrays row_arrays_of(cs_lcp* p)
{
    return (row_arrays){p->body_a, p->body_b, p->jac, p->bias,    p->kind, p->link,
                        p->mu,     p->lo,     p->hi,  p->lambda0, p->reg};
}

// What the contact's rows read of it, read before the first store.
typedef struct row_inputs
{
    double nx, ny, bias, reg;
    int a, b;
    double ra, rb, friction, friction_impulse, normal_impulse;
} row_inputs;

// The contact's numbers; with spook, a touching contact's bias and regularisation are SPOOK's: the
// correction of gap + slop comes from real impulses (stabilised over the damping time) and the
// regularisation makes the contact a stiff spring-damper (a bounce is the restitution pass's).
static inline __attribute__((always_inline)) row_inputs row_inputs_of(const cs_contact* c, bool spook,
                                                                      const double* v_pre, double upsilon,
                                                                      double eps, double h,
                                                                      double linear_slop)
{
    row_inputs in = {.nx = c->nx, .ny = c->ny, .bias = c->bias, .reg = 0.0}; // bias: impact.c row_bias
    if (spook && c->impact_time == 0.0 && !c->bounce)
    {
        double vn0 = in.nx * v_pre[3 * c->b] + in.ny * v_pre[3 * c->b + 1];
        if (c->a >= 0)
        {
            vn0 -= in.nx * v_pre[3 * c->a] + in.ny * v_pre[3 * c->a + 1];
        }
        in.bias = 4.0 * upsilon / h * (c->gap + linear_slop) - upsilon * vn0;
        in.reg = eps;
    }
    in.a = c->a;
    in.b = c->b;
    in.ra = c->ra;
    in.rb = c->rb;
    in.friction = c->friction;
    in.friction_impulse = c->friction_impulse;
    in.normal_impulse = c->normal_impulse;
    return in;
}

// The normal row (with `fixed`, its fixed numbers too).
static inline __attribute__((always_inline)) void normal_row(const row_arrays* o, int row,
                                                             const row_inputs* in, bool has_reg, bool fixed)
{
    set_jacobian(o->jac + 6 * row, in->a >= 0, in->nx, in->ny, 0.0, 0.0);
    o->body_a[row] = in->a;
    o->body_b[row] = in->b;
    o->bias[row] = in->bias;
    if (fixed)
    {
        o->kind[row] = CS_ROW_NORMAL;
        o->link[row] = -1;
        o->mu[row] = 0.0;
        o->lo[row] = 0.0;
        o->hi[row] = INFINITY;
    }
    o->lambda0[row] = in->normal_impulse;
    if (has_reg)
    {
        o->reg[row] = in->reg;
    }
}

// The friction row after the normal row normal_row (with `fixed`, its fixed numbers too).
static inline __attribute__((always_inline)) void friction_row(const row_arrays* o, int row, int normal_row,
                                                               const row_inputs* in, bool has_reg, bool fixed)
{
    double tx = -in->ny, ty = in->nx;
    set_jacobian(o->jac + 6 * row, in->a >= 0, tx, ty, -in->ra, -in->rb);
    o->body_a[row] = in->a;
    o->body_b[row] = in->b;
    o->bias[row] = 0.0;
    if (fixed)
    {
        o->kind[row] = CS_ROW_FRICTION;
        o->link[row] = normal_row;
        o->lo[row] = 0.0;
        o->hi[row] = 0.0;
    }
    o->mu[row] = in->friction;
    o->lambda0[row] = in->friction_impulse;
    if (has_reg)
    {
        o->reg[row] = 0.0; // friction stays hard
    }
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
    const double h = rp->time_step;
    const double upsilon = 1.0 / (1.0 + 4.0 * rp->spook_damping_time / h);
    const double eps = 4.0 * upsilon / (h * h * rp->spook_stiffness);
    const double linear_slop = rp->linear_slop;
    const position_params pp = position_params_of(rp);
    const double* v_pre = rp->v_pre;
    const row_arrays o = row_arrays_of(p);
    int row = frictionless ? first : 2 * first;
    for (int k = first; k < end; ++k)
    {
        const cs_contact* c = contacts + (ordered ? order[k] : k);
        const row_inputs in = row_inputs_of(c, spook, v_pre, upsilon, eps, h, linear_slop);
        double split_bias = has_bias ? position_bias_of(c, pp) : 0.0;
        normal_row(&o, row, &in, has_reg, fixed);
        row += 1;
        if (!frictionless)
        {
            friction_row(&o, row, row - 1, &in, has_reg, fixed);
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
