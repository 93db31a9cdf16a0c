// Internals shared by the solver files: the per-solve context, the method table entry and the
// row kernels (w_i = J_i·v + b_i, v += M⁻¹J_iᵀ Δλ) every velocity-form method is built from.
#ifndef CS_SOLVER_INTERNAL_H
#define CS_SOLVER_INTERNAL_H

#include "circlesim/solver.h"

#include <math.h>
#include <string.h>

// Everything a method sees during one cs_solve. The driver (solve.c) owns the loop over sweeps,
// the history and the tolerance test, so a method only writes `begin` (once per solve) and
// `sweep` (one pass over the rows). After begin and after each sweep the method must leave
// `lambda` holding its current iterate and `work->v` = v* + M⁻¹Jᵀλ, because residuals are
// computed from those two arrays.
typedef struct cs_solve_ctx
{
    const cs_lcp* p;
    const cs_solver_params* params;
    cs_solver_work* work;
    double* lambda;
    double method[8]; // scalars a method's begin leaves for its sweeps (AMGS: γΩ_ii coefficients)
    int pivots;       // a CS_SOLVER_PIVOTING method's begin: the pivots it made (cs_solver_stats.pivots)
} cs_solve_ctx;

typedef cs_status (*cs_solver_begin_fn)(cs_solve_ctx* ctx, cs_error* err);
typedef void (*cs_solver_sweep_fn)(cs_solve_ctx* ctx);

typedef struct cs_solver_entry
{
    cs_solver_info info;
    cs_solver_begin_fn begin; // may be NULL
    cs_solver_sweep_fn sweep;
    // Its begin and sweeps read the packed rows only through the vector schedule when there is one
    // (cs_sweep_lanes): the rows in lanes then need no record (schedule.c, cs_pack_lanes).
    bool schedule_only;
    // Its begin builds its own vector schedule (pgs-f32's float lanes): the driver packs every row's record
    // and builds none of the double lanes, whatever CS_SOLVER_SIMD and params->simd say.
    bool own_lanes;
} cs_solver_entry;

// Two doubles in one 16-byte vector register (SSE2 on x86-64, NEON on arm64). GCC and Clang vector
// extensions: element-wise + − × are the same IEEE operations as on scalars, so a kernel written with
// them gives the same bits as the scalar sums it spells out; it only needs fewer instructions.
typedef double cs_v2 __attribute__((vector_size(16)));

static inline cs_v2 cs_v2_load(const double* p)
{
    cs_v2 x;
    memcpy(&x, p, sizeof x);
    return x;
}

static inline void cs_v2_store(double* p, cs_v2 x)
{
    memcpy(p, &x, sizeof x);
}

static inline cs_v2 cs_v2_set(double x0, double x1)
{
    cs_v2 x = {x0, x1};
    return x;
}

// The bits of x − x: +0 (no bit set) for a finite x, NaN for ±inf and NaN. OR-ed over many numbers, the
// result is 0 exactly when all are finite (OR has no rounding: any order, no branch). check.c, solve.c.
typedef uint64_t cs_u2 __attribute__((vector_size(16)));

static inline cs_u2 cs_nonfinite_bits(cs_v2 x)
{
    return (cs_u2)(x - x);
}

// Nonzero when any of x[0 .. n) is not finite (cs_nonfinite_bits OR-ed, two lanes, no branch; check.c).
uint64_t cs_nonfinite_any(const double* x, int n);

