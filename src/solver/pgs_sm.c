// pgs-sm: Morales, Nocedal & Smelyanskiy (2008), Algorithm 3.1, projected Gauss-Seidel with subspace
// minimisation; pgs-kz: its special case by Kocvara & Zowe (one subspace step, always the backtracking
// point). docs/pgs-sm.md has the derivation and the measurements.
//
// One ITERATION (what the driver counts, solve.c) is k_gs PGS sweeps (eq. (4) of the AMGS paper, pgs.c)
// followed by the subspace phase:
//   1. Freeze the box: l, u of every row from the current λ (a friction row's ±μλ_n of its normal row),
//      clamp λ into it. For the rest of the phase the problem is the box LCP with these bounds, the
//      optimality conditions of min φ(z) = ½zᵀAz + qᵀz on the box (eq. (1.4)); z⁰ = λ.
//   2. Up to k_sm times: the free set F = rows strictly inside their box (a row at either bound is
//      active); solve the reduced system (3.3), A_FF δ = −w_F (with w = Az + q at the current z, the
//      same as A_FF z_F = −(q_F + A_FA z_A)); on the first pass keep z^b = z⁰ + α(z¹ − z⁰) with the
//      largest α in (0, 1] that stays in the box (eq. (3.5)); project z + δ onto the box (eq. (3.4)).
//      Stop early when the projection clipped nothing.
//   3. z ← z^s, or z^b when φ(z^b) < φ(z^s) (the safeguard that makes the method globally convergent
//      for positive definite A). pgs-kz takes z ← z^b after the first solve.
// The next iteration's PGS sweeps then see the new normal impulses, and so the friction boxes move:
// the subspace phase solves the box LCP of the current friction bounds, and the outer iteration is the
// usual fixed point on them (their fixed point is the contact problem's solution).
//
// Every quantity comes from the velocities: w_i = J_i·v + b_i (+ ε_i z_i on a regularised row, so that the
// phase minimises ½zᵀ(A + Σ)z + qᵀz: docs/SOLVERS.md, "Regularised rows"), φ(z) = ½ Σ z_i (w_i + q_i) with
// q = J v* + b; A + Σ itself is assembled only for the CHOLMOD solve (subspace_matrix.c).
#include "solver/subspace.h"

#include "core/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum
{
    KGS_MAX = 100000,
    KSM_MAX = 1000,
    K_KZ = 0, // ctx->method[K_KZ] != 0: pgs-kz
};

const char* cs_subspace_solver_name(cs_subspace_solver s)
{
    switch (s)
    {
        case CS_SUBSPACE_CHOLMOD:
            return "cholmod";
        case CS_SUBSPACE_PCG:
            return "pcg";
    }
    return NULL;
}

int cs_subspace_solver_find(const char* name)
{
    for (int s = CS_SUBSPACE_CHOLMOD; s <= CS_SUBSPACE_PCG; ++s)
    {
        if (name != NULL && strcmp(name, cs_subspace_solver_name((cs_subspace_solver)s)) == 0)
        {
            return s;
        }
    }
    return -1;
}

// State ---------------------------------------------------------------------------------------------

void cs_subspace_free(void* subspace)
{
    cs_subspace* s = subspace;
    if (s == NULL)
    {
        return;
    }
    double* doubles[] = {s->z0,   s->lo,   s->hi,   s->zb,    s->q,  s->rhs, s->step,
                         s->cg_r, s->cg_z, s->cg_p, s->cg_ap, s->vb, s->u,   s->masked};
    for (size_t k = 0; k < sizeof doubles / sizeof doubles[0]; ++k)
    {
        free(doubles[k]);
    }
    free(s->slot);
    free(s->free);
    cs_amatrix_free(&s->a);
    cs_cholmod_free(s->chol);
    free(s);
}

cs_status cs_subspace_get(cs_solver_work* w, cs_subspace** out, cs_error* err)
{
    if (w->subspace == NULL && (w->subspace = calloc(1, sizeof(cs_subspace))) == NULL)
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory: pgs-sm state");
    }
    *out = w->subspace;
    return CS_OK;
}

