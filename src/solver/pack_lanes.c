// The packing pass of the methods that read the rows only through the vector schedule (cs_pack_lanes,
// solver_internal.h): every row packed once, straight into the lanes of the quad it is swept in, or into its
// record when it is swept one row at a time. cs_schedule_rows (schedule.c) builds the same schedule from
// records after solve.c's packing pass, for the methods that read every record.
#include <float.h>
#include <string.h>

#include "core/array.h"
#include "solver/fuse.h"
#include "solver/pack.h"
#include "solver/simd.h"
#include "solver/solver_internal.h"

// The packing pass for methods that read the rows only through the vector schedule (cs_pack_lanes): each
// row packed once (pack.h) and written where the sweeps will read it, into a quad's lanes or, for the rows
// that go one at a time, into its record; the schedule is cs_schedule_rows' greedy one. Rows wait in the
// lanes of the quad being filled ("pending") until four units (pairs, or bare normal rows) are there; then
// either the four are independent and the quad is closed, or, as the greedy schedule does, the first unit
// goes one row at a time (its record written from the lanes) and the other three move down a lane. A unit
// of another kind, or any other row, sends the pending units one row at a time first. Pairs differ: the
// first two or three that are independent close a short quad instead (close_short), so a colour's last
// pairs, whose successors share its bodies, go in lanes too.
enum
{
    PENDING_NONE,
    PENDING_PAIRS,
    PENDING_NORMALS,
};

typedef struct lanes_pass
{
    cs_solver_work* w;
    cs_packed_row* records;
    cs_sweep_item* items;
    int item_count;
    int pair_count, normal_count; // closed quads; the pending one is the next
    int pending, pending_count, pending_first;
    int32_t a[CS_LANES], b[CS_LANES]; // the pending units' bodies
    int32_t zero_slot;
    bool out_of_memory;
    bool distinct;    // the pending units' eight slots are known to differ (pack_four)
    bool short_quads; // pairs may close a quad of two or three (cs_fuse_short_quads)
} lanes_pass;

static inline __attribute__((always_inline)) void put_lane_xy(double* x, double* y, int l, cs_v2 p)
{
    x[l] = p[0];
    y[l] = p[1];
}

static inline __attribute__((always_inline)) void normal_to_lane(cs_normal_quad* q, int l,
                                                                 const cs_packed_row* r)
{
    put_lane_xy(q->jax, q->jay, l, r->ja);
    put_lane_xy(q->jbx, q->jby, l, r->jb);
    put_lane_xy(q->max, q->may, l, r->ma);
    put_lane_xy(q->mbx, q->mby, l, r->mb);
    q->bias[l] = r->bias;
    q->a[l] = r->a;
    q->b[l] = r->b;
}

// How many of the first `n` (<= CS_LANES) pending pairs, from the first, share no body: j of 2 .. n, the
// longest such run, or 0 when the first two share one (or short quads are off).
static inline int independent_run(const lanes_pass* L, int n)
{
    for (int j = n; L->short_quads && j >= 2; --j)
    {
        int32_t a[CS_LANES], b[CS_LANES];
        for (int k = 0; k < CS_LANES; ++k)
        {
            a[k] = k < j ? L->a[k] : L->zero_slot;
            b[k] = k < j ? L->b[k] : L->zero_slot;
        }
        if (cs_lanes_independent(a, b, L->zero_slot))
        {
            return j;
        }
    }
    return 0;
}

// Pending pairs 0 .. j − 1 (2 <= j, independent) close the pending quad as a short one: its lanes from pair j
// on are made null, and pairs j .. pending − 1 (whose lanes are copied first to `next`, when not NULL) are
// the caller's.
static inline void close_short(lanes_pass* L, int j, cs_pair_quad* next)
{
    cs_pair_quad* q = (cs_pair_quad*)L->w->quads + L->pair_count;
    for (int k = j; k < CS_LANES; ++k)
    {
        if (next != NULL && k < L->pending_count)
        {
            cs_packed_row moved[2]; // (the lanes give back every number: cs_pair_from_lane)
            cs_pair_from_lane(q, k, L->pending_first + 2 * k, moved);
            cs_pair_to_lane(next, k - j, moved, moved + 1);
        }
        cs_pair_null_lane(q, k, L->zero_slot);
    }
    L->items[L->item_count++] = (cs_sweep_item){L->pending_first, 2 * j, L->pair_count++, j};
}

