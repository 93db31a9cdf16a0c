// amgs-adaptive (src/solver/amgs_adaptive.c): it starts as PGS, picks Young's ω from the PGS displacement
// ratio once that has settled, and from then on is `amgs` with that α; its converged answers satisfy the
// BLCP conditions; on a frozen Stacking step it needs far fewer sweeps than the default α = 0.2.
#include "solver_fixtures.h"

static cs_solver_stats solve(const cs_lcp* p, const char* name, cs_solver_params params, cs_solver_work* work,
                             double* lambda)
{
    cs_solver_stats stats = {0};
    cs_error err = {0};
    assert_int_equal(cs_solve(p, solver(name), &params, work, lambda, &stats, &err), CS_OK);
    return stats;
}

static double max_rel_difference(const double* a, const double* b, int n)
{
    double d = 0.0, scale = 1e-300;
    for (int i = 0; i < n; ++i)
    {
        scale = fmax(scale, fabs(b[i]));
    }
    for (int i = 0; i < n; ++i)
    {
        d = fmax(d, fabs(a[i] - b[i]) / scale);
    }
    return d;
}

// Until its ratio test fires (not before sweep 4) the method is PGS (αγ = 1, docs/amgs.md (b)).
static void test_starts_as_pgs(void** state)
{
    (void)state;
    for (int trial = 0; trial < 20; ++trial)
    {
        cs_lcp p = {0};
        random_contacts(&p, 3, 1 + rng_int(4), trial % 2 == 0);
        cs_solver_params params = cs_solver_params_default();
        params.gamma = trial % 3 == 0 ? 3.0 : 2.0;
        cs_solver_work wp = {0}, wa = {0};
        double lp[MAXR], la[MAXR];
        for (int k = 1; k <= 4; ++k)
        {
            params.iterations = k;
            solve(&p, "pgs", params, &wp, lp);
            solve(&p, "amgs-adaptive", params, &wa, la);
            assert_true(max_rel_difference(la, lp, p.row_count) <= 1e-12);
        }
        cs_solver_work_free(&wp);
        cs_solver_work_free(&wa);
        cs_lcp_free(&p);
    }
}

// The α it settles on is Young's: after the switch its sweeps are those of `amgs` with
// α = (2/ω − 1)/γ, ω = 2/(1 + √(1 − r)), r the PGS displacement ratio computed here from PGS's own iterates.
static void test_switches_to_youngs_alpha(void** state)
{
    (void)state;
    int switched = 0;
    for (int trial = 0; trial < 40; ++trial)
    {
        cs_lcp p = {0};
        random_contacts(&p, 4, 2 + rng_int(3), true);
        int m = p.row_count;
        cs_solver_params params = cs_solver_params_default();
        params.warm_start = false;
        cs_solver_work work = {0};
        double iterate[64][MAXR];
        for (int k = 0; k < 64; ++k)
        {
            params.iterations = k;
            solve(&p, "pgs", params, &work, iterate[k]);
        }
        // The first sweep k > 3 whose displacement ratio is below 1 and within 5 % of the previous one.
        int at = -1;
        double r = 0.0, previous = 0.0;
        for (int k = 1; k < 64 && at < 0; ++k)
        {
            double d = 0.0, e = 0.0;
            for (int i = 0; i < m; ++i)
            {
                d += (iterate[k][i] - iterate[k - 1][i]) * (iterate[k][i] - iterate[k - 1][i]);
                e += k > 1 ? (iterate[k - 1][i] - iterate[k - 2][i]) * (iterate[k - 1][i] - iterate[k - 2][i])
                           : 0.0;
            }
            r = e > 0.0 ? sqrt(d) / sqrt(e) : 0.0;
            if (k > 3 && r < 1.0 && fabs(r - previous) <= 0.05 * r)
            {
                at = k;
            }
            previous = r;
        }
        if (at < 0 || at > 50)
        {
            cs_lcp_free(&p);
            cs_solver_work_free(&work);
            continue;
        }
        double omega = fmin(2.0 / (1.0 + sqrt(1.0 - r)), 1.995);
        // From PGS's iterate `at`, `amgs` with Young's α must continue exactly as amgs-adaptive does.
        cs_lcp from = {0};
        cs_error err = {0};
        assert_int_equal(cs_lcp_copy(&from, &p, &err), CS_OK);
        memcpy(from.lambda0, iterate[at], (size_t)m * sizeof(double));
        cs_solver_params amgs = params;
        amgs.warm_start = true;
        amgs.alpha = (2.0 / omega - 1.0) / params.gamma;
        amgs.iterations = 10;
        double expected[MAXR], got[MAXR];
        solve(&from, "amgs", amgs, &work, expected);
        params.iterations = at + 10;
        solve(&p, "amgs-adaptive", params, &work, got);
        assert_true(max_rel_difference(got, expected, m) <= 1e-9);
        switched += 1;
        cs_lcp_free(&from);
        cs_lcp_free(&p);
        cs_solver_work_free(&work);
    }
    assert_true(switched >= 10);
}

