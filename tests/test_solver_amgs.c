// AMGS (amgs, amgs-omega, amgs-dense): identities with PGS, the interior over-relaxation factor and the
// clipped part's coefficient, agreement with dense transcriptions of the paper's Methods 2.2/3.1 written
// here, convergence on frictional problems and the literal Method 3.2's wrong fixed point. Theorem 4.2:
// test_solver_amgs_theorem.c. Derivations: docs/amgs.md.
#include "solver_fixtures.h"

static double max_abs(const double* a, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; ++i)
    {
        m = fmax(m, fabs(a[i]));
    }
    return m;
}

// |a − b| ≤ tol·(|b| + scale) entrywise: relative, with the vector's own scale as the floor so that
// entries that are (near) zero compare at rounding level of the whole vector.
static void assert_close(const double* a, const double* b, int n, double tol, const char* what, int k)
{
    double scale = fmax(max_abs(b, n), 1e-300);
    for (int i = 0; i < n; ++i)
    {
        if (!(fabs(a[i] - b[i]) <= tol * (fabs(b[i]) + scale)))
        {
            print_error("%s, k=%d, row %d: %.17g vs %.17g\n", what, k, i, a[i], b[i]);
            fail();
        }
    }
}

// Same iterates as `pgs`, sweep by sweep, for k = 1..20 (λ after k sweeps and the residual
// history), when α, γ give αγ = 1 (docs/amgs.md (b): the update is then algebraically PGS).
static void check_same_as_pgs(bool friction, double alpha, double gamma)
{
    for (int trial = 0; trial < 20; ++trial)
    {
        cs_lcp p = {0};
        random_contacts(&p, 3, 1 + rng_int(4), friction);
        int m = p.row_count;
        cs_solver_params params = cs_solver_params_default();
        params.alpha = alpha;
        params.gamma = gamma;
        cs_solver_work wp = {0}, wa = {0};
        cs_error err = {0};
        assert_int_equal(cs_solver_work_set_history(&wp, true, 20, &err), CS_OK);
        assert_int_equal(cs_solver_work_set_history(&wa, true, 20, &err), CS_OK);
        double lp[MAXR], la[MAXR];
        for (int k = 1; k <= 20; ++k)
        {
            cs_solver_stats sp = solve_k(&p, "pgs", params, k, &wp, lp);
            cs_solver_stats sa = solve_k(&p, "amgs", params, k, &wa, la);
            assert_close(la, lp, m, 1e-12, "lambda", k);
            assert_int_equal(sp.history_count, sa.history_count);
            assert_close(wa.history_nat, wp.history_nat, sp.history_count, 1e-12, "history_nat", k);
            assert_close(wa.history_lcp, wp.history_lcp, sp.history_count, 1e-12, "history_lcp", k);
            assert_close(wa.v, wp.v, 3 * p.body_count, 1e-12, "v", k);
        }
        cs_solver_work_free(&wp);
        cs_solver_work_free(&wa);
        cs_lcp_free(&p);
    }
}

static void test_amgs_half_is_pgs_frictionless(void** state)
{
    (void)state;
    check_same_as_pgs(false, 0.5, 2.0);
}

static void test_amgs_half_is_pgs_frictional(void** state)
{
    (void)state;
    check_same_as_pgs(true, 0.5, 2.0);
}

// αγ = 1 with γ ≠ 2 is PGS too: the identity is about αγ, not about γ = 2.
static void test_amgs_alpha_gamma_one_is_pgs(void** state)
{
    (void)state;
    check_same_as_pgs(true, 0.25, 4.0);
    check_same_as_pgs(false, 2.0, 0.5);
}