// The pending units one row at a time (their records from the lanes); pairs, from two on, as a short quad as
// far as they are independent (close_short).
static inline __attribute__((always_inline)) void flush_pending(lanes_pass* L)
{
    int n = L->pending_count;
    if (L->pending == PENDING_PAIRS)
    {
        const cs_pair_quad* q = (const cs_pair_quad*)L->w->quads + L->pair_count;
        int j = independent_run(L, n);
        for (int k = j; k < n; ++k)
        {
            cs_pair_from_lane(q, k, L->pending_first + 2 * k, L->records + L->pending_first + 2 * k);
        }
        if (j > 0)
        {
            close_short(L, j, NULL);
        }
        if (n > j)
        {
            cs_push_rows(L->items, &L->item_count, L->pending_first + 2 * j, 2 * (n - j));
        }
    }
    else if (L->pending == PENDING_NORMALS)
    {
        const cs_normal_quad* q = (const cs_normal_quad*)L->w->normal_quads + L->normal_count;
        for (int k = 0; k < n; ++k)
        {
            cs_normal_from_lane(q, k, L->records + L->pending_first + k);
        }
        cs_push_rows(L->items, &L->item_count, L->pending_first, n);
    }
    L->pending = PENDING_NONE;
    L->pending_count = 0;
}

// Starts pending units of `kind` at row `first` unless they are pending already; false when the quad they
// go in cannot be allocated.
static inline __attribute__((always_inline)) bool pend(lanes_pass* L, int kind, int first)
{
    if (L->pending != kind)
    {
        flush_pending(L);
        L->pending = kind;
        L->pending_first = first;
    }
    cs_solver_work* w = L->w;
    bool pairs = kind == PENDING_PAIRS;
    int need = (pairs ? L->pair_count : L->normal_count) + 1;
    if (need > (pairs ? w->quad_capacity : w->normal_quad_capacity) &&
        !(pairs ? cs_grow(&w->quads, &w->quad_capacity, need, sizeof(cs_pair_quad))
                : cs_grow(&w->normal_quads, &w->normal_quad_capacity, need, sizeof(cs_normal_quad))))
    {
        L->out_of_memory = true;
        return false;
    }
    return true;
}

// Whether the quad after the pending one can be written (grown when not); false when out of memory.
static inline bool room_for_next_quad(lanes_pass* L)
{
    cs_solver_work* w = L->w;
    int need = L->pair_count + 2;
    if (need > w->quad_capacity && !cs_grow(&w->quads, &w->quad_capacity, need, sizeof(cs_pair_quad)))
    {
        L->out_of_memory = true;
        return false;
    }
    return true;
}