cs_subspace_stats cs_subspace_report(const cs_solver_work* w, unsigned flags)
{
    cs_subspace_stats none = {0};
    const cs_subspace* s = w->subspace;
    return s != NULL && (flags & CS_SOLVER_USES_SUBSPACE) ? s->stats : none;
}

// Grows the per-row and per-body arrays (nothing allocated once they are large enough).
static cs_status reserve(cs_subspace* s, int rows, int bodies, cs_error* err)
{
    if (rows > s->row_capacity)
    {
        int cap = cs_grow_capacity(s->row_capacity, rows);
        double** doubles[] = {&s->z0,   &s->lo,   &s->hi,   &s->zb,   &s->q,    &s->rhs,
                              &s->step, &s->cg_r, &s->cg_z, &s->cg_p, &s->cg_ap};
        for (size_t k = 0; k < sizeof doubles / sizeof doubles[0]; ++k)
        {
            if (!cs_resize((void**)doubles[k], cap, sizeof(double)))
            {
                return cs_fail(err, CS_ERR_MEMORY, "out of memory: pgs-sm work for %d rows", cap);
            }
        }
        if (!CS_RESIZE(s->slot, cap) || !CS_RESIZE(s->free, cap))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: pgs-sm work for %d rows", cap);
        }
        s->row_capacity = cap;
    }
    int slots = 3 * bodies + 3; // with the zero slot of the packed rows' static halves
    if (slots > s->body_capacity)
    {
        int cap = cs_grow_capacity(s->body_capacity, slots);
        if (!CS_RESIZE(s->vb, cap) || !CS_RESIZE(s->u, cap))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: pgs-sm work for %d bodies", bodies);
        }
        s->body_capacity = cap;
    }
    return CS_OK;
}

cs_status cs_subspace_prepare(cs_solve_ctx* ctx, bool matrix, cs_subspace** out, cs_error* err)
{
    const cs_lcp* p = ctx->p;
    cs_subspace* s = NULL;
    cs_status status = cs_subspace_get(ctx->work, &s, err);
    if (status == CS_OK)
    {
        status = reserve(s, p->row_count, p->body_count, err);
    }
    if (status != CS_OK)
    {
        return status;
    }
    *out = s;
    s->stats = (cs_subspace_stats){0};
    s->beta = 0.0;
    s->shift = NULL;
    double q_max = 0.0;
    for (int i = 0; i < p->row_count; ++i)
    {
        s->q[i] = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], p->v) + p->bias[i];
        q_max = fmax(q_max, fabs(s->q[i]));
    }
    s->rhs_floor = 1e-14 * q_max;
    if (matrix && ctx->params->subspace_solver == CS_SUBSPACE_CHOLMOD)
    {
        status = cs_amatrix_build(&s->a, p, err);
        if (status == CS_OK && !CS_GROW(s->masked, s->masked_capacity, s->a.nnz > 0 ? s->a.nnz : 1))
        {
            status = cs_fail(err, CS_ERR_MEMORY, "out of memory: A_FF with %d entries", s->a.nnz);
        }
        if (status == CS_OK && p->row_count > 0)
        {
            status = cs_cholmod_analyze(s, err);
        }
    }
    return status;
}

static cs_status begin(cs_solve_ctx* ctx, bool kz, cs_error* err)
{
    const cs_solver_params* params = ctx->params;
    const char* name = kz ? "pgs-kz" : "pgs-sm";
    if (params->kgs < 1 || params->kgs > KGS_MAX)
    {
        return cs_fail(err, CS_ERR_USAGE, "%s: kgs must be in [1, %d], got %d", name, KGS_MAX, params->kgs);
    }
    if (!kz && (params->ksm < 0 || params->ksm > KSM_MAX))
    {
        return cs_fail(err, CS_ERR_USAGE, "%s: ksm must be in [0, %d], got %d", name, KSM_MAX, params->ksm);
    }
    if (cs_subspace_solver_name(params->subspace_solver) == NULL)
    {
        return cs_fail(err, CS_ERR_USAGE, "%s: unknown subspace solver %d (cholmod, pcg)", name,
                       (int)params->subspace_solver);
    }
    ctx->method[K_KZ] = kz ? 1.0 : 0.0;
    cs_subspace* s = NULL;
    return cs_subspace_prepare(ctx, kz || params->ksm > 0, &s, err);
}