// A row packed for the sweeps (solve.c builds them once per solve): everything one velocity-form update
// of row i reads, in one 128-byte record, so that a sweep streams a single array besides v and λ. J is
// stored divided by A_ii, so the step w_i / A_ii = j·v + bias costs no division and no extra multiply
// on the sweep's dependency chain (each row's update waits for the previous row that shares a body).
// The angular entries of both halves share one vector, b first, because the step sums pair them so:
//     w_i / A_ii = (bias + ((jb·vb_xy) + jw₀·ωb)) + ((ja·va_xy) + jw₁·ωa)
typedef struct cs_packed_row
{
    cs_v2 ja, jb, jw; // J_i / A_ii: linear part of half a, of half b; angular parts (b, a). Static half: 0
    cs_v2 ma, mb, mw; // M⁻¹J_iᵀ in the same layout
    double bias;      // b_i / A_ii
    double mu;        // friction: μ; a PAIR's normal row: the coupling (J_f M⁻¹ J_iᵀ)/A_ff of the pair
    int32_t a, b;     // 3·body of each half; a static half points at the zero slot after the last body
    int32_t link;     // friction: the normal row whose λ bounds this one; otherwise -1
    uint32_t kind;    // CS_PACK_* bits
} cs_packed_row;

_Static_assert(sizeof(cs_packed_row) == 128, "a packed row is two cache lines");

enum
{
    CS_PACK_SKIP = 1u << 0,     // A_ii = 0: no columns, nothing to move
    CS_PACK_FRICTION = 1u << 1, // bounds ±μ·λ[link] from the current λ
    CS_PACK_LINEAR = 1u << 2,   // no angular terms (circle normal rows): 2 of each half's 3 columns
    CS_PACK_SHARED = 1u << 3,   // both halves on one body: updates must go through memory in order
    CS_PACK_NONNEG = 1u << 4,   // bounds [0, +∞) (normal rows, and box rows with those bounds)
    // This NORMAL_ROW and the next, a FRICTION_ROW f linked to it, share both bodies: their velocities
    // stay in registers across the two updates, and f's step is taken before the normal row moves v, plus
    // the coupling (J_f M⁻¹ J_iᵀ / A_ff)·Δλ_i (kept in mu), which takes f off the dependency chain.
    CS_PACK_PAIR = 1u << 5,
    // A regularised row (cs_lcp.reg): A_ii includes ε_i, and the step adds ε_i λ_i / A_ii, kept in mu.
    // Only the generic path takes it (the kinds above are compared exactly).
    CS_PACK_SOFT = 1u << 6,
};

// The kinds the sweeps have fast paths for; any other row takes the generic path, which reads box
// bounds from the problem itself.
#define CS_PACK_NORMAL_ROW   (CS_PACK_LINEAR | CS_PACK_NONNEG) // a circle's normal row: 0 <= λ, no spin
#define CS_PACK_FRICTION_ROW (CS_PACK_FRICTION)                // two distinct bodies, all six columns

// registry.c
const cs_solver_entry* cs_solver_entry_at(int index);

// The methods (one file each).
void cs_pgs_sweep(cs_solve_ctx* ctx);
cs_status cs_pgs_f32_begin(cs_solve_ctx* ctx, cs_error* err); // pgs_f32.c: PGS in single precision
void cs_pgs_f32_sweep(cs_solve_ctx* ctx);
cs_status cs_psor_begin(cs_solve_ctx* ctx, cs_error* err); // checks ω in (0, 2)
void cs_psor_sweep(cs_solve_ctx* ctx);
void cs_pssor_sweep(cs_solve_ctx* ctx);
cs_status cs_jacobi_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_jacobi_sweep(cs_solve_ctx* ctx);
cs_status cs_apgd_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_apgd_sweep(cs_solve_ctx* ctx);
// jacobi.c, shared with apgd.c: the mass-split step. cs_split_scales grows work->dense to [m] scales
// ω/n_i (n_i: the most rows on either body of row i; 0 for rows without columns), then row_arrays arrays of
// m and body_arrays arrays of 3(bodies + 1) for the method; cs_split_body_array is body array k.
// cs_split_project: to_i = clamp(from_i − scale_i·steps_i) with bounds read from bounds_from, pass 0 for
// every row but friction rows, pass 1 for friction rows (so that they may see the new λ_n).
cs_status cs_split_scales(cs_solve_ctx* ctx, double omega, int row_arrays, int body_arrays, cs_error* err);
double* cs_split_body_array(const cs_solve_ctx* ctx, int row_arrays, int k);
void cs_split_project(const cs_solve_ctx* ctx, const double* from, const double* steps,
                      const double* bounds_from, double* to, int pass);
