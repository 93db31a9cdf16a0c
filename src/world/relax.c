// The relax solve of the soft formulation (CS_FORMULATION_SOFT; docs/PHYSICS.md "Position correction").
//
// Box2D v3's soft step (solver.c: b2SolverStage_Solve, b2SolverStage_Relax) on one step of ours: the velocity
// solve runs on SPOOK rows (the biased solve: the correction of gap + slop as impulses), positions move with
// its velocities, and then this relax solve takes the correction's velocity back out, so correcting a
// penetration moves the bodies but leaves no kinetic energy behind to launch a stack.
//
// Why it keeps angular momentum about any origin: the biased impulses act at contact points of the step's
// start (L(x, v) is kept), positions then move by h·v (L(x + h v, v) = L(x, v) since v × v = 0), and the
// relax impulses act at contact points re-measured at the new positions (cs_contact_refresh), so L is kept
// again. With the old normals the relax impulses of a pair would miss each other by the distance the line of
// centres turned, and with positions moved by anything but h·v (split impulses) L changes by
// h Σ p n × (v_b − v_a).
//
// The relax problem is an ordinary LCP, solved by the world's solver (every registered method runs on it):
// rows of the refreshed contacts, hard (no Σ), bias max(gap, 0)/h (a touching contact may not approach, an
// open one may close its gap), or the normal velocity a contact that collided in the restitution pass left
// with (collided_velocity); λ⁰ = the biased solve's λ (and the pass's), and
// v* = v − M⁻¹Jᵀλ⁰, so the solve starts from the velocities the step has and every change it makes is an
// impulse with λ ≥ 0 and the friction cone holding on the total.
#include <math.h>
#include <string.h>

#include "contact/contact_rows.h"
#include "contact/impact.h"
#include "contact/narrowphase.h"
#include "core/array.h"
#include "world/world_internal.h"

// A contact's normal velocity (circle normals pass through the centres), from the relative velocity as the
// solver evaluates the row's w (cs_halves_step_opposed): a row whose bias is −vn is at equality, and with the
// bias in another form the two roundings left it a residual of either sign (docs/PHYSICS.md, "The soft
// relax's bias in the rows' arithmetic": the soft gas lost more energy). A contact that collided in the
// restitution pass (restitution.c: a bounce, or a chained contact a neighbour's bounce closed) keeps the
// normal velocity the pass left it with as its row's bound: the relax may push it further apart (its
// neighbours' rows), never take the collision back. (Its bound was the rebound ρ, below what the pass gives a
// bounce by e·|vn*|: a ball dropped on the floor under soft lost its whole bounce, and a chain A → B → C was
// re-solved as one simultaneous collision.)
static double normal_velocity(const cs_contact* c, const double* v)
{
    double dx = v[3 * c->b], dy = v[3 * c->b + 1];
    if (c->a >= 0)
    {
        dx -= v[3 * c->a];
        dy -= v[3 * c->a + 1];
    }
    return c->nx * dx + c->ny * dy;
}

