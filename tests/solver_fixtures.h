// Fixtures shared by the solver tests: random disc-contact problems (normal + friction rows from
// random unit normals, DESIGN.md sign conventions) and independent dense computations on the
// explicit A = J M⁻¹ Jᵀ, q = J v* + b: w = Aλ + q, a linear solve, the BLCP conditions, and
// the solution by enumerating active sets. Header-only so each test stays one executable.
#ifndef CS_SOLVER_FIXTURES_H
#define CS_SOLVER_FIXTURES_H

#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
    MAXR = 8, // rows
    MAXB = 6, // bodies
    MAXN = 3 * MAXB,
};

// The registry index of a solver that must exist.
static inline int solver(const char* name)
{
    int index = cs_solver_find(name);
    assert_true(index >= 0);
    return index;
}

// k iterations of solver name from lambda (warm start) with params; the solve must succeed.
static inline cs_solver_stats solve_k(const cs_lcp* p, const char* name, cs_solver_params params, int k,
                                      cs_solver_work* work, double* lambda)
{
    params.iterations = k;
    cs_solver_stats stats = {0};
    cs_error err = {0};
    cs_status s = cs_solve(p, solver(name), &params, work, lambda, &stats, &err);
    if (s != CS_OK)
    {
        print_error("%s\n", err.message);
    }
    assert_int_equal(s, CS_OK);
    return stats;
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static inline uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

static inline double rng_uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng_next() >> 11) / 9007199254740992.0);
}

static inline int rng_int(int n)
{
    return (int)(rng_next() % (uint64_t)n);
}

// Random disc contacts: `contacts` contacts between `bodies` discs or a disc and a static wall,
// each a normal row (Jacobian from a random unit normal, DESIGN.md sign conventions) and, when
// friction is on, a friction row right after it linked to it. Biases are mostly negative
// (approaching), so that many contacts are active.
static inline void random_contacts_any(cs_lcp* p, int bodies, int contacts, bool friction)
{
    cs_error err;
    int rows = contacts * (friction ? 2 : 1);
    assert_true(rows <= MAXR && bodies <= MAXB);
    assert_int_equal(cs_lcp_reserve(p, bodies, rows, &err), CS_OK);
    p->name[0] = '\0';
    p->body_count = bodies;
    p->row_count = rows;
    for (int i = 0; i < bodies; ++i)
    {
        double r = rng_uniform(0.2, 1.0);
        double m = rng_uniform(0.5, 3.0);
        p->inv_mass[i] = 1.0 / m;
        p->inv_inertia[i] = 1.0 / (0.5 * m * r * r);
        p->v[3 * i + 0] = rng_uniform(-1.0, 1.0);
        p->v[3 * i + 1] = rng_uniform(-1.0, 1.0);
        p->v[3 * i + 2] = rng_uniform(-1.0, 1.0);
    }
    int row = 0;
    for (int c = 0; c < contacts; ++c)
    {
        int a = rng_int(bodies);
        int b = rng_int(bodies + 1) - 1; // -1: a static wall
        if (b == a)
        {
            b = -1;
        }
        if (rng_int(2) == 0)
        {
            int t = a;
            a = b;
            b = t;
        }
        double angle = rng_uniform(0.0, 6.283185307179586);
        double nx = cos(angle), ny = sin(angle);
        double tx = -ny, ty = nx;
        double ra = rng_uniform(0.2, 1.0), rb = rng_uniform(0.2, 1.0);
        double jn[6] = {-nx, -ny, 0.0, nx, ny, 0.0};
        double jt[6] = {-tx, -ty, -ra, tx, ty, -rb};
        for (int half = 0; half < 2; ++half)
        {
            if ((half == 0 ? a : b) < 0)
            {
                for (int k = 0; k < 3; ++k)
                {
                    jn[3 * half + k] = 0.0;
                    jt[3 * half + k] = 0.0;
                }
            }
        }
        int n_row = row;
        double bias = rng_uniform(-1.0, 0.3);
        cs_lcp_set_contact_row(p, row++, a, b, jn, bias, -1, 0.0, rng_uniform(0.0, 0.5));
        if (friction)
        {
            double mu = rng_uniform(0.1, 0.6);
            cs_lcp_set_contact_row(p, row++, a, b, jt, 0.0, n_row, mu, rng_uniform(-0.05, 0.05));
        }
    }
}

