// PGS and the solve driver, checked against independent dense computations (solver_fixtures.h):
// A = J M⁻¹ Jᵀ and q = J v* + b formed explicitly, the BLCP solved by enumerating active sets,
// eq. (4) transcribed literally here, residuals from their definitions.
#include "solver_fixtures.h"

static int pgs(void)
{
    int index = cs_solver_find("pgs");
    assert_true(index >= 0);
    return index;
}

// Solves with PGS for `iterations` sweeps; returns the stats.
static cs_solver_stats run_pgs(const cs_lcp* p, int iterations, cs_solver_work* work, double* lambda)
{
    cs_solver_params params = cs_solver_params_default();
    params.iterations = iterations;
    cs_solver_stats stats = {0};
    cs_error err = {0};
    assert_int_equal(cs_solve(p, pgs(), &params, work, lambda, &stats, &err), CS_OK);
    return stats;
}

static void check_against_enumeration(bool friction, int trials)
{
    int checked = 0;
    for (int trial = 0; trial < trials; ++trial)
    {
        cs_lcp p = {0};
        random_small_contacts(&p, friction);
        double A[MAXR][MAXR], q[MAXR];
        dense_problem(&p, A, q);
        cs_solver_work work = {0};
        double lambda[MAXR], w[MAXR], expected[MAXR];
        cs_solver_stats stats = run_pgs(&p, 20000, &work, lambda);
        dense_w(p.row_count, A, q, lambda, w);
        int count = enumerate_solutions(&p, A, q, expected);
        // PGS converged to a point satisfying every BLCP condition to 1e-9 ...
        if (!blcp_holds(&p, lambda, w, 1e-9) || stats.res_nat > 1e-9)
        {
            print_error("trial %d: PGS did not converge (res_nat %g), %d solutions\n", trial, stats.res_nat,
                        count);
            fail();
        }
        // ... and the enumeration found it. A frictional BLCP with moving bounds may have several
        // solutions; a frictionless one with A SPD has exactly one. When there are several we
        // check PGS's point is among them by re-running the enumeration's test on it above.
        assert_true(count >= 1);
        if (!friction)
        {
            assert_int_equal(count, 1);
        }
        if (count == 1)
        {
            for (int i = 0; i < p.row_count; ++i)
            {
                assert_true(fabs(lambda[i] - expected[i]) <= 1e-8 * (1.0 + fabs(expected[i])));
            }
            checked += 1;
        }
        // The output velocity is v* + M⁻¹Jᵀλ.
        double v[3 * MAXB];
        cs_lcp_velocity(&p, lambda, v);
        double worst = 0.0;
        for (int k = 0; k < 3 * p.body_count; ++k)
        {
            worst = fmax(worst, fabs(v[k] - work.v[k]) / (1.0 + fabs(v[k])));
        }
        // Incremental updates over 20000 sweeps drift by a few 1e-12 (measured ≤ 4e-12).
        assert_true(worst <= 1e-10);
        cs_solver_work_free(&work);
        cs_lcp_free(&p);
    }
    print_message("%d of %d problems had a unique solution and matched it\n", checked, trials);
    assert_true(checked >= trials / 2); // most random problems have a unique solution
}

static void test_pgs_frictional_matches_enumeration(void** state)
{
    (void)state;
    check_against_enumeration(true, 300);
}

static void test_pgs_frictionless_matches_enumeration(void** state)
{
    (void)state;
    check_against_enumeration(false, 300);
}

