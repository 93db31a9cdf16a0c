// The body of pgs-f32's lane kernel, written once for two widths: simd_avx2_f32.c includes it twice, with
// the V_* macros naming 8-lane AVX (__m256) or 4-lane SSE (__m128) operations and KERNEL/GATHER/SCATTER the
// functions to define. (No include guard: each inclusion is a definition at another width.) A lane does
// pair_f32's operations (pgs_f32.c) in its order; see simd_avx2_f32.c for the clamps.

// Bodies idx[0 .. W) (four floats a body: vx, vy, ω, 0) → vectors of vx, vy and ω: a 4×4 transpose in each
// 128-bit half (lanes 0-3 in the low half, 4-7 in the high one for 8 lanes).
static inline CS_AVX2 void GATHER(const float* dv, const int32_t* idx, VEC* x, VEC* y, VEC* w)
{
    VEC t[4];
    for (int k = 0; k < 4; ++k)
    {
        t[k] = V_LOAD_BODIES(dv, idx, k);
    }
    VEC u0 = V_UNPACKLO(t[0], t[1]); // x0 x1 y0 y1 (| x4 x5 y4 y5)
    VEC u1 = V_UNPACKHI(t[0], t[1]); // w0 w1 .. ..
    VEC u2 = V_UNPACKLO(t[2], t[3]);
    VEC u3 = V_UNPACKHI(t[2], t[3]);
    *x = V_SHUFFLE(u0, u2, _MM_SHUFFLE(1, 0, 1, 0));
    *y = V_SHUFFLE(u0, u2, _MM_SHUFFLE(3, 2, 3, 2));
    *w = V_SHUFFLE(u1, u3, _MM_SHUFFLE(1, 0, 1, 0));
}

static inline CS_AVX2 void SCATTER(float* dv, const int32_t* idx, VEC x, VEC y, VEC w)
{
    VEC zero = V_ZERO();
    VEC u0 = V_UNPACKLO(x, y);    // x0 y0 x1 y1
    VEC u1 = V_UNPACKHI(x, y);    // x2 y2 x3 y3
    VEC u2 = V_UNPACKLO(w, zero); // w0 0 w1 0
    VEC u3 = V_UNPACKHI(w, zero);
    VEC t[4] = {V_SHUFFLE(u0, u2, _MM_SHUFFLE(1, 0, 1, 0)), V_SHUFFLE(u0, u2, _MM_SHUFFLE(3, 2, 3, 2)),
                V_SHUFFLE(u1, u3, _MM_SHUFFLE(1, 0, 1, 0)), V_SHUFFLE(u1, u3, _MM_SHUFFLE(3, 2, 3, 2))};
    for (int k = 0; k < 4; ++k)
    {
        V_STORE_BODIES(dv, idx, k, t[k]);
    }
}

// W pairs: rows first .. first + 2W − 1 of λ (normal and friction interleaved), the bodies in dv.
static inline __attribute__((always_inline)) CS_AVX2 void KERNEL(const cs_f32_lanes* q, float* lambda,
                                                                 float* dv)
{
    VEC vax, vay, wa, vbx, vby, wb;
    GATHER(dv, q->a, &vax, &vay, &wa);
    GATHER(dv, q->b, &vbx, &vby, &wb);
    // λ_n and λ_f by lane from two loads of the interleaved pairs (the lane order of cs_f32_pair_lane).
    VEC l0 = V_LD(lambda), l1 = V_LD(lambda + W);
    VEC n_old = V_SHUFFLE(l0, l1, _MM_SHUFFLE(2, 0, 2, 0));
    VEC f_old = V_SHUFFLE(l0, l1, _MM_SHUFFLE(3, 1, 3, 1));

    // The friction row's step before the normal row moves v.
    VEC f_sb = V_ADD(V_ADD(V_MUL(V_LD(q->fbx), vbx), V_MUL(V_LD(q->fby), vby)), V_MUL(V_LD(q->fwb), wb));
    VEC f_sa = V_ADD(V_ADD(V_MUL(V_LD(q->fax), vax), V_MUL(V_LD(q->fay), vay)), V_MUL(V_LD(q->fwa), wa));
    VEC f_step = V_ADD(V_ADD(V_LD(q->fbias), f_sb), f_sa);

    // The normal row.
    VEC n_sb = V_ADD(V_MUL(V_LD(q->nbx), vbx), V_MUL(V_LD(q->nby), vby));
    VEC n_sa = V_ADD(V_MUL(V_LD(q->nax), vax), V_MUL(V_LD(q->nay), vay));
    VEC n_step = V_ADD(V_ADD(V_LD(q->nbias), n_sb), n_sa);
    VEC zero = V_ZERO();
    VEC n = V_MAX(zero, V_SUB(n_old, n_step)); // y < 0 ? 0 : y
    VEC dn = V_SUB(n, n_old);
    vax = V_ADD(vax, V_MUL(V_LD(q->nmax), dn));
    vay = V_ADD(vay, V_MUL(V_LD(q->nmay), dn));
    vbx = V_ADD(vbx, V_MUL(V_LD(q->nmbx), dn));
    vby = V_ADD(vby, V_MUL(V_LD(q->nmby), dn));

    // The friction row: step plus the coupling, box ±μ·n (0 unless n > 0).
    f_step = V_ADD(f_step, V_MUL(V_LD(q->coupling), dn));
    VEC limit = V_AND(V_CMPGT(n, zero), V_MUL(V_LD(q->mu), n));
    VEC lo = V_XOR(limit, V_SET1(-0.0f)); // −limit, as the scalar negation
    VEC f = V_MIN(limit, V_MAX(lo, V_SUB(f_old, f_step)));
    VEC df = V_SUB(f, f_old);
    vax = V_ADD(vax, V_MUL(V_LD(q->fmax), df));
    vay = V_ADD(vay, V_MUL(V_LD(q->fmay), df));
    vbx = V_ADD(vbx, V_MUL(V_LD(q->fmbx), df));
    vby = V_ADD(vby, V_MUL(V_LD(q->fmby), df));
    wb = V_ADD(wb, V_MUL(V_LD(q->fmwb), df));
    wa = V_ADD(wa, V_MUL(V_LD(q->fmwa), df));

    V_ST(lambda, V_UNPACKLO(n, f));
    V_ST(lambda + W, V_UNPACKHI(n, f));
    SCATTER(dv, q->a, vax, vay, wa);
    SCATTER(dv, q->b, vbx, vby, wb);
}
