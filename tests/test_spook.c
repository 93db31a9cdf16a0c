// The SPOOK formulation (docs/PHYSICS.md "Position correction"): regularised, stabilised rows
// (Lacoursière's eqs. (1)-(3)) that every registered solver runs on, and whose position correction is made
// of impulses, so momentum is kept.
#include "test_support.h"

#include "circlesim/lcp_fclib.h"

#include <math.h>
#include <string.h>

// A colliding cluster overlapping by 3 cm, well past the slop: SPOOK pushes it apart with contact impulses,
// at a point both lever arms reach, so P and L stay constant to rounding at every step, with friction
// and without (the split formulation moves bodies without impulses: test_conservation.c).
static void spook_cluster_keeps_momenta_while_correcting(void** state)
{
    (void)state;
    for (int f = 0; f < 2; ++f)
    {
        cs_world_def def = cs_world_def_default();
        def.gravity = (cs_vec2){0, 0};
        def.formulation = CS_FORMULATION_SPOOK;
        cs_error err;
        cs_world* w = cs_world_create(&def, &err);
        assert_non_null(w);
        uint64_t seed = 99;
        for (int i = 0; i < 49; ++i)
        {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(seed >> 11) / 9007199254740992.0;
            double x = 3.0 + (i % 7) * 0.37, y = 1.0 + (i / 7) * 0.37;
            cs_test_add_disc(w, (cs_vec2){x, y}, (cs_vec2){-(x - 4.1) * 0.3, -(y - 2.1) * 0.3},
                             2.0 * (u - 0.5), 0.2, 1.0 + 2.0 * u, f == 0 ? 0.0 : 0.5, 0.2);
        }
        double L0 = 0.0, scale = 0.0, max_pen0 = 0.0;
        for (int s = 0; s < 120; ++s)
        {
            double L = 0.0, px = 0.0, py = 0.0;
            double La = 0.0, pxa = 0.0, pya = 0.0;
            for (int pass = 0; pass < 2; ++pass)
            {
                double l = 0.0, x = 0.0, y = 0.0, sc = 0.0;
                for (int i = 0; i < cs_world_body_count(w); ++i)
                {
                    cs_body_state b = cs_world_body(w, i);
                    double I = 0.5 * b.mass * b.radius * b.radius;
                    x += b.mass * b.velocity.x;
                    y += b.mass * b.velocity.y;
                    l += b.mass * (b.position.x * b.velocity.y - b.position.y * b.velocity.x) +
                         I * b.angular_velocity;
                    sc += b.mass * hypot(b.velocity.x, b.velocity.y) * hypot(b.position.x, b.position.y) +
                          I * fabs(b.angular_velocity);
                }
                if (pass == 0)
                {
                    La = l, pxa = x, pya = y;
                    scale = s == 0 ? sc : scale;
                    L0 = s == 0 ? l : L0;
                    assert_int_equal(cs_world_step(w), CS_OK);
                    max_pen0 = s == 0 ? cs_world_stats(w)->max_penetration : max_pen0;
                }
                else
                {
                    L = l, px = x, py = y;
                }
            }
            assert_near(L, La, 1e-12 * scale);
            assert_near(px, pxa, 1e-12 * scale);
            assert_near(py, pya, 1e-12 * scale);
        }
        (void)L0;
        assert_true(max_pen0 > 0.02);                           // it started deep in overlap
        assert_true(cs_world_stats(w)->max_penetration < 0.01); // and was pushed out
        cs_world_destroy(w);
    }
}