// (Inlined, as flush_pending: a call cost ~18 instructions, ~300 calls a Pool 1 step.)
// Four units pending: the quad closes when they are independent; otherwise the first goes one row at a time
// and the others move down a lane (through their records, rows that a later failure may write again).
static inline __attribute__((always_inline)) void close_or_slide(lanes_pass* L)
{
    int first = L->pending_first;
    if (L->distinct || cs_lanes_independent(L->a, L->b, L->zero_slot))
    {
        bool pairs = L->pending == PENDING_PAIRS;
        int count = pairs ? 2 * CS_LANES : CS_LANES;
        int quad = pairs ? L->pair_count++ : L->normal_count++;
        L->items[L->item_count++] = (cs_sweep_item){first, count, quad, pairs ? CS_LANES : 0};
        L->pending = PENDING_NONE;
        L->pending_count = 0;
        return;
    }
    int j = L->pending == PENDING_PAIRS ? independent_run(L, CS_LANES - 1) : 0;
    if (j > 0 && room_for_next_quad(L))
    {
        // The first j pairs in a short quad, the others moved to the next quad's first lanes, still pending.
        cs_pair_quad* q = (cs_pair_quad*)L->w->quads + L->pair_count;
        close_short(L, j, q + 1);
        for (int k = j; k < CS_LANES; ++k)
        {
            L->a[k - j] = L->a[k];
            L->b[k - j] = L->b[k];
        }
        L->pending_first = first + 2 * j;
        L->pending_count = CS_LANES - j;
        return;
    }
    if (L->pending == PENDING_PAIRS)
    {
        cs_pair_quad* q = (cs_pair_quad*)L->w->quads + L->pair_count;
        cs_packed_row* rows = L->records + first;
        for (int k = 0; k < CS_LANES; ++k)
        {
            cs_pair_from_lane(q, k, first + 2 * k, rows + 2 * k);
        }
        for (int k = 1; k < CS_LANES; ++k)
        {
            cs_pair_to_lane(q, k - 1, rows + 2 * k, rows + 2 * k + 1);
        }
        cs_push_rows(L->items, &L->item_count, first, 2);
        L->pending_first = first + 2;
    }
    else
    {
        cs_normal_quad* q = (cs_normal_quad*)L->w->normal_quads + L->normal_count;
        cs_packed_row* rows = L->records + first;
        for (int k = 0; k < CS_LANES; ++k)
        {
            cs_normal_from_lane(q, k, rows + k);
        }
        for (int k = 1; k < CS_LANES; ++k)
        {
            normal_to_lane(q, k - 1, rows + k);
        }
        cs_push_rows(L->items, &L->item_count, first, 1);
        L->pending_first = first + 1;
    }
    for (int k = 1; k < CS_LANES; ++k)
    {
        L->a[k - 1] = L->a[k];
        L->b[k - 1] = L->b[k];
    }
    L->pending_count = CS_LANES - 1;
}

// Lane k of the pending quad now holds a unit with body slots ia, ib: recorded for the independence test,
// and the quad closes (or slides) once all four lanes are full.
static inline void lane_taken(lanes_pass* L, int k, int32_t ia, int32_t ib)
{
    L->a[k] = ia;
    L->b[k] = ib;
    if (L->pending_count == CS_LANES)
    {
        close_or_slide(L);
    }
}

// The pair (n, f) at rows i, i + 1, which has cs_pair_quad's structure (cs_pack_pairs). (A friction row with
// μ < 0 never goes in lanes: quad_fits.)
static inline __attribute__((always_inline)) void place_pair(lanes_pass* L, int i, const cs_packed_row* n,
                                                             const cs_packed_row* f)
{
    if (!(f->mu >= 0.0) || !pend(L, PENDING_PAIRS, i))
    {
        flush_pending(L);
        L->records[i] = *n;
        L->records[i + 1] = *f;
        cs_push_rows(L->items, &L->item_count, i, 2);
        return;
    }
    int k = L->pending_count++;
    cs_pair_to_lane((cs_pair_quad*)L->w->quads + L->pair_count, k, n, f);
    L->a[k] = n->a;
    L->b[k] = n->b;
    if (L->pending_count == CS_LANES)
    {
        close_or_slide(L);
    }
}

// A bare circle normal row (CS_PACK_NORMAL_ROW) at row i.
static inline __attribute__((always_inline)) void place_normal(lanes_pass* L, int i, const cs_packed_row* r)
{
    if (!pend(L, PENDING_NORMALS, i))
    {
        flush_pending(L);
        L->records[i] = *r;
        cs_push_rows(L->items, &L->item_count, i, 1);
        return;
    }
    int k = L->pending_count++;
    normal_to_lane((cs_normal_quad*)L->w->normal_quads + L->normal_count, k, r);
    L->a[k] = r->a;
    L->b[k] = r->b;
    if (L->pending_count == CS_LANES)
    {
        close_or_slide(L);
    }
}

// Any other row: one at a time.
static inline __attribute__((always_inline)) void place_other(lanes_pass* L, int i, const cs_packed_row* r)
{
    flush_pending(L);
    L->records[i] = *r;
    cs_push_rows(L->items, &L->item_count, i, 1);
}

