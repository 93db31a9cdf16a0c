// Distance joints as rows of the velocity problem. A joint keeps |p_b − p_a| = L between two anchor
// points; with n the unit vector from anchor a to anchor b and r the anchors' offsets from the centres,
// the row is   J = [ −nᵀ  −(r_a × n) | nᵀ  r_b × n ],  C = |p_b − p_a| − L,
// a box row (DESIGN.md's w = Aλ + q, q = J v* + b): a rod is an equality (−∞ ≤ λ ≤ +∞, w = 0) and a rope
// may only pull (−∞ ≤ λ ≤ 0: where λ = 0, w = J v* + b ≤ 0). A slack rope's bias is C / h, so it may go
// taut within the step and not beyond (the speculative idea of the contact rows); a taut one's is 0. The
// rows follow the contact rows, so the contacts' row indices, and the split-impulse position solve that
// works on them, are unchanged. The stretch the velocity solve leaves (and the drift of integrating along
// tangents) is removed after integration by nonlinear Gauss-Seidel on positions (cs_joint_project, Box2D
// v2's position solver): like the split impulses of the contacts, it moves bodies without adding energy.
// A spring is the same row made soft by SPOOK (Lacoursière's eqs. (1)-(3)): reg = Σ = 4Υ/(h²k) and
// b = (4Υ/h) C − Υ J v⁰ with Υ = 1/(1 + 4τ/h), τ = c/k (v⁰ the velocity before the step's forces), so
// (A + Σ)λ + J v* + b = 0 is a linearly implicit spring-damper step of stiffness k and damping c; it is
// not position-projected (its stretch is the spring's).
#include <math.h>
#include <string.h>

#include "core/array.h"
#include "circlesim/joint.h"
#include "world/world_internal.h"

cs_distance_joint_def cs_distance_joint_def_default(void)
{
    cs_distance_joint_def d;
    memset(&d, 0, sizeof d);
    d.body_a = -1;
    d.body_b = -1;
    d.length = 1.0;
    return d;
}

static int next_on(const cs_joint* j, int slot)
{
    return j->a == slot ? j->next_a : j->next_b;
}

static void link_joint(cs_world* w, int index)
{
    cs_joint* j = w->joints + index;
    if (j->a >= 0)
    {
        j->next_a = w->joint_head[j->a];
        w->joint_head[j->a] = index;
    }
    j->next_b = w->joint_head[j->b];
    w->joint_head[j->b] = index;
}

static bool spring_value_ok(double x)
{
    return isfinite(x) && x >= 0.0;
}

// The spring fields: finite and >= 0, one way of giving the stiffness, damping only with it.
static bool check_spring(const cs_distance_joint_def* def, cs_error* err)
{
    if (!spring_value_ok(def->hertz) || !spring_value_ok(def->damping_ratio) ||
        !spring_value_ok(def->stiffness) || !spring_value_ok(def->damping))
    {
        cs_fail(err, CS_ERR_VALUE,
                "joint: hertz, damping_ratio, stiffness and damping must be finite and >= 0 (got %g, %g, %g, "
                "%g)",
                def->hertz, def->damping_ratio, def->stiffness, def->damping);
        return false;
    }
    if (def->hertz > 0.0 && def->stiffness > 0.0)
    {
        cs_fail(err, CS_ERR_VALUE, "joint: a spring is given by hertz or by stiffness, not both");
        return false;
    }
    if ((def->damping_ratio > 0.0 && !(def->hertz > 0.0)) || (def->damping > 0.0 && !(def->stiffness > 0.0)))
    {
        cs_fail(err, CS_ERR_VALUE, "joint: %s",
                def->damping_ratio > 0.0 ? "damping_ratio needs hertz > 0" : "damping needs stiffness > 0");
        return false;
    }
    return true;
}

static bool is_spring(const cs_joint* j)
{
    return j->hertz > 0.0 || j->stiffness > 0.0;
}

bool cs_joint_any_soft(const cs_world* w)
{
    for (int k = 0; k < w->joint_count; ++k)
    {
        if (w->joints[k].alive && is_spring(w->joints + k))
        {
            return true;
        }
    }
    return false;
}

