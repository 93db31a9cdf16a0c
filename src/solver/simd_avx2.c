// AVX2 kernels of simd.h. Each lane does exactly the scalar sweep's operations for its row, in the same
// order (row_kernels.h: cs_halves_step_opposed, cs_rule_apply, cs_halves_apply), with separate multiplies and
// adds (no FMA: the library is built with -ffp-contract=off and these functions do not enable FMA), so a
// lane's result has the scalar path's bits (for finite impulses: see cs_lanes_independent in schedule.c).
// Clamps are max/min in the operand order that reproduces the scalar branches, signed zeros and NaN
// included (for lo <= hi; schedule.c keeps friction rows with μ < 0 out of the lanes):
//     x < lo ? lo : x            = max(lo, x)      (maxpd returns its second operand unless first > second)
//     x > hi ? hi : x            = min(hi, x)
#include "solver/simd.h"
#include "solver/split.h"

#if CS_SIMD_X86

#include <immintrin.h>

#include "solver/simd_avx2.h"

// The AMGS coefficients by lane: s = 2/γ, (2/γ)κ_i in sk, (2/γ)f_i in sf, γ/2 in hg (cs_rule_apply: for
// Ω = αD the constants f and κ = g, for Ω = ω̄E f_i = c_i·A_ii and κ_i = h·c_i from c and diag).
typedef struct amgs_lanes
{
    __m256d s, sk, sf, hg;
} amgs_lanes;

static inline CS_AVX2 amgs_lanes amgs_constants(const cs_rule_state* st)
{
    amgs_lanes k = {_mm256_set1_pd(st->s), _mm256_set1_pd(st->s * st->g), _mm256_set1_pd(st->s * st->f),
                    _mm256_set1_pd(st->half_gamma)};
    return k;
}

static inline CS_AVX2 amgs_lanes amgs_per_row(const cs_rule_state* st, __m256d c, __m256d diag)
{
    amgs_lanes k = {_mm256_set1_pd(st->s), _mm256_setzero_pd(), _mm256_setzero_pd(),
                    _mm256_set1_pd(st->half_gamma)};
    k.sk = MUL(k.s, MUL(_mm256_set1_pd(st->h), c));
    k.sf = MUL(k.s, MUL(c, diag));
    return k;
}

// cs_rule_apply's AMGS rule by lane, with (2/γ)κ_i and (2/γ)f_i in sk and sf:
//     y = (2/γ)x,  y ← (y − sk·(y − λ)) − sf·step,  x ← (γ/2)y;  the caller clamps y.
static inline CS_AVX2 __m256d amgs_y(__m256d* x, __m256d old, __m256d step, __m256d s, __m256d sk, __m256d sf,
                                     __m256d half_gamma)
{
    __m256d y = MUL(s, *x);
    y = SUB(SUB(y, MUL(sk, SUB(y, old))), MUL(sf, step));
    *x = MUL(half_gamma, y);
    return y;
}

// Four circle normal rows side by side: half b's J/A_ii and both halves' M⁻¹Jᵀ by lane as x/y vectors,
// b/A_ii, λ, and the halves' body slots; the rule's state for rows first .. first + 3 (AMGS). The rows are
// opposed (CS_PACK_NORMAL_ROW), so the step is cs_halves_step_opposed's: bias + (jbx·(vbx − vax) + jby·(vby −
// vay)), for a normal quad's rows and a pair quad's normal rows alike (a static half a is the zero slot, +0
// while impulses are finite).
typedef struct normal_lanes
{
    const double *jbx, *jby, *max, *may, *mbx, *mby;
} normal_lanes;

// The changes M⁻¹Jᵀ·d a normal quad adds to its halves' (x, y) velocities, by lane.
typedef struct quad_moves
{
    __m256d ax, ay, bx, by;
} quad_moves;