// One normal row on a disc of infinite mass (M⁻¹ = 0, so A = 0) asked to separate (q = b = −1 < 0): no
// λ ≥ 0 makes w ≥ 0, the LCP has no solution.
static inline void infeasible_problem(cs_lcp* p)
{
    cs_error err;
    assert_int_equal(cs_lcp_reserve(p, 1, 1, &err), CS_OK);
    p->body_count = 1, p->row_count = 1;
    p->inv_mass[0] = 0.0, p->inv_inertia[0] = 0.0;
    p->v[0] = p->v[1] = p->v[2] = 0.0;
    double j[6] = {0.0, 1.0, 0.0, 0.0, 0.0, 0.0};
    memcpy(p->jac, j, sizeof j);
    p->body_a[0] = 0, p->body_b[0] = -1, p->bias[0] = -1.0, p->kind[0] = CS_ROW_NORMAL;
    p->link[0] = -1, p->mu[0] = 0.0, p->lo[0] = 0.0, p->hi[0] = INFINITY, p->lambda0[0] = 0.0;
}

// Dense A and q from the definitions, with J and M⁻¹ as full matrices.
static inline void dense_problem(const cs_lcp* p, double A[MAXR][MAXR], double q[MAXR])
{
    int m = p->row_count, n = 3 * p->body_count;
    double J[MAXR][MAXN] = {{0}};
    double minv[MAXN] = {0};
    for (int b = 0; b < p->body_count; ++b)
    {
        minv[3 * b] = p->inv_mass[b];
        minv[3 * b + 1] = p->inv_mass[b];
        minv[3 * b + 2] = p->inv_inertia[b];
    }
    for (int i = 0; i < m; ++i)
    {
        for (int k = 0; k < 6; ++k)
        {
            int body = k < 3 ? p->body_a[i] : p->body_b[i];
            if (body >= 0)
            {
                J[i][3 * body + k % 3] += p->jac[6 * i + k];
            }
        }
    }
    for (int i = 0; i < m; ++i)
    {
        q[i] = p->bias[i];
        for (int c = 0; c < n; ++c)
        {
            q[i] += J[i][c] * p->v[c];
        }
        for (int j = 0; j < m; ++j)
        {
            double s = 0.0;
            for (int c = 0; c < n; ++c)
            {
                s += J[i][c] * minv[c] * J[j][c];
            }
            A[i][j] = s;
        }
    }
}

// Cholesky test: A positive definite with its every Cholesky pivot at least 5% of its diagonal
// entry, which keeps the condition number moderate so that 20000 sweeps are plenty.
static inline bool well_conditioned_spd(int m, double A[MAXR][MAXR])
{
    double L[MAXR][MAXR] = {{0}};
    for (int j = 0; j < m; ++j)
    {
        double d = A[j][j];
        for (int k = 0; k < j; ++k)
        {
            d -= L[j][k] * L[j][k];
        }
        if (d <= 0.05 * A[j][j])
        {
            return false;
        }
        L[j][j] = sqrt(d);
        for (int i = j + 1; i < m; ++i)
        {
            double s = A[i][j];
            for (int k = 0; k < j; ++k)
            {
                s -= L[i][k] * L[j][k];
            }
            L[i][j] = s / L[j][j];
        }
    }
    return true;
}

// Random contacts whose A = J M⁻¹ Jᵀ is positive definite (J full row rank): the paper's standing
// assumption (§2.1). Without it a frictionless problem can be infeasible (a disc boxed in by walls
// that all ask it to separate) and no solver has anything to converge to. `contacts` is capped at
// what J's rank allows: normal rows see 2 dof per disc, normal + friction pairs 3 dof per disc.
static inline void random_contacts(cs_lcp* p, int bodies, int contacts, bool friction)
{
    int most = friction ? 3 * bodies / 2 : 2 * bodies;
    contacts = contacts < most ? contacts : most;
    for (int attempt = 0;; ++attempt)
    {
        assert_true(attempt < 100000);
        random_contacts_any(p, bodies, contacts, friction);
        double A[MAXR][MAXR], q[MAXR];
        dense_problem(p, A, q);
        if (well_conditioned_spd(p->row_count, A))
        {
            return;
        }
    }
}

// A random problem of the size the enumeration handles: 2-4 discs and as many contacts as J's rank allows,
// at most 4 with friction (8 rows) and 8 without.
static inline void random_small_contacts(cs_lcp* p, bool friction)
{
    int bodies = 2 + rng_int(3);
    int most = friction ? 3 * bodies / 2 : 2 * bodies;
    int cap = friction ? 4 : 8;
    random_contacts(p, bodies, 1 + rng_int(most < cap ? most : cap), friction);
}