int cs_world_add_distance_joint(cs_world* w, const cs_distance_joint_def* def, cs_error* err)
{
    int a = def->body_a < 0 ? -1 : cs_world_slot(w, def->body_a);
    int b = def->body_b < 0 ? -1 : cs_world_slot(w, def->body_b);
    if ((def->body_a >= 0 && a < 0) || (def->body_b >= 0 && b < 0))
    {
        cs_fail(err, CS_ERR_USAGE, "joint: body %d is not alive",
                def->body_a >= 0 && a < 0 ? def->body_a : def->body_b);
        return -1;
    }
    if (a == b)
    {
        cs_fail(err, CS_ERR_USAGE,
                "joint: a joint needs two different bodies (or a body and the world), got %d twice",
                def->body_a);
        return -1;
    }
    if (!(isfinite(def->length) && def->length > 0.0) || !isfinite(def->local_anchor_a.x) ||
        !isfinite(def->local_anchor_a.y) || !isfinite(def->local_anchor_b.x) ||
        !isfinite(def->local_anchor_b.y))
    {
        cs_fail(err, CS_ERR_VALUE, "joint: length must be a finite number > 0 (got %g) and anchors finite",
                def->length);
        return -1;
    }
    if (!check_spring(def, err))
    {
        return -1;
    }
    if (!CS_GROW(w->joints, w->joint_capacity, w->joint_count + 1))
    {
        cs_fail(err, CS_ERR_MEMORY, "joint: out of memory");
        return -1;
    }
    cs_joint j;
    memset(&j, 0, sizeof j);
    // The body goes to side b, where a wall row has it (so does cs_rows_static_halves).
    bool swap = b < 0;
    j.a = swap ? b : a;
    j.b = swap ? a : b;
    cs_vec2 la = swap ? def->local_anchor_b : def->local_anchor_a;
    cs_vec2 lb = swap ? def->local_anchor_a : def->local_anchor_b;
    j.la_x = la.x;
    j.la_y = la.y;
    j.lb_x = lb.x;
    j.lb_y = lb.y;
    j.length = def->length;
    j.rope = def->rope;
    j.collide = def->collide_connected;
    j.hertz = def->hertz;
    j.damping_ratio = def->damping_ratio;
    j.stiffness = def->stiffness;
    j.damping = def->damping;
    j.alive = true;
    j.next_a = j.next_b = -1;
    cs_sleep_wake(w, a);
    cs_sleep_wake(w, b);
    int index = w->joint_count++;
    w->joints[index] = j;
    link_joint(w, index);
    w->no_collide_joints += !j.collide && j.a >= 0;
    return index;
}

// Anchor of side s of joint j in world coordinates, and its offset from the body's centre.
static cs_vec2 anchor(const cs_world* w, int slot, double lx, double ly, cs_vec2* offset)
{
    cs_vec2 p = {lx, ly};
    offset->x = offset->y = 0.0;
    if (slot < 0)
    {
        return p; // the world: the anchor is in world coordinates
    }
    double c = cos(w->angle[slot]), s = sin(w->angle[slot]);
    offset->x = c * lx - s * ly;
    offset->y = s * lx + c * ly;
    p.x = w->px[slot] + offset->x;
    p.y = w->py[slot] + offset->y;
    return p;
}

// The joint's geometry at the current positions: offsets of the anchors from the centres, the unit
// direction from anchor a to anchor b (any, (1, 0), when they coincide) and the distance.
typedef struct joint_frame
{
    cs_vec2 ra, rb;
    double nx, ny, len;
} joint_frame;

static joint_frame frame_of(const cs_world* w, const cs_joint* j)
{
    joint_frame f;
    cs_vec2 pa = anchor(w, j->a, j->la_x, j->la_y, &f.ra);
    cs_vec2 pb = anchor(w, j->b, j->lb_x, j->lb_y, &f.rb);
    double dx = pb.x - pa.x, dy = pb.y - pa.y;
    f.len = sqrt(dx * dx + dy * dy);
    f.nx = f.len > 1e-12 ? dx / f.len : 1.0;
    f.ny = f.len > 1e-12 ? dy / f.len : 0.0;
    return f;
}

// A joint gets a row while one of its bodies can move (not both asleep, static or kinematic); the rows and
// the λ read back after the solve skip the same joints (no inverse mass changes in between).
static bool has_row(const cs_world* w, const cs_joint* j)
{
    return j->alive && ((j->a >= 0 && w->inv_mass[j->a] > 0.0) || w->inv_mass[j->b] > 0.0);
}