// A SPOOK world's frozen problem carries the regularisation; every registered solver converges on it to
// the same solution (natural residual of (A + Σ)λ + q, and λ against PGS run long).
static void every_solver_runs_on_spook_rows(void** state)
{
    (void)state;
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/stacking.json"), &info, &err);
    assert_non_null(w);
    assert_true(cs_world_set_formulation(w, CS_FORMULATION_SPOOK));
    for (int s = 0; s < 120; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    const cs_lcp* p = cs_world_last_problem(w);
    assert_non_null(p->reg);
    int soft = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        soft += p->reg[i] > 0.0 ? 1 : 0;
    }
    assert_true(soft >= 29); // the stack's touching contacts
    static double reference[4096], lambda[4096];
    assert_true(p->row_count <= 4096);
    cs_solver_work work = {0};
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 20000;
    cs_solver_stats stats;
    assert_int_equal(cs_solve(p, cs_solver_find("pgs"), &params, &work, reference, &stats, &err), CS_OK);
    assert_true(stats.res_nat < 1e-9);
    // Every method is run and every failure printed before the test fails, so that one run names them all.
    int failed = 0;
    for (int k = 0; k < cs_solver_count(); ++k)
    {
        params = cs_solver_params_default();
        params.iterations = 20000;
        cs_status st = cs_solve(p, k, &params, &work, lambda, &stats, &err);
        if (st == CS_ERR_USAGE && strstr(err.message, "limit") != NULL)
        {
            continue; // a dense method's size limit
        }
        const char* name = cs_solver_at(k)->name;
        if (st != CS_OK)
        {
            print_error("%s on SPOOK rows: %s\n", name, err.message);
            failed += 1;
            continue;
        }
        if (!(stats.res_nat < cs_test_tolerance(k, 1e-8)))
        {
            print_error("%s on SPOOK rows: res_nat %g after %d iterations (%s)\n", name, stats.res_nat,
                        stats.iterations, cs_solve_stop_name(stats.stop));
            failed += 1;
            continue;
        }
        for (int i = 0; i < p->row_count; ++i)
        {
            if (fabs(lambda[i] - reference[i]) > cs_test_gap(k, 1e-6) * (1.0 + fabs(reference[i])))
            {
                print_error("%s on SPOOK rows: lambda[%d] = %.12g, pgs %.12g\n", name, i, lambda[i],
                            reference[i]);
                failed += 1;
                break;
            }
        }
    }
    assert_int_equal(failed, 0);
    // The regularisation goes into LCP-FORMAT version 2's "reg" section and comes back bit for bit.
    const char* path = cs_test_temp_path(".lcp");
    assert_int_equal(cs_lcp_write(p, path, &err), CS_OK);
    cs_lcp back = {0};
    assert_int_equal(cs_lcp_read(path, &back, &err), CS_OK);
    assert_non_null(back.reg);
    cs_test_assert_problems_equal(p, &back);
    cs_lcp_free(&back);
    // FCLIB has no field for it: the export refuses rather than drop it.
    assert_int_equal(cs_lcp_write_fclib(p, cs_test_temp_path(".hdf5"), true, &err), CS_ERR_VALUE);
    assert_non_null(strstr(err.message, "regularised"));
    cs_solver_work_free(&work);
    cs_world_destroy(w);
}

// The scene key and its errors (FILE:LINE:COL: key: message).
// At rest a SPOOK contact is the paper's spring: ελ = −(4Υ/h)(gap + slop) with λ = m g h per step and
// ε = 4Υ/(h² k) gives a penetration of slop + m g / k (docs/PHYSICS.md), for each stiffness and damping time.
static void spook_rest_penetration_is_the_spring(void** state)
{
    (void)state;
    const double ks[] = {3e4, 1e5}, taus[] = {0.05, 0.1};
    for (int k = 0; k < 2; ++k)
    {
        cs_world_def def = cs_world_def_default();
        def.formulation = CS_FORMULATION_SPOOK;
        def.spook_stiffness = ks[k];
        def.spook_damping_time = taus[k];
        cs_error err;
        cs_world* w = cs_world_create(&def, &err);
        assert_non_null(w);
        assert_true(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.3, 0.0, &err) >= 0);
        const double r = 0.25, m = 2.0;
        int id = cs_test_add_disc(w, (cs_vec2){0, r}, (cs_vec2){0, 0}, 0.0, r, m, 0.3, 0.0);
        for (int s = 0; s < 600; ++s)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
        }
        double expected = def.linear_slop + m * -def.gravity.y / ks[k];
        assert_near(r - cs_world_body(w, id).position.y, expected, 1e-6 * expected);
        cs_world_destroy(w);
    }
}