cs_status cs_pgs_sm_begin(cs_solve_ctx* ctx, cs_error* err)
{
    return begin(ctx, false, err);
}

cs_status cs_pgs_kz_begin(cs_solve_ctx* ctx, cs_error* err)
{
    return begin(ctx, true, err);
}

// The phase's pieces ---------------------------------------------------------------------------------

// λ_i ← v, keeping v = v* + M⁻¹Jᵀλ.
static void move_row(const cs_solve_ctx* ctx, int i, double value)
{
    double delta = value - ctx->lambda[i];
    if (delta != 0.0)
    {
        cs_pack_apply(cs_packed_rows(ctx->work) + i, delta, ctx->work->v);
        ctx->lambda[i] = value;
    }
}

// Step 1: the box from the current λ (friction rows after the others, so that their ±μλ_n reads the
// clamped normal impulse), λ clamped into it; z⁰ kept.
static void freeze_box(const cs_solve_ctx* ctx, cs_subspace* s)
{
    const cs_lcp* p = ctx->p;
    for (int pass = 0; pass < 2; ++pass)
    {
        for (int i = 0; i < p->row_count; ++i)
        {
            if ((p->kind[i] == CS_ROW_FRICTION) == (pass == 1))
            {
                cs_row_bounds(p, ctx->lambda, i, &s->lo[i], &s->hi[i]);
                move_row(ctx, i, cs_clamp(ctx->lambda[i], s->lo[i], s->hi[i]));
            }
        }
    }
    memcpy(s->z0, ctx->lambda, (size_t)p->row_count * sizeof(double));
}

// F = rows strictly inside their box (rows without columns never are), and r_F = −w_F; returns max |w_F|.
static double free_set(const cs_solve_ctx* ctx, cs_subspace* s)
{
    double largest = 0.0;
    const cs_lcp* p = ctx->p;
    const cs_packed_row* rows = cs_packed_rows(ctx->work);
    const double* v = ctx->work->v;
    s->free_count = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        double l = ctx->lambda[i];
        s->slot[i] = -1;
        if (!(rows[i].kind & CS_PACK_SKIP) && s->lo[i] < l && l < s->hi[i])
        {
            int f = s->free_count++;
            s->slot[i] = f;
            s->free[f] = i;
            s->rhs[f] = -cs_row_w(p, v, l, i); // w of A + Σ (eq. (14) of Lacoursière)
            largest = fmax(largest, fabs(s->rhs[f]));
        }
    }
    return largest;
}

// v = v* + M⁻¹Jᵀz summed afresh. The subspace steps cannot update v incrementally as the sweeps do: on a
// nearly singular A_FF (Pool 2 without friction) a step moves λ by 1e7 and the next pass takes it back, and
// v, carried through that cancellation, ends 4e-9 away from the λ it belongs to (the reported residual
// then differed from one formed from λ by 1e-4 relative). One pass over the rows, as cheap as a sweep.
static void fresh_velocity(const cs_solve_ctx* ctx, const double* z, double* v)
{
    const cs_lcp* p = ctx->p;
    const cs_packed_row* rows = cs_packed_rows(ctx->work);
    memcpy(v, p->v, 3 * (size_t)p->body_count * sizeof(double));
    v[3 * p->body_count] = v[3 * p->body_count + 1] = v[3 * p->body_count + 2] = 0.0; // the zero slot
    for (int i = 0; i < p->row_count; ++i)
    {
        if (z[i] != 0.0)
        {
            cs_pack_apply(rows + i, z[i], v);
        }
    }
}

// z^b = z⁰ + α δ with the largest α in (0, 1] that keeps the free rows in the box (eq. (3.5)); the
// phase's first pass starts at z⁰, so δ = z¹ − z⁰. v^b follows.
static void backtrack_point(const cs_solve_ctx* ctx, cs_subspace* s)
{
    const cs_lcp* p = ctx->p;
    double alpha = 1.0;
    for (int f = 0; f < s->free_count; ++f)
    {
        int i = s->free[f];
        double d = s->step[f], z = s->z0[i];
        if (z + d < s->lo[i])
        {
            alpha = fmin(alpha, (s->lo[i] - z) / d);
        }
        else if (z + d > s->hi[i])
        {
            alpha = fmin(alpha, (s->hi[i] - z) / d);
        }
    }
    memcpy(s->zb, s->z0, (size_t)p->row_count * sizeof(double));
    for (int f = 0; f < s->free_count; ++f)
    {
        int i = s->free[f];
        // The clamp only removes rounding of α: α was chosen so that the exact point is inside.
        s->zb[i] = cs_clamp(s->z0[i] + alpha * s->step[f], s->lo[i], s->hi[i]);
    }
    fresh_velocity(ctx, s->zb, s->vb);
}