// normal_quad's update; with `moves`, the changes it added to v there too (split_quad measures them).
static inline __attribute__((always_inline)) CS_AVX2 void
normal_quad(cs_rule rule, bool per_row, const cs_rule_state* st, int first, normal_lanes r,
            const double* bias, const int32_t* a, const int32_t* b, double* lambda, double* v,
            quad_moves* moves)
{
    // The slots in locals: the stores through v (the intrinsics' may-alias vector types) would otherwise
    // make the compiler read a[] and b[] again for the scatters.
    const int32_t sa[CS_LANES] = {a[0], a[1], a[2], a[3]}, sb[CS_LANES] = {b[0], b[1], b[2], b[3]};
    __m256d vax, vay, vbx, vby;
    gather_xy(v, sa, &vax, &vay);
    gather_xy(v, sb, &vbx, &vby);
    __m256d step = ADD(LD(bias), ADD(MUL(LD(r.jbx), SUB(vbx, vax)), MUL(LD(r.jby), SUB(vby, vay))));
    __m256d old = _mm256_loadu_pd(lambda);
    __m256d y;
    if (rule == CS_RULE_PGS)
    {
        y = SUB(old, step);
    }
    else if (rule == CS_RULE_PSOR)
    {
        y = SUB(old, MUL(_mm256_set1_pd(st->f), step)); // old − ω·step, as cs_rule_apply
    }
    else
    {
        amgs_lanes k =
            per_row ? amgs_per_row(st, LD(st->c + first), LD(st->diag + first)) : amgs_constants(st);
        __m256d x = LD(st->x + first);
        y = amgs_y(&x, old, step, k.s, k.sk, k.sf, k.hg);
        _mm256_storeu_pd(st->x + first, x);
    }
    __m256d next = _mm256_max_pd(_mm256_setzero_pd(), y); // y < 0 ? 0 : y
    __m256d d = SUB(next, old);
    _mm256_storeu_pd(lambda, next);
    quad_moves m = {MUL(LD(r.max), d), MUL(LD(r.may), d), MUL(LD(r.mbx), d), MUL(LD(r.mby), d)};
    vax = ADD(vax, m.ax);
    vay = ADD(vay, m.ay);
    vbx = ADD(vbx, m.bx);
    vby = ADD(vby, m.by);
    if (moves != NULL)
    {
        *moves = m;
    }
    scatter_xy(v, sa, vax, vay);
    scatter_xy(v, sb, vbx, vby);
}

static inline CS_AVX2 normal_lanes normal_fields(const cs_normal_quad* q)
{
    normal_lanes r = {
        .jbx = q->jbx, .jby = q->jby, .max = q->max, .may = q->may, .mbx = q->mbx, .mby = q->mby};
    return r;
}

// The normal row of each pair of a pair quad (cs_pair_quad: its a half from its b half).
static inline CS_AVX2 normal_lanes pair_normal_fields(const cs_pair_quad* q)
{
    normal_lanes r = {
        .jbx = q->nbx, .jby = q->nby, .max = q->nmax, .may = q->nmay, .mbx = q->nmbx, .mby = q->nmby};
    return r;
}

