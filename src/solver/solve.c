// The solve driver: workspace, per-row precomputation, the sweep loop, history and tolerance.
// Written once here so that every method (registry.c) only supplies a sweep.
#include "circlesim/solver.h"

#include "solver/solver_internal.h"

#include <stdlib.h>
#include <string.h>

cs_solver_params cs_solver_params_default(void)
{
    cs_solver_params params = {
        .iterations = 10, // the paper's per-step budget (§5)
        .tolerance = 0.0,
        .tolerance_on = CS_RES_NAT,
        .warm_start = true,
        .alpha = 0.2,
        .gamma = 2.0,
        .relaxation = 1.0,
        .amgs_literal = false,
    };
    return params;
}

static int grown_capacity(int old, int needed)
{
    int cap = old > 0 ? old : 16;
    while (cap < needed)
    {
        cap = cap > (1 << 29) ? needed : 2 * cap;
    }
    return cap;
}

cs_status cs_grow_doubles(double** array, int* capacity, int needed, cs_error* err)
{
    if (needed <= *capacity && *array != NULL)
    {
        return CS_OK;
    }
    int cap = grown_capacity(*capacity, needed);
    double* q = realloc(*array, (size_t)cap * sizeof(double));
    if (q == NULL)
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory growing a solver array to %d entries", cap);
    }
    *array = q;
    *capacity = cap;
    return CS_OK;
}

static bool grow_raw(double** array, size_t count)
{
    double* q = realloc(*array, count * sizeof(double));
    if (q == NULL)
    {
        return false;
    }
    *array = q;
    return true;
}

// Grows the workspace; allocates nothing when the capacities already suffice (the steady state).
static cs_status work_reserve(cs_solver_work* w, int bodies, int rows, cs_error* err)
{
    if (bodies > w->body_capacity || w->v == NULL)
    {
        int cap = grown_capacity(w->body_capacity, bodies);
        // One body more: the zero slot static halves of packed rows point at.
        if (!grow_raw(&w->v, 3 * ((size_t)cap + 1)))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: solver work for %d bodies", cap);
        }
        w->body_capacity = cap;
    }
    if (rows > w->row_capacity || w->mjt == NULL)
    {
        int cap = grown_capacity(w->row_capacity, rows);
        size_t n = (size_t)cap;
        if (!grow_raw(&w->mjt, 6 * n) || !grow_raw(&w->diag, n) || !grow_raw(&w->inv_diag, n) ||
            !grow_raw(&w->x, n) || !grow_raw(&w->scratch, n))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: solver work for %d rows", cap);
        }
        void* q = realloc(w->packed, n * sizeof(cs_packed_row));
        if (q == NULL)
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: solver work for %d rows", cap);
        }
        w->packed = q;
        w->row_capacity = cap;
    }
    return CS_OK;
}

void cs_solver_work_free(cs_solver_work* w)
{
    free(w->v);
    free(w->mjt);
    free(w->diag);
    free(w->inv_diag);
    free(w->x);
    free(w->scratch);
    free(w->dense);
    free(w->history_lcp);
    free(w->history_nat);
    free(w->packed);
    memset(w, 0, sizeof *w);
}

cs_status cs_solver_work_set_history(cs_solver_work* w, bool on, int max_iterations, cs_error* err)
{
    if (!on)
    {
        w->record_history = false;
        return CS_OK;
    }
    if (max_iterations < 0)
    {
        return cs_fail(err, CS_ERR_USAGE, "history: negative iteration count %d", max_iterations);
    }
    int needed = max_iterations + 1;
    if (needed > w->history_capacity)
    {
        if (!grow_raw(&w->history_lcp, (size_t)needed) || !grow_raw(&w->history_nat, (size_t)needed))
        {
            return cs_fail(err, CS_ERR_MEMORY, "out of memory: history of %d entries", needed);
        }
        w->history_capacity = needed;
    }
    w->record_history = true;
    return CS_OK;
}