static inline void dense_w(int m, double A[MAXR][MAXR], const double q[MAXR], const double* lambda, double* w)
{
    for (int i = 0; i < m; ++i)
    {
        w[i] = q[i];
        for (int j = 0; j < m; ++j)
        {
            w[i] += A[i][j] * lambda[j];
        }
    }
}

// Gaussian elimination with partial pivoting; false when (numerically) singular.
static inline bool dense_solve(int m, double M[MAXR][MAXR + 1], double* x)
{
    for (int c = 0; c < m; ++c)
    {
        int piv = c;
        for (int r = c + 1; r < m; ++r)
        {
            if (fabs(M[r][c]) > fabs(M[piv][c]))
            {
                piv = r;
            }
        }
        if (fabs(M[piv][c]) < 1e-12)
        {
            return false;
        }
        for (int k = 0; k <= m; ++k)
        {
            double t = M[c][k];
            M[c][k] = M[piv][k];
            M[piv][k] = t;
        }
        for (int r = c + 1; r < m; ++r)
        {
            double f = M[r][c] / M[c][c];
            for (int k = c; k <= m; ++k)
            {
                M[r][k] -= f * M[c][k];
            }
        }
    }
    for (int r = m - 1; r >= 0; --r)
    {
        double s = M[r][m];
        for (int k = r + 1; k < m; ++k)
        {
            s -= M[r][k] * x[k];
        }
        x[r] = s / M[r][r];
    }
    return true;
}

// Checks the BLCP conditions with the friction box at the solution's own λ[link]: λ in bounds,
// w >= 0 at the lower bound, w <= 0 at the upper bound, w = 0 strictly inside.
static inline bool blcp_holds(const cs_lcp* p, const double* lambda, const double* w, double tol)
{
    for (int i = 0; i < p->row_count; ++i)
    {
        double lo, hi;
        cs_lcp_bounds(p, lambda, i, &lo, &hi);
        if (lambda[i] < lo - tol || lambda[i] > hi + tol)
        {
            return false;
        }
        bool at_lo = lambda[i] <= lo + tol;
        bool at_hi = lambda[i] >= hi - tol;
        if (at_lo && at_hi)
        {
            continue; // a zero-width box (μλ_n = 0): any w
        }
        if (at_lo ? w[i] < -tol : at_hi ? w[i] > tol : fabs(w[i]) > tol)
        {
            return false;
        }
    }
    return true;
}

// The independent solve. Every row gets a status and with it one linear equation:
//   normal:   λ_i = 0 (at lower)            or w_i = 0 (free);
//   friction: w_i = 0 (free), λ_i = −μλ_l (at lower), λ_i = +μλ_l (at upper).
// The friction bounds are linear in the normal impulse, so each choice of statuses is one m×m
// linear system in λ even though the box moves; a candidate is a solution when it satisfies every
// BLCP condition. (With two statuses per normal and three per friction row, 6^contacts systems.)
// Returns how many distinct solutions there are and the first in `out`.
static inline int enumerate_solutions(const cs_lcp* p, double A[MAXR][MAXR], const double q[MAXR],
                                      double* out)
{
    int m = p->row_count;
    int choices[MAXR];
    long total = 1;
    for (int i = 0; i < m; ++i)
    {
        choices[i] = p->kind[i] == CS_ROW_FRICTION ? 3 : 2;
        total *= choices[i];
    }
    int found = 0;
    double first[MAXR];
    for (long code = 0; code < total; ++code)
    {
        long c = code;
        double M[MAXR][MAXR + 1] = {{0}};
        for (int i = 0; i < m; ++i)
        {
            int status = (int)(c % choices[i]);
            c /= choices[i];
            if (status == 0) // w_i = 0: (Aλ)_i = −q_i
            {
                for (int j = 0; j < m; ++j)
                {
                    M[i][j] = A[i][j];
                }
                M[i][m] = -q[i];
            }
            else if (p->kind[i] == CS_ROW_NORMAL) // λ_i = 0
            {
                M[i][i] = 1.0;
            }
            else // λ_i ± μ λ_link = 0
            {
                M[i][i] = 1.0;
                M[i][p->link[i]] = status == 1 ? p->mu[i] : -p->mu[i];
            }
        }
        double x[MAXR], w[MAXR];
        if (!dense_solve(m, M, x))
        {
            continue;
        }
        dense_w(m, A, q, x, w);
        if (!blcp_holds(p, x, w, 1e-10))
        {
            continue;
        }
        bool same = found > 0;
        for (int i = 0; i < m && same; ++i)
        {
            same = fabs(x[i] - first[i]) < 1e-8;
        }
        if (found == 0)
        {
            memcpy(first, x, sizeof x);
            found = 1;
        }
        else if (!same)
        {
            found += 1;
        }
    }
    if (found > 0)
    {
        memcpy(out, first, (size_t)m * sizeof(double));
    }
    return found;
}

