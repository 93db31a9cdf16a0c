// Lemke's refactorisation (src/solver/lemke_basis.c) against the straightforward one it replaced: C_RS⁻¹ one
// unit vector at a time (cs_dense_lu_solve) and the columns off R updated over all n rows. The fast one
// solves blocks of right-hand sides at once (cs_dense_lu_solve_rows) and visits only a tableau column's
// nonzeros; both must give B⁻¹ and x_B bit for bit, signed zeros included (a −0 left where the dense update
// made +0 would be a different bit pattern, and the sums it feeds could differ).
#include "test_support.h"

#include "solver/dense_lu.h"
#include "solver/lemke.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// A deterministic generator (the tests must not depend on the C library's rand).
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t next_u32(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

// Sparse entries of a few magnitudes and both signs (exact zeros in the inverse, negative pivots: −0).
static double sparse_entry(int zeros_in_8)
{
    static const double values[] = {-2.0, -1.0, -0.5, 0.25, 0.5, 1.0, 1.5, 3.0};
    return (int)(next_u32() % 8) < zeros_in_8 ? 0.0 : values[next_u32() % 8];
}

static bool same_bits(const double* x, const double* y, int n)
{
    return memcmp(x, y, (size_t)n * sizeof(double)) == 0;
}

// Each column of a block solved by cs_dense_lu_solve_rows equals cs_dense_lu_solve's answer bit for bit, for
// widths that do and do not divide the size, and right-hand sides holding ±0.
static void test_solve_rows_matches_single_solves(void** state)
{
    (void)state;
    for (int trial = 0; trial < 40; ++trial)
    {
        int k = 1 + (int)(next_u32() % 60);
        double* a = malloc((size_t)k * (size_t)k * sizeof(double));
        int* piv = malloc((size_t)k * sizeof(int));
        bool ok = false;
        while (!ok)
        {
            for (int i = 0; i < k * k; ++i)
            {
                a[i] = sparse_entry(5);
            }
            for (int i = 0; i < k; ++i)
            {
                a[(size_t)i * (size_t)k + (size_t)i] += (next_u32() % 2 ? 4.0 : -4.0); // mostly nonsingular
            }
            ok = cs_dense_lu_factor(a, k, piv, 1e-12);
        }
        const int widths[] = {1, 3, 32, k};
        for (int wi = 0; wi < 4; ++wi)
        {
            int w = widths[wi];
            double* x = malloc((size_t)k * (size_t)w * sizeof(double));
            double* col = malloc((size_t)k * sizeof(double));
            for (int i = 0; i < k * w; ++i)
            {
                double e = sparse_entry(6);
                x[i] = e == 0.0 && next_u32() % 2 ? -0.0 : e;
            }
            double* x0 = malloc((size_t)k * (size_t)w * sizeof(double));
            memcpy(x0, x, (size_t)k * (size_t)w * sizeof(double));
            cs_dense_lu_solve_rows(a, k, piv, x, w);
            for (int t = 0; t < w; ++t)
            {
                for (int i = 0; i < k; ++i)
                {
                    col[i] = x0[(size_t)i * (size_t)w + (size_t)t];
                }
                cs_dense_lu_solve(a, k, piv, col);
                for (int i = 0; i < k; ++i)
                {
                    double got = x[(size_t)i * (size_t)w + (size_t)t];
                    if (!same_bits(&got, col + i, 1))
                    {
                        fail_msg("k %d, w %d: column %d row %d: %.17g, a single solve %.17g", k, w, t, i, got,
                                 col[i]);
                    }
                }
            }
            free(x);
            free(x0);
            free(col);
        }
        free(a);
        free(piv);
    }
}

// A dense n×n M (column-major) served as the tableau's columns.
typedef struct dense_m
{
    int n;
    const double* m;
} dense_m;

static void column(const void* data, int k, double* out)
{
    const dense_m* d = data;
    memcpy(out, d->m + (size_t)k * (size_t)d->n, (size_t)d->n * sizeof(double));
}

typedef struct lemke_space
{
    cs_lemke L;
    double* doubles;
    int* ints;
} lemke_space;

static void space_init(lemke_space* s, int n, const dense_m* m, const double* r)
{
    size_t nn = (size_t)n;
    s->doubles = calloc(2 * nn * nn + (6 + CS_LEMKE_RHS) * nn, sizeof(double));
    s->ints = calloc(9 * nn + 1, sizeof(int));
    double* d = s->doubles;
    int* q = s->ints;
    cs_lemke* L = &s->L;
    *L = (cs_lemke){.n = n, .r = r, .column = column, .data = m};
    L->binv = d, d += nn * nn;
    L->lu = d, d += nn * nn;
    L->xb = d, d += nn;
    L->d = d, d += nn;
    L->col = d, d += nn;
    L->z = d, d += nn;
    L->cover = d, d += nn;
    L->rhs = d;
    L->basis = q, q += nn;
    L->touched = q, q += nn;
    L->tlist = q, q += nn;
    L->where = q, q += 2 * nn + 1;
    L->lu_rows = q, q += nn;
    L->lu_vars = q, q += nn;
    L->lu_piv = q;
}

static void space_free(lemke_space* s)
{
    free(s->doubles);
    free(s->ints);
}

// The refactorisation as it was before the blocked solves and sparse updates (the reference): positions
// renumbered by the fast one first (the same code), then C_RS⁻¹ one unit vector at a time and the columns off
// R over all n rows. Counts the −0 entries on R that the dense update turned +0 (*flipped).
static void reference_refactor(cs_lemke* L, const int* rows, const int* vars, int k, int* flipped)
{
    int n = L->n;
    double cmax = 0.0;
    for (int b = 0; b < k; ++b)
    {
        cs_lemke_column_of(L, vars[b], L->col);
        for (int a = 0; a < k; ++a)
        {
            double c = L->col[rows[a]];
            L->lu[(size_t)a * (size_t)k + (size_t)b] = c;
            cmax = fmax(cmax, fabs(c));
        }
    }
    assert_true(cs_dense_lu_factor(L->lu, k, L->lu_piv, 1e-13 * (cmax > 0.0 ? cmax : 1.0)));
    int negative_zeros = 0;
    for (int a = 0; a < k; ++a)
    {
        double* bj = L->binv + (size_t)rows[a] * (size_t)n;
        memset(bj, 0, (size_t)n * sizeof(double));
        memset(L->d, 0, (size_t)k * sizeof(double));
        L->d[a] = 1.0;
        cs_dense_lu_solve(L->lu, k, L->lu_piv, L->d);
        for (int b = 0; b < k; ++b)
        {
            bj[rows[b]] = L->d[b];
            negative_zeros += L->d[b] == 0.0 && signbit(L->d[b]);
        }
    }
    for (int b = 0; b < k; ++b)
    {
        cs_lemke_column_of(L, vars[b], L->col);
        for (int a = 0; a < k; ++a)
        {
            L->col[rows[a]] = 0.0;
        }
        int pos = rows[b];
        for (int a = 0; a < k; ++a)
        {
            double* bj = L->binv + (size_t)rows[a] * (size_t)n;
            double cba = bj[pos];
            if (cba == 0.0)
            {
                continue;
            }
            for (int i = 0; i < n; ++i)
            {
                bj[i] -= L->col[i] * cba;
            }
        }
    }
    for (int a = 0; a < k; ++a)
    {
        const double* bj = L->binv + (size_t)rows[a] * (size_t)n;
        for (int b = 0; b < k; ++b)
        {
            negative_zeros -= bj[rows[b]] == 0.0 && signbit(bj[rows[b]]);
        }
    }
    *flipped += negative_zeros;
    cs_lemke_apply_binv(L, L->r, L->xb);
}

// What the comparisons saw (the trials must reach the cases the fast path has code for).
typedef struct compare_counts
{
    int compared;  // refactorisations that succeeded and were compared
    int flipped;   // −0 on R that the dense update turned +0
    int nonfinite; // non-finite entries of B⁻¹ (a NaN or ∞ multiplier, or non-finite entries of M off R)
} compare_counts;

// One basis (basis[p]: the variable at position p) refactorised both ways from fresh workspaces, the fast
// one's B⁻¹ first filled with NaN (every stored column must be written whole); their stored columns, list
// and x_B compared bit for bit.
static void compare_refactor(int n, const double* m, const double* r, const int* basis, int cover,
                             compare_counts* counts)
{
    dense_m dm = {n, m};
    lemke_space fast, ref;
    space_init(&fast, n, &dm, r);
    space_init(&ref, n, &dm, r);
    for (size_t i = 0; i < (size_t)n * (size_t)n; ++i)
    {
        fast.L.binv[i] = NAN;
    }
    memcpy(fast.L.basis, basis, (size_t)n * sizeof(int));
    for (int i = 0; i < n; ++i)
    {
        fast.L.cover[i] = ref.L.cover[i] = 1.0 + (double)(i % 3);
    }
    fast.L.covered = ref.L.covered = cover != 0;
    if (cs_lemke_refactor(&fast.L))
    {
        // The renumbering (reorder_positions) is the refactorisation's own; the reference takes its result
        // and redoes the rest the old way.
        int kk = fast.L.touched_count;
        memcpy(ref.L.basis, fast.L.basis, (size_t)n * sizeof(int));
        memcpy(ref.L.lu_rows, fast.L.lu_rows, (size_t)kk * sizeof(int));
        memcpy(ref.L.lu_vars, fast.L.lu_vars, (size_t)kk * sizeof(int));
        memcpy(ref.L.touched, fast.L.touched, (size_t)n * sizeof(int)); // which columns are stored
        memcpy(ref.L.tlist, fast.L.tlist, (size_t)kk * sizeof(int));
        ref.L.touched_count = kk;
        reference_refactor(&ref.L, ref.L.lu_rows, ref.L.lu_vars, kk, &counts->flipped);
        for (int a = 0; a < kk; ++a)
        {
            int j = fast.L.lu_rows[a];
            assert_int_equal(fast.L.tlist[a], j);
            assert_int_equal(fast.L.touched[j], 1);
            const double* got = fast.L.binv + (size_t)j * (size_t)n;
            const double* want = ref.L.binv + (size_t)j * (size_t)n;
            for (int i = 0; i < n; ++i)
            {
                counts->nonfinite += !isfinite(want[i]);
                if (!same_bits(got + i, want + i, 1))
                {
                    fail_msg("n %d, k %d: B⁻¹ column %d row %d: %.17g, the dense update's %.17g", n, kk, j, i,
                             got[i], want[i]);
                }
            }
        }
        assert_true(same_bits(fast.L.xb, ref.L.xb, n));
        counts->compared += 1;
    }
    space_free(&fast);
    space_free(&ref);
}

// Random sparse M (diagonal ±2) and bases of k distinct z columns: k = n, k = 0, a multiple of 32 (the
// blocks' width) or any, z0 at one position in a third of them (its column the cover or −1); every sixth M
// with NaN and −∞ entries (they stay off R or make the basis singular). Signed zeros included (the −0 → +0
// case must occur).
static void test_refactor_matches_dense_update(void** state)
{
    (void)state;
    compare_counts counts = {0, 0, 0};
    for (int trial = 0; trial < 120; ++trial)
    {
        int n = 8 + (int)(next_u32() % 100);
        int shape = trial % 6;
        double* m = malloc((size_t)n * (size_t)n * sizeof(double));
        double* r = malloc((size_t)n * sizeof(double));
        int* basis = malloc((size_t)n * sizeof(int));
        int* perm = malloc((size_t)n * sizeof(int));
        for (int i = 0; i < n * n; ++i)
        {
            m[i] = sparse_entry(7);
            if (shape == 3 && next_u32() % 50 == 0)
            {
                m[i] = next_u32() % 2 ? NAN : -INFINITY;
            }
        }
        for (int i = 0; i < n; ++i)
        {
            m[(size_t)i * (size_t)n + (size_t)i] = next_u32() % 2 ? 2.0 : -2.0;
            r[i] = sparse_entry(3);
            basis[i] = i;
            perm[i] = i;
        }
        int k = shape == 0 ? n : shape == 1 ? 0 : 1 + (int)(next_u32() % (unsigned)n);
        if (shape == 2)
        {
            k = 32 * (1 + (int)(next_u32() % (unsigned)(n / 32 + 1)));
            k = k > n ? n : k;
        }
        for (int i = n - 1; i > 0; --i) // k distinct positions j get z_j
        {
            int j = (int)(next_u32() % (unsigned)(i + 1));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int t = 0; t < k; ++t)
        {
            basis[perm[t]] = n + perm[t];
        }
        if (next_u32() % 3 == 0)
        {
            basis[next_u32() % (unsigned)n] = 2 * n; // z0
        }
        compare_refactor(n, m, r, basis, (int)(next_u32() % 2), &counts);
        free(m);
        free(r);
        free(basis);
        free(perm);
    }
    assert_true(counts.compared >= 60);
    assert_true(counts.flipped > 0);   // the −0 → +0 case did occur
    assert_true(counts.nonfinite > 0); // so did NaN off R
}

// A C_RS whose inverse overflows (unit upper triangular with 1e12 above the diagonal: entries up to 1e12^k),
// so that multipliers cba are ∞ or NaN and the columns take the dense update; some with a NaN off R or in
// C_RS's upper triangle.
static void test_refactor_with_non_finite_multipliers(void** state)
{
    (void)state;
    compare_counts counts = {0, 0, 0};
    for (int trial = 0; trial < 30; ++trial)
    {
        int n = 40 + (int)(next_u32() % 40);
        int k = 20 + (int)(next_u32() % (unsigned)(n - 20));
        double* m = calloc((size_t)n * (size_t)n, sizeof(double));
        double* r = malloc((size_t)n * sizeof(double));
        int* basis = malloc((size_t)n * sizeof(int));
        for (int j = 0; j < n; ++j) // column j of M: m[j·n + i]
        {
            r[j] = sparse_entry(3);
            basis[j] = j < k ? n + j : j;
            for (int i = 0; i < n; ++i)
            {
                double grow = next_u32() % 4 ? 1e12 : (next_u32() % 2 ? -3.0 : 0.0);
                m[(size_t)j * (size_t)n + (size_t)i] = j >= k || i >= k ? sparse_entry(6)
                                                       : i == j         ? -1.0
                                                       : i < j          ? grow
                                                                        : 0.0;
            }
        }
        if (trial % 3 == 0)
        {
            m[(size_t)(next_u32() % (unsigned)k) * (size_t)n +
              (size_t)(k + (int)(next_u32() % (unsigned)(n - k)))] = NAN;
        }
        else if (trial % 3 == 1)
        {
            m[(size_t)n] = NAN; // row 0 of column 1: C_RS's upper triangle
        }
        compare_refactor(n, m, r, basis, 0, &counts);
        free(m);
        free(r);
        free(basis);
    }
    assert_true(counts.compared >= 10);
    assert_true(counts.nonfinite > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_rows_matches_single_solves),
        cmocka_unit_test(test_refactor_matches_dense_update),
        cmocka_unit_test(test_refactor_with_non_finite_multipliers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