cs_status cs_pgs_block_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_pgs_block_sweep(cs_solve_ctx* ctx);
cs_status cs_amgs_begin(cs_solve_ctx* ctx, cs_error* err);       // Ω = αD
cs_status cs_amgs_omega_begin(cs_solve_ctx* ctx, cs_error* err); // Ω = ω̄E
void cs_amgs_sweep(cs_solve_ctx* ctx);
void cs_amgs_set_alpha(cs_solve_ctx* ctx, double alpha);            // Ω = αD from the next sweep on
cs_status cs_amgs_adaptive_begin(cs_solve_ctx* ctx, cs_error* err); // amgs_adaptive.c: α from the sweeps
void cs_amgs_adaptive_sweep(cs_solve_ctx* ctx);
cs_status cs_amgs_dense_begin(cs_solve_ctx* ctx, cs_error* err);
void cs_amgs_dense_sweep(cs_solve_ctx* ctx);
cs_status cs_pgs_sm_begin(cs_solve_ctx* ctx, cs_error* err); // pgs_sm.c: MNS Algorithm 3.1
cs_status cs_pgs_kz_begin(cs_solve_ctx* ctx, cs_error* err); // Kocvara–Zowe: k_sm = 1, z^b only
void cs_pgs_sm_sweep(cs_solve_ctx* ctx);                     // one iteration: k_gs sweeps + subspace phase

// cs_solve in two halves, so that a caller can do other work on the packed rows between them (the
// world's split-impulse solve on a second thread): cs_solve_start checks the arguments, packs the rows,
// sets the start point and runs the method's begin; cs_solve_finish runs the sweeps and fills stats
// (stats->seconds counts from the start). cs_solve is exactly start then finish. A caller that sets
// defer_residuals after a start that found the problem good (check.stop != CS_STOP_BAD_PROBLEM) gets stats
// without the final residuals and their verdict on the stop; cs_solve_residuals adds them later (the world
// computes them on a worker), as long as the rows, work->v and λ are unchanged.
typedef struct cs_solve_run
{
    cs_solve_ctx ctx;
    const cs_solver_entry* method;
    double t0;
    cs_solver_stats check; // stop = CS_STOP_BAD_PROBLEM (with its reason) when cs_problem_check failed
    bool defer_residuals;
} cs_solve_run;

// check.c: false, with out->stop = CS_STOP_BAD_PROBLEM and the reason, row and body, when p (with A_ii in
// diag and the start point lambda) is a problem no method can solve; out is untouched otherwise. rows_good:
// the packing pass proved every row good (pack.h, cs_pack_proven); only the bodies are looked at then, and
// the exact checks otherwise.
bool cs_problem_check(const cs_lcp* p, bool rows_good, const double* diag, const double* lambda,
                      cs_solver_stats* out);

cs_status cs_solve_start(const cs_lcp* p, int solver, const cs_solver_params* params, cs_solver_work* work,
                         double* lambda, cs_solve_run* run, cs_error* err);
void cs_solve_finish(cs_solve_run* run, cs_solver_stats* stats);
void cs_solve_residuals(const cs_solve_run* run, cs_solver_stats* stats);

// schedule.c: the vector-lane schedule of a packed problem's normal/friction pairs and normal rows (into
// work->schedule, work->quads and work->normal_quads); the split problem's is in split.h.
cs_status cs_schedule_rows(const cs_lcp* p, cs_solver_work* w, cs_error* err);
// The packing pass and cs_schedule_rows in one, for a schedule_only method: each row packed once (pack.h)
// straight into the quad lanes it is swept in, or into its record when it is swept one at a time; the same
// schedule, the same numbers. It also sets the start point, lambda[i] = start[i] (0 for start NULL), as it
// goes. Sets work->lanes_only; *rows_good as precompute_rows' result (check.c).
cs_status cs_pack_lanes(const cs_lcp* p, cs_solver_work* work, const double* start, double* lambda,
                        bool* rows_good, cs_error* err);