// Converged answers satisfy the BLCP conditions (dense w from the explicit A).
static void test_converges_to_blcp_solution(void** state)
{
    (void)state;
    for (int trial = 0; trial < 60; ++trial)
    {
        cs_lcp p = {0};
        random_contacts(&p, 2 + rng_int(4), 1 + rng_int(4), trial % 3 != 0);
        double A[MAXR][MAXR], q[MAXR], lambda[MAXR], w[MAXR];
        dense_problem(&p, A, q);
        cs_solver_params params = cs_solver_params_default();
        params.warm_start = false;
        params.iterations = 100000;
        params.tolerance = 1e-12;
        cs_solver_work work = {0};
        cs_solver_stats st = solve(&p, "amgs-adaptive", params, &work, lambda);
        dense_w(p.row_count, A, q, lambda, w);
        assert_true(st.res_nat <= 1e-12);
        assert_true(blcp_holds(&p, lambda, w, 1e-10));
        cs_solver_work_free(&work);
        cs_lcp_free(&p);
    }
}

// Frozen Stacking step 300 (30 discs): to res_nat <= 1e-6 from the warm start, the default α = 0.2 takes
// over 1000 sweeps (docs/amgs.md 'Adaptive α' table); the adaptive rule takes under a fifth of them.
static void test_stacking_far_fewer_sweeps_than_default(void** state)
{
    (void)state;
    cs_error err = {0};
    cs_scene_info info;
    cs_world* world = cs_scene_load(cs_test_source_path("scenes/stacking.json"), &info, &err);
    assert_non_null(world);
    for (int s = 0; s < 300; ++s)
    {
        assert_int_equal(cs_world_step(world), CS_OK);
    }
    cs_lcp p = {0};
    assert_int_equal(cs_lcp_copy(&p, cs_world_last_problem(world), &err), CS_OK);
    cs_world_destroy(world);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 100000;
    params.tolerance = 1e-6;
    cs_solver_work work = {0};
    double* lambda = malloc((size_t)p.row_count * sizeof(double));
    cs_solver_stats fixed = solve(&p, "amgs", params, &work, lambda);
    cs_solver_stats adaptive = solve(&p, "amgs-adaptive", params, &work, lambda);
    print_message("# stacking step 300: amgs alpha 0.2 %d sweeps, amgs-adaptive %d\n", fixed.iterations,
                  adaptive.iterations);
    assert_true(adaptive.res_nat <= 1e-6 && fixed.res_nat <= 1e-6);
    assert_true(5 * adaptive.iterations < fixed.iterations);
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_starts_as_pgs),
        cmocka_unit_test(test_switches_to_youngs_alpha),
        cmocka_unit_test(test_converges_to_blcp_solution),
        cmocka_unit_test(test_stacking_far_fewer_sweeps_than_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
