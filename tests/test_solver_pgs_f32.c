// pgs-f32 (src/solver/pgs_f32.c): PGS swept in single precision on the velocity deltas. What it is held to:
// the same answers as pgs (double) and as lemke (pivoting, exact) to float accuracy on frozen Pool 1 and 2
// problems, complementarity to a float tolerance, residuals that are the double problem's (so a double
// tolerance ends stagnated or at the limit, never "converged"), its lanes on the pools, the same bits with
// the vector sweeps on and off, and no allocation once its work has grown.
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "circlesim/lemke.h"
#include "solver/pgs_f32.h"
#include "solver_fixtures.h"

static int f32(void)
{
    int k = cs_solver_find("pgs-f32");
    assert_true(k >= 0);
    return k;
}

typedef struct answer
{
    double* lambda;
    double* w; // J v + b per row
    cs_solver_stats stats;
} answer;

static answer solve(const cs_lcp* p, int solver, int iterations, double tolerance, bool simd,
                    cs_solver_work* work)
{
    cs_solver_params params = cs_solver_params_default();
    params.iterations = iterations;
    params.tolerance = tolerance;
    params.simd = simd;
    answer a = {0};
    a.lambda = calloc((size_t)p->row_count + 1, sizeof(double));
    a.w = calloc((size_t)p->row_count + 1, sizeof(double));
    cs_error err = {0};
    assert_int_equal(cs_solve(p, solver, &params, work, a.lambda, &a.stats, &err), CS_OK);
    for (int i = 0; i < p->row_count; ++i)
    {
        a.w[i] = cs_lcp_row_velocity(p, work->v, i);
    }
    return a;
}

static void answer_free(answer* a)
{
    free(a->lambda);
    free(a->w);
}

static double max_abs(const double* x, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; ++i)
    {
        m = fmax(m, fabs(x[i]));
    }
    return m;
}

static double max_gap(const double* x, const double* y, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; ++i)
    {
        m = fmax(m, fabs(x[i] - y[i]));
    }
    return m;
}

// ‖min(λ, w)‖∞ over the normal rows.
static double complementarity(const cs_lcp* p, const answer* a)
{
    double c = 0.0;
    for (int i = 0; i < p->row_count; ++i)
    {
        if (p->kind[i] == CS_ROW_NORMAL)
        {
            c = fmax(c, fabs(fmin(a->lambda[i], a->w[i])));
        }
    }
    return c;
}

// The residual the solve reports is the double problem's, of the λ and v it returned, and that v is
// v* + M⁻¹Jᵀλ in double (to rounding: the write-back's sums are the packed rows', cs_lcp_velocity's its own).
static void assert_residual_honest(const cs_lcp* p, const answer* a, const cs_solver_work* work)
{
    int n = 3 * p->body_count;
    double* v = calloc((size_t)n + 3, sizeof(double));
    cs_lcp_velocity(p, a->lambda, v);
    assert_true(max_gap(v, work->v, n) <= 1e-12 * fmax(1.0, max_abs(v, n)));
    free(v);
    assert_true(a->stats.res_nat == cs_residual_nat(p, work->v, a->lambda));
    assert_true(a->stats.res_lcp == cs_residual_lcp(p, work->v, a->lambda));
}

// The largest free contact velocity |J v* + b| (λ = 0): the scale of the terms a contact velocity is summed
// from, so the scale of its rounding. A settled pile's contact velocities are all ~0 (1e-12 m/s): float
// accuracy relative to the largest of them would ask for digits no sum of 0.16 m/s terms in float has.
static double free_velocity_scale(const cs_lcp* p)
{
    int n = 3 * p->body_count;
    double* v = calloc((size_t)n + 3, sizeof(double));
    double* zero = calloc((size_t)p->row_count + 1, sizeof(double));
    cs_lcp_velocity(p, zero, v);
    double m = 0.0;
    for (int i = 0; i < p->row_count; ++i)
    {
        m = fmax(m, fabs(cs_lcp_row_velocity(p, v, i)));
    }
    free(zero);
    free(v);
    return m;
}