// The common case of cs_pack_lanes, a contact's normal row i and its friction row i + 1 on the same two
// halves (not one body, no regularisation: the caller checks p->reg and kind[i]), packed together: the
// bodies' masses loaded once, no row-kind dispatch, the values from registers into the pending pair quad's
// lanes. It computes every number as cs_pack_row and cs_pack_pair do, in the same operations, and proves what
// they prove. False, with nothing written, when the two rows are not such a pair or not one the lanes take (a
// linear friction row, an empty row, μ < 0, rows without the pair quad's structure: cs_pair_compact):
// cs_pack_row then packs them.
static inline __attribute__((always_inline)) bool
pack_contact(const cs_lcp* p, const double* start, double* lambda, int i, lanes_pass* L, cs_pack_proof* proof)
{
    const int a = p->body_a[i], b = p->body_b[i];
    const int f = i + 1;
    if (!((p->kind[f] == CS_ROW_FRICTION) & (p->link[f] == i) & (p->body_a[f] == a) & (p->body_b[f] == b) &
          ((a < 0) | (a != b))))
    {
        return false;
    }
    const cs_v2 zero = {0.0, 0.0};
    const double* jn = p->jac + 6 * i;
    const double* jf = jn + 6;
    cs_v2 jna = zero, jnb = zero, jfa = zero, jfb = zero, mna = zero, mnb = zero, mfa = zero, mfb = zero;
    double jnaw = 0.0, jnbw = 0.0, jfaw = 0.0, jfbw = 0.0, mnaw = 0.0, mnbw = 0.0, mfaw = 0.0, mfbw = 0.0;
    if (a >= 0)
    {
        double im = p->inv_mass[a], ii = p->inv_inertia[a];
        jna = cs_v2_load(jn);
        jnaw = jn[2];
        mna = jna * cs_v2_set(im, im);
        mnaw = ii * jnaw;
        jfa = cs_v2_load(jf);
        jfaw = jf[2];
        mfa = jfa * cs_v2_set(im, im);
        mfaw = ii * jfaw;
    }
    if (b >= 0)
    {
        double im = p->inv_mass[b], ii = p->inv_inertia[b];
        jnb = cs_v2_load(jn + 3);
        jnbw = jn[5];
        mnb = jnb * cs_v2_set(im, im);
        mnbw = ii * jnbw;
        jfb = cs_v2_load(jf + 3);
        jfbw = jf[5];
        mfb = jfb * cs_v2_set(im, im);
        mfbw = ii * jfbw;
    }
    cs_v2 tn = jna * mna + jnb * mnb;
    double dn = (tn[0] + tn[1]) + (jnaw * mnaw + jnbw * mnbw);
    dn += 0.0; // cs_pack_row's d += ε, ε = 0 (a −0 becomes +0)
    cs_v2 tf = jfa * mfa + jfb * mfb;
    double df = (tf[0] + tf[1]) + (jfaw * mfaw + jfbw * mfbw);
    df += 0.0;
    double mu = p->mu[f];
    // A circle normal row (linear) and a friction row with spin terms, both with columns, μ >= 0 (quad_fits).
    if (!(((jnaw == 0.0) & (jnbw == 0.0)) & !((jfaw == 0.0) & (jfbw == 0.0)) & (dn > 0.0) & (df > 0.0) &
          (mu >= 0.0)))
    {
        return false;
    }
    double in = 1.0 / dn, inf_ = 1.0 / df;
    cs_v2 sn = {in, in}, sf = {inf_, inf_};
    cs_v2 nja = jna * sn, njb = jnb * sn;
    cs_v2 fja = jfa * sf, fjb = jfb * sf, fjw = cs_v2_set(jfbw, jfaw) * sf;
    // ... with the structure of the pair quad's lanes (cs_pair_compact; its static half a, M⁻¹J_n,aᵀ = +0, a
    // static body's: cs_pack_opposed), else cs_pack_row packs the rows.
    if (!cs_pair_compact(nja, njb, mna, mnb, fja, fjb, mfa, mfb) || !cs_pack_opposed(nja, njb, a < 0) ||
        !pend(L, PENDING_PAIRS, i))
    {
        return false;
    }
    double bn = p->bias[i], bf = p->bias[f];
    double ln = start != NULL ? start[i] : 0.0, lf = start != NULL ? start[f] : 0.0;
    lambda[i] = ln; // the start point (cs_pack_lanes)
    lambda[f] = lf;
    proof->bad |= ((cs_nonfinite_bits(cs_v2_load(jn)) | cs_nonfinite_bits(cs_v2_load(jn + 2))) |
                   (cs_nonfinite_bits(cs_v2_load(jn + 4)) | cs_nonfinite_bits(cs_v2_set(bn, ln)))) |
                  ((cs_nonfinite_bits(cs_v2_load(jf)) | cs_nonfinite_bits(cs_v2_load(jf + 2))) |
                   (cs_nonfinite_bits(cs_v2_load(jf + 4)) | cs_nonfinite_bits(cs_v2_set(bf, lf))));
    proof->ok &= (dn >= 1e-300) & (dn <= DBL_MAX) & (df >= 1e-300) & (df <= DBL_MAX) & (mu < INFINITY);
    proof->previous_row_normal = false;
    cs_solver_work* w = L->w;
    w->diag[i] = dn;
    w->inv_diag[i] = in;
    w->diag[f] = df;
    w->inv_diag[f] = inf_;
    cs_v2 c = fja * mna + fjb * mnb + fjw * cs_v2_set(mnbw, mnaw); // cs_pack_pair's coupling
    int32_t ia = a >= 0 ? 3 * a : L->zero_slot;
    int32_t ib = b >= 0 ? 3 * b : L->zero_slot;
    // v = v* + M⁻¹Jᵀλ⁰ (DESIGN.md step 5), row by row in file order: the normal row's update, then the
    // friction row's, each element as cs_pack_apply takes it, the two halves in registers between them (ia
    // and ib differ here: two static halves make an empty row).
    if ((ln != 0.0) | (lf != 0.0))
    {
        double* va = w->v + ia;
        double* vb = w->v + ib;
        cs_v2 xa = cs_v2_load(va), xb = cs_v2_load(vb);
        double wa = va[2], wb = vb[2];
        if (ln != 0.0)
        {
            xa += mna * cs_v2_set(ln, ln);
            wa += mnaw * ln;
            xb += mnb * cs_v2_set(ln, ln);
            wb += mnbw * ln;
        }
        if (lf != 0.0)
        {
            xa += mfa * cs_v2_set(lf, lf);
            wa += mfaw * lf;
            xb += mfb * cs_v2_set(lf, lf);
            wb += mfbw * lf;
        }
        cs_v2_store(va, xa);
        va[2] = wa;
        cs_v2_store(vb, xb);
        vb[2] = wb;
    }

    int k = L->pending_count++;
    int l = cs_pair_lane(k);
    cs_pair_quad* q = (cs_pair_quad*)w->quads + L->pair_count;
    put_lane_xy(q->nbx, q->nby, l, njb);
    put_lane_xy(q->nmbx, q->nmby, l, mnb);
    put_lane_xy(q->nmax, q->nmay, l, mna);
    q->a[l] = ia;
    q->b[l] = ib;
    q->nbias[l] = bn * in;
    q->coupling[l] = c[0] + c[1];
    put_lane_xy(q->fbx, q->fby, l, fjb);
    put_lane_xy(q->fwb, q->fwa, l, fjw);
    q->fmwb[l] = mfbw;
    q->fmwa[l] = mfaw;
    q->fbias[l] = bf * inf_;
    q->mu[l] = mu;
    lane_taken(L, k, ia, ib);
    return true;
}