// The CS_PACK_NORMAL_ROW | CS_PACK_PAIR path of cs_sweep, four pairs at once, for the PGS rule and the
// PSOR rule (ω in st->f) and the two-sided AMGS rule (Ω = αD with constant coefficients, or Ω = ω̄E with
// c_i per row).
// `pairs`: the quad's pairs (cs_sweep_item; a short quad's null lanes load λ = x = c = A_ii = +0 and keep
// λ = +0, adding +0 to the zero slot).
static inline __attribute__((always_inline)) CS_AVX2 void pair_quad(cs_rule rule, bool per_row,
                                                                    const cs_rule_state* st,
                                                                    const cs_pair_quad* q, int first,
                                                                    int pairs, double* lambda, double* v)
{
    // Each side's slots are read once for its (x, y) and ω, here and again for the scatters below (in
    // locals, as normal_quad's; held across the whole quad, eight of them spill).
    __m256d vax, vay, vbx, vby, wa, wb;
    {
        const int32_t sa[CS_LANES] = {q->a[0], q->a[1], q->a[2], q->a[3]};
        const int32_t sb[CS_LANES] = {q->b[0], q->b[1], q->b[2], q->b[3]};
        gather_xy(v, sa, &vax, &vay);
        gather_xy(v, sb, &vbx, &vby);
        wa = gather_w(v, sa);
        wb = gather_w(v, sb);
    }
    __m256d n_old, f_old;
    load_pairs_n(lambda + first, pairs, &n_old, &f_old);

    // Both rows' steps from the halves' relative velocity, as cs_halves_step_opposed: J_a = −J_b (a static
    // half a is the zero slot, +0 while impulses are finite: vb − (+0) = vb). The friction row's is taken
    // before the normal row moves v (cs_sweep's pair path, not linear).
    __m256d nmax = LD(q->nmax), nmay = LD(q->nmay), nmbx = LD(q->nmbx), nmby = LD(q->nmby);
    __m256d dx = SUB(vbx, vax), dy = SUB(vby, vay);
    __m256d f_lin = ADD(MUL(LD(q->fbx), dx), MUL(LD(q->fby), dy));
    __m256d f_step = ADD(ADD(LD(q->fbias), f_lin), ADD(MUL(LD(q->fwb), wb), MUL(LD(q->fwa), wa)));
    __m256d n_step = ADD(LD(q->nbias), ADD(MUL(LD(q->nbx), dx), MUL(LD(q->nby), dy)));
    __m256d zero = _mm256_setzero_pd();
    __m256d n, n_y, f_y;
    __m256d xn = zero, xf = zero;
    amgs_lanes kn = {zero, zero, zero, zero}, kf = kn;
    if (rule == CS_RULE_PGS)
    {
        n_y = SUB(n_old, n_step);
    }
    else if (rule == CS_RULE_PSOR)
    {
        n_y = SUB(n_old, MUL(_mm256_set1_pd(st->f), n_step));
    }
    else
    {
        load_pairs_n(st->x + first, pairs, &xn, &xf);
        if (per_row)
        {
            __m256d cn, cf, dn, df;
            load_pairs_n(st->c + first, pairs, &cn, &cf);
            load_pairs_n(st->diag + first, pairs, &dn, &df);
            kn = amgs_per_row(st, cn, dn);
            kf = amgs_per_row(st, cf, df);
        }
        else
        {
            kn = kf = amgs_constants(st);
        }
        n_y = amgs_y(&xn, n_old, n_step, kn.s, kn.sk, kn.sf, kn.hg);
    }
    n = _mm256_max_pd(zero, n_y); // y < 0 ? 0 : y
    __m256d dn = SUB(n, n_old);
    vax = ADD(vax, MUL(nmax, dn));
    vay = ADD(vay, MUL(nmay, dn));
    vbx = ADD(vbx, MUL(nmbx, dn));
    vby = ADD(vby, MUL(nmby, dn));

    // The friction row: step plus the coupling, box ±μ·n (0 unless n > 0), clamp as branches do.
    f_step = ADD(f_step, MUL(LD(q->coupling), SUB(n, n_old)));
    __m256d limit = _mm256_and_pd(_mm256_cmp_pd(n, zero, _CMP_GT_OQ), MUL(LD(q->mu), n));
    __m256d lo = _mm256_xor_pd(limit, _mm256_set1_pd(-0.0)); // −limit, as the scalar negation
    if (rule == CS_RULE_PGS)
    {
        f_y = SUB(f_old, f_step);
    }
    else if (rule == CS_RULE_PSOR)
    {
        f_y = SUB(f_old, MUL(_mm256_set1_pd(st->f), f_step));
    }
    else
    {
        f_y = amgs_y(&xf, f_old, f_step, kf.s, kf.sk, kf.sf, kf.hg);
        store_pairs_n(st->x + first, pairs, xn, xf);
    }
    __m256d f = _mm256_min_pd(limit, _mm256_max_pd(lo, f_y));
    __m256d df = SUB(f, f_old);
    // M⁻¹J_f,aᵀ = (−nmay, nmax), M⁻¹J_f,bᵀ = (−nmby, nmbx): v + (−m)·d is v − m·d bit for bit. (A static
    // half's +0·d, added to its zero slot's +0, is +0 either way.)
    vax = SUB(vax, MUL(nmay, df));
    vay = ADD(vay, MUL(nmax, df));
    vbx = SUB(vbx, MUL(nmby, df));
    vby = ADD(vby, MUL(nmbx, df));
    wb = ADD(wb, MUL(LD(q->fmwb), df));
    wa = ADD(wa, MUL(LD(q->fmwa), df));

    store_pairs_n(lambda + first, pairs, n, f);
    // Side a's (x, y) and ω, then side b's: the lanes' bodies are distinct but for the zero slot, whose last
    // writer is b's for both, as it was with the (x, y) of both sides stored first.
    {
        const int32_t sa[CS_LANES] = {q->a[0], q->a[1], q->a[2], q->a[3]};
        scatter_xy(v, sa, vax, vay);
        scatter_w(v, sa, wa);
    }
    {
        const int32_t sb[CS_LANES] = {q->b[0], q->b[1], q->b[2], q->b[3]};
        scatter_xy(v, sb, vbx, vby);
        scatter_w(v, sb, wb);
    }
}

