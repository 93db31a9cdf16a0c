// Regularised rows (cs_lcp.reg, Lacoursière's Σ, eqs. (1)-(3)): every registered method solves
// (A + Σ)λ + q ⟂ λ, not Aλ + q. Two independent checks, each able to catch a method that ignores reg:
//  - the enumerated solution of the dense BLCP with A + Σ (solver_fixtures.h), on random problems where it
//    differs from the hard problem's;
//  - an equivalent hard problem: a regularised row with a static half gets, in that half, a phantom body of
//    inverse mass ε_i that only this row touches (J = (1, 0, 0), v* = 0), so its A_ii grows by ε_i and
//    nothing else changes. The method's answers on the two problems must agree.
#include "test_support.h"

#include <string.h>

#include "solver_fixtures.h"

// The methods and settings run here: every registered method at its defaults, and the ones whose
// relaxation or subspace solver changes the code path once more.
typedef struct variant
{
    const char* name;
    double omega; // 0: the default relaxation
    int subspace; // -1: the default subspace solver
    bool friction_ok;
    int kgs;  // 0: the default k_gs and k_sm
    bool few; // frictionless: converges in at most FEW_ITERATIONS (an exact subspace step on A_FF + Σ_FF)
} variant;

enum
{
    // pgs-sm and pgs-kz with one PGS sweep per iteration converge in 1-3 iterations on these problems when
    // the subspace step solves (A + Σ)_FF; with A_FF (Σ left out of CHOLMOD's matrix or of CG's products)
    // some take thousands, the PGS sweeps doing all the work.
    FEW_ITERATIONS = 10,
};

static int variants(variant* out, int capacity, bool friction)
{
    int n = 0;
    for (int k = 0; k < cs_solver_count() && n < capacity; ++k)
    {
        // The Newton methods can stall on singular frictional rows (no theorem there; test_solver_agreement
        // reports where): held to the frictionless problems here.
        bool newton = strncmp(cs_solver_at(k)->name, "newton-", 7) == 0;
        out[n++] = (variant){cs_solver_at(k)->name, 0.0, -1, !newton, 0, false};
    }
    // Over-relaxation with moving friction bounds is not covered by theory (tests/test_solver_lab.c).
    const variant extra[] = {{"psor", friction ? 0.8 : 1.5, -1, true, 0, false},
                             {"pssor", friction ? 0.8 : 1.5, -1, true, 0, false},
                             {"jacobi", 1.5, -1, false, 0, false},
                             {"pgs-sm", 0.0, CS_SUBSPACE_PCG, true, 0, false},
                             {"pgs-kz", 0.0, CS_SUBSPACE_PCG, true, 0, false},
                             {"pgs-sm", 0.0, CS_SUBSPACE_CHOLMOD, true, 1, true},
                             {"pgs-sm", 0.0, CS_SUBSPACE_PCG, true, 1, true},
                             {"pgs-kz", 0.0, CS_SUBSPACE_CHOLMOD, true, 1, true},
                             {"pgs-kz", 0.0, CS_SUBSPACE_PCG, true, 1, true}};
    for (size_t k = 0; k < sizeof extra / sizeof extra[0] && n < capacity; ++k)
    {
        out[n++] = extra[k];
    }
    return n;
}

// Solves p with v to 1e-13 (natural residual); false, with the reason printed, when it does not get there
// (or, with `few` and a variant marked so, not within FEW_ITERATIONS).
static bool solve_variant(const cs_lcp* p, const variant* v, bool warm, bool few, double* lambda,
                          cs_solver_work* work)
{
    int index = cs_solver_find(v->name);
    assert_true(index >= 0);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 200000;
    params.tolerance = cs_test_tolerance(index, 1e-13);
    params.warm_start = warm;
    if (v->omega > 0.0)
    {
        params.relaxation = v->omega;
    }
    if (v->subspace >= 0)
    {
        params.subspace_solver = (cs_subspace_solver)v->subspace;
    }
    if (v->kgs > 0)
    {
        params.kgs = v->kgs;
        params.ksm = 20;
    }
    cs_solver_stats stats;
    cs_error err = {0};
    if (cs_solve(p, index, &params, work, lambda, &stats, &err) != CS_OK)
    {
        print_error("%s: %s\n", v->name, err.message);
        return false;
    }
    if (stats.stop != CS_STOP_CONVERGED)
    {
        print_error("%s ω %g k_gs %d: %s after %d iterations, res_nat %g\n", v->name, v->omega, v->kgs,
                    cs_solve_stop_name(stats.stop), stats.iterations, stats.res_nat);
        return false;
    }
    if (v->few && few && stats.iterations > FEW_ITERATIONS)
    {
        print_error("%s (%s, k_gs 1): %d iterations, more than %d\n", v->name,
                    cs_subspace_solver_name(params.subspace_solver), stats.iterations, FEW_ITERATIONS);
        return false;
    }
    return true;
}