// The frictionless case: a circle normal row i (linear, with columns, two halves that are not one body, no
// regularisation: the caller checks p->reg and kind[i]) whose next row is not its friction row, packed as
// cs_pack_row does straight into the pending normal quad's lanes. False, with nothing written, otherwise.
static inline __attribute__((always_inline)) bool
pack_normal(const cs_lcp* p, const double* start, double* lambda, int i, lanes_pass* L, cs_pack_proof* proof)
{
    const int a = p->body_a[i], b = p->body_b[i];
    const int next = i + 1;
    if (!((a < 0) | (a != b)) ||
        (next < p->row_count && p->kind[next] == CS_ROW_FRICTION && p->link[next] == i))
    {
        return false;
    }
    const double* j = p->jac + 6 * i;
    cs_pack_halves h = cs_pack_halves_of(p, j, a, b);
    cs_v2 ja = h.ja, jb = h.jb, ma = h.ma, mb = h.mb;
    double jaw = h.jaw, jbw = h.jbw, maw = h.maw, mbw = h.mbw;
    double d = cs_pack_diag(&h);
    d += 0.0; // cs_pack_row's d += ε, ε = 0
    if (!(((jaw == 0.0) & (jbw == 0.0)) & (d > 0.0) & cs_pack_opposed(ja, jb, a < 0)) ||
        !pend(L, PENDING_NORMALS, i))
    {
        return false;
    }
    double bias = p->bias[i];
    double l = start != NULL ? start[i] : 0.0;
    lambda[i] = l; // the start point (cs_pack_lanes)
    proof->bad |= (cs_nonfinite_bits(cs_v2_load(j)) | cs_nonfinite_bits(cs_v2_load(j + 2))) |
                  (cs_nonfinite_bits(cs_v2_load(j + 4)) | cs_nonfinite_bits(cs_v2_set(bias, l)));
    proof->ok &= (d >= 1e-300) & (d <= DBL_MAX);
    proof->previous_row_normal = true;
    double inv_d = 1.0 / d;
    cs_solver_work* w = L->w;
    w->diag[i] = d;
    w->inv_diag[i] = inv_d;
    int32_t ia = a >= 0 ? 3 * a : L->zero_slot;
    int32_t ib = b >= 0 ? 3 * b : L->zero_slot;
    if (l != 0.0) // v = v* + M⁻¹Jᵀλ⁰ (DESIGN.md step 5), row by row in file order (cs_pack_apply's updates)
    {
        double* va = w->v + ia;
        double* vb = w->v + ib;
        va[0] += ma[0] * l;
        va[1] += ma[1] * l;
        va[2] += maw * l;
        vb[0] += mb[0] * l;
        vb[1] += mb[1] * l;
        vb[2] += mbw * l;
    }
    int k = L->pending_count++;
    cs_normal_quad* q = (cs_normal_quad*)w->normal_quads + L->normal_count;
    cs_v2 s = {inv_d, inv_d};
    put_lane_xy(q->jax, q->jay, k, ja * s);
    put_lane_xy(q->jbx, q->jby, k, jb * s);
    put_lane_xy(q->max, q->may, k, ma);
    put_lane_xy(q->mbx, q->mby, k, mb);
    q->bias[k] = bias * inv_d;
    q->a[k] = ia;
    q->b[k] = ib;
    lane_taken(L, k, ia, ib);
    return true;
}