// The sweep loop lives here with the kernels, so that each quad's update is inlined (no call, no
// vzeroupper, constants kept in registers); rows outside quads go back to the scalar sweep through `rows`.
// items[begin .. end) (the schedule, or a fused order of its items: fuse.h) with, when with_runs, their runs
// of quads (cs_sweep_runs): a run's quads follow each other, so its loop reads no item.
static inline __attribute__((always_inline)) CS_AVX2 void
sweep_lanes(cs_rule rule, bool per_row, const cs_rule_state* st, cs_solve_ctx* ctx, cs_rows_fn rows,
            const cs_sweep_item* items, bool with_runs, const int32_t* runs, int begin, int end)
{
    cs_solver_work* w = ctx->work;
    const cs_pair_quad* pairs = w->quads;
    const cs_normal_quad* normals = w->normal_quads;
    double* lambda = ctx->lambda;
    double* v = w->v;
    for (int k = begin; k < end;)
    {
        const cs_sweep_item* it = items + k;
        int run = with_runs ? runs[k] : 0;
        if (run > 0)
        {
            run = run < end - k ? run : end - k;
            int first = it->first;
            if (it->pairs == CS_LANES)
            {
                for (const cs_pair_quad *q = pairs + it->quad, *q_end = q + run; q < q_end; ++q)
                {
                    pair_quad(rule, per_row, st, q, first, CS_LANES, lambda, v);
                    first += 2 * CS_LANES;
                }
            }
            else
            {
                for (const cs_normal_quad *q = normals + it->quad, *q_end = q + run; q < q_end; ++q)
                {
                    normal_quad(rule, per_row, st, first, normal_fields(q), q->bias, q->a, q->b,
                                lambda + first, v, NULL);
                    first += CS_LANES;
                }
            }
            k += run;
            continue;
        }
        if (it->quad < 0)
        {
            rows(rule, st, ctx, it->first, it->first + it->count);
        }
        else if (!with_runs && __builtin_expect(it->pairs == CS_LANES, 1))
        {
            pair_quad(rule, per_row, st, pairs + it->quad, it->first, CS_LANES, lambda, v);
        }
        else if (it->pairs > 0)
        {
            pair_quad(rule, per_row, st, pairs + it->quad, it->first, it->pairs, lambda, v);
        }
        else if (!with_runs)
        {
            const cs_normal_quad* q = normals + it->quad;
            normal_quad(rule, per_row, st, it->first, normal_fields(q), q->bias, q->a, q->b,
                        lambda + it->first, v, NULL);
        }
        k += 1;
    }
}

// Each rule's loop, with or without runs (a constant in each: the loops are compiled apart).
static inline __attribute__((always_inline)) CS_AVX2 void
sweep_rules(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, cs_rows_fn rows,
            const cs_sweep_item* items, bool with_runs, const int32_t* runs, int begin, int end)
{
    if (rule == CS_RULE_PGS)
    {
        sweep_lanes(CS_RULE_PGS, false, st, ctx, rows, items, with_runs, runs, begin, end);
    }
    else if (rule == CS_RULE_PSOR)
    {
        sweep_lanes(CS_RULE_PSOR, false, st, ctx, rows, items, with_runs, runs, begin, end);
    }
    else if (st->c != NULL)
    {
        sweep_lanes(CS_RULE_AMGS, true, st, ctx, rows, items, with_runs, runs, begin, end);
    }
    else
    {
        sweep_lanes(CS_RULE_AMGS, false, st, ctx, rows, items, with_runs, runs, begin, end);
    }
}

CS_AVX2 void cs_avx2_sweep_items(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, cs_rows_fn rows,
                                 const cs_sweep_item* items, const int32_t* runs, int begin, int end)
{
    if (runs != NULL)
    {
        sweep_rules(rule, st, ctx, rows, items, true, runs, begin, end);
    }
    else
    {
        sweep_rules(rule, st, ctx, rows, items, false, NULL, begin, end);
    }
}