// Eq. (4) transcribed on the explicit A, with the box projection for friction rows: PGS in
// velocity form must produce the same iterates up to rounding, sweep by sweep.
static void test_pgs_iterates_match_dense_eq4(void** state)
{
    (void)state;
    for (int trial = 0; trial < 20; ++trial)
    {
        cs_lcp p = {0};
        random_contacts(&p, 3, 1 + rng_int(4), trial % 2 == 0);
        double A[MAXR][MAXR], q[MAXR];
        dense_problem(&p, A, q);
        int m = p.row_count;
        double dense[MAXR];
        memcpy(dense, p.lambda0, (size_t)m * sizeof(double));
        cs_solver_work work = {0};
        for (int k = 1; k <= 15; ++k)
        {
            for (int i = 0; i < m; ++i)
            {
                double s = q[i];
                for (int j = 0; j < m; ++j)
                {
                    s += j != i ? A[i][j] * dense[j] : 0.0;
                }
                double lo, hi;
                cs_lcp_bounds(&p, dense, i, &lo, &hi);
                double y = -s / A[i][i];
                dense[i] = y < lo ? lo : (y > hi ? hi : y);
            }
            double lambda[MAXR];
            run_pgs(&p, k, &work, lambda);
            for (int i = 0; i < m; ++i)
            {
                assert_true(fabs(lambda[i] - dense[i]) <= 1e-12 * (1.0 + fabs(dense[i])));
            }
        }
        cs_solver_work_free(&work);
        cs_lcp_free(&p);
    }
}

// Residuals from velocities equal residuals from the explicit A at arbitrary (non-solution) λ,
// including box rows with infinite bounds.
static void test_residuals_match_explicit_a(void** state)
{
    (void)state;
    for (int trial = 0; trial < 50; ++trial)
    {
        cs_lcp p = {0};
        random_contacts(&p, 3, 1 + rng_int(4), true);
        int m = p.row_count;
        if (m < MAXR)
        {
            // A box row on body 0 along x with one infinite side.
            int i = m;
            cs_error err;
            assert_int_equal(cs_lcp_reserve(&p, p.body_count, m + 1, &err), CS_OK);
            p.row_count = m + 1;
            p.body_a[i] = 0;
            p.body_b[i] = -1;
            double j[6] = {1.0, 0.5, 0.1, 0, 0, 0};
            memcpy(p.jac + 6 * i, j, sizeof j);
            p.bias[i] = 0.2;
            p.kind[i] = CS_ROW_BOX;
            p.link[i] = -1;
            p.mu[i] = 0.0;
            p.lo[i] = -0.3;
            p.hi[i] = INFINITY;
            p.lambda0[i] = 0.0;
            m += 1;
        }
        double A[MAXR][MAXR], q[MAXR], lambda[MAXR], w[MAXR];
        dense_problem(&p, A, q);
        for (int i = 0; i < m; ++i)
        {
            lambda[i] = rng_uniform(-1.0, 1.0);
        }
        dense_w(m, A, q, lambda, w);
        double lcp = 0.0, nat = 0.0;
        for (int i = 0; i < m; ++i)
        {
            double lo, hi;
            cs_lcp_bounds(&p, lambda, i, &lo, &hi);
            double y = lambda[i] - w[i];
            double r = lambda[i] - (y < lo ? lo : (y > hi ? hi : y));
            nat += r * r;
            if (p.kind[i] == CS_ROW_NORMAL)
            {
                double mn = fmin(lambda[i], w[i]);
                lcp += mn * mn;
            }
        }
        double v[3 * MAXB];
        cs_lcp_velocity(&p, lambda, v);
        assert_true(fabs(cs_residual_lcp(&p, v, lambda) - sqrt(lcp)) <= 1e-12 * (1.0 + sqrt(lcp)));
        assert_true(fabs(cs_residual_nat(&p, v, lambda) - sqrt(nat)) <= 1e-12 * (1.0 + sqrt(nat)));
        cs_lcp_free(&p);
    }
}

