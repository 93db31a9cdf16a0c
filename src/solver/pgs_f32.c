// pgs-f32: projected Gauss-Seidel, paper eq. (4) (MY; Erleben's slides, "PGS"), in velocity form as pgs.c,
//     λ_i ← clamp(λ_i − (J_i·v + b_i)/A_ii, l_i, u_i),   v ← v + M⁻¹J_iᵀ Δλ_i,
// swept in single precision on the velocity deltas: with v = v⁰ + dv (v⁰ = v* + M⁻¹Jᵀλ⁰ in double),
//     (J_i·v + b_i)/A_ii = (J_i·v⁰ + b_i)/A_ii + (J_i/A_ii)·dv,
// the first term computed in double once per solve and rounded once (cs_f32_row.bias), the second and the
// clamp and the update of dv in float. After a sweep that is looked at (a history or a tolerance) and after
// the last, λ goes back to double and v = v* + M⁻¹Jᵀλ is recomputed from it in double, so the residuals the
// driver reports are the double problem's, of the float answer: honest, and they floor at float round-off
// (docs/SOLVERS.md, "pgs-f32").
// With the vector sweeps on, runs of eight normal/friction pairs on sixteen distinct bodies go in eight
// AVX2 float lanes (simd_avx2_f32.c); the order of the updates is the same, and each lane does the scalar
// float path's operations in its order (no FMA: -ffp-contract=off), so SIMD on and off give the same bits.
#include "solver/pgs_f32.h"

#include "solver/solver_internal.h"

#include <stddef.h>

// Byte offset `used` rounded up to 32 (the float arrays are read with unaligned loads; 32 keeps a vector
// inside one cache line pair).
static size_t align32(size_t used)
{
    return (used + 31u) & ~(size_t)31u;
}

// The state's arrays inside work->dense, laid out for ctx's problem: the sizes, and the pointers when base is
// not NULL. Returns the doubles the layout needs.
static size_t layout(const cs_solve_ctx* ctx, char* base, cs_f32_state* s)
{
    const size_t n = (size_t)ctx->p->body_count + 1, m = (size_t)ctx->p->row_count;
    size_t off_dv = 32; // the first 32 bytes: the schedule's length (an int32_t)
    size_t off_lambda = align32(off_dv + 4 * n * sizeof(float));
    size_t off_rows = align32(off_lambda + m * sizeof(float));
    size_t off_lanes = align32(off_rows + m * sizeof(cs_f32_row));
    size_t off_items = align32(off_lanes + (m / 8 + 1) * sizeof(cs_f32_lanes));
    size_t off_stamps = align32(off_items + (m + 1) * sizeof(cs_sweep_item));
    size_t bytes = off_stamps + 3 * n * sizeof(int32_t) + 32; // + 32: room to align the start
    if (base != NULL)
    {
        base += align32((size_t)(uintptr_t)base) - (size_t)(uintptr_t)base;
        s->dv = (float*)(void*)(base + off_dv);
        s->lambda = (float*)(void*)(base + off_lambda);
        s->rows = (cs_f32_row*)(void*)(base + off_rows);
        s->lanes = (cs_f32_lanes*)(void*)(base + off_lanes);
        s->item = (cs_sweep_item*)(void*)(base + off_items);
        s->stamps = (int32_t*)(void*)(base + off_stamps);
        s->item_count = 0; // (the header holds the last begin's: cs_pgs_f32_state reads it)
    }
    return (bytes + sizeof(double) - 1) / sizeof(double);
}

// Grows work->dense for the layout (never in the steady state) and lays the state out in it.
static cs_status carve(cs_solve_ctx* ctx, cs_f32_state* s, cs_error* err)
{
    size_t doubles = layout(ctx, NULL, s);
    if (doubles > (size_t)INT32_MAX)
    {
        return cs_fail(err, CS_ERR_MEMORY, "pgs-f32: %d rows are too many for its work buffer",
                       ctx->p->row_count);
    }
    cs_status st = cs_grow_doubles(&ctx->work->dense, &ctx->work->dense_capacity, (int)doubles, err);
    if (st != CS_OK)
    {
        return st;
    }
    layout(ctx, (char*)ctx->work->dense, s);
    return CS_OK;
}

// The state of the solve under way, or of the last one on this work (pgs_f32.h).
cs_f32_state cs_pgs_f32_state(const cs_lcp* p, const cs_solver_work* work)
{
    cs_f32_state s;
    cs_solve_ctx ctx = {.p = p, .work = (cs_solver_work*)work};
    layout(&ctx, (char*)work->dense, &s);
    s.item_count = *(const int32_t*)(const void*)((const char*)s.dv - 32);
    return s;
}

