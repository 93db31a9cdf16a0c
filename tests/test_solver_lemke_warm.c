// Lemke warm-started from box index sets (cs_lemke_warm, ppm's fallback on the hard frictional pools):
// from the sets of the enumerated solution the first basis must be the answer (no pivot, no cold start);
// from random sets the answer must still be exact (warm, or the cold start after a ray).
// Answers are checked on the BLCP conditions with w from the dense A (solver_fixtures.h), independently of
// the solver's own residual.
#include "solver_fixtures.h"

#include "solver/operator.h"

// The box sets of a solution: −1 at the lower bound, 0 inside, 1 at the upper bound; a friction row whose
// normal is at 0 gets the side w_t pushes it to (cs_lemke_warm's convention).
static void sets_of(const cs_lcp* p, const double* lambda, const double* w, double* sets)
{
    for (int i = 0; i < p->row_count; ++i)
    {
        double lo = 0.0, hi = INFINITY;
        if (p->kind[i] == CS_ROW_FRICTION)
        {
            double limit = p->mu[i] * lambda[p->link[i]];
            if (!(limit > 1e-12))
            {
                sets[i] = w[i] > 0.0 ? -1.0 : 1.0;
                continue;
            }
            lo = -limit, hi = limit;
        }
        double tol = 1e-9 * (1.0 + fabs(lambda[i]));
        sets[i] = lambda[i] <= lo + tol ? -1.0 : lambda[i] >= hi - tol ? 1.0 : 0.0;
    }
}

// cs_lemke_warm needs a solve context: the driver's, set up by a lemke solve of the same problem.
static cs_status warm_solve(const cs_lcp* p, cs_solver_work* work, double* sets, double* guess,
                            bool* from_warm, int* pivots, double* lambda, cs_error* err)
{
    cs_solver_params params = cs_solver_params_default();
    params.warm_start = false;
    cs_solve_run run;
    cs_status s = cs_solve_start(p, cs_solver_find("lemke"), &params, work, lambda, &run, err);
    if (s != CS_OK)
    {
        return s;
    }
    s = cs_lemke_warm(&run.ctx, sets, guess, false, 5, from_warm, pivots, err);
    if (s == CS_OK)
    {
        memcpy(lambda, work->x, (size_t)p->row_count * sizeof(double));
    }
    cs_solver_stats stats;
    cs_solve_finish(&run, &stats);
    return s;
}

static void check_warm(bool friction)
{
    int exact_sets = 0, from_warm_count = 0, zero_pivot = 0, random_ok = 0, random_warm = 0;
    for (int t = 0; t < 120; ++t)
    {
        cs_lcp p = {0};
        random_small_contacts(&p, friction);
        int m = p.row_count;
        double A[MAXR][MAXR], q[MAXR], expected[MAXR], w[MAXR], sets[MAXR], guess[MAXR], lambda[MAXR];
        dense_problem(&p, A, q);
        if (enumerate_solutions(&p, A, q, expected) == 0)
        {
            cs_lcp_free(&p);
            continue;
        }
        dense_w(m, A, q, expected, w);
        sets_of(&p, expected, w, sets);
        memcpy(guess, expected, sizeof guess);
        cs_solver_work work = {0};
        cs_error err = {0};
        bool from_warm = false;
        int pivots = -1;
        if (warm_solve(&p, &work, sets, guess, &from_warm, &pivots, lambda, &err) != CS_OK)
        {
            fail_msg("problem %d (%d rows), the solution's sets: %s", t, m, err.message);
        }
        dense_w(m, A, q, lambda, w);
        assert_true(blcp_holds(&p, lambda, w, 1e-9));
        exact_sets += 1;
        from_warm_count += from_warm;
        zero_pivot += from_warm && pivots == 0;
        // Random sets: exact all the same.
        for (int i = 0; i < m; ++i)
        {
            sets[i] = (double)(rng_int(3) - 1);
            guess[i] = rng_uniform(-1.0, 1.0);
        }
        if (warm_solve(&p, &work, sets, guess, &from_warm, &pivots, lambda, &err) != CS_OK)
        {
            fail_msg("problem %d (%d rows), random sets: %s", t, m, err.message);
        }
        dense_w(m, A, q, lambda, w);
        assert_true(blcp_holds(&p, lambda, w, 1e-9));
        random_ok += 1;
        random_warm += from_warm;
        cs_solver_work_free(&work);
        cs_lcp_free(&p);
    }
    print_message("%s: %d problems; from the solution's sets the warm start answered %d (%d with no pivot); "
                  "%d exact from random sets (%d by the warm start)\n",
                  friction ? "friction" : "frictionless", exact_sets, from_warm_count, zero_pivot, random_ok,
                  random_warm);
    assert_true(exact_sets >= 100);
    assert_int_equal(from_warm_count, exact_sets);
    assert_int_equal(zero_pivot, exact_sets); // the solution's own basis needs no pivot
}

static void test_frictionless_warm(void** state)
{
    (void)state;
    check_warm(false);
}

static void test_friction_warm(void** state)
{
    (void)state;
    check_warm(true);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frictionless_warm),
        cmocka_unit_test(test_friction_warm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