// docs/amgs.md (c): for a row that starts and ends strictly inside its box (x⁰ = (γ/2)λ⁰ so
// e = 0), one AMGS update is λ_new = λ − ω w/A_ii with ω = 2/(1+αγ). Checked row by row in the
// first sweep against w_i formed from the explicit A (Gauss-Seidel: new λ_j for j < i).
static void test_interior_over_relaxation_factor(void** state)
{
    (void)state;
    const double alphas[] = {0.2, 0.5, 1.0, 2.0};
    const double gammas[] = {2.0, 1.0};
    int checked = 0;
    for (int g = 0; g < 2; ++g)
    {
        for (int a = 0; a < 4; ++a)
        {
            double omega = 2.0 / (1.0 + alphas[a] * gammas[g]);
            for (int trial = 0; trial < 30; ++trial)
            {
                cs_lcp p = {0};
                random_contacts(&p, 3, 1 + rng_int(4), false);
                int m = p.row_count;
                for (int i = 0; i < m; ++i)
                {
                    p.lambda0[i] = rng_uniform(0.5, 2.0); // strictly inside [0, ∞)
                }
                double A[MAXR][MAXR], q[MAXR], lambda[MAXR];
                dense_problem(&p, A, q);
                cs_solver_params params = cs_solver_params_default();
                params.alpha = alphas[a];
                params.gamma = gammas[g];
                cs_solver_work work = {0};
                solve_k(&p, "amgs", params, 1, &work, lambda);
                for (int i = 0; i < m; ++i)
                {
                    double w = q[i];
                    for (int j = 0; j < m; ++j)
                    {
                        w += A[i][j] * (j < i ? lambda[j] : p.lambda0[j]);
                    }
                    if (lambda[i] <= 0.0)
                    {
                        continue; // hit the bound: not the interior case
                    }
                    double measured = (p.lambda0[i] - lambda[i]) * A[i][i] / w;
                    if (fabs(w) > 1e-3)
                    {
                        assert_true(fabs(measured - omega) <= 1e-9 * omega);
                        checked += 1;
                    }
                }
                cs_solver_work_free(&work);
                cs_lcp_free(&p);
            }
        }
    }
    assert_true(checked >= 100);
    // The default α = 0.2, γ = 2 over-relaxes by 2/1.4.
    assert_true(fabs(2.0 / (1.0 + 0.2 * 2.0) - 1.4285714285714286) < 1e-15);
}

// Where PGS converges on a frictional problem, amgs (default α = 0.2) and amgs-omega converge to
// res_nat < 1e-10 and reach the same velocities (v = v* + M⁻¹Jᵀλ; λ is unique for SPD A with a
// unique BLCP solution, so v is too).
static void test_amgs_converges_frictional(void** state)
{
    (void)state;
    int compared = 0, amgs_failed = 0, omega_failed = 0;
    for (int trial = 0; trial < 150; ++trial)
    {
        cs_lcp p = {0};
        random_contacts(&p, 2 + rng_int(3), 1 + rng_int(4), true);
        double A[MAXR][MAXR], q[MAXR], unique[MAXR];
        dense_problem(&p, A, q);
        if (enumerate_solutions(&p, A, q, unique) != 1)
        {
            cs_lcp_free(&p);
            continue;
        }
        cs_solver_params params = cs_solver_params_default();
        params.iterations = 20000;
        params.tolerance = 1e-12;
        cs_solver_work wp = {0}, wa = {0}, wo = {0};
        double lp[MAXR], la[MAXR], lo[MAXR];
        cs_solver_stats sp = solve_k(&p, "pgs", params, 20000, &wp, lp);
        if (sp.res_nat < 1e-10)
        {
            cs_solver_stats sa = solve_k(&p, "amgs", params, 20000, &wa, la);
            cs_solver_stats so = solve_k(&p, "amgs-omega", params, 20000, &wo, lo);
            amgs_failed += !(sa.res_nat < 1e-10);
            omega_failed += !(so.res_nat < 1e-10);
            if (sa.res_nat < 1e-10)
            {
                assert_close(wa.v, wp.v, 3 * p.body_count, 1e-8, "v amgs vs pgs", trial);
            }
            if (so.res_nat < 1e-10)
            {
                assert_close(wo.v, wp.v, 3 * p.body_count, 1e-8, "v amgs-omega vs pgs", trial);
            }
            compared += 1;
        }
        cs_solver_work_free(&wp);
        cs_solver_work_free(&wa);
        cs_solver_work_free(&wo);
        cs_lcp_free(&p);
    }
    print_message("frictional: %d problems, amgs failed %d, amgs-omega failed %d\n", compared, amgs_failed,
                  omega_failed);
    assert_true(compared >= 100);
    assert_int_equal(amgs_failed, 0);
    assert_int_equal(omega_failed, 0);
}