CS_AVX2 void cs_avx2_sweep(cs_rule rule, const cs_rule_state* st, cs_solve_ctx* ctx, cs_rows_fn rows)
{
    const cs_solver_work* w = ctx->work;
    sweep_rules(rule, st, ctx, rows, w->schedule, true, w->schedule_runs, 0, w->schedule_count);
}

// A split quad: normal_quad's PGS update, and with `measure` the changes it applied to its bodies'
// velocities tested against limit2 as cs_split_moved does, by lane: a mask of the lanes that moved (or gave
// NaN), from the products M⁻¹Jᵀ·d normal_quad added to v. (Only a solve's first sweep measures:
// cs_solve_split.)
static inline __attribute__((always_inline)) CS_AVX2 __m256d split_quad(bool measure, __m256d limit2,
                                                                        normal_lanes r, const double* bias,
                                                                        const int32_t* a, const int32_t* b,
                                                                        double* lambda, double* v)
{
    quad_moves m;
    normal_quad(CS_RULE_PGS, false, NULL, 0, r, bias, a, b, lambda, v, measure ? &m : NULL);
    if (!measure)
    {
        return _mm256_setzero_pd();
    }
    __m256d ma2 = ADD(MUL(m.ax, m.ax), MUL(m.ay, m.ay));
    __m256d mb2 = ADD(MUL(m.bx, m.bx), MUL(m.by, m.by));
    return _mm256_cmp_pd(_mm256_max_pd(ma2, mb2), limit2, _CMP_NLT_UQ); // (max: ma2 > mb2 ? ma2 : mb2)
}

// items[begin .. end) (work->items, or a fused order of them: fuse.h), with their runs of quads
// (cs_sweep_runs) when `runs` is not NULL.
static inline __attribute__((always_inline)) CS_AVX2 bool
sweep_split(bool measure, const cs_split_work* work, const cs_sweep_item* items, const int32_t* runs,
            int begin, int end, double limit2, double* lambda, double* v, cs_split_rows_fn rows,
            const void* rows_arg)
{
    const cs_normal_quad* quads = work->quads; // read once, as in sweep_lanes
    __m256d lim = _mm256_set1_pd(limit2);
    __m256d moved = _mm256_setzero_pd();
    bool rows_moved = false;
    for (int k = begin; k < end; ++k)
    {
        const cs_sweep_item* it = items + k;
        int run = runs != NULL ? runs[k] : 0;
        if (run > 0)
        {
            run = run < end - k ? run : end - k;
            int first = it->first;
            for (const cs_normal_quad *q = quads + it->quad, *q_end = q + run; q < q_end; ++q)
            {
                moved = _mm256_or_pd(moved, split_quad(measure, lim, normal_fields(q), q->bias, q->a, q->b,
                                                       lambda + first, v));
                first += CS_LANES;
            }
            k += run - 1;
            continue;
        }
        if (it->quad >= 0)
        {
            const cs_normal_quad* q = quads + it->quad;
            moved = _mm256_or_pd(moved, split_quad(measure, lim, normal_fields(q), q->bias, q->a, q->b,
                                                   lambda + it->first, v));
        }
        else
        {
            rows_moved |= rows(rows_arg, it->first, it->first + it->count, lambda, v);
        }
    }
    return !measure || rows_moved || _mm256_movemask_pd(moved) != 0;
}

CS_AVX2 bool cs_avx2_sweep_split(const cs_split_work* work, double limit2, double* lambda, double* v,
                                 cs_split_rows_fn rows, const void* rows_arg)
{
    const cs_sweep_item* items = work->items;
    int count = work->item_count;
    const int32_t* runs = work->runs;
    return limit2 > 0.0 ? sweep_split(true, work, items, runs, 0, count, limit2, lambda, v, rows, rows_arg)
                        : sweep_split(false, work, items, runs, 0, count, limit2, lambda, v, rows, rows_arg);
}

CS_AVX2 void cs_avx2_sweep_split_items(const cs_split_work* work, const cs_sweep_item* items,
                                       const int32_t* runs, int begin, int end, double* lambda, double* v,
                                       cs_split_rows_fn rows, const void* rows_arg)
{
    sweep_split(false, work, items, runs, begin, end, 0.0, lambda, v, rows, rows_arg);
}