// Frozen Pool 1 and 2 steps, with friction: pgs-f32 and pgs after the same sweeps give the same impulses and
// contact velocities to float accuracy (relative to the largest impulse, resp. the larger of the largest
// contact velocity and the largest free one), and a residual as small as pgs's or at the float floor.
static void agrees_with_pgs_on_frozen_pools(void** state)
{
    (void)state;
    const char* scenes[] = {"scenes/pool1.json", "scenes/pool2.json"};
    const int steps[] = {20, 300};
    for (int s = 0; s < 2; ++s)
    {
        for (int k = 0; k < 2; ++k)
        {
            cs_lcp p = {0};
            cs_test_frozen_scene(scenes[s], steps[k], true, &p);
            int m = p.row_count;
            cs_solver_work wd = {0}, wf = {0};
            answer d = solve(&p, cs_solver_find("pgs"), 200, 0.0, true, &wd);
            answer f = solve(&p, f32(), 200, 0.0, true, &wf);
            assert_residual_honest(&p, &f, &wf);
            double dl = max_gap(d.lambda, f.lambda, m) / fmax(max_abs(d.lambda, m), 1e-12);
            double dw = max_gap(d.w, f.w, m) / fmax(max_abs(d.w, m), free_velocity_scale(&p));
            print_message("# %s step %d (%d rows): res_nat pgs %.2e, pgs-f32 %.2e; |Δλ|/|λ| %.2e, "
                          "|Δw|/max(|w|, |w⁰|) %.2e\n",
                          scenes[s], steps[k], m, d.stats.res_nat, f.stats.res_nat, dl, dw);
            assert_true(dl <= 1e-4);
            assert_true(dw <= 1e-4);
            // As far from the answer as pgs after as many sweeps, or at the float floor where pgs is past it.
            double floor = fmax(1.01 * d.stats.res_nat, CS_TEST_SINGLE_TOL);
            assert_true(f.stats.res_nat <= floor);
            assert_true(blcp_holds(&p, f.lambda, f.w, floor));
            answer_free(&d);
            answer_free(&f);
            cs_solver_work_free(&wd);
            cs_solver_work_free(&wf);
            cs_lcp_free(&p);
        }
    }
}

// Frictionless frozen pools (w unique): pgs-f32 to the float tolerance against lemke's exact answer, and
// complementarity min(λ, w) to the same tolerance, where float can get there (Pool 2); where it cannot
// (Pool 1), an honest stop and an answer near lemke's.
static void agrees_with_lemke_on_frozen_pools(void** state)
{
    (void)state;
    const char* scenes[] = {"scenes/pool1.json", "scenes/pool2.json"};
    for (int s = 0; s < 2; ++s)
    {
        cs_lcp p = {0};
        cs_test_frozen_scene(scenes[s], 300, false, &p);
        int m = p.row_count;
        cs_solver_work wl = {0}, wf = {0};
        double* ref = calloc((size_t)m + 1, sizeof(double));
        double* ref_w = calloc((size_t)m + 1, sizeof(double));
        cs_lemke_stats st;
        cs_error err = {0};
        assert_int_equal(cs_lemke_solve(&p, &wl, ref, &st, &err), CS_OK);
        for (int i = 0; i < m; ++i)
        {
            ref_w[i] = cs_lcp_row_velocity(&p, wl.v, i);
        }
        answer f = solve(&p, f32(), 20000, CS_TEST_SINGLE_TOL, true, &wf);
        assert_residual_honest(&p, &f, &wf);
        double dw = max_gap(f.w, ref_w, m), comp = complementarity(&p, &f);
        print_message(
            "# %s step 300 frictionless (%d rows): pgs-f32 %s in %d, res_nat %.2e; max|w - w_lemke| "
            "%.2e, complementarity %.2e\n",
            scenes[s], m, cs_solve_stop_name(f.stats.stop), f.stats.iterations, f.stats.res_nat, dw, comp);
        if (s == 1)
        {
            // Pool 2's frictionless pile is within float's reach: converged, and lemke's answer.
            assert_int_equal(f.stats.stop, CS_STOP_CONVERGED);
            assert_true(dw <= 1e-4);
            assert_true(comp <= CS_TEST_SINGLE_TOL);
        }
        else
        {
            // Pool 1's frictionless pile (steps 200-300 since the restitution pass's reach) is not: the
            // sweeps stall at res_nat 1e-5..3e-4 in float. The solver must say so, never report it converged.
            if (f.stats.stop == CS_STOP_CONVERGED)
            {
                assert_true(f.stats.res_nat <= CS_TEST_SINGLE_TOL);
                assert_true(dw <= 1e-4);
            }
            else
            {
                assert_true(f.stats.stop == CS_STOP_STAGNATED || f.stats.stop == CS_STOP_ITERATION_LIMIT);
                assert_true(f.stats.res_nat > CS_TEST_SINGLE_TOL);
            }
            assert_true(dw <= 1e-2);
        }
        answer_free(&f);
        free(ref);
        free(ref_w);
        cs_solver_work_free(&wl);
        cs_solver_work_free(&wf);
        cs_lcp_free(&p);
    }
}