static double max_relative_gap(const double* x, const double* y, int n)
{
    double worst = 0.0;
    for (int i = 0; i < n; ++i)
    {
        worst = fmax(worst, fabs(x[i] - y[i]) / (1.0 + fabs(y[i])));
    }
    return worst;
}

// ε_i of each normal row: 0 for about a quarter of them (hard rows next to soft ones), otherwise between
// 0.2 and 2 times its A_ii, large enough to move the solution well past the tolerances.
static void regularise(cs_lcp* p, double A[MAXR][MAXR], bool static_only)
{
    cs_error err;
    assert_int_equal(cs_lcp_reserve_reg(p, true, &err), CS_OK);
    for (int i = 0; i < p->row_count; ++i)
    {
        bool on_static = p->body_a[i] < 0 || p->body_b[i] < 0;
        bool soft = p->kind[i] == CS_ROW_NORMAL && rng_int(4) != 0 && (on_static || !static_only);
        p->reg[i] = soft ? rng_uniform(0.2, 2.0) * A[i][i] : 0.0;
    }
}

// Each method's converged λ on random regularised problems (with friction and without) equals the unique
// solution of the dense BLCP with A + Σ, found by enumerating active sets; the hard problem's solution is
// far from it on most of them, so a method solving Aλ + q fails here.
static void every_method_matches_the_dense_regularised_solution(void** state)
{
    (void)state;
    variant list[32];
    int failed = 0;
    for (int f = 0; f < 2; ++f)
    {
        bool friction = f == 1;
        int count = variants(list, 32, friction);
        int used = 0, distinct = 0;
        for (int trial = 0; trial < 30; ++trial)
        {
            cs_lcp p = {0};
            random_small_contacts(&p, friction);
            double A[MAXR][MAXR], q[MAXR], hard[MAXR], expected[MAXR], lambda[MAXR], w[MAXR];
            dense_problem(&p, A, q);
            regularise(&p, A, false);
            int m = p.row_count;
            bool hard_unique = enumerate_solutions(&p, A, q, hard) == 1;
            for (int i = 0; i < m; ++i)
            {
                A[i][i] += p.reg[i];
            }
            if (enumerate_solutions(&p, A, q, expected) != 1)
            {
                cs_lcp_free(&p);
                continue; // (friction: the BLCP may have several solutions; nothing unique to compare with)
            }
            used += 1;
            distinct += hard_unique && max_relative_gap(hard, expected, m) > 1e-3 ? 1 : 0;
            cs_solver_work work = {0};
            for (int k = 0; k < count; ++k)
            {
                if (friction && !list[k].friction_ok)
                {
                    continue;
                }
                if (!solve_variant(&p, &list[k], trial % 2 == 0, !friction, lambda, &work))
                {
                    print_error("  (%s trial %d)\n", friction ? "friction" : "frictionless", trial);
                    failed += 1;
                    continue;
                }
                dense_w(m, A, q, lambda, w);
                double gap = max_relative_gap(lambda, expected, m);
                int index = cs_solver_find(list[k].name);
                if (!blcp_holds(&p, lambda, w, cs_test_tolerance(index, 1e-9)) ||
                    gap > cs_test_gap(index, 1e-8))
                {
                    print_error("%s ω %g (%s trial %d): λ off the (A + Σ) solution by %g\n", list[k].name,
                                list[k].omega, friction ? "friction" : "frictionless", trial, gap);
                    failed += 1;
                }
            }
            cs_solver_work_free(&work);
            cs_lcp_free(&p);
        }
        // The check has teeth: most problems were compared, and on most the hard answer is another one.
        assert_true(used >= 20);
        assert_true(distinct >= used / 2);
    }
    assert_int_equal(failed, 0);
}