// A spring's SPOOK row (Lacoursière eqs. (1)-(3), the constants of contact_rows.c's SPOOK contacts):
// sets *bias to (4Υ/h) C − Υ J v⁰ and returns Σ = 4Υ/(h²k). By frequency, k = m_eff ω² and τ = c/k =
// 2ζ/ω, with m_eff = 1/(J M⁻¹ Jᵀ) of this row.
static double spring_row(const cs_world* w, const cs_joint* j, const double jac[6], double C, double* bias)
{
    double h = w->def.time_step;
    double k = j->stiffness, tau = j->stiffness > 0.0 ? j->damping / j->stiffness : 0.0;
    if (j->hertz > 0.0)
    {
        double K = 0.0;
        if (j->a >= 0)
        {
            K += w->inv_mass[j->a] * (jac[0] * jac[0] + jac[1] * jac[1]) +
                 w->inv_inertia[j->a] * jac[2] * jac[2];
        }
        K += w->inv_mass[j->b] * (jac[3] * jac[3] + jac[4] * jac[4]) + w->inv_inertia[j->b] * jac[5] * jac[5];
        double omega = 2.0 * 3.14159265358979323846 * j->hertz;
        k = omega * omega / K; // K > 0: the row exists because a side moves
        tau = 2.0 * j->damping_ratio / omega;
    }
    double upsilon = 1.0 / (1.0 + 4.0 * tau / h);
    double vn0 = 0.0; // J v⁰, the velocity before this step's forces
    const double* v0 = w->v_pre;
    if (j->a >= 0)
    {
        vn0 += jac[0] * v0[3 * j->a] + jac[1] * v0[3 * j->a + 1] + jac[2] * v0[3 * j->a + 2];
    }
    vn0 += jac[3] * v0[3 * j->b] + jac[4] * v0[3 * j->b + 1] + jac[5] * v0[3 * j->b + 2];
    *bias = 4.0 * upsilon / h * C - upsilon * vn0;
    return 4.0 * upsilon / (h * h * k);
}

cs_status cs_joint_rows(cs_world* w, cs_lcp* p, cs_error* err)
{
    int first = p->row_count;
    w->joint_rows_first = first;
    if (w->joint_count == 0)
    {
        return CS_OK;
    }
    // (contact_rows.c keeps p->reg when a spring is alive: the contact rows' entries are 0 then)
    cs_status st = cs_lcp_reserve(p, p->body_count, first + w->joint_count, err);
    if (st != CS_OK)
    {
        return st;
    }
    double h = w->def.time_step;
    int row = first;
    for (int k = 0; k < w->joint_count; ++k)
    {
        const cs_joint* j = w->joints + k;
        if (!has_row(w, j))
        {
            continue;
        }
        joint_frame f = frame_of(w, j);
        cs_vec2 ra = f.ra, rb = f.rb;
        double nx = f.nx, ny = f.ny, len = f.len;
        double* jac = p->jac + 6 * row;
        jac[0] = j->a >= 0 ? -nx : 0.0;
        jac[1] = j->a >= 0 ? -ny : 0.0;
        jac[2] = j->a >= 0 ? -(ra.x * ny - ra.y * nx) : 0.0;
        jac[3] = nx;
        jac[4] = ny;
        jac[5] = rb.x * ny - rb.y * nx;
        double C = len - j->length;
        p->body_a[row] = j->a;
        p->body_b[row] = j->b;
        // No Baumgarte term: fed back through a solve that stops short of convergence (a 100:1 chain
        // at 10 iterations), β C / h pumps energy until the chain explodes; drift is projected out at the
        // position level instead (cs_joint_project).
        p->bias[row] = j->rope && C < 0.0 ? C / h : 0.0;
        if (p->reg != NULL)
        {
            p->reg[row] = is_spring(j) ? spring_row(w, j, jac, C, p->bias + row) : 0.0;
        }
        p->kind[row] = CS_ROW_BOX;
        p->link[row] = -1;
        p->mu[row] = 0.0;
        p->lo[row] = -INFINITY;
        p->hi[row] = j->rope ? 0.0 : INFINITY;
        p->lambda0[row] = w->def.solver_params.warm_start ? j->impulse : 0.0;
        row += 1;
    }
    p->row_count = row;
    return CS_OK;
}

void cs_joint_store(cs_world* w, const double* lambda)
{
    int row = w->joint_rows_first;
    for (int k = 0; k < w->joint_count; ++k)
    {
        cs_joint* j = w->joints + k;
        if (has_row(w, j))
        {
            j->impulse = lambda[row++];
        }
    }
}

static void unlink_joint(cs_world* w, int slot, int index)
{
    int* at = &w->joint_head[slot];
    while (*at >= 0 && *at != index)
    {
        cs_joint* j = w->joints + *at;
        at = j->a == slot ? &j->next_a : &j->next_b;
    }
    if (*at == index)
    {
        *at = next_on(w->joints + index, slot);
    }
}

