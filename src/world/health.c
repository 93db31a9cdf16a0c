// Health of a step (cs_health): nothing non-finite or exploding reaches the world's state.
//
// The good path costs one pass over the bodies and one over λ, just before the positions move. Only when
// that pass finds a bad value are the step's intermediate arrays (all still in the world) searched phase
// by phase for the first place it appeared. The step is then undone: positions have not moved yet,
// velocities come back from v_pre (the step's start), and the contact lists swap back, so the last good
// state (with its warm start) stays.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/v2.h"
#include "world/limits.h"
#include "world/world_internal.h"

static const char* const phase_names[] = {"none",  "forces",   "broad phase", "rows",
                                          "solve", "position", "integrate"};

const char* cs_step_phase_name(cs_step_phase phase)
{
    return (int)phase >= 0 && phase <= CS_PHASE_INTEGRATE ? phase_names[phase] : "none";
}

const cs_health* cs_world_health(const cs_world* w)
{
    return &w->health;
}

// (int, not bool: step_sane combines them with '&' so the loop has no branch, which clang's
// -Wbitwise-instead-of-logical flags for bool operands.)
static int sane_speed(double x)
{
    return fabs(x) <= CS_LIMIT_EXPLODE_SPEED; // 0 for NaN too
}

static int sane_coord(double x)
{
    return fabs(x) <= CS_LIMIT_EXPLODE_COORD;
}

// The first body whose three velocity entries in v (3 per body) are not sane, or -1; *k the entry.
static int bad_velocity(const double* v, int n, int* k)
{
    for (int i = 0; i < 3 * n; ++i)
    {
        if (!sane_speed(v[i]))
        {
            *k = i % 3;
            return i / 3;
        }
    }
    return -1;
}

static int bad_finite(const double* x, int count)
{
    for (int i = 0; i < count; ++i)
    {
        if (!isfinite(x[i]))
        {
            return i;
        }
    }
    return -1;
}

// The new position of body i (what integration would write) in x, y; false when it is not sane.
static bool next_position(const cs_world* w, int i, double* x, double* y)
{
    double h = w->def.time_step;
    const double* pv = w->pseudo_v;
    *x = w->px[i] + h * (w->v[3 * i] + pv[3 * i]);
    *y = w->py[i] + h * (w->v[3 * i + 1] + pv[3 * i + 1]);
    double a = w->angle[i] + h * (w->v[3 * i + 2] + pv[3 * i + 2]);
    return sane_coord(*x) && sane_coord(*y) && isfinite(a);
}

static const char* const v_names[3] = {"vx", "vy", "omega"};

// Fills w->health with the first phase whose arrays hold a bad value.
static void locate(cs_world* w)
{
    cs_health* hl = &w->health;
    const int n = w->body_count;
    const cs_lcp* p = &w->velocity_problem;
    const int m = p->row_count;
    char what[CS_ERROR_MAX] = "";
    int k = 0, i, r;
    hl->body = -1;
    hl->row = -1;
    if ((i = bad_velocity(p->v, n, &k)) >= 0)
    {
        hl->phase = CS_PHASE_FORCES;
        hl->body = i;
        snprintf(what, sizeof what, "v* %s = %g (gravity and forces)", v_names[k], p->v[3 * i + k]);
    }
    else if ((i = bad_finite(w->reach, n)) >= 0)
    {
        hl->phase = CS_PHASE_BROADPHASE;
        hl->body = i;
        snprintf(what, sizeof what, "reach = %g", w->reach[i]);
    }
    else if ((r = bad_finite(p->jac, 6 * m)) >= 0 || (r = 6 * bad_finite(p->bias, m)) >= 0 ||
             (r = 6 * bad_finite(p->lambda0, m)) >= 0)
    {
        hl->phase = CS_PHASE_ROWS;
        hl->row = r / 6;
        hl->body = p->body_b[hl->row];
        snprintf(what, sizeof what, "row %d: Jacobian %g, bias %g, lambda0 %g", hl->row, p->jac[r],
                 p->bias[hl->row], p->lambda0[hl->row]);
    }
    else if ((r = bad_finite(w->lambda, m)) >= 0 || (i = bad_velocity(w->v, n, &k)) >= 0)
    {
        hl->phase = CS_PHASE_SOLVE;
        if (r >= 0)
        {
            hl->row = r;
            hl->body = p->body_b[r];
            snprintf(what, sizeof what, "row %d: lambda = %g", r, w->lambda[r]);
        }
        else
        {
            hl->body = i;
            snprintf(what, sizeof what, "%s = %g", v_names[k], w->v[3 * i + k]);
        }
    }
    else if ((i = bad_velocity(w->pseudo_v, n, &k)) >= 0)
    {
        hl->phase = CS_PHASE_POSITION;
        hl->body = i;
        snprintf(what, sizeof what, "pseudo-velocity %s = %g", v_names[k], w->pseudo_v[3 * i + k]);
    }
    else
    {
        hl->phase = CS_PHASE_INTEGRATE;
        for (i = 0; i < n; ++i)
        {
            double x, y;
            if (!next_position(w, i, &x, &y))
            {
                hl->body = i;
                snprintf(what, sizeof what, "position (%g, %g)", x, y);
                break;
            }
        }
    }
    snprintf(hl->message, sizeof hl->message, "step %lld: %s: body %d: %s", (long long)hl->step,
             cs_step_phase_name(hl->phase), hl->body, what);
}