// After cs_pack_lanes: the records of the rows in quads, from their lanes, for a reader of every record (the
// split solve off the velocity schedule). Writes only those records (a sweep running meanwhile reads none).
void cs_pack_records_from_lanes(const cs_solver_work* work);

// residual.c: cs_residual_lcp and cs_residual_nat in one pass.
void cs_residuals(const cs_lcp* p, const double* v, const double* lambda, double* res_lcp, double* res_nat);

// solve.c: the packed rows of the current solve.
static inline const cs_packed_row* cs_packed_rows(const cs_solver_work* w)
{
    return (const cs_packed_row*)w->packed;
}
// solve.c: grows a double array geometrically (contents kept), for work arrays a method owns.
cs_status cs_grow_doubles(double** array, int* capacity, int needed, cs_error* err);

// Row kernels ------------------------------------------------------------------------------------

// J_i · v over the row's two body halves (a static half, index -1, has no columns).
static inline double cs_row_jv(const double* jac6, int a, int b, const double* v)
{
    double s = 0.0;
    if (a >= 0)
    {
        const double* va = v + 3 * a;
        s += jac6[0] * va[0] + jac6[1] * va[1] + jac6[2] * va[2];
    }
    if (b >= 0)
    {
        const double* vb = v + 3 * b;
        s += jac6[3] * vb[0] + jac6[4] * vb[1] + jac6[5] * vb[2];
    }
    return s;
}

// w_i of the regularised problem, (J_i·v + b_i) + ε_i λ_i (Lacoursière eq. (14); ε_i = 0 without cs_lcp.reg),
// with λ_i the row's impulse and v = v* + M⁻¹Jᵀλ: (A + Σ)λ + q read from the velocities.
static inline double cs_row_w(const cs_lcp* p, const double* v, double lambda_i, int i)
{
    double w = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], v) + p->bias[i];
    return p->reg != NULL ? w + p->reg[i] * lambda_i : w;
}

// v += mjt_i · delta: applies an impulse change of row i to its bodies.
static inline void cs_row_apply(const double* mjt6, int a, int b, double delta, double* v)
{
    if (a >= 0)
    {
        double* va = v + 3 * a;
        va[0] += mjt6[0] * delta;
        va[1] += mjt6[1] * delta;
        va[2] += mjt6[2] * delta;
    }
    if (b >= 0)
    {
        double* vb = v + 3 * b;
        vb[0] += mjt6[3] * delta;
        vb[1] += mjt6[4] * delta;
        vb[2] += mjt6[5] * delta;
    }
}

// Bounds of row i (same rule as cs_lcp_bounds, inlined for the hot loops).
static inline void cs_row_bounds(const cs_lcp* p, const double* lambda, int i, double* lo, double* hi)
{
    switch (p->kind[i])
    {
        case CS_ROW_FRICTION:
        {
            // A negative normal impulse can only come from a start point; it gives an empty box.
            double n = lambda[p->link[i]];
            double limit = n > 0.0 ? p->mu[i] * n : 0.0;
            *lo = -limit;
            *hi = limit;
            break;
        }
        case CS_ROW_BOX:
            *lo = p->lo[i];
            *hi = p->hi[i];
            break;
        default:
            *lo = 0.0;
            *hi = INFINITY;
            break;
    }
}

static inline double cs_clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