static void test_warm_start_off_starts_from_zero(void** state)
{
    (void)state;
    cs_lcp p = {0}, zero = {0};
    cs_error err = {0};
    random_contacts(&p, 3, 3, true);
    assert_int_equal(cs_lcp_copy(&zero, &p, &err), CS_OK);
    memset(zero.lambda0, 0, (size_t)zero.row_count * sizeof(double));
    cs_solver_work work = {0};
    cs_solver_params params = cs_solver_params_default();
    cs_solver_stats stats;
    double a[MAXR], b[MAXR];
    for (int k = 0; k <= 3; ++k)
    {
        params.iterations = k;
        params.warm_start = false;
        a[0] = 123.0; // entry values are ignored
        assert_int_equal(cs_solve(&p, pgs(), &params, &work, a, &stats, &err), CS_OK);
        params.warm_start = true;
        assert_int_equal(cs_solve(&zero, pgs(), &params, &work, b, &stats, &err), CS_OK);
        assert_memory_equal(a, b, (size_t)p.row_count * sizeof(double));
        if (k == 0)
        {
            for (int i = 0; i < p.row_count; ++i)
            {
                assert_true(a[i] == 0.0);
            }
        }
    }
    // Warm start on, zero sweeps: λ is lambda0 and v = v* + M⁻¹Jᵀλ⁰.
    params.iterations = 0;
    assert_int_equal(cs_solve(&p, pgs(), &params, &work, a, &stats, &err), CS_OK);
    assert_memory_equal(a, p.lambda0, (size_t)p.row_count * sizeof(double));
    double v[3 * MAXB];
    cs_lcp_velocity(&p, p.lambda0, v);
    assert_memory_equal(v, work.v, 3 * (size_t)p.body_count * sizeof(double));
    assert_int_equal(stats.iterations, 0);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
    cs_lcp_free(&zero);
}