// cs_avx2_sweep_split_on for one stride (a constant once inlined: cs_split_lanes folds to two compares).
static inline __attribute__((always_inline)) CS_AVX2 bool
sweep_split_on(const cs_solver_work* solved, int stride, bool measure, const cs_split_work* work,
               double limit2, double* lambda, double* v, cs_split_rows_fn rows, const void* rows_arg)
{
    const cs_sweep_item* items = solved->schedule;
    const cs_pair_quad* pairs = solved->quads;
    const cs_normal_quad* normals = solved->normal_quads;
    // Read once (the lanes' stores may alias anything, so the compiler would read them again every item).
    double* quad_lanes = work->quad_lanes;
    int count = solved->schedule_count;
    __m256d lim = _mm256_set1_pd(limit2);
    __m256d moved = _mm256_setzero_pd();
    bool rows_moved = false;
    const int32_t* runs = solved->schedule_runs;
    for (int k = 0; k < count; ++k)
    {
        const cs_sweep_item* it = items + k;
        const int run = runs[k];
        if (run > 0 && cs_split_lanes(it, stride) != CS_SPLIT_ROWS)
        {
            // A run of quads of one kind (cs_schedule_runs): quad after quad, no item read between them.
            double* lanes = quad_lanes + (size_t)(2 * CS_LANES) * (size_t)it->quad;
            if (it->pairs > 0)
            {
                for (const cs_pair_quad *q = pairs + it->quad, *q_end = q + run; q < q_end; ++q)
                {
                    moved = _mm256_or_pd(moved, split_quad(measure, lim, pair_normal_fields(q), lanes, q->a,
                                                           q->b, lanes + CS_LANES, v));
                    lanes += 2 * CS_LANES;
                }
            }
            else
            {
                for (const cs_normal_quad *q = normals + it->quad, *q_end = q + run; q < q_end; ++q)
                {
                    moved = _mm256_or_pd(moved, split_quad(measure, lim, normal_fields(q), lanes, q->a, q->b,
                                                           lanes + CS_LANES, v));
                    lanes += 2 * CS_LANES;
                }
            }
            k += run - 1;
            continue;
        }
        // The velocity quad's normal rows, with the split problem's own bias and λ (kept per quad).
        // (Only quads have lanes: a run's quad index is negative, and even forming its address is undefined.)
        double* lanes = it->quad >= 0 ? quad_lanes + (size_t)(2 * CS_LANES) * (size_t)it->quad : NULL;
        switch (cs_split_lanes(it, stride))
        {
            case CS_SPLIT_FROM_PAIRS:
            {
                const cs_pair_quad* q = pairs + it->quad;
                moved = _mm256_or_pd(moved, split_quad(measure, lim, pair_normal_fields(q), lanes, q->a, q->b,
                                                       lanes + CS_LANES, v));
                break;
            }
            case CS_SPLIT_FROM_NORMALS:
            {
                const cs_normal_quad* q = normals + it->quad;
                moved = _mm256_or_pd(moved, split_quad(measure, lim, normal_fields(q), lanes, q->a, q->b,
                                                       lanes + CS_LANES, v));
                break;
            }
            default:
            {
                int k0, k1;
                cs_split_range(it, stride, &k0, &k1);
                rows_moved |= rows(rows_arg, k0, k1, lambda, v);
                break;
            }
        }
    }
    return !measure || rows_moved || _mm256_movemask_pd(moved) != 0;
}

// The four instances: stride 2 (pairs) or any other, measuring or not.
CS_AVX2 bool cs_avx2_sweep_split_on(const cs_solver_work* solved, int stride, const cs_split_work* work,
                                    double limit2, double* lambda, double* v, cs_split_rows_fn rows,
                                    const void* rows_arg)
{
    bool measure = limit2 > 0.0;
    if (stride == 2)
    {
        return measure ? sweep_split_on(solved, 2, true, work, limit2, lambda, v, rows, rows_arg)
                       : sweep_split_on(solved, 2, false, work, limit2, lambda, v, rows, rows_arg);
    }
    return measure ? sweep_split_on(solved, stride, true, work, limit2, lambda, v, rows, rows_arg)
                   : sweep_split_on(solved, stride, false, work, limit2, lambda, v, rows, rows_arg);
}

#endif