// An exact (pivoting) method under test: solves p from λ = 0 into lambda, asserting what it promises about
// its own statistics (stop, pivot budget); returns the status with err's message on failure.
typedef cs_status (*exact_solve_fn)(const cs_lcp* p, cs_solver_work* work, double* lambda, cs_error* err);

// 150 random problems with and without friction: the method answers every one, its answer satisfies the
// BLCP (w from the dense A, not the method's own) to 1e-9, and where the enumeration finds a single solution
// λ is that solution to 1e-9 relative — on at least 100 problems.
static inline void check_exact_against_enumeration(exact_solve_fn solve, bool friction)
{
    int checked = 0;
    for (int t = 0; t < 150; ++t)
    {
        cs_lcp p = {0};
        int contacts = friction ? 1 + rng_int(4) : 1 + rng_int(8);
        random_contacts(&p, 2 + rng_int(5), contacts, friction);
        double A[MAXR][MAXR], q[MAXR], expected[MAXR];
        dense_problem(&p, A, q);
        int solutions = enumerate_solutions(&p, A, q, expected);
        cs_solver_work work = {0};
        double lambda[MAXR], w[MAXR];
        cs_error err = {0};
        if (solve(&p, &work, lambda, &err) != CS_OK)
        {
            fail_msg("problem %d (%d rows): %s", t, p.row_count, err.message);
        }
        dense_w(p.row_count, A, q, lambda, w);
        assert_true(blcp_holds(&p, lambda, w, 1e-9));
        if (solutions == 1)
        {
            for (int i = 0; i < p.row_count; ++i)
            {
                assert_near(lambda[i], expected[i], 1e-9 * (1.0 + fabs(expected[i])));
            }
            checked += 1;
        }
        cs_solver_work_free(&work);
        cs_lcp_free(&p);
    }
    assert_true(checked >= 100);
}

// Box rows of every shape, [l, h], [l, ∞), (−∞, h], (−∞, ∞) and [l, l], on one body pushed both ways and
// coupled to a normal row: the method's answer satisfies the BLCP conditions to tol.
static inline void check_exact_box_rows(exact_solve_fn solve, double tol)
{
    const double lo[5] = {-0.5, 0.2, -INFINITY, -INFINITY, 0.3};
    const double hi[5] = {0.5, INFINITY, -0.1, INFINITY, 0.3};
    for (int shape = 0; shape < 5; ++shape)
    {
        for (int sign = -1; sign <= 1; sign += 2)
        {
            cs_lcp p = {0};
            cs_error err = {0};
            assert_int_equal(cs_lcp_reserve(&p, 1, 2, &err), CS_OK);
            p.body_count = 1;
            p.row_count = 2;
            p.inv_mass[0] = 0.5;
            p.inv_inertia[0] = 1.0;
            p.v[0] = sign * 3.0, p.v[1] = -1.0, p.v[2] = 0.0;
            for (int i = 0; i < 2; ++i)
            {
                double j[6] = {i == 0 ? 1.0 : 0.6, i == 0 ? 0.0 : 0.8, 0.0, 0.0, 0.0, 0.0};
                memcpy(p.jac + 6 * i, j, sizeof j);
                p.body_a[i] = 0;
                p.body_b[i] = -1;
                p.bias[i] = 0.1;
                p.link[i] = -1;
                p.mu[i] = 0.0;
                p.lambda0[i] = 0.0;
            }
            p.kind[0] = CS_ROW_BOX, p.lo[0] = lo[shape], p.hi[0] = hi[shape];
            p.kind[1] = CS_ROW_NORMAL, p.lo[1] = 0.0, p.hi[1] = INFINITY;
            cs_solver_work work = {0};
            double lambda[2], A[MAXR][MAXR], q[MAXR], w[MAXR];
            if (solve(&p, &work, lambda, &err) != CS_OK)
            {
                fail_msg("shape %d sign %d: %s", shape, sign, err.message);
            }
            dense_problem(&p, A, q);
            dense_w(2, A, q, lambda, w);
            if (!blcp_holds(&p, lambda, w, tol))
            {
                fail_msg("shape %d sign %d: lambda (%g, %g), w (%g, %g)", shape, sign, lambda[0], lambda[1],
                         w[0], w[1]);
            }
            cs_solver_work_free(&work);
            cs_lcp_free(&p);
        }
    }
}

#endif