static void test_tolerance_stops_early(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    random_contacts(&p, 4, 6, false);
    cs_solver_work work = {0};
    assert_int_equal(cs_solver_work_set_history(&work, true, 100000, &err), CS_OK);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 100000;
    params.tolerance = 1e-8;
    double lambda[MAXR];
    cs_solver_stats stats;
    assert_int_equal(cs_solve(&p, pgs(), &params, &work, lambda, &stats, &err), CS_OK);
    assert_true(stats.iterations >= 1 && stats.iterations < 100000);
    assert_true(stats.res_nat <= 1e-8);
    assert_int_equal(stats.history_count, stats.iterations + 1);
    assert_true(work.history_nat[stats.iterations - 1] > 1e-8 || stats.iterations == 1);
    // The same with the LCP residual named.
    params.tolerance_on = CS_RES_LCP;
    params.tolerance = 1e-6;
    assert_int_equal(cs_solve(&p, pgs(), &params, &work, lambda, &stats, &err), CS_OK);
    assert_true(stats.res_lcp <= 1e-6 && stats.iterations < 100000);
    assert_true(stats.iterations == 1 || work.history_lcp[stats.iterations - 1] > 1e-6);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

static void test_history(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    random_contacts(&p, 4, 6, false);
    cs_solver_work work = {0};
    assert_int_equal(cs_solver_work_set_history(&work, true, 50, &err), CS_OK);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 50;
    double lambda[MAXR];
    cs_solver_stats stats;
    assert_int_equal(cs_solve(&p, pgs(), &params, &work, lambda, &stats, &err), CS_OK);
    assert_int_equal(stats.iterations, 50);
    assert_int_equal(stats.history_count, 51);
    // Entry 0 is the start point: residuals of λ⁰ recomputed here.
    double v[3 * MAXB];
    cs_lcp_velocity(&p, p.lambda0, v);
    assert_true(fabs(work.history_nat[0] - cs_residual_nat(&p, v, p.lambda0)) <= 1e-14);
    assert_true(fabs(work.history_lcp[0] - cs_residual_lcp(&p, v, p.lambda0)) <= 1e-14);
    // The last entry is the final iterate.
    assert_true(work.history_nat[50] == stats.res_nat && work.history_lcp[50] == stats.res_lcp);
    // Decreases overall on an SPD problem (frictionless, full row rank).
    assert_true(work.history_nat[50] < 1e-3 * work.history_nat[0]);
    // Entry k is the residual after exactly k sweeps.
    for (int k = 1; k <= 5; ++k)
    {
        double l2[MAXR];
        cs_solver_work other = {0};
        cs_solver_stats s2 = run_pgs(&p, k, &other, l2);
        assert_true(s2.res_nat == work.history_nat[k]);
        cs_solver_work_free(&other);
    }
    // A history shorter than the run never overflows; it keeps the first entries.
    assert_int_equal(cs_solver_work_set_history(&work, false, 0, &err), CS_OK);
    cs_solver_work small = {0};
    assert_int_equal(cs_solver_work_set_history(&small, true, 4, &err), CS_OK);
    assert_int_equal(small.history_capacity, 5);
    assert_int_equal(cs_solve(&p, pgs(), &params, &small, lambda, &stats, &err), CS_OK);
    assert_int_equal(stats.history_count, 5);
    assert_true(small.history_nat[4] == work.history_nat[4]);
    // History off: no entries.
    assert_int_equal(cs_solve(&p, pgs(), &params, &work, lambda, &stats, &err), CS_OK);
    assert_int_equal(stats.history_count, 0);
    cs_solver_work_free(&small);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

static void test_unknown_solver_and_bad_params(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    random_contacts(&p, 2, 1, false);
    cs_solver_work work = {0};
    cs_solver_params params = cs_solver_params_default();
    double lambda[MAXR];
    cs_solver_stats stats;
    assert_int_equal(cs_solve(&p, cs_solver_count(), &params, &work, lambda, &stats, &err), CS_ERR_USAGE);
    assert_non_null(strstr(err.message, "pgs"));
    assert_int_equal(cs_solve(&p, -1, &params, &work, lambda, &stats, &err), CS_ERR_USAGE);
    params.iterations = -1;
    assert_int_equal(cs_solve(&p, pgs(), &params, &work, lambda, &stats, &err), CS_ERR_USAGE);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

// A row whose body index is outside [-1, body_count) is refused before any body is read, whichever row
// it is in (cs_solve_start tests all rows in one vectorised pass, then finds the first bad one).
static void test_body_index_out_of_range(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    cs_test_frozen_scene("scenes/pool1.json", 50, true, &p); // (hundreds of rows: the pass's body and tail)
    cs_solver_work work = {0};
    cs_solver_params params = cs_solver_params_default();
    double* lambda = calloc((size_t)p.row_count, sizeof(double));
    assert_non_null(lambda);
    cs_solver_stats stats;
    assert_int_equal(cs_solve(&p, pgs(), &params, &work, lambda, &stats, &err), CS_OK);
    int rows[] = {0, 5, p.row_count / 2 + 1, p.row_count - 1};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; ++k)
    {
        int r = rows[k], a = p.body_a[r], b = p.body_b[r];
        int bad_a[] = {-2, p.body_count, a, a, INT32_MIN}, bad_b[] = {b, b, p.body_count, -2, b};
        for (size_t t = 0; t < sizeof bad_a / sizeof bad_a[0]; ++t)
        {
            p.body_a[r] = bad_a[t];
            p.body_b[r] = bad_b[t];
            assert_int_equal(cs_solve(&p, pgs(), &params, &work, lambda, &stats, &err), CS_ERR_USAGE);
            char expected[64];
            snprintf(expected, sizeof expected, "row %d: body index", r);
            assert_non_null(strstr(err.message, expected));
        }
        p.body_a[r] = a;
        p.body_b[r] = b;
    }
    assert_int_equal(cs_solve(&p, pgs(), &params, &work, lambda, &stats, &err), CS_OK);
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

static void test_registry(void** state)
{
    (void)state;
    assert_true(cs_solver_count() >= 1);
    for (int i = 0; i < cs_solver_count(); ++i)
    {
        const cs_solver_info* s = cs_solver_at(i);
        assert_non_null(s);
        assert_int_equal(cs_solver_find(s->name), i);
        assert_non_null(strstr(cs_solver_names(), s->name));
        assert_true(strlen(s->label) > 0 && strlen(s->description) > 0);
    }
    assert_null(cs_solver_at(cs_solver_count()));
    assert_int_equal(cs_solver_find("no-such-solver"), -1);
    cs_solver_params d = cs_solver_params_default();
    assert_int_equal(d.iterations, 10);
    assert_true(d.warm_start && d.alpha == 0.2 && d.gamma == 2.0 && d.relaxation == 1.0 && !d.amgs_literal);
    assert_true(d.tolerance == 0.0 && d.tolerance_on == CS_RES_NAT);
}

// The workspace is reused: a second solve of the same size keeps every array where it was.
static void test_work_reused(void** state)
{
    (void)state;
    cs_lcp p = {0};
    random_contacts(&p, 4, 4, true);
    cs_solver_work work = {0};
    double lambda[MAXR];
    run_pgs(&p, 3, &work, lambda);
    double* keep[6] = {work.v, work.mjt, work.diag, work.inv_diag, work.x, work.scratch};
    int bc = work.body_capacity, rc = work.row_capacity;
    p.row_count = 2;
    run_pgs(&p, 3, &work, lambda);
    double* again[6] = {work.v, work.mjt, work.diag, work.inv_diag, work.x, work.scratch};
    assert_memory_equal(keep, again, sizeof keep);
    assert_int_equal(bc, work.body_capacity);
    assert_int_equal(rc, work.row_capacity);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

// Rows with A_ii = 0 and no columns (both halves static) whose fixed w_i = b_i some impulse satisfies are
// skipped, not divided by; with Jacobian entries on immovable bodies, or a w_i = b_i < 0 no normal impulse
// can fix, the problem is refused as bad (check.c) and left at its start point.
static void test_empty_rows_skipped(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    const char* text = "circlesim-lcp 1\nbodies 2\n0 0 1 0 0\n1 1 0 -1 0\nrows 3\n"
                       "n -1 -1 0 0 0 0 0 0 0 0.5\n"
                       "n -1 -1 0 0 0 0 0 0 2 0\n"
                       "n -1 1 0 0 0 0 1 0 0 0\n";
    assert_int_equal(cs_lcp_read_string(text, "e.lcp", &p, &err), CS_OK);
    cs_solver_work work = {0};
    double lambda[3];
    cs_solver_stats stats = run_pgs(&p, 5, &work, lambda);
    assert_int_equal(stats.stop, CS_STOP_BUDGET);
    assert_true(lambda[0] == 0.5 && lambda[1] == 0.0); // untouched
    assert_true(fabs(lambda[2] - 1.0) < 1e-15);        // body 1 moving down at 1 m/s onto a floor
    assert_true(stats.res_nat < 1e-15);
    assert_true(work.inv_diag[0] == 0.0 && work.inv_diag[1] == 0.0);

    const char* bad[2] = {"circlesim-lcp 1\nbodies 2\n0 0 1 0 0\n1 1 0 -1 0\nrows 2\n"
                          "n -1 1 0 0 0 0 1 0 0 0\n"
                          "n 0 -1 -1 0 0 0 0 0 -1 0.5\n",
                          "circlesim-lcp 1\nbodies 2\n0 0 1 0 0\n1 1 0 -1 0\nrows 2\n"
                          "n -1 1 0 0 0 0 1 0 0 0\n"
                          "n -1 -1 0 0 0 0 0 0 -1 0\n"};
    for (int k = 0; k < 2; ++k)
    {
        assert_int_equal(cs_lcp_read_string(bad[k], "bad.lcp", &p, &err), CS_OK);
        stats = run_pgs(&p, 5, &work, lambda);
        assert_int_equal(stats.stop, CS_STOP_BAD_PROBLEM);
        assert_int_equal(stats.stop_row, 1);
        assert_int_equal(stats.iterations, 0);
        assert_true(lambda[0] == 0.0 && lambda[1] == (k == 0 ? 0.5 : 0.0)); // the start point
        assert_true(isfinite(stats.res_nat) && stats.res_nat > 0.5);
    }
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pgs_frictional_matches_enumeration),
        cmocka_unit_test(test_pgs_frictionless_matches_enumeration),
        cmocka_unit_test(test_pgs_iterates_match_dense_eq4),
        cmocka_unit_test(test_residuals_match_explicit_a),
        cmocka_unit_test(test_warm_start_off_starts_from_zero),
        cmocka_unit_test(test_tolerance_stops_early),
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_unknown_solver_and_bad_params),
        cmocka_unit_test(test_body_index_out_of_range),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_work_reused),
        cmocka_unit_test(test_empty_rows_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