// One disc on a static floor sliding sideways at 0.1 m/s: the solution sticks with a NEGATIVE
// tangential impulse λ_t = −0.1 inside the cone |λ_t| ≤ 0.5·λ_n. The two-sided AMGS finds it.
// The literal Method 3.2 keeps the one-sided −2Ω x₋ term, so while x_t < 0 inside the box its
// update is x ← x − γ/(A(1+αγ))·(A(2/γ)x + q + 2αA x) = −x − γq/(A(1+αγ)): multiplier exactly −1
// for every α, γ (docs/amgs.md). It never converges; it alternates between two points forever,
// symmetric about the spurious fixed point λ_t = −q/(A(1+αγ)) = −0.1/1.4 (α = 0.2, γ = 2).
static void test_literal_method_32_fails_on_negative_friction(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    const char* text = "circlesim-lcp 1\nbodies 1\n1 2 0.1 -1 0\nrows 2\n"
                       "n -1 0  0 0 0  0 1 0  0 0\n"
                       "f -1 0  0 0 0  1 0 0  0 0  0 0.5\n";
    assert_int_equal(cs_lcp_read_string(text, "slide.lcp", &p, &err), CS_OK);
    cs_solver_params params = cs_solver_params_default();
    cs_solver_work work = {0};
    double lambda[2], odd[2];

    cs_solver_stats good = solve_k(&p, "amgs", params, 2000, &work, lambda);
    assert_true(good.res_nat < 1e-12);
    assert_true(fabs(lambda[0] - 1.0) < 1e-12 && fabs(lambda[1] + 0.1) < 1e-12);

    params.amgs_literal = true;
    cs_solver_stats even_stats = solve_k(&p, "amgs", params, 2000, &work, lambda);
    cs_solver_stats odd_stats = solve_k(&p, "amgs", params, 2001, &work, odd);
    print_message("literal Method 3.2 after 2000/2001 sweeps: lambda_t = %.6f / %.6f, res_nat = %.3e / %.3e "
                  "(two-sided AMGS: lambda_t = -0.1, res_nat %.1e)\n",
                  lambda[1], odd[1], even_stats.res_nat, odd_stats.res_nat, good.res_nat);
    assert_true(fabs(lambda[0] - 1.0) < 1e-12 && fabs(odd[0] - 1.0) < 1e-12); // normal row: Method 3.1
    // Period 2: the two points are γ|q|/(A(1+αγ))·(2/γ) = 0.2/1.4 apart, centred on −0.1/1.4.
    assert_true(fabs(fabs(lambda[1] - odd[1]) - 0.2 / 1.4) < 1e-9);
    assert_true(fabs(0.5 * (lambda[1] + odd[1]) + 0.1 / 1.4) < 1e-9);
    assert_true(even_stats.res_nat > 0.04 && odd_stats.res_nat > 0.04);
    // A positive sticking impulse is fine for the literal method: only the negative half of the box
    // is mistaken for "below zero".
    p.v[0] = -0.1;
    cs_solver_stats pos = solve_k(&p, "amgs", params, 2000, &work, lambda);
    assert_true(pos.res_nat < 1e-12 && fabs(lambda[1] - 0.1) < 1e-12);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

// amgs-dense (Method 2.2 on the explicit A) and amgs (velocity form) produce the same iterates.
static void test_dense_matches_velocity_form(void** state)
{
    (void)state;
    const double alphas[] = {0.2, 0.7};
    for (int trial = 0; trial < 20; ++trial)
    {
        for (int f = 0; f < 2; ++f)
        {
            cs_lcp p = {0};
            random_contacts(&p, 3, f ? 1 + rng_int(4) : 1 + rng_int(6), f == 1);
            cs_solver_params params = cs_solver_params_default();
            params.alpha = alphas[trial % 2];
            cs_solver_work wd = {0}, wa = {0};
            double ld[MAXR], la[MAXR];
            for (int k = 1; k <= 20; ++k)
            {
                solve_k(&p, "amgs-dense", params, k, &wd, ld);
                solve_k(&p, "amgs", params, k, &wa, la);
                assert_close(ld, la, p.row_count, 1e-12, f ? "dense frictional" : "dense", k);
                assert_close(wd.x, wa.x, p.row_count, 1e-12, "x", k);
            }
            cs_solver_work_free(&wd);
            cs_solver_work_free(&wa);
            cs_lcp_free(&p);
        }
    }
}

// amgs-omega against Method 3.1 / 2.2 transcribed on the explicit A with Ω = ω̄E,
// ω̄ = mean(A_ii)/γ, exactly as printed: x_i ← x_i − γ/(A_ii+γΩ_ii)(Σ A_ij λ_j + q_i − 2Ω_ii (x₋)_i),
// λ_i = (2/γ) max(0, x_i).
static void test_amgs_omega_matches_method_31(void** state)
{
    (void)state;
    const double gammas[] = {2.0, 1.0, 3.0};
    for (int trial = 0; trial < 30; ++trial)
    {
        cs_lcp p = {0};
        random_contacts(&p, 3, 1 + rng_int(6), false);
        int m = p.row_count;
        double A[MAXR][MAXR], q[MAXR];
        dense_problem(&p, A, q);
        double gamma = gammas[trial % 3];
        double omega_bar = 0.0;
        for (int i = 0; i < m; ++i)
        {
            omega_bar += A[i][i];
        }
        omega_bar /= m * gamma;
        double x[MAXR], lambda[MAXR], got[MAXR];
        for (int i = 0; i < m; ++i)
        {
            lambda[i] = p.lambda0[i];
            x[i] = 0.5 * gamma * lambda[i];
        }
        cs_solver_params params = cs_solver_params_default();
        params.gamma = gamma;
        cs_solver_work work = {0};
        for (int k = 1; k <= 20; ++k)
        {
            for (int i = 0; i < m; ++i)
            {
                double s = q[i];
                for (int j = 0; j < m; ++j)
                {
                    s += A[i][j] * lambda[j];
                }
                double x_minus = x[i] < 0.0 ? -x[i] : 0.0;
                x[i] -= gamma / (A[i][i] + gamma * omega_bar) * (s - 2.0 * omega_bar * x_minus);
                lambda[i] = 2.0 / gamma * (x[i] > 0.0 ? x[i] : 0.0);
            }
            solve_k(&p, "amgs-omega", params, k, &work, got);
            assert_close(got, lambda, m, 1e-12, "amgs-omega", k);
            assert_close(work.x, x, m, 1e-12, "amgs-omega x", k);
        }
        cs_solver_work_free(&work);
        cs_lcp_free(&p);
    }
}

// docs/amgs.md (c): on a clipped row the cut-off part e = y − λ is carried with the coefficient ω − 1
// (not 1 − ω): y⁺ = λ − ω w/A_ii + (ω − 1)e. One box row, A = 1, q = −5, bounds [−1, 1], cold start: the
// first sweep overshoots to y¹ = 5ω > 1 and clips to λ¹ = 1; the second sweep's y² is checked against the
// formula with w¹ = λ¹ + q, for an over- and an under-relaxing α.
static void test_clipped_part_coefficient(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_read_string("circlesim-lcp 1\nbodies 1\n1 1 -5 0 0\nrows 1\n"
                                        "c 0 -1 1 0 0 0 0 0 0 0 -1 1\n",
                                        "box.lcp", &p, &err),
                     CS_OK);
    const double alphas[] = {0.2, 2.0};
    for (int a = 0; a < 2; ++a)
    {
        cs_solver_params params = cs_solver_params_default();
        params.alpha = alphas[a];
        params.warm_start = false;
        double gamma = params.gamma, omega = 2.0 / (1.0 + params.alpha * gamma);
        cs_solver_work work = {0};
        double lambda[1];
        solve_k(&p, "amgs", params, 1, &work, lambda);
        double y1 = (2.0 / gamma) * work.x[0];
        assert_near(y1, 5.0 * omega, 1e-12);
        double l1 = lambda[0], e1 = y1 - l1, w1 = l1 - 5.0;
        assert_true(fabs(e1) > 0.1); // clipped
        solve_k(&p, "amgs", params, 2, &work, lambda);
        double y2 = (2.0 / gamma) * work.x[0];
        assert_near(y2, l1 - omega * w1 + (omega - 1.0) * e1, 1e-12);
        assert_true(fabs(y2 - (l1 - omega * w1 + (1.0 - omega) * e1)) > 0.1); // the printed sign is wrong
        cs_solver_work_free(&work);
    }
    cs_lcp_free(&p);
}