// Keeps the compiler from turning a clamp's branch into a min/max instruction. A sweep is bound by the
// latency of the chain of rows that share bodies; a well-predicted branch adds nothing to that chain,
// a maxsd adds its 4 cycles (measured on Pool 1's position problem: 60 µs with maxsd, 44 µs with the
// branch). The empty volatile asm claims to modify x and may not be hoisted, so the branch stays.
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define CS_KEEP_BRANCH(x) __asm__ volatile("" : "+x"(x))
#elif defined(__GNUC__) && defined(__aarch64__)
#define CS_KEEP_BRANCH(x) __asm__ volatile("" : "+w"(x))
#else
#define CS_KEEP_BRANCH(x) ((void)0)
#endif

// clamp(x, lo, hi) as branches (see CS_KEEP_BRANCH); the same value as cs_clamp.
static inline double cs_clamp_branch(double x, double lo, double hi)
{
    if (x < lo)
    {
        x = lo;
        CS_KEEP_BRANCH(x);
    }
    else if (x > hi)
    {
        x = hi;
        CS_KEEP_BRANCH(x);
    }
    return x;
}

// max(x, lo) as a branch, for rows whose upper bound is +∞.
static inline double cs_clamp_lower_branch(double x, double lo)
{
    if (x < lo)
    {
        x = lo;
        CS_KEEP_BRANCH(x);
    }
    return x;
}

// A friction row's box [−limit, limit] from its normal row's current impulse n (cs_row_bounds' rule:
// a negative normal impulse, possible only as a start point, gives an empty box).
static inline double cs_friction_limit(double mu, double n)
{
    return n > 0.0 ? mu * n : 0.0;
}

// Bounds of packed row i of problem p for the generic path.
static inline void cs_pack_bounds(const cs_packed_row* r, const cs_lcp* p, const double* lambda, int i,
                                  double* lo, double* hi)
{
    if (r->kind & CS_PACK_FRICTION)
    {
        double limit = cs_friction_limit(r->mu, lambda[r->link]);
        *lo = -limit;
        *hi = limit;
    }
    else if (r->kind & CS_PACK_NONNEG)
    {
        *lo = 0.0;
        *hi = INFINITY;
    }
    else
    {
        *lo = p->lo[i];
        *hi = p->hi[i];
    }
}

// The velocities of a row's two bodies in registers while one row, or a PAIR of rows, updates them:
// loaded before, stored after. Not for SHARED rows, whose halves are one body.
typedef struct cs_halves
{
    cs_v2 a, b;     // vx, vy of each half
    cs_v2 w;        // ω of (b, a), the layout of jw and mw
    int32_t ia, ib; // where they live in v (read once: stores to v could alias the record otherwise)
} cs_halves;

static inline void cs_halves_load_xy(cs_halves* h, const double* v, int32_t ia, int32_t ib)
{
    h->ia = ia;
    h->ib = ib;
    h->a = cs_v2_load(v + ia);
    h->b = cs_v2_load(v + ib);
}

static inline void cs_halves_load(cs_halves* h, const double* v, const cs_packed_row* r, bool linear)
{
    cs_halves_load_xy(h, v, r->a, r->b);
    if (!linear)
    {
        h->w = cs_v2_set(v[h->ib + 2], v[h->ia + 2]);
    }
}

static inline void cs_halves_store(const cs_halves* h, double* v, bool linear)
{
    cs_v2_store(v + h->ia, h->a);
    cs_v2_store(v + h->ib, h->b);
    if (!linear)
    {
        v[h->ib + 2] = h->w[0];
        v[h->ia + 2] = h->w[1];
    }
}

// Takes the bodies h shares with `last` (the previous row's halves as it stored them) from there rather
// than from the loads: the same bits, but a row that shares a body with the one before (the pools' rows
// share body a, a stack's rows a with b) does not wait for the store-to-load round trip. ω is taken only
// when last has it (it was not a linear row) and h wants it.
static inline void cs_halves_carry(cs_halves* h, const cs_halves* last, bool last_w, bool linear)
{
    bool w = last_w && !linear;
    if (h->ia == last->ia)
    {
        h->a = last->a;
        if (w)
        {
            h->w[1] = last->w[1];
        }
    }
    else if (h->ia == last->ib)
    {
        h->a = last->b;
        if (w)
        {
            h->w[1] = last->w[0];
        }
    }
    if (h->ib == last->ib)
    {
        h->b = last->b;
        if (w)
        {
            h->w[0] = last->w[0];
        }
    }
    else if (h->ib == last->ia)
    {
        h->b = last->a;
        if (w)
        {
            h->w[0] = last->w[1];
        }
    }
}