// The SPOOK row as PHYSICS.md writes it, replayed by hand for one disc pressed 5 mm into the floor: per step
// v* = v − h g, the row w = v*_n + λ/m + b + ελ ≥ 0 ⟂ λ ≥ 0 with b = (4Υ/h)(gap + slop) − Υ·vn₀ (vn₀ the
// normal velocity before the forces), ε = 4Υ/(h² k), Υ = 1/(1 + 4τ/h); then v = v* + λ/m and y += h v. The
// world must follow it to rounding over the whole damped rise (it stays in contact): every constant of the
// row, the damping term included, is pinned (the rest test above sees only ε).
static void spook_row_follows_the_documented_recursion(void** state)
{
    (void)state;
    const double taus[] = {0.05, 0.1};
    for (int t = 0; t < 2; ++t)
    {
        cs_world_def def = cs_world_def_default();
        def.formulation = CS_FORMULATION_SPOOK;
        def.spook_damping_time = taus[t];
        cs_error err;
        cs_world* w = cs_world_create(&def, &err);
        assert_non_null(w);
        assert_true(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.3, 0.0, &err) >= 0);
        const double r = 0.25, m = 2.0, h = def.time_step, g = -def.gravity.y, slop = def.linear_slop;
        const double ups = 1.0 / (1.0 + 4.0 * def.spook_damping_time / h);
        const double eps = 4.0 * ups / (h * h * def.spook_stiffness);
        double y = r - 0.005, v = 0.0;
        int id = cs_test_add_disc(w, (cs_vec2){0, y}, (cs_vec2){0, v}, 0.0, r, m, 0.3, 0.0);
        for (int s = 0; s < 120; ++s)
        {
            double gap = y - r;
            assert_true(gap < 0.0); // touching throughout: a SPOOK row every step
            double vstar = v - h * g;
            double bias = 4.0 * ups / h * (gap + slop) - ups * v;
            double lambda = fmax(0.0, -(vstar + bias) / (1.0 / m + eps));
            v = vstar + lambda / m;
            y += h * v;
            assert_int_equal(cs_world_step(w), CS_OK);
            cs_body_state b = cs_world_body(w, id);
            assert_near(b.velocity.y, v, 1e-12);
            assert_near(b.position.y, y, 1e-12);
        }
        cs_world_destroy(w);
    }
}

static void scene_key_formulation(void** state)
{
    (void)state;
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load_string(
        "{\"world\": {\"formulation\": \"spook\", \"spook_stiffness\": 2e5, \"spook_damping_time\": 0.1}, "
        "\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1}]}",
        "spook.json", &info, &err);
    assert_non_null(w);
    const cs_world_def* d = cs_world_get_def(w);
    assert_int_equal(d->formulation, CS_FORMULATION_SPOOK);
    assert_true(d->spook_stiffness == 2e5 && d->spook_damping_time == 0.1);
    cs_world_destroy(w);
    assert_null(
        cs_scene_load_string("{\"world\": {\"formulation\": \"baumgarte\"}, \"bodies\": [{\"position\": "
                             "[0, 1], \"radius\": 0.5, \"mass\": 1}]}",
                             "bad.json", &info, &err));
    assert_non_null(strstr(err.message, "bad.json:1:"));
    assert_non_null(strstr(err.message, "unknown formulation \"baumgarte\" (split, spook, soft, relax)"));
    assert_null(cs_scene_load_string("{\"world\": {\"spook_stiffness\": 0}, \"bodies\": [{\"position\": [0, "
                                     "1], \"radius\": 0.5, \"mass\": 1}]}",
                                     "bad.json", &info, &err));
    assert_non_null(strstr(err.message, "spook_stiffness"));
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spook_cluster_keeps_momenta_while_correcting),
        cmocka_unit_test(every_solver_runs_on_spook_rows),
        cmocka_unit_test(spook_rest_penetration_is_the_spring),
        cmocka_unit_test(spook_row_follows_the_documented_recursion),
        cmocka_unit_test(scene_key_formulation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