static void test_warm_start_through_lambda(void** state)
{
    (void)state;
    cs_lcp p = {0};
    random_contacts(&p, 3, 3, true);
    cs_solver_params params = cs_solver_params_default();
    params.gamma = 3.0;
    cs_solver_work work = {0};
    double lambda[MAXR];
    solve_k(&p, "amgs", params, 0, &work, lambda);
    for (int i = 0; i < p.row_count; ++i)
    {
        assert_true(lambda[i] == p.lambda0[i]);
        assert_true(work.x[i] == 1.5 * p.lambda0[i]); // x⁰ = (γ/2)λ⁰
    }
    // Switching solver mid-run: PGS for 50 sweeps, then AMGS from PGS's λ continues to converge.
    cs_lcp mid = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_copy(&mid, &p, &err), CS_OK);
    cs_solver_stats s1 = solve_k(&p, "pgs", params, 50, &work, lambda);
    memcpy(mid.lambda0, lambda, (size_t)p.row_count * sizeof(double));
    cs_solver_stats s2 = solve_k(&mid, "amgs", params, 1, &work, lambda);
    assert_true(s2.res_nat < 10.0 * s1.res_nat + 1e-12); // no restart from zero
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
    cs_lcp_free(&mid);
}

static void test_bad_parameters(void** state)
{
    (void)state;
    cs_lcp p = {0};
    random_contacts(&p, 2, 1, false);
    cs_solver_work work = {0};
    double lambda[MAXR];
    cs_solver_stats stats;
    cs_error err = {0};
    const char* names[] = {"amgs", "amgs-omega", "amgs-dense"};
    for (int n = 0; n < 3; ++n)
    {
        cs_solver_params params = cs_solver_params_default();
        params.gamma = 0.0;
        assert_int_equal(cs_solve(&p, solver(names[n]), &params, &work, lambda, &stats, &err), CS_ERR_USAGE);
        params = cs_solver_params_default();
        params.alpha = -1.0;
        cs_status s = cs_solve(&p, solver(names[n]), &params, &work, lambda, &stats, &err);
        assert_int_equal(s, n == 1 ? CS_OK : CS_ERR_USAGE); // amgs-omega does not use α
    }
    assert_true(cs_solver_at(solver("amgs-dense"))->flags & CS_SOLVER_DENSE);
    assert_true(cs_solver_at(solver("amgs"))->flags & CS_SOLVER_USES_ALPHA);
    assert_false(cs_solver_at(solver("amgs-omega"))->flags & CS_SOLVER_USES_ALPHA);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_amgs_half_is_pgs_frictionless),
        cmocka_unit_test(test_amgs_half_is_pgs_frictional),
        cmocka_unit_test(test_amgs_alpha_gamma_one_is_pgs),
        cmocka_unit_test(test_interior_over_relaxation_factor),
        cmocka_unit_test(test_amgs_converges_frictional),
        cmocka_unit_test(test_literal_method_32_fails_on_negative_friction),
        cmocka_unit_test(test_dense_matches_velocity_form),
        cmocka_unit_test(test_amgs_omega_matches_method_31),
        cmocka_unit_test(test_clipped_part_coefficient),
        cmocka_unit_test(test_warm_start_through_lambda),
        cmocka_unit_test(test_bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
