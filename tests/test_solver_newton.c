// newton-minmap and newton-fb: the quadratic convergence of a generalised Newton method near a regular
// solution (the residual ratio test), 1e-12 on well-conditioned random problems against the enumerated
// solution, and the bad problems (NaN, an empty box, a singular or infeasible problem): a clear error or a
// reported miss within the iteration budget, never a hang.
#include "solver_fixtures.h"

static const char* methods[] = {"newton-minmap", "newton-fb"};

static int method(int k)
{
    int index = cs_solver_find(methods[k]);
    assert_true(index >= 0);
    return index;
}

// On well-conditioned problems (A positive definite) from λ = 0: res_nat <= 1e-12 in few iterations, the
// enumeration's λ to 1e-9, and near the end (r_k < 1e-5)
// r_{k+1} <= r_k^1.5: convergence of order >= 1.5 (measured ~2; a linear method with rate ρ > 0.003 fails it)
// and the test must see at least 10 such steps.
static void test_quadratic_convergence(void** state)
{
    (void)state;
    int quadratic_steps = 0;
    for (int k = 0; k < 2; ++k)
    {
        for (int t = 0; t < 40; ++t)
        {
            cs_lcp p = {0};
            bool friction = t % 2 == 1;
            random_contacts(&p, 4 + rng_int(3), friction ? 4 : 8, friction);
            double A[MAXR][MAXR], q[MAXR], expected[MAXR];
            dense_problem(&p, A, q);
            int solutions = enumerate_solutions(&p, A, q, expected);
            cs_solver_work work = {0};
            cs_error err = {0};
            assert_int_equal(cs_solver_work_set_history(&work, true, 50, &err), CS_OK);
            cs_solver_params params = cs_solver_params_default();
            params.warm_start = false;
            params.iterations = 50;
            params.tolerance = 1e-12;
            double lambda[MAXR];
            cs_solver_stats stats;
            assert_int_equal(cs_solve(&p, method(k), &params, &work, lambda, &stats, &err), CS_OK);
            if (!(stats.res_nat <= 1e-12) || stats.iterations > 30)
            {
                fail_msg("%s problem %d: res_nat %.3g after %d iterations", methods[k], t, stats.res_nat,
                         stats.iterations);
            }
            if (solutions == 1)
            {
                for (int i = 0; i < p.row_count; ++i)
                {
                    assert_near(lambda[i], expected[i], 1e-9 * (1.0 + fabs(expected[i])));
                }
            }
            const double* r = work.history_nat;
            for (int i = 0; i + 1 < stats.history_count; ++i)
            {
                if (r[i] < 1e-5 && r[i + 1] > 1e-13)
                {
                    if (!(r[i + 1] <= pow(r[i], 1.5)))
                    {
                        fail_msg("%s problem %d: r_%d = %.3g, r_%d = %.3g: not quadratic", methods[k], t, i,
                                 r[i], i + 1, r[i + 1]);
                    }
                    quadratic_steps += 1;
                }
            }
            cs_solver_work_free(&work);
            cs_lcp_free(&p);
        }
    }
    print_message("%d steps in the quadratic phase checked\n", quadratic_steps);
    assert_true(quadratic_steps >= 10); // the test saw the final phase, not only one-step finishes
}

static cs_status solve_once(const cs_lcp* p, int k, int iterations, cs_solver_stats* stats, cs_error* err)
{
    cs_solver_work work = {0};
    cs_solver_params params = cs_solver_params_default();
    params.warm_start = false;
    params.iterations = iterations;
    params.tolerance = 1e-12;
    double lambda[MAXR];
    cs_status s = cs_solve(p, method(k), &params, &work, lambda, stats, err);
    cs_solver_work_free(&work);
    return s;
}

static void test_bad_problems(void** state)
{
    (void)state;
    for (int k = 0; k < 2; ++k)
    {
        cs_lcp p = {0};
        random_contacts(&p, 3, 2, true);
        cs_solver_stats stats;
        cs_error err = {0};
        p.v[4] = NAN;
        // The driver refuses bad data before the method runs (check.c): a bad-problem stop naming the body.
        assert_int_equal(solve_once(&p, k, 10, &stats, &err), CS_OK);
        assert_int_equal(stats.stop, CS_STOP_BAD_PROBLEM);
        assert_int_equal(stats.stop_body, 1);
        p.v[4] = 0.5;
        p.kind[2] = CS_ROW_BOX, p.lo[2] = 2.0, p.hi[2] = 1.0;
        assert_int_equal(solve_once(&p, k, 10, &stats, &err), CS_OK);
        assert_int_equal(stats.stop, CS_STOP_BAD_PROBLEM);
        assert_int_equal(stats.stop_row, 2);
        cs_lcp_free(&p);

        // Infeasible (a disc of infinite mass asked to separate: A = 0, q < 0): the budget runs out and the
        // residual says so.
        infeasible_problem(&p);
        assert_int_equal(solve_once(&p, k, 200, &stats, &err), CS_OK);
        assert_true(stats.stop == CS_STOP_BAD_PROBLEM || stats.iterations == 200); // refused, or ran out
        assert_true(stats.res_nat >= 0.5);
        cs_lcp_free(&p);

        // Singular but solvable: one contact twice (two identical rows, A singular): converges.
        random_contacts(&p, 3, 3, false);
        int last = p.row_count;
        assert_int_equal(cs_lcp_reserve(&p, p.body_count, last + 1, &err), CS_OK);
        p.row_count = last + 1;
        p.body_a[last] = p.body_a[0], p.body_b[last] = p.body_b[0];
        memcpy(p.jac + 6 * last, p.jac, 6 * sizeof(double));
        p.bias[last] = p.bias[0], p.kind[last] = CS_ROW_NORMAL, p.link[last] = -1, p.mu[last] = 0.0;
        p.lo[last] = 0.0, p.hi[last] = INFINITY, p.lambda0[last] = 0.0;
        assert_int_equal(solve_once(&p, k, 100, &stats, &err), CS_OK);
        assert_true(stats.res_nat <= 1e-12);
        cs_lcp_free(&p);
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quadratic_convergence),
        cmocka_unit_test(test_bad_problems),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