// Per row: the M⁻¹Jᵀ column (the paper's \hat M_{*i}, §3), A_ii = J_i M⁻¹ J_iᵀ and 1/A_ii into the
// work's public arrays, and the packed record the sweeps read (cs_packed_row).
static void precompute_rows(const cs_lcp* p, cs_solver_work* w)
{
    cs_packed_row* packed = w->packed;
    const int32_t zero_slot = 3 * p->body_count;
    for (int i = 0; i < p->row_count; ++i)
    {
        const double* j = p->jac + 6 * i;
        double* m = w->mjt + 6 * i;
        int a = p->body_a[i];
        int b = p->body_b[i];
        if (a >= 0)
        {
            m[0] = p->inv_mass[a] * j[0];
            m[1] = p->inv_mass[a] * j[1];
            m[2] = p->inv_inertia[a] * j[2];
        }
        else
        {
            m[0] = m[1] = m[2] = 0.0;
        }
        if (b >= 0)
        {
            m[3] = p->inv_mass[b] * j[3];
            m[4] = p->inv_mass[b] * j[4];
            m[5] = p->inv_inertia[b] * j[5];
        }
        else
        {
            m[3] = m[4] = m[5] = 0.0;
        }
        double d = j[0] * m[0] + j[1] * m[1] + j[2] * m[2] + j[3] * m[3] + j[4] * m[4] + j[5] * m[5];
        if (a >= 0 && a == b)
        {
            // Both halves on one body: the cross terms of (J_a + J_b) M⁻¹ (J_a + J_b)ᵀ.
            d += 2.0 * (j[0] * m[3] + j[1] * m[4] + j[2] * m[5]);
        }
        double inv_d = d > 0.0 ? 1.0 / d : 0.0;
        w->diag[i] = d;
        w->inv_diag[i] = inv_d;

        cs_packed_row* r = packed + i;
        double ja[3] = {0.0, 0.0, 0.0}, jb[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < 3; ++k)
        {
            ja[k] = a >= 0 ? j[k] * inv_d : 0.0;
            jb[k] = b >= 0 ? j[3 + k] * inv_d : 0.0;
        }
        r->ja = cs_v2_set(ja[0], ja[1]);
        r->jb = cs_v2_set(jb[0], jb[1]);
        r->jw = cs_v2_set(jb[2], ja[2]);
        r->ma = cs_v2_set(m[0], m[1]);
        r->mb = cs_v2_set(m[3], m[4]);
        r->mw = cs_v2_set(m[5], m[2]);
        r->bias = p->bias[i] * inv_d;
        r->mu = 0.0;
        r->a = a >= 0 ? 3 * a : zero_slot;
        r->b = b >= 0 ? 3 * b : zero_slot;
        r->link = -1;
        uint32_t kind = 0;
        if (p->kind[i] == CS_ROW_FRICTION)
        {
            kind |= CS_PACK_FRICTION;
            r->link = p->link[i];
            r->mu = p->mu[i];
        }
        else if (p->kind[i] == CS_ROW_NORMAL || (p->lo[i] == 0.0 && p->hi[i] == INFINITY))
        {
            kind |= CS_PACK_NONNEG;
        }
        if (!(d > 0.0))
        {
            kind |= CS_PACK_SKIP;
        }
        if (ja[2] == 0.0 && jb[2] == 0.0 && m[2] == 0.0 && m[5] == 0.0)
        {
            kind |= CS_PACK_LINEAR;
        }
        if (a >= 0 && a == b)
        {
            kind |= CS_PACK_SHARED;
        }
        r->kind = kind;
    }
    // A normal row followed by its friction row on the same two bodies (every frictional contact) is
    // updated as a pair with the velocities in registers.
    for (int i = 0; i + 1 < p->row_count; ++i)
    {
        const cs_packed_row* f = packed + i + 1;
        if (packed[i].kind == CS_PACK_NORMAL_ROW && f->kind == CS_PACK_FRICTION_ROW && f->link == i &&
            f->a == packed[i].a && f->b == packed[i].b)
        {
            packed[i].kind |= CS_PACK_PAIR;
        }
    }
    // The zero slot: static halves read 0 from it and add 0·Δλ to it.
    w->v[zero_slot] = w->v[zero_slot + 1] = w->v[zero_slot + 2] = 0.0;
}

static void residuals(const cs_solve_ctx* ctx, double* res_lcp, double* res_nat)
{
    *res_lcp = cs_residual_lcp(ctx->p, ctx->work->v, ctx->lambda);
    *res_nat = cs_residual_nat(ctx->p, ctx->work->v, ctx->lambda);
}