// λ⁰ rounded to float, with v moved to match (so that v = v* + M⁻¹Jᵀλ holds in double for the λ the float
// sweeps start from), then v⁰ = v.
static void round_start(cs_solve_ctx* ctx, cs_f32_state* s)
{
    const cs_lcp* p = ctx->p;
    const cs_packed_row* packed = cs_packed_rows(ctx->work);
    double* v = ctx->work->v;
    for (int i = 0; i < p->row_count; ++i)
    {
        float l = (float)ctx->lambda[i];
        double delta = (double)l - ctx->lambda[i];
        if (delta != 0.0 && !(packed[i].kind & CS_PACK_SKIP))
        {
            cs_pack_apply(packed + i, delta, v);
        }
        ctx->lambda[i] = (double)l;
        s->lambda[i] = l;
    }
    memset(s->dv, 0, 4 * ((size_t)p->body_count + 1) * sizeof(float));
}

// Row r in float, its step at v⁰ = v* + M⁻¹Jᵀλ⁰ (the work's v after round_start) computed in double first.
static inline __attribute__((always_inline)) cs_f32_row f32_row(const cs_packed_row* r, const double* v0)
{
    typedef float f2 __attribute__((vector_size(8))); // (two at a time: one cvtpd2ps each)
    cs_f32_row f;
    f2 c[6] = {__builtin_convertvector(r->ja, f2), __builtin_convertvector(r->jb, f2),
               __builtin_convertvector(r->jw, f2), __builtin_convertvector(r->ma, f2),
               __builtin_convertvector(r->mb, f2), __builtin_convertvector(r->mw, f2)};
    memcpy(f.ja, &c[0], sizeof f.ja), memcpy(f.jb, &c[1], sizeof f.jb), memcpy(f.jw, &c[2], sizeof f.jw);
    memcpy(f.ma, &c[3], sizeof f.ma), memcpy(f.mb, &c[4], sizeof f.mb), memcpy(f.mw, &c[5], sizeof f.mw);
    f.bias = (r->kind & CS_PACK_SKIP) ? 0.0f : (float)cs_pack_step(r, r->bias, v0);
    f.mu = (float)r->mu;
    f.a = r->a / 3 * 4;
    f.b = r->b / 3 * 4;
    f.link = r->link;
    f.kind = r->kind;
    return f;
}

// Rows [begin, end) into s->rows, for the scalar float sweep.
static void pack_rows(const cs_solve_ctx* ctx, cs_f32_state* s, int begin, int end)
{
    const cs_packed_row* packed = cs_packed_rows(ctx->work);
    for (int i = begin; i < end; ++i)
    {
        s->rows[i] = f32_row(packed + i, ctx->work->v);
    }
}

// Whether the `lanes` pairs from packed row `first` are all pairs (friction μ >= 0: the lanes' clamp is the
// branches' only for lo <= hi) on 2·lanes distinct bodies, the zero slot aside (stamps[body] = mark: taken).
static bool lanes_fit(const cs_packed_row* rows, int first, int lanes, int32_t* stamps, int32_t mark,
                      int32_t zero_slot)
{
    for (int k = 0; k < lanes; ++k)
    {
        const cs_packed_row* r = rows + first + 2 * k;
        if (r->kind != (CS_PACK_NORMAL_ROW | CS_PACK_PAIR) || !(r[1].mu >= 0.0))
        {
            return false;
        }
        int32_t body[2] = {r->a, r->b};
        for (int h = 0; h < 2; ++h)
        {
            if (body[h] == zero_slot)
            {
                continue;
            }
            int32_t* stamp = stamps + body[h]; // (by 3·body: no division)
            if (*stamp == mark)
            {
                return false;
            }
            *stamp = mark;
        }
    }
    return true;
}

// The pairs from packed row `rows` in float, straight into their lanes (they get no cs_f32_row).
static void fill_lanes(cs_f32_lanes* o, const cs_packed_row* rows, int lanes, const double* v0)
{
    for (int l = 0; l < lanes; ++l)
    {
        const cs_packed_row* r = rows + 2 * cs_f32_pair_lane(l, lanes);
        cs_f32_row n = f32_row(r, v0), f = f32_row(r + 1, v0);
        o->nax[l] = n.ja[0], o->nay[l] = n.ja[1], o->nbx[l] = n.jb[0], o->nby[l] = n.jb[1];
        o->nmax[l] = n.ma[0], o->nmay[l] = n.ma[1], o->nmbx[l] = n.mb[0], o->nmby[l] = n.mb[1];
        o->nbias[l] = n.bias, o->coupling[l] = n.mu;
        o->fax[l] = f.ja[0], o->fay[l] = f.ja[1], o->fbx[l] = f.jb[0], o->fby[l] = f.jb[1];
        o->fwb[l] = f.jw[0], o->fwa[l] = f.jw[1];
        o->fmax[l] = f.ma[0], o->fmay[l] = f.ma[1], o->fmbx[l] = f.mb[0], o->fmby[l] = f.mb[1];
        o->fmwb[l] = f.mw[0], o->fmwa[l] = f.mw[1];
        o->fbias[l] = f.bias, o->mu[l] = f.mu;
        o->a[l] = n.a, o->b[l] = n.b;
    }
}