// z ← P(z + δ) on the free rows (eq. (3.4)); true when some row was clipped to a bound.
static bool project(const cs_solve_ctx* ctx, cs_subspace* s)
{
    bool clipped = false;
    for (int f = 0; f < s->free_count; ++f)
    {
        int i = s->free[f];
        double y = ctx->lambda[i] + s->step[f];
        double z = cs_clamp(y, s->lo[i], s->hi[i]);
        clipped = clipped || z != y;
        move_row(ctx, i, z);
    }
    return clipped;
}

// φ(z) = ½zᵀ(A + Σ)z + qᵀz = ½ Σ z_i (w_i + q_i), w from the velocities v of z (and ε_i z_i on a
// regularised row: Σ is part of the quadratic that the subspace step minimises).
static double phi(const cs_lcp* p, const cs_subspace* s, const double* z, const double* v)
{
    double sum = 0.0;
    for (int i = 0; i < p->row_count; ++i)
    {
        if (z[i] != 0.0)
        {
            sum += z[i] * (cs_row_w(p, v, z[i], i) + s->q[i]); // w of (A + Σ)z + q
        }
    }
    return 0.5 * sum;
}

static void take_backtrack_point(const cs_solve_ctx* ctx, const cs_subspace* s)
{
    memcpy(ctx->lambda, s->zb, (size_t)ctx->p->row_count * sizeof(double));
    memcpy(ctx->work->v, s->vb, 3 * (size_t)ctx->p->body_count * sizeof(double));
}

// Steps 1–3 of the file comment.
void cs_subspace_phase(const cs_solve_ctx* ctx, cs_subspace* s, int ksm, bool kz)
{
    const cs_lcp* p = ctx->p;
    bool cholmod = ctx->params->subspace_solver == CS_SUBSPACE_CHOLMOD;
    freeze_box(ctx, s);
    bool have_b = false;
    for (int pass = 0; pass < ksm; ++pass)
    {
        // Nothing to minimise: no free row, or the free rows' equations already hold to rounding (a settled
        // warm-started step, where a solve would cost a factorisation to move λ by 1e-16).
        if (free_set(ctx, s) <= s->rhs_floor || s->free_count == 0)
        {
            break;
        }
        bool solved = cholmod ? cs_cholmod_solve(s) : cs_pcg_solve(s, ctx->work, p->body_count);
        s->stats.solves += 1;
        if (!solved)
        {
            s->stats.failed += 1;
            break;
        }
        if (pass == 0)
        {
            backtrack_point(ctx, s);
            have_b = true;
            if (kz)
            {
                take_backtrack_point(ctx, s);
                return;
            }
        }
        bool clipped = project(ctx, s);
        fresh_velocity(ctx, ctx->lambda, ctx->work->v); // before the next pass reads w_F from it
        if (!clipped)
        {
            break;
        }
    }
    if (have_b && phi(p, s, ctx->lambda, ctx->work->v) > phi(p, s, s->zb, s->vb))
    {
        take_backtrack_point(ctx, s);
        s->stats.safeguard += 1;
    }
}

void cs_pgs_sm_sweep(cs_solve_ctx* ctx)
{
    cs_subspace* s = ctx->work->subspace;
    for (int k = 0; k < ctx->params->kgs; ++k)
    {
        cs_pgs_sweep(ctx);
    }
    s->stats.pgs_sweeps += ctx->params->kgs;
    bool kz = ctx->method[K_KZ] != 0.0;
    int ksm = kz ? 1 : ctx->params->ksm;
    if (ksm > 0 && ctx->p->row_count > 0)
    {
        cs_subspace_phase(ctx, s, ksm, kz);
    }
}