cs_status cs_solve(const cs_lcp* p, int solver, const cs_solver_params* params, cs_solver_work* work,
                   double* lambda, cs_solver_stats* stats, cs_error* err)
{
    const cs_solver_entry* method = cs_solver_entry_at(solver);
    if (method == NULL)
    {
        return cs_fail(err, CS_ERR_USAGE, "unknown solver index %d (registered: %s)", solver,
                       cs_solver_names());
    }
    if (params->iterations < 0)
    {
        return cs_fail(err, CS_ERR_USAGE, "iterations must be >= 0, got %d", params->iterations);
    }
    double t0 = cs_seconds();
    cs_status s = work_reserve(work, p->body_count, p->row_count, err);
    if (s != CS_OK)
    {
        return s;
    }
    precompute_rows(p, work);
    int m = p->row_count;
    if (m > 0) // lambda may be NULL for an empty problem
    {
        if (params->warm_start)
        {
            memcpy(lambda, p->lambda0, (size_t)m * sizeof(double));
        }
        else
        {
            memset(lambda, 0, (size_t)m * sizeof(double));
        }
    }
    // v = v* + M⁻¹Jᵀλ⁰ (DESIGN.md step 5), using the columns just computed.
    memcpy(work->v, p->v, 3 * (size_t)p->body_count * sizeof(double));
    const cs_packed_row* packed = cs_packed_rows(work);
    for (int i = 0; i < m; ++i)
    {
        if (lambda[i] != 0.0)
        {
            cs_pack_apply(packed + i, lambda[i], work->v);
        }
    }

    cs_solve_ctx ctx = {.p = p, .params = params, .work = work, .lambda = lambda};
    if (method->begin != NULL && (s = method->begin(&ctx, err)) != CS_OK)
    {
        return s;
    }

    bool history = work->record_history && work->history_capacity > 0;
    bool tolerance = params->tolerance > 0.0;
    // Residuals recorded only for the history are an observation, not part of the method: their
    // time is taken out of stats->seconds. A tolerance test is part of the method and is timed.
    double observe_seconds = 0.0;
    int history_count = 0;
    if (history)
    {
        double t = cs_seconds();
        residuals(&ctx, &work->history_lcp[0], &work->history_nat[0]);
        history_count = 1;
        observe_seconds += cs_seconds() - t;
    }
    int done = 0;
    while (done < params->iterations)
    {
        method->sweep(&ctx);
        done += 1;
        if (!history && !tolerance)
        {
            continue;
        }
        double t = cs_seconds();
        double r_lcp, r_nat;
        residuals(&ctx, &r_lcp, &r_nat);
        if (history && done < work->history_capacity)
        {
            work->history_lcp[done] = r_lcp;
            work->history_nat[done] = r_nat;
            history_count = done + 1;
        }
        if (!tolerance)
        {
            observe_seconds += cs_seconds() - t;
        }
        else if ((params->tolerance_on == CS_RES_LCP ? r_lcp : r_nat) <= params->tolerance)
        {
            break;
        }
    }
    double seconds = cs_seconds() - t0 - observe_seconds;

    if (stats != NULL)
    {
        stats->iterations = done;
        stats->seconds = seconds;
        stats->history_count = history_count;
        residuals(&ctx, &stats->res_lcp, &stats->res_nat);
    }
    return CS_OK;
}

void cs_solve_split(const cs_solver_work* solved, int bodies, int first, int stride, int count, double* b,
                    int iterations, double* lambda, double* v)
{
    const cs_packed_row* rows = cs_packed_rows(solved);
    for (int k = 0; k < count; ++k)
    {
        // The product the packing does for a row's own bias, so the records need not be rebuilt.
        b[k] = b[k] * solved->inv_diag[first + (size_t)k * (size_t)stride];
        lambda[k] = 0.0;
    }
    memset(v, 0, 3 * ((size_t)bodies + 1) * sizeof(double));
    for (int s = 0; s < iterations; ++s)
    {
        cs_pgs_split_sweep(rows, first, stride, count, b, lambda, v);
    }
}