// w_i / A_ii = (J_i·v + b_i) / A_ii with bias = b_i / A_ii (r->bias, or another right-hand side on the
// same rows: the split-impulse problem), summed as
//     (bias + ((jbx·vbx + jby·vby) + jbw·ωb)) + ((jax·vax + jay·vay) + jaw·ωa)
// with the two halves' partial sums side by side in one vector. Half a comes last: in rows sorted by
// contact key the previous row usually shares body a, so its velocity is the operand that arrives late.
static inline cs_v2 cs_halves_sum_xy(cs_v2 ja, cs_v2 jb, const cs_halves* h)
{
    cs_v2 pb = jb * h->b; // (jbx·vbx, jby·vby)
    cs_v2 pa = ja * h->a;
    return cs_v2_set(pb[0], pa[0]) + cs_v2_set(pb[1], pa[1]);
}

static inline double cs_halves_step(const cs_packed_row* r, double bias, const cs_halves* h, bool linear)
{
    cs_v2 sum = cs_halves_sum_xy(r->ja, r->jb, h);
    if (!linear)
    {
        sum += r->jw * h->w;
    }
    return (bias + sum[0]) + sum[1];
}

// v += M⁻¹J_iᵀ·delta on the halves.
static inline void cs_halves_apply_xy(cs_v2 ma, cs_v2 mb, cs_halves* h, double delta)
{
    cs_v2 d = {delta, delta};
    h->a += ma * d;
    h->b += mb * d;
}

static inline void cs_halves_apply(const cs_packed_row* r, cs_halves* h, double delta, bool linear)
{
    cs_halves_apply_xy(r->ma, r->mb, h, delta);
    if (!linear)
    {
        cs_v2 d = {delta, delta};
        h->w += r->mw * d;
    }
}

// The same step and update through memory, for rows of any kind (the generic path). Half a is written
// before half b is read back, so a SHARED row (a == b) accumulates both halves.
static inline double cs_pack_step(const cs_packed_row* r, double bias, const double* v)
{
    const double* va = v + r->a;
    const double* vb = v + r->b;
    return (bias + ((r->jb[0] * vb[0] + r->jb[1] * vb[1]) + r->jw[0] * vb[2])) +
           ((r->ja[0] * va[0] + r->ja[1] * va[1]) + r->jw[1] * va[2]);
}

// The step of the regularised problem (A + Σ)λ + q through memory: cs_pack_step plus, on a regularised row
// (CS_PACK_SOFT), ε_i λ_i / A_ii (kept in mu), λ_i the row's current impulse: the w_i = (J_i·v + b_i) + ε_i
// λ_i of Lacoursière's residual, eq. (14). Every method that reads a row's w from the packed records reads it
// here, so that no method solves the hard problem A λ + q on rows that are soft (docs/SOLVERS.md).
static inline double cs_pack_step_reg(const cs_packed_row* r, double bias, const double* v, double lambda_i)
{
    double step = cs_pack_step(r, bias, v);
    if (r->kind & CS_PACK_SOFT)
    {
        step += r->mu * lambda_i;
    }
    return step;
}

static inline void cs_pack_apply(const cs_packed_row* r, double delta, double* v)
{
    double* va = v + r->a;
    va[0] += r->ma[0] * delta;
    va[1] += r->ma[1] * delta;
    va[2] += r->mw[1] * delta;
    double* vb = v + r->b;
    vb[0] += r->mb[0] * delta;
    vb[1] += r->mb[1] * delta;
    vb[2] += r->mw[0] * delta;
}