// The step's contacts copied and re-measured at the new positions (the world's list keeps the geometry of
// the step's start: stats and events read it), with the relax bias in `bias`.
static cs_status refresh_contacts(cs_world* w, cs_error* err)
{
    const cs_contact_list* from = &w->contacts;
    cs_contact_list* to = &w->relax_contacts;
    if (!CS_GROW(to->items, to->capacity, from->count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    to->count = from->count;
    const double inv_h = 1.0 / w->def.time_step;
    cs_restitution_params rp = {.time_step = w->def.time_step,
                                .threshold = w->def.restitution_threshold,
                                .linear_slop = w->def.linear_slop,
                                .gravity = hypot(w->def.gravity.x, w->def.gravity.y)};
    const double threshold = cs_bounce_threshold(&rp);
    for (int k = 0; k < from->count; ++k)
    {
        cs_contact* c = to->items + k;
        *c = from->items[k];
        cs_contact_refresh(c, w->walls, w->px, w->py, w->radius);
        bool bounced = c->bounce && c->normal_impulse > 0.0;
        double vn = normal_velocity(c, w->v);
        // An open contact moves at least as freely as it does now (impact.c's free bias): the relax may
        // not stop an approach that closes only next step (that made the soft gas plastic: −83 % in 1 s).
        // Nor one fast enough to bounce (a collision the pass met out of order, overlapping now): the next
        // step's contact instant bounces it from that approach.
        double free = c->gap * inv_h > -vn ? c->gap * inv_h : -vn;
        bool impact = c->restitution > 0.0 && -vn > threshold;
        c->bias = bounced || impact ? -vn : (c->gap > 0.0 ? free : 0.0);
        c->impact_time = 0.0; // (read only by SPOOK rows, which the relax does not build)
    }
    return CS_OK;
}

// v* = v − M⁻¹Jᵀλ⁰ over the rows (static halves have no body): the solve, starting from λ⁰, starts at v.
static void subtract_start_impulses(cs_lcp* p)
{
    for (int r = 0; r < p->row_count; ++r)
    {
        double l = p->lambda0[r];
        if (l == 0.0)
        {
            continue;
        }
        const double* j = p->jac + 6 * r;
        int a = p->body_a[r], b = p->body_b[r];
        if (a >= 0)
        {
            p->v[3 * a] -= p->inv_mass[a] * j[0] * l;
            p->v[3 * a + 1] -= p->inv_mass[a] * j[1] * l;
            p->v[3 * a + 2] -= p->inv_inertia[a] * j[2] * l;
        }
        p->v[3 * b] -= p->inv_mass[b] * j[3] * l;
        p->v[3 * b + 1] -= p->inv_mass[b] * j[4] * l;
        p->v[3 * b + 2] -= p->inv_inertia[b] * j[5] * l;
    }
}

static cs_status build_relax(cs_world* w, const int* order, cs_error* err)
{
    const int n = w->body_count;
    cs_lcp* p = &w->relax_problem;
    cs_status st = cs_lcp_reserve(p, n, 0, err);
    if (st != CS_OK || (st = refresh_contacts(w, err)) != CS_OK)
    {
        return st;
    }
    p->body_count = n;
    memcpy(p->inv_mass, w->inv_mass, (size_t)n * sizeof(double));
    memcpy(p->inv_inertia, w->inv_inertia, (size_t)n * sizeof(double));
    memcpy(p->v, w->v, (size_t)(3 * n) * sizeof(double));
    cs_row_params rp = {.time_step = w->def.time_step, .frictionless = w->def.frictionless, .spook = false};
    if ((st = cs_contact_rows_velocity(w->relax_contacts.items, order, w->relax_contacts.count, &rp, p,
                                       err)) != CS_OK ||
        (st = cs_joint_rows(w, p, err)) != CS_OK)
    {
        return st;
    }
    cs_rows_static_halves(w, p);
    subtract_start_impulses(p);
    if (!CS_GROW(w->relax_lambda, w->relax_lambda_capacity, p->row_count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    return CS_OK;
}

cs_status cs_relax_step(cs_world* w, const int* order, double* seconds, cs_error* err)
{
    double t0 = cs_seconds();
    cs_status st = build_relax(w, order, err);
    if (st != CS_OK)
    {
        return st;
    }
    cs_lcp* p = &w->relax_problem;
    cs_solve_run run;
    cs_solver_stats stats;
    cs_solver_params params = w->def.solver_params;
    params.warm_start = true; // λ⁰ is where v* was taken from, not a guess: the solve must start there
    if ((st = cs_solve_start(p, w->def.solver, &params, &w->work, w->relax_lambda, &run, err)) != CS_OK)
    {
        return st;
    }
    cs_solve_finish(&run, &stats);
    memcpy(w->v, w->work.v, (size_t)(3 * w->body_count) * sizeof(double));
    // The relaxed impulses are the next step's warm start (Box2D v3 stores them too).
    int per = w->def.frictionless ? 1 : 2;
    for (int k = 0; k < w->contacts.count; ++k)
    {
        cs_contact* c = w->contacts.items + (order != NULL ? order[k] : k);
        c->normal_impulse = w->relax_lambda[per * k];
        c->friction_impulse = per == 2 ? w->relax_lambda[per * k + 1] : 0.0;
    }
    cs_joint_store(w, w->relax_lambda);
    *seconds = cs_seconds() - t0;
    return CS_OK;
}

// The relax formulation: the split solve's λ_p pushed the pair apart along the start's normal (the
// pseudo-velocity the positions moved with, M⁻¹J_startᵀλ_p, is now a real impulse at the start's contact
// point), and the same λ_p pulls back along the normal at the new positions (an impulse at the new contact
// point). What stays in v is λ_p (n_start − n_end) per pair: equal and opposite, along the new tangent to
// first order, against the pair's sliding.
// A pair whose normal turned by more than ~5.7° in the step (centres that nearly coincided, or passed each
// other) would keep a residual as large as the correction itself (up to max_correction/h): its correction is
// forgotten as split forgets it, and only that pair's moment is not kept. In a pile a normal turns by
// h·v_t/d, a fraction of a degree.
#define CS_RELAX_MIN_COS 0.995

// Contact c's normal at the positions now, as cs_contact_refresh re-measures it (the same operations, so the
// same bits): for a pair of circles straight from the centres, without copying the contact (160 bytes) twice
// and re-measuring its point, gap and arms, which the take-back does not read (Pool 1 under relax: the
// take-back 60 → 34 k instructions a step, callgrind over 1 000 steps).
static void normal_now(const cs_world* w, const cs_contact* c, double* nx, double* ny)
{
    if (c->a < 0)
    {
        cs_contact now = *c;
        cs_contact_refresh(&now, w->walls, w->px, w->py, w->radius);
        *nx = now.nx;
        *ny = now.ny;
        return;
    }
    int a = c->a, b = c->b;
    double dx = w->px[b] - w->px[a], dy = w->py[b] - w->py[a];
    double d = sqrt(dx * dx + dy * dy);
    if (!(d - w->radius[a] - w->radius[b] < INFINITY))
    {
        // A non-finite position: the refresh keeps the old geometry (the health check reports it).
        *nx = c->nx;
        *ny = c->ny;
        return;
    }
    cs_circles_normal(dx, dy, d, nx, ny);
}

void cs_relax_split(cs_world* w, const int* order)
{
    for (int k = 0; k < w->contacts.count; ++k)
    {
        double l = w->position_lambda[k];
        if (l == 0.0)
        {
            continue;
        }
        const cs_contact* c = w->contacts.items + (order != NULL ? order[k] : k);
        double nx, ny;
        normal_now(w, c, &nx, &ny);
        if (c->nx * nx + c->ny * ny < CS_RELAX_MIN_COS)
        {
            continue;
        }
        double dx = l * (c->nx - nx), dy = l * (c->ny - ny);
        w->v[3 * c->b] += w->inv_mass[c->b] * dx;
        w->v[3 * c->b + 1] += w->inv_mass[c->b] * dy;
        if (c->a >= 0)
        {
            w->v[3 * c->a] -= w->inv_mass[c->a] * dx;
            w->v[3 * c->a + 1] -= w->inv_mass[c->a] * dy;
        }
    }
}