#if CS_SIMD_X86
// Four contacts at rows i .. i + 7 packed at once (cs_avx2_pack_pairs) into an empty pending quad: what four
// pack_contact calls in a row do, the lanes filled together. False, with the pass as it was, when they are
// not four such pairs (pack_contact then takes them one at a time).
static bool pack_four(const cs_lcp* p, const double* start, double* lambda, int i, lanes_pass* L,
                      cs_pack_proof* proof)
{
    if (!pend(L, PENDING_PAIRS, i))
    {
        L->pending = PENDING_NONE;
        return false;
    }
    cs_solver_work* w = L->w;
    cs_pack4_out out = {.quad = (cs_pair_quad*)w->quads + L->pair_count,
                        .lambda = lambda,
                        .diag = w->diag,
                        .inv_diag = w->inv_diag,
                        .v = w->v,
                        .zero_slot = L->zero_slot};
    if (!cs_avx2_pack_pairs(p, start, i, &out))
    {
        L->pending = PENDING_NONE;
        return false;
    }
    proof->bad[0] |= out.bad;
    proof->ok &= out.ok;
    proof->previous_row_normal = false;
    memcpy(L->a, out.a, sizeof out.a);
    memcpy(L->b, out.b, sizeof out.b);
    L->pending_count = CS_LANES;
    L->distinct = out.distinct;
    close_or_slide(L);
    L->distinct = false;
    return true;
}
#endif