// Every body's velocity, reach and next position sane and every λ finite, in one branch-free pass each
// (& on the conditions, no early exit): the good path is every step's, and the short-circuit chain cost
// ~1.6 % of Pool 1's step. The same conditions as bad_velocity, bad_finite and next_position, which say
// where only when this finds something. A body's (vx, vy) and its next (x, y) go by two-double vectors
// (cs_v2: the same IEEE operations lane by lane), their tests AND-ed into a mask (fewer instructions a
// body than the ~49 of the scalar tests).
// (Chunks of bodies on the world's workers, each writing its own verdict: step_stages.c.)
static void sane_chunk(void* ctx, int chunk, int thread)
{
    (void)thread;
    cs_world* w = ctx;
    int first, end;
    cs_stage_range(chunk, w->body_count, &first, &end);
    const double h = w->def.time_step;
    const double *v = w->v, *pv = w->pseudo_v, *px = w->px, *py = w->py, *angle = w->angle, *reach = w->reach;
    const cs_v2 hh = cs_v2_set(h, h);
    const cs_v2 speed = cs_v2_set(CS_LIMIT_EXPLODE_SPEED, CS_LIMIT_EXPLODE_SPEED);
    const cs_v2 coord = cs_v2_set(CS_LIMIT_EXPLODE_COORD, CS_LIMIT_EXPLODE_COORD);
    const cs_u2 magnitude = {0x7fffffffffffffffu, 0x7fffffffffffffffu}; // fabs: the sign bit off
    cs_u2 ok2 = {~0u, ~0u};                                             // (comparisons give all bits or none)
    int ok = 1;
    for (int i = first; i < end; ++i)
    {
        // (reach = r + h|v*|: a bad radius shows only there, as the body silently leaving every contact.)
        cs_v2 vxy = cs_v2_load(v + 3 * i);
        cs_v2 xy = cs_v2_set(px[i], py[i]) + hh * (vxy + cs_v2_load(pv + 3 * i));
        double a = angle[i] + h * (v[3 * i + 2] + pv[3 * i + 2]);
        ok2 &= (cs_u2)((cs_v2)((cs_u2)vxy & magnitude) <= speed) &
               (cs_u2)((cs_v2)((cs_u2)xy & magnitude) <= coord);
        ok &= sane_speed(v[3 * i + 2]) & isfinite(reach[i]) & isfinite(a);
    }
    w->chunk_ints[chunk] = ok & (ok2[0] != 0) & (ok2[1] != 0);
}

static bool step_sane(cs_world* w)
{
    // (The step reserved a result per chunk of bodies: cs_stage_chunk_reserve.)
    int chunks = cs_stage_chunks(w->body_count);
    cs_workers_for(cs_world_workers(w), chunks, sane_chunk, w);
    bool ok = true;
    for (int c = 0; c < chunks; ++c)
    {
        ok &= w->chunk_ints[c] != 0;
    }
    return ok && cs_nonfinite_any(w->lambda, w->velocity_problem.row_count) == 0;
}

cs_status cs_health_check_step(cs_world* w, cs_error* err)
{
    const int n = w->body_count;
    bool ok = step_sane(w);
    if (ok)
    {
        w->health.ok = true;
        return CS_OK;
    }
    w->health.ok = false;
    w->health.step = w->stats.step + 1;
    locate(w);
    // Undo: velocities of the step's start, last step's contacts (and their impulses) back in place.
    memcpy(w->v, w->v_pre, (size_t)(3 * n) * sizeof(double));
    cs_contact_list tmp = w->contacts;
    w->contacts = w->previous;
    w->previous = tmp;
    return cs_fail(err, CS_ERR_VALUE, "%s", w->health.message);
}

// A spring (joint stiffness or hertz) or a SPOOK contact (spook_stiffness) so soft for the time step that its
// regularisation 4Υ/(h²k) overflows (a stiffness of 1e-320 N/m is finite and >= 0, so its input is valid)
// would reach the solver as a row it refuses as a malformed problem (CS_ERR_USAGE, with the world's health
// still ok). The world asks the solver's own test (cs_lcp_bad_reg_row) first and refuses the step itself, in
// the rows phase, saying where; solve_phases then undoes it.
cs_status cs_health_check_rows(cs_world* w, cs_error* err)
{
    const cs_lcp* p = &w->velocity_problem;
    int r = cs_lcp_bad_reg_row(p);
    if (r < 0)
    {
        return CS_OK;
    }
    cs_health* hl = &w->health;
    hl->ok = false;
    hl->step = w->stats.step + 1;
    hl->phase = CS_PHASE_ROWS;
    hl->row = r;
    hl->body = p->body_b[r];
    snprintf(
        hl->message, sizeof hl->message,
        "step %lld: %s: body %d: row %d: regularisation %g (a spring or SPOOK contact too soft for the time "
        "step: 4/(h^2 k) overflows)",
        (long long)hl->step, cs_step_phase_name(hl->phase), hl->body, r, p->reg[r]);
    return cs_fail(err, CS_ERR_VALUE, "%s", hl->message);
}