// Runs of eight independent pairs go in eight lanes, else runs of four in four; everything else is swept one
// unit (a pair or a row) at a time, in place, so the schedule changes how many updates run at once, never
// their order. The rows in lanes are converted into them; only the others get a cs_f32_row.
static void schedule(const cs_solve_ctx* ctx, cs_f32_state* s)
{
    const int m = ctx->p->row_count;
    const cs_packed_row* packed = cs_packed_rows(ctx->work);
    const int32_t zero_slot = 3 * ctx->p->body_count;
    int32_t* stamps = s->stamps;
    for (int b = 0; b <= ctx->p->body_count; ++b)
    {
        stamps[3 * b] = -1;
    }
    int count = 0, mark = 0;
    int i = 0;
    while (i < m)
    {
        int lanes = 0;
        for (int w = CS_F32_LANES; w >= 4 && lanes == 0; w /= 2)
        {
            lanes = i + 2 * w <= m && lanes_fit(packed, i, w, stamps, mark++, zero_slot) ? w : 0;
        }
        if (lanes > 0)
        {
            fill_lanes(s->lanes + count, packed + i, lanes, ctx->work->v);
            s->item[s->item_count++] = (cs_sweep_item){i, 2 * lanes, count++, lanes};
            i += 2 * lanes;
        }
        else
        {
            int unit = packed[i].kind == (CS_PACK_NORMAL_ROW | CS_PACK_PAIR) ? 2 : 1; // a pair is never split
            pack_rows(ctx, s, i, i + unit);
            cs_push_rows(s->item, &s->item_count, i, unit);
            i += unit;
        }
    }
}

static bool vector_sweeps(const cs_solve_ctx* ctx)
{
    return ctx->params->simd && cs_simd_cpu();
}

cs_status cs_pgs_f32_begin(cs_solve_ctx* ctx, cs_error* err)
{
    cs_f32_state s;
    cs_status st = carve(ctx, &s, err);
    if (st != CS_OK)
    {
        return st;
    }
    round_start(ctx, &s);
    if (vector_sweeps(ctx))
    {
        schedule(ctx, &s);
    }
    else
    {
        pack_rows(ctx, &s, 0, ctx->p->row_count);
    }
    *(int32_t*)(void*)((char*)s.dv - 32) = s.item_count; // (layout's header)
    ctx->method[0] = 0.0;                                // sweeps done
    return CS_OK;
}

// The scalar float sweep --------------------------------------------------------------------------------
// Every expression below is the one simd_avx2_f32.c evaluates per lane, operand for operand.

// A normal/friction pair (rows i, i + 1) on bodies a != b (cs_sweep's PAIR path, in float).
static void pair_f32(const cs_f32_row* n, float* lambda, float* dv)
{
    const cs_f32_row* f = n + 1;
    float* va = dv + n->a;
    float* vb = dv + n->b;
    float vax = va[0], vay = va[1], wa = va[2], vbx = vb[0], vby = vb[1], wb = vb[2];
    float f_sb = (f->jb[0] * vbx + f->jb[1] * vby) + f->jw[0] * wb;
    float f_sa = (f->ja[0] * vax + f->ja[1] * vay) + f->jw[1] * wa;
    float f_step = (f->bias + f_sb) + f_sa;
    float n_sb = n->jb[0] * vbx + n->jb[1] * vby;
    float n_sa = n->ja[0] * vax + n->ja[1] * vay;
    float n_step = (n->bias + n_sb) + n_sa;
    float n_old = lambda[0];
    float y = n_old - n_step;
    float next = y < 0.0f ? 0.0f : y;
    float dn = next - n_old;
    vax = vax + n->ma[0] * dn;
    vay = vay + n->ma[1] * dn;
    vbx = vbx + n->mb[0] * dn;
    vby = vby + n->mb[1] * dn;
    f_step = f_step + n->mu * dn;
    float limit = next > 0.0f ? f->mu * next : 0.0f;
    float lo = -limit;
    float f_old = lambda[1];
    float fy = f_old - f_step;
    fy = fy < lo ? lo : fy;
    float f_next = fy > limit ? limit : fy;
    float df = f_next - f_old;
    vax = vax + f->ma[0] * df;
    vay = vay + f->ma[1] * df;
    vbx = vbx + f->mb[0] * df;
    vby = vby + f->mb[1] * df;
    wb = wb + f->mw[0] * df;
    wa = wa + f->mw[1] * df;
    lambda[0] = next;
    lambda[1] = f_next;
    va[0] = vax, va[1] = vay, va[2] = wa;
    vb[0] = vbx, vb[1] = vby, vb[2] = wb;
}