void cs_joint_remove_body(cs_world* w, int slot)
{
    for (int k = w->joint_head[slot]; k >= 0;)
    {
        cs_joint* j = w->joints + k;
        int next = next_on(j, slot);
        int other = j->a == slot ? j->b : j->a;
        if (other >= 0)
        {
            unlink_joint(w, other, k);
        }
        w->no_collide_joints -= !j->collide && j->a >= 0;
        j->alive = false;
        k = next;
    }
    w->joint_head[slot] = -1;
}

bool cs_joined_without_contact(const cs_world* w, int a, int b)
{
    for (int k = w->joint_head[a]; k >= 0; k = next_on(w->joints + k, a))
    {
        const cs_joint* j = w->joints + k;
        if (!j->collide && (j->a == b || j->b == b))
        {
            return true;
        }
    }
    return false;
}

int cs_world_joint_count(const cs_world* w)
{
    return w->joint_count;
}

cs_joint_info cs_world_joint(const cs_world* w, int index)
{
    cs_joint_info info;
    memset(&info, 0, sizeof info);
    info.body_a = info.body_b = -1;
    if (index < 0 || index >= w->joint_count)
    {
        return info;
    }
    const cs_joint* j = w->joints + index;
    info.alive = j->alive;
    info.rope = j->rope;
    info.spring = is_spring(j);
    info.length = j->length;
    info.impulse = j->impulse;
    if (!j->alive)
    {
        return info;
    }
    cs_vec2 ra, rb;
    info.body_a = j->a >= 0 ? cs_world_slot_id(w, j->a) : -1;
    info.body_b = cs_world_slot_id(w, j->b);
    info.anchor_a = anchor(w, j->a, j->la_x, j->la_y, &ra);
    info.anchor_b = anchor(w, j->b, j->lb_x, j->lb_y, &rb);
    info.current_length = hypot(info.anchor_b.x - info.anchor_a.x, info.anchor_b.y - info.anchor_a.y);
    info.solve_stretch = j->stretch;
    return info;
}

// One nonlinear Gauss-Seidel pass per position iteration over the joints: each moves its bodies along n
// by the impulse that zeroes its C (capped at the world's max_correction), with the effective mass
// K = m_a⁻¹ + m_b⁻¹ + I_a⁻¹ (r_a × n)² + I_b⁻¹ (r_b × n)² at the current positions.
double cs_joint_project(cs_world* w)
{
    double cap = w->def.max_correction;
    double moved = 0.0; // Σ|C| projected: no body moves farther (each projection moves a body by <= |C|)
    for (int k = 0; k < w->joint_count; ++k)
    {
        cs_joint* j = w->joints + k;
        if (j->alive)
        {
            j->stretch = frame_of(w, j).len - j->length;
        }
    }
    for (int it = 0; it < w->def.position_iterations; ++it)
    {
        for (int k = 0; k < w->joint_count; ++k)
        {
            const cs_joint* j = w->joints + k;
            if (!j->alive)
            {
                continue;
            }
            joint_frame f = frame_of(w, j);
            cs_vec2 ra = f.ra, rb = f.rb;
            double C = f.len - j->length;
            if (f.len < 1e-12 || (j->rope && C <= 0.0) || is_spring(j))
            {
                continue; // (a spring's stretch is its force, not an error)
            }
            C = C > cap ? cap : (C < -cap ? -cap : C);
            double nx = f.nx, ny = f.ny;
            double cra = ra.x * ny - ra.y * nx, crb = rb.x * ny - rb.y * nx;
            double ima = j->a >= 0 ? w->inv_mass[j->a] : 0.0, iia = j->a >= 0 ? w->inv_inertia[j->a] : 0.0;
            double imb = w->inv_mass[j->b], iib = w->inv_inertia[j->b];
            double K = ima + imb + iia * cra * cra + iib * crb * crb;
            if (!(K > 0.0))
            {
                continue;
            }
            double P = -C / K;
            moved += fabs(C);
            if (j->a >= 0)
            {
                w->px[j->a] -= ima * P * nx;
                w->py[j->a] -= ima * P * ny;
                w->angle[j->a] -= iia * P * cra;
            }
            w->px[j->b] += imb * P * nx;
            w->py[j->b] += imb * P * ny;
            w->angle[j->b] += iib * P * crb;
        }
    }
    return moved;
}