// The sweep skeleton -----------------------------------------------------------------------------------
// Every velocity-form Gauss-Seidel method here updates row i in file order as
//     step = (J_i·v + b_i)/A_ii,   λ_i ← rule(step, λ_i, bounds),   v ← v + M⁻¹J_iᵀ Δλ_i
// and differs only in the rule. cs_sweep holds the row-kind fast paths once; a method calls it with
// its rule (a compile-time constant, so each call site is specialised) and the rule's state.
typedef enum cs_rule
{
    CS_RULE_PGS,  // λ ← clamp(λ − step)                                           (eq. (4))
    CS_RULE_PSOR, // λ ← clamp(λ − ω·step), ω in st->f                         (psor.c; ω = 1: PGS)
    CS_RULE_AMGS, // x ← x − (f_i·step + κ_i·e), e = (2/γ)x − λ, λ ← clamp((2/γ)x)  (docs/amgs.md)
    CS_RULE_AMGS_LITERAL // Method 3.2 as printed: x ← x − (f_i·step − (2/γ)κ_i·x₋), λ ← (2/γ)clamp(x)
} cs_rule;

// AMGS coefficients, with c_i = γ/(A_ii + γΩ_ii) the method's step and step = w_i/A_ii:
// f_i = c_i·A_ii (the weight of step) and κ_i = c_i·γΩ_ii (the weight of e).
//   Ω = αD (c == NULL): f_i = f and κ_i = g, constants.
//   Ω = ω̄E:            f_i = c_i·A_ii and κ_i = h·c_i, with c_i in c[] and A_ii in diag[].
typedef struct cs_rule_state
{
    double* x;          // the modulus variable per row
    const double* c;    // Ω = ω̄E: c_i per row; NULL for Ω = αD
    const double* diag; // Ω = ω̄E: A_ii per row
    double f, g, h;
    double s;          // 2/γ
    double half_gamma; // γ/2
} cs_rule_state;

// The new λ_i of row i from its step; nonneg: bounds [0, +∞), lo and hi unused.
static inline double cs_rule_apply(cs_rule rule, const cs_rule_state* st, int i, double step, double old,
                                   double lo, double hi, bool nonneg)
{
    if (rule == CS_RULE_PGS || rule == CS_RULE_PSOR)
    {
        // ω·step with ω = 1 is step exactly, so PSOR at ω = 1 is PGS bit for bit.
        double y = old - (rule == CS_RULE_PSOR ? st->f * step : step);
        return nonneg ? cs_clamp_lower_branch(y, 0.0) : cs_clamp_branch(y, lo, hi);
    }
    double x = st->x[i];
    double f = st->f, kappa = st->g;
    if (st->c != NULL)
    {
        f = st->c[i] * st->diag[i];
        kappa = st->h * st->c[i];
    }
    if (rule == CS_RULE_AMGS_LITERAL)
    {
        // The one-sided −2Ω_ii (x₋)_i term for every row and λ = (2/γ) p_BLCP(x) (docs/amgs.md (d)).
        double x_minus = x < 0.0 ? -x : 0.0;
        x -= f * step - st->s * kappa * x_minus;
        st->x[i] = x;
        return st->s * cs_clamp(x, lo, hi);
    }
    // The two-sided form (docs/amgs.md (a)), x ← x − (f·step + κ·e) with e = (2/γ)x − λ the part of y
    // the box cut off, written for y = (2/γ)x: y ← [y − (2/γ)κ·e] − (2/γ)f·step. The bracket does not
    // depend on the step, so only one multiply and one subtraction wait for it (the sweep's dependency
    // chain); x = (γ/2)y is stored for the next sweep.
    double y = st->s * x;
    y = (y - (st->s * kappa) * (y - old)) - (st->s * f) * step;
    st->x[i] = st->half_gamma * y;
    return nonneg ? cs_clamp_lower_branch(y, 0.0) : cs_clamp_branch(y, lo, hi);
}