// A double tolerance is out of its reach: the status says so (stagnated or the limit, with the reason),
// never "converged", and the residual it reports is the one of what it returned.
static void a_double_tolerance_is_reported_missed(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_test_frozen_scene("scenes/pool1.json", 300, true, &p);
    cs_solver_work work = {0};
    answer f = solve(&p, f32(), 3000, 1e-12, true, &work);
    print_message("# pool1 step 300, tolerance 1e-12: %s after %d, res_nat %.2e\n",
                  cs_solve_stop_name(f.stats.stop), f.stats.iterations, f.stats.res_nat);
    assert_true(f.stats.stop == CS_STOP_STAGNATED || f.stats.stop == CS_STOP_ITERATION_LIMIT);
    assert_non_null(strstr(f.stats.stop_reason, "single precision"));
    assert_true(f.stats.res_nat > 1e-12);
    assert_residual_honest(&p, &f, &work);
    answer_free(&f);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

// The lanes carry the pools' sweeps (rows in eight- and four-pair items), and the result has the bits of the
// one-row-at-a-time float sweep, on frozen problems from warm and cold starts.
static void lanes_cover_the_pools_with_the_scalar_bits(void** state)
{
    (void)state;
    if (!cs_solver_simd_available())
    {
        print_message("# no AVX2 here: nothing to compare\n");
        return;
    }
    const char* scenes[] = {"scenes/pool1.json", "scenes/pool2.json", "scenes/stacking150.json"};
    for (int s = 0; s < 3; ++s)
    {
        cs_lcp p = {0};
        cs_test_frozen_scene(scenes[s], 120, true, &p);
        int m = p.row_count;
        for (int warm = 0; warm < 2; ++warm)
        {
            if (!warm)
            {
                memset(p.lambda0, 0, (size_t)m * sizeof(double));
            }
            cs_solver_work on = {0}, off = {0};
            answer a = solve(&p, f32(), 37, 0.0, true, &on);
            answer b = solve(&p, f32(), 37, 0.0, false, &off);
            assert_memory_equal(a.lambda, b.lambda, (size_t)m * sizeof(double));
            assert_memory_equal(on.v, off.v, 3 * (size_t)p.body_count * sizeof(double));
            cs_f32_state st = cs_pgs_f32_state(&p, &on);
            int eight = 0, four = 0;
            for (int k = 0; k < st.item_count; ++k)
            {
                eight += st.item[k].quad >= 0 && st.item[k].count == 16 ? 16 : 0;
                four += st.item[k].quad >= 0 && st.item[k].count == 8 ? 8 : 0;
            }
            print_message("# %s step 120: %d rows, %d in eight lanes, %d in four\n", scenes[s], m, eight,
                          four);
            assert_true(eight > m / 2 && eight + four > 8 * m / 10);
            assert_int_equal(cs_pgs_f32_state(&p, &off).item_count, 0);
            answer_free(&a);
            answer_free(&b);
            cs_solver_work_free(&on);
            cs_solver_work_free(&off);
        }
        cs_lcp_free(&p);
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(agrees_with_pgs_on_frozen_pools),
        cmocka_unit_test(agrees_with_lemke_on_frozen_pools),
        cmocka_unit_test(a_double_tolerance_is_reported_missed),
        cmocka_unit_test(lanes_cover_the_pools_with_the_scalar_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