cs_status cs_pack_lanes(const cs_lcp* p, cs_solver_work* w, const double* start, double* lambda,
                        bool* rows_good, cs_error* err)
{
    const int m = p->row_count;
    if (!cs_grow(&w->schedule, &w->schedule_capacity, m + 1, sizeof(cs_sweep_item)))
    {
        return cs_fail(err, CS_ERR_MEMORY, "out of memory: sweep schedule for %d rows", m);
    }
    lanes_pass L = {.w = w,
                    .records = w->packed,
                    .items = w->schedule,
                    .pending = PENDING_NONE,
                    .zero_slot = 3 * p->body_count,
                    .short_quads = cs_fuse_short_quads(m)};
    double* v = w->v;
    v[L.zero_slot] = v[L.zero_slot + 1] = v[L.zero_slot + 2] = 0.0;
    cs_pack_proof proof = cs_pack_proof_start();
    // (Two named records, never an array, so that they live in registers: the point of this pass.)
    cs_packed_row r, f;
    bool held = false; // r holds row i already (a normal row that did not pair with the row after it)
    const bool contacts = p->reg == NULL;
    for (int i = 0; i < m;)
    {
#if CS_SIMD_X86
        if (!held && contacts && L.pending == PENDING_NONE && i + 2 * CS_LANES <= m &&
            pack_four(p, start, lambda, i, &L, &proof))
        {
            i += 2 * CS_LANES;
            continue;
        }
#endif
        if (!held && contacts && p->kind[i] == CS_ROW_NORMAL)
        {
            if (i + 1 < m && pack_contact(p, start, lambda, i, &L, &proof))
            {
                i += 2;
                continue;
            }
            if (pack_normal(p, start, lambda, i, &L, &proof))
            {
                i += 1;
                continue;
            }
        }
        if (!held)
        {
            lambda[i] = start != NULL ? start[i] : 0.0;
            cs_pack_row(p, lambda, i, L.zero_slot, w, false, &proof, &r);
            if (lambda[i] != 0.0) // v = v* + M⁻¹Jᵀλ⁰ (DESIGN.md step 5), row by row in file order
            {
                cs_pack_apply(&r, lambda[i], v);
            }
        }
        held = false;
        if (r.kind != CS_PACK_NORMAL_ROW)
        {
            place_other(&L, i, &r);
            i += 1;
            continue;
        }
        if (i + 1 < m)
        {
            lambda[i + 1] = start != NULL ? start[i + 1] : 0.0;
            cs_pack_row(p, lambda, i + 1, L.zero_slot, w, false, &proof, &f);
            if (lambda[i + 1] != 0.0)
            {
                cs_pack_apply(&f, lambda[i + 1], v);
            }
            if (cs_pack_pairs(r.kind, r.a, r.b, &r, &f, i))
            {
                cs_pack_pair(&r, &f);
                place_pair(&L, i, &r, &f);
                i += 2;
                continue;
            }
            place_normal(&L, i, &r);
            r = f;
            held = true;
            i += 1;
            continue;
        }
        place_normal(&L, i, &r);
        i += 1;
    }
    flush_pending(&L);
    w->schedule_count = L.item_count;
    w->lanes_only = true;
    L.out_of_memory = L.out_of_memory || !cs_schedule_runs(w);
    *rows_good = cs_pack_proven(&proof);
    return L.out_of_memory ? cs_fail(err, CS_ERR_MEMORY, "out of memory: sweep schedule for %d rows", m)
                           : CS_OK;
}