// Any other row, through memory (cs_sweep's generic path, in float): half a is written before half b is
// read back, so a SHARED row accumulates both halves.
static void row_f32(const cs_lcp* p, const cs_f32_row* r, int i, float* lambda, float* dv)
{
    const float* va = dv + r->a;
    const float* vb = dv + r->b;
    float old = lambda[i];
    float step = (r->bias + ((r->jb[0] * vb[0] + r->jb[1] * vb[1]) + r->jw[0] * vb[2])) +
                 ((r->ja[0] * va[0] + r->ja[1] * va[1]) + r->jw[1] * va[2]);
    if (r->kind & CS_PACK_SOFT)
    {
        step += r->mu * old;
    }
    float y = old - step, next;
    if (r->kind & CS_PACK_FRICTION)
    {
        float n = lambda[r->link];
        float limit = n > 0.0f ? r->mu * n : 0.0f;
        next = y < -limit ? -limit : (y > limit ? limit : y);
    }
    else if (r->kind & CS_PACK_NONNEG)
    {
        next = y < 0.0f ? 0.0f : y;
    }
    else
    {
        float lo = (float)p->lo[i], hi = (float)p->hi[i];
        next = y < lo ? lo : (y > hi ? hi : y);
    }
    float d = next - old;
    lambda[i] = next;
    float* wa = dv + r->a;
    wa[0] += r->ma[0] * d;
    wa[1] += r->ma[1] * d;
    wa[2] += r->mw[1] * d;
    float* wb = dv + r->b;
    wb[0] += r->mb[0] * d;
    wb[1] += r->mb[1] * d;
    wb[2] += r->mw[0] * d;
}

static void rows_f32(const cs_solve_ctx* ctx, const cs_f32_state* s, int begin, int end)
{
    for (int i = begin; i < end; ++i)
    {
        const cs_f32_row* r = s->rows + i;
        if (r->kind == (CS_PACK_NORMAL_ROW | CS_PACK_PAIR))
        {
            pair_f32(r, s->lambda + i, s->dv);
            i += 1;
        }
        else if (!(r->kind & CS_PACK_SKIP))
        {
            row_f32(ctx->p, r, i, s->lambda, s->dv);
        }
    }
}

// λ back in double, and v = v* + M⁻¹Jᵀλ recomputed from it in double (row by row in file order, as the
// packing pass applies the warm start): v and λ agree to double rounding, so the driver's residuals are those
// of λ, the answer (not of the float deltas, which drift from M⁻¹Jᵀλ by their own round-off), and the
// impulses conserve momentum as pgs's do.
static void write_back(cs_solve_ctx* ctx, const cs_f32_state* s)
{
    const cs_lcp* p = ctx->p;
    const cs_packed_row* packed = cs_packed_rows(ctx->work);
    double* v = ctx->work->v;
    if (p->body_count > 0) // (p->v may be NULL for a problem without bodies)
    {
        memcpy(v, p->v, 3 * (size_t)p->body_count * sizeof(double));
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        double l = (double)s->lambda[i];
        ctx->lambda[i] = l;
        if (l != 0.0 && !(packed[i].kind & CS_PACK_SKIP))
        {
            cs_pack_apply(packed + i, l, v);
        }
    }
}

void cs_pgs_f32_sweep(cs_solve_ctx* ctx)
{
    cs_f32_state s = cs_pgs_f32_state(ctx->p, ctx->work);
#if CS_SIMD_X86
    if (s.item_count > 0)
    {
        cs_avx2_sweep_f32(ctx, &s, rows_f32);
    }
    else
#endif
    {
        rows_f32(ctx, &s, 0, ctx->p->row_count);
    }
    // The driver reads λ and v after a sweep only for a history or a tolerance test, and after the last one.
    ctx->method[0] += 1.0;
    const cs_solver_params* params = ctx->params;
    bool watched = ctx->work->record_history || params->tolerance > 0.0 || params->tolerance_rel > 0.0;
    if (watched || ctx->method[0] >= (double)params->iterations)
    {
        write_back(ctx, &s);
    }
}