// One row in registers: the new λ_i, with h updated.
static inline double cs_sweep_row(cs_rule rule, const cs_rule_state* st, const cs_packed_row* r, int i,
                                  cs_halves* h, double old, double lo, double hi, bool linear, bool nonneg)
{
    double next = cs_rule_apply(rule, st, i, cs_halves_step(r, r->bias, h, linear), old, lo, hi, nonneg);
    cs_halves_apply(r, h, next - old, linear);
    return next;
}

// One sweep over rows [begin, end) of p in file order (a PAIR's two rows both inside).
static inline void cs_sweep(cs_rule rule, const cs_rule_state* st, const cs_lcp* p, const cs_packed_row* rows,
                            double* v, double* lambda, int begin, int end)
{
    cs_halves last = {.ia = -1, .ib = -1}; // the previous fast-path row's halves (cs_halves_carry)
    bool last_w = false;
    for (int i = begin; i < end; ++i)
    {
        const cs_packed_row* r = rows + i;
        cs_halves h;
        switch (r->kind)
        {
            case CS_PACK_NORMAL_ROW:
            {
                cs_halves_load(&h, v, r, true);
                cs_halves_carry(&h, &last, last_w, true);
                lambda[i] = cs_sweep_row(rule, st, r, i, &h, lambda[i], 0.0, INFINITY, true, true);
                cs_halves_store(&h, v, true);
                // Its ω were not loaded: a later row takes them from memory, where they are current.
                last = h;
                last_w = false;
                break;
            }
            case CS_PACK_NORMAL_ROW | CS_PACK_PAIR:
            {
                // Row i and its friction row i + 1 (linked to i) on the same two bodies. The friction
                // row's step after the normal row's update is its step before it plus the coupling
                // times Δλ_i (exact up to rounding), so it need not wait for the updated velocities.
                const cs_packed_row* f = r + 1;
                cs_halves_load(&h, v, r, false);
                cs_halves_carry(&h, &last, last_w, false);
                double f_step = cs_halves_step(f, f->bias, &h, false);
                double old = lambda[i];
                double n = cs_sweep_row(rule, st, r, i, &h, old, 0.0, INFINITY, true, true);
                lambda[i] = n;
                f_step += r->mu * (n - old);
                double limit = cs_friction_limit(f->mu, n);
                double f_old = lambda[i + 1];
                double f_next = cs_rule_apply(rule, st, i + 1, f_step, f_old, -limit, limit, false);
                cs_halves_apply(f, &h, f_next - f_old, false);
                lambda[i + 1] = f_next;
                cs_halves_store(&h, v, false);
                last = h;
                last_w = true;
                i += 1;
                break;
            }
            case CS_PACK_FRICTION_ROW:
            {
                double limit = cs_friction_limit(r->mu, lambda[r->link]); // the CURRENT λ[link]
                cs_halves_load(&h, v, r, false);
                cs_halves_carry(&h, &last, last_w, false);
                lambda[i] = cs_sweep_row(rule, st, r, i, &h, lambda[i], -limit, limit, false, false);
                cs_halves_store(&h, v, false);
                last = h;
                last_w = true;
                break;
            }
            default:
            {
                if (r->kind & CS_PACK_SKIP)
                {
                    break; // a row with no columns (both halves static or massless): nothing to move
                }
                double lo, hi;
                cs_pack_bounds(r, p, lambda, i, &lo, &hi);
                double old = lambda[i];
                double step = cs_pack_step_reg(r, r->bias, v, old);
                double next = cs_rule_apply(rule, st, i, step, old, lo, hi, false);
                lambda[i] = next;
                cs_pack_apply(r, next - old, v);
                last.ia = last.ib = -1; // it wrote through memory: nothing to carry
                break;
            }
        }
    }
}

#endif