// The hard problem equivalent to p (regularised only on rows with a static half): one phantom body per
// regularised row in that half, inverse mass ε_i, J = (1, 0, 0) there, at rest.
static void phantom_problem(const cs_lcp* p, cs_lcp* hard)
{
    cs_error err;
    int phantoms = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        phantoms += p->reg[i] > 0.0 ? 1 : 0;
    }
    assert_int_equal(cs_lcp_copy(hard, p, &err), CS_OK);
    assert_int_equal(cs_lcp_reserve(hard, p->body_count + phantoms, p->row_count, &err), CS_OK);
    assert_int_equal(cs_lcp_reserve_reg(hard, false, &err), CS_OK);
    int b = p->body_count;
    hard->body_count = b + phantoms;
    for (int i = 0; i < p->row_count; ++i)
    {
        if (!(p->reg[i] > 0.0))
        {
            continue;
        }
        int half = p->body_a[i] < 0 ? 0 : 1;
        assert_true((half == 0 ? p->body_a[i] : p->body_b[i]) < 0);
        hard->inv_mass[b] = p->reg[i];
        hard->inv_inertia[b] = 0.0;
        hard->v[3 * b] = hard->v[3 * b + 1] = hard->v[3 * b + 2] = 0.0;
        double* j = hard->jac + 6 * i + 3 * half;
        j[0] = 1.0, j[1] = 0.0, j[2] = 0.0;
        if (half == 0)
        {
            hard->body_a[i] = b;
        }
        else
        {
            hard->body_b[i] = b;
        }
        b += 1;
    }
}

// Every method gives the same λ, and the same velocities of the real bodies, on a problem with regularised
// rows and on its phantom-body hard equivalent.
static void regularised_rows_equal_an_equivalent_hard_problem(void** state)
{
    (void)state;
    variant list[32];
    int failed = 0, soft_rows = 0, differs = 0;
    for (int trial = 0; trial < 40; ++trial)
    {
        bool friction = trial % 2 == 1;
        int count = variants(list, 32, friction);
        cs_lcp p = {0}, hard = {0};
        random_small_contacts(&p, friction);
        double A[MAXR][MAXR], q[MAXR], lambda[MAXR], lambda_hard[MAXR], plain[MAXR];
        dense_problem(&p, A, q);
        regularise(&p, A, true);
        phantom_problem(&p, &hard);
        for (int i = 0; i < p.row_count; ++i)
        {
            soft_rows += p.reg[i] > 0.0 ? 1 : 0;
        }
        static double v_soft[3 * MAXB + 3];
        cs_solver_work work = {0}, work_hard = {0};
        for (int k = 0; k < count; ++k)
        {
            if (friction && !list[k].friction_ok)
            {
                continue;
            }
            if (!solve_variant(&p, &list[k], false, !friction, lambda, &work) ||
                !solve_variant(&hard, &list[k], false, !friction, lambda_hard, &work_hard))
            {
                print_error("  (trial %d)\n", trial);
                failed += 1;
                continue;
            }
            memcpy(v_soft, work.v, 3 * (size_t)p.body_count * sizeof(double));
            double gap = max_relative_gap(lambda, lambda_hard, p.row_count);
            double v_gap = max_relative_gap(v_soft, work_hard.v, 3 * p.body_count);
            double tol = cs_test_gap(cs_solver_find(list[k].name), 1e-8);
            if (gap > tol || v_gap > tol)
            {
                print_error("%s ω %g trial %d: regularised vs phantom-body problem: λ by %g, v by %g\n",
                            list[k].name, list[k].omega, trial, gap, v_gap);
                failed += 1;
            }
            if (k == 0)
            {
                // The same method without the regularisation: a different answer on most problems.
                cs_error err;
                cs_lcp bare = {0};
                assert_int_equal(cs_lcp_copy(&bare, &p, &err), CS_OK);
                assert_int_equal(cs_lcp_reserve_reg(&bare, false, &err), CS_OK);
                if (solve_variant(&bare, &list[k], false, false, plain, &work))
                {
                    differs += max_relative_gap(plain, lambda, p.row_count) > 1e-3 ? 1 : 0;
                }
                cs_lcp_free(&bare);
            }
        }
        cs_solver_work_free(&work);
        cs_solver_work_free(&work_hard);
        cs_lcp_free(&p);
        cs_lcp_free(&hard);
    }
    assert_true(soft_rows >= 20);
    assert_true(differs >= 10);
    assert_int_equal(failed, 0);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_method_matches_the_dense_regularised_solution),
        cmocka_unit_test(regularised_rows_equal_an_equivalent_hard_problem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
