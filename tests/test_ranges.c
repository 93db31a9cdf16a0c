// Sane ranges and the world's health (docs/RELIABILITY.md): out-of-range values fail at load with a
// located message, extreme-but-valid ones load with a warning, the public API refuses what would turn into
// NaN later, and a step that would produce a non-finite or exploding value is refused, says where, and
// leaves the last good state.
#include "test_support.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#include "world/world_internal.h"

// Loads text; expects failure with a message containing each of the NULL-terminated parts.
static void expect_load_error(const char* text, const char* const* parts)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load_string(text, "t.json", NULL, &err);
    if (w != NULL)
    {
        cs_world_destroy(w);
        fail_msg("loaded: %s", text);
    }
    for (int k = 0; parts[k] != NULL; ++k)
    {
        if (strstr(err.message, parts[k]) == NULL)
        {
            fail_msg("'%s' lacks '%s'", err.message, parts[k]);
        }
    }
}

static void out_of_range_values_fail_at_their_key(void** state)
{
    (void)state;
    const char* const radius[] = {"t.json:1:44: bodies[0].radius: must be in [1e-06, 1e+06] m, got 1e+308",
                                  NULL};
    expect_load_error("{\"bodies\": [{\"position\": [0, 0], \"radius\": 1e308, \"mass\": 1}]}", radius);
    const char* const tiny[] = {"bodies[0].radius", "got 5e-324", NULL};
    expect_load_error("{\"bodies\": [{\"position\": [0, 0], \"radius\": 5e-324, \"mass\": 1}]}", tiny);
    const char* const mass[] = {"bodies[0].mass", "[1e-12, 1e+12] kg", NULL};
    expect_load_error("{\"bodies\": [{\"position\": [0, 0], \"radius\": 1, \"mass\": 1e-308}]}", mass);
    const char* const speed[] = {"bodies[0].velocity", "m/s, got 1e+300", NULL};
    expect_load_error(
        "{\"bodies\": [{\"position\": [0, 0], \"radius\": 1, \"mass\": 1, \"velocity\": [0, 1e300]}]}",
        speed);
    const char* const spin[] = {"bodies[0].angular_velocity", "rad/s", NULL};
    expect_load_error(
        "{\"bodies\": [{\"position\": [0, 0], \"radius\": 1, \"mass\": 1, \"angular_velocity\": 1e308}]}",
        spin);
    const char* const gravity[] = {"t.json:1:23: world.gravity", "m/s^2, got -1e+308", NULL};
    expect_load_error(
        "{\"world\": {\"gravity\": [0, -1e308]}, \"bodies\": [{\"position\": [0, 0], \"radius\": 1, "
        "\"mass\": 1}]}",
        gravity);
    const char* const h[] = {"world.time_step", "[1e-06, 1] s", NULL};
    expect_load_error("{\"world\": {\"time_step\": 1e-300}, \"bodies\": [{\"position\": [0, 0], \"radius\": "
                      "1, \"mass\": 1}]}",
                      h);
    const char* const alpha[] = {"solver.alpha", "got 1e+308", NULL};
    expect_load_error("{\"solver\": {\"name\": \"amgs\", \"alpha\": 1e308}, \"bodies\": [{\"position\": [0, "
                      "0], \"radius\": 1, \"mass\": 1}]}",
                      alpha);
    // 1e300 m from the origin: a double resolves 2e284 m there.
    const char* const far[] = {"bodies[0].position", "[-1e+12, 1e+12] m", NULL};
    expect_load_error("{\"bodies\": [{\"position\": [1e300, 0], \"radius\": 1, \"mass\": 1}]}", far);
    // Within the coordinate range but 1e13 radii out: too coarse for the radius.
    const char* const coarse[] = {"bodies[0].position", "radii from the origin", NULL};
    expect_load_error("{\"bodies\": [{\"position\": [1e7, 0], \"radius\": 1e-6, \"mass\": 1}]}", coarse);
    const char* const wall[] = {"walls[0].point", "got 1e+308", NULL};
    expect_load_error("{\"walls\": [{\"type\": \"half_plane\", \"point\": [0, 1e308], \"normal\": [0, 1]}], "
                      "\"bodies\": [{\"position\": [0, 0], \"radius\": 1, \"mass\": 1}]}",
                      wall);
    const char* const seg[] = {"walls[0].p1", NULL};
    expect_load_error("{\"walls\": [{\"type\": \"segment\", \"p0\": [0, 0], \"p1\": [-1e308, 1]}], "
                      "\"bodies\": [{\"position\": [0, 0], \"radius\": 1, \"mass\": 1}]}",
                      seg);
    // A generator's computed value is located at the generator, naming the body and field.
    const char* const grid[] = {"generators[0]: body 1: position", NULL};
    expect_load_error(
        "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 2, \"rows\": 1, "
        "\"spacing\": [2e12, 1], \"radius\": 1, \"mass\": 1}]}",
        grid);
}

static void extreme_but_valid_values_warn(void** state)
{
    (void)state;
    cs_error err = {CS_OK, ""};
    cs_scene_info info;
    const char* text = "{\"bodies\": [\n"
                       "  {\"position\": [0, 0], \"radius\": 1, \"mass\": 1},\n"
                       "  {\"position\": [0, 2], \"radius\": 1, \"mass\": 1e4},\n"
                       "  {\"position\": [3e7, 0], \"radius\": 1, \"mass\": 1}]}";
    cs_world* w = cs_scene_load_string(text, "t.json", &info, &err);
    assert_non_null(w);
    assert_int_equal(info.warning_count, 2);
    // In file order: the far body as it is added, the mass ratio once all are.
    assert_non_null(
        strstr(info.warnings[0], "t.json:4:16: bodies[2].position: warning: body 2 is 3e+07 radii"));
    assert_non_null(strstr(info.warnings[1],
                           "t.json:3:45: bodies[1].mass: warning: a mass of 10000 kg is 1e+04 "
                           "times the lightest (1 kg, bodies[0])"));
    cs_world_destroy(w);
    // Below both thresholds: no warning.
    w = cs_scene_load_string("{\"bodies\": [{\"position\": [9e6, 0], \"radius\": 1, \"mass\": 1}, "
                             "{\"position\": [0, 0], \"radius\": 1, \"mass\": 999}]}",
                             "t.json", &info, &err);
    assert_non_null(w);
    assert_int_equal(info.warning_count, 0);
    cs_world_destroy(w);
    // The CLI prints them on stderr and runs.
    const char* path = cs_test_write_temp(".json", text);
    char args[1024];
    snprintf(args, sizeof args, "run %s --steps 2 --quiet", path);
    cs_test_cli_expect(args, 0, "warning: a mass of 10000 kg");
}

static void public_api_refuses_what_would_become_nan(void** state)
{
    (void)state;
    cs_error err = {CS_OK, ""};
    cs_world_def def = cs_world_def_default();
    def.gravity.y = -1e308;
    assert_null(cs_world_create(&def, &err));
    assert_non_null(strstr(err.message, "world: world.gravity: must be in"));
    def = cs_world_def_default();
    def.solver_params.alpha = 1e308;
    assert_null(cs_world_create(&def, &err));
    assert_non_null(strstr(err.message, "solver.alpha"));

    cs_world* w = cs_world_create(NULL, &err);
    assert_non_null(w);
    const double bad_radius[] = {1e308, 1e-308, 5e-324, 0.0, -1.0};
    for (size_t k = 0; k < sizeof bad_radius / sizeof bad_radius[0]; ++k)
    {
        cs_circle_def c = cs_circle_def_default();
        c.radius = bad_radius[k];
        assert_int_equal(cs_world_add_circle(w, &c, &err), -1);
        assert_non_null(strstr(err.message, "circle: radius: must be in"));
    }
    const double bad_mass[] = {1e308, 1e-308, 5e-324};
    for (size_t k = 0; k < sizeof bad_mass / sizeof bad_mass[0]; ++k)
    {
        cs_circle_def c = cs_circle_def_default();
        c.mass = bad_mass[k];
        assert_int_equal(cs_world_add_circle(w, &c, &err), -1);
        assert_non_null(strstr(err.message, "circle: mass:"));
    }
    cs_circle_def c = cs_circle_def_default();
    c.angular_velocity = 1e308;
    assert_int_equal(cs_world_add_circle(w, &c, &err), -1);
    assert_non_null(strstr(err.message, "angular_velocity"));
    c = cs_circle_def_default();
    c.position.x = -1e308;
    assert_int_equal(cs_world_add_circle(w, &c, &err), -1);
    cs_vec2 p0 = {0, 0}, p1 = {1e308, 0}, n = {0, 1};
    assert_int_equal(cs_world_add_segment(w, p0, p1, 0.1, 0.2, &err), -1);
    assert_non_null(strstr(err.message, "segment: end point: must be in"));
    assert_int_equal(cs_world_add_half_plane(w, p1, n, 0.1, 0.2, &err), -1);
    assert_int_equal(cs_world_body_count(w), 0);
    assert_int_equal(cs_world_wall_count(w), 0);
    // Setters refuse, changing nothing.
    cs_solver_params params = *cs_world_solver_params(w);
    params.alpha = 1e308;
    assert_false(cs_world_set_solver_params(w, &params));
    assert_true(cs_world_solver_params(w)->alpha == cs_solver_params_default().alpha);
    params.alpha = 0.5;
    assert_true(cs_world_set_solver_params(w, &params));
    assert_true(cs_world_solver_params(w)->alpha == 0.5);
    c = cs_circle_def_default();
    assert_int_equal(cs_world_add_circle(w, &c, &err), 0);
    cs_vec2 fast = {1e300, 0.0}, slow = {1.0, 0.0};
    assert_false(cs_world_set_body_velocity(w, 0, fast, 0.0));
    assert_false(cs_world_set_body_velocity(w, 0, slow, 1e308));
    assert_true(cs_world_body(w, 0).velocity.x == 0.0);
    assert_true(cs_world_set_body_velocity(w, 0, slow, 0.0));
    assert_true(cs_world_body(w, 0).velocity.x == 1.0);
    cs_world_destroy(w);
}

// A velocity that a force blows past the explode limit: the step is refused, says which body, step and
// phase, and the state stays that of the step before, bit for bit.
static void a_bad_step_is_refused_and_located(void** state)
{
    (void)state;
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_world_create(NULL, &err);
    assert_non_null(w);
    cs_circle_def c = cs_circle_def_default();
    assert_int_equal(cs_world_add_circle(w, &c, &err), 0);
    c.position.x = 5.0;
    assert_int_equal(cs_world_add_circle(w, &c, &err), 1);
    for (int s = 0; s < 3; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        assert_true(cs_world_health(w)->ok);
    }
    uint64_t before = cs_world_hash(w);
    cs_vec2 huge = {0.0, 1e300}; // finite, but h f / m is far beyond any speed
    cs_world_set_body_force(w, 1, huge);
    assert_int_equal(cs_world_step(w), CS_ERR_VALUE);
    const cs_health* hl = cs_world_health(w);
    assert_false(hl->ok);
    assert_int_equal(hl->step, 4);
    assert_int_equal(hl->phase, CS_PHASE_FORCES);
    assert_int_equal(hl->body, 1);
    assert_string_equal(cs_world_last_error(w), hl->message);
    assert_non_null(strstr(hl->message, "step 4: forces: body 1: v* vy = "));
    assert_int_equal(cs_world_hash(w), before);
    assert_int_equal(cs_world_stats(w)->step, 3);
    // Cleared, the world steps on from the kept state.
    cs_world_clear_forces(w);
    assert_int_equal(cs_world_step(w), CS_OK);
    assert_true(cs_world_health(w)->ok);
    assert_int_equal(cs_world_stats(w)->step, 4);
    cs_world_destroy(w);
}

// Each phase is named where its bad value first appears (values planted in the world's arrays, as a bug
// in that phase would leave them).
static cs_world* resting_pair(void)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_world_create(NULL, &err);
    cs_vec2 floor_p = {0, 0}, up = {0, 1};
    assert_true(cs_world_add_half_plane(w, floor_p, up, 0.5, 0.0, &err) >= 0);
    cs_circle_def c = cs_circle_def_default();
    c.position.y = 0.5;
    assert_int_equal(cs_world_add_circle(w, &c, &err), 0);
    c.position.x = 3.0;
    assert_int_equal(cs_world_add_circle(w, &c, &err), 1);
    for (int s = 0; s < 10; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    return w;
}

static void expect_phase(cs_world* w, cs_step_phase phase, int body, const char* text)
{
    uint64_t before = cs_world_hash(w);
    if (cs_world_step(w) != CS_ERR_VALUE)
    {
        fail_msg("expected %s to be refused", text);
    }
    const cs_health* hl = cs_world_health(w);
    if (hl->phase != phase || hl->body != body || strstr(hl->message, text) == NULL)
    {
        fail_msg("expected %s, body %d, '%s'; got '%s'", cs_step_phase_name(phase), body, text, hl->message);
    }
    assert_int_equal(cs_world_hash(w), before);
    cs_world_destroy(w);
}

static void each_phase_is_named(void** state)
{
    (void)state;
    cs_world* w = resting_pair();
    w->radius[1] = NAN; // the body's reach
    expect_phase(w, CS_PHASE_BROADPHASE, 1, "step 11: broad phase: body 1: reach = nan");
    w = resting_pair();
    w->previous.items[0].normal_impulse = NAN; // last step's impulse: this step's warm start
    w->contacts.items[0].normal_impulse = NAN;
    expect_phase(w, CS_PHASE_ROWS, 0, "step 11: rows: body 0: row 0: ");
    w = resting_pair();
    cs_world_set_solver(w, cs_solver_find("amgs"));
    w->def.solver_params.alpha = 1e308; // what --alpha 1e308 used to reach (the setter refuses it now)
    // AMGS's begin refuses coefficients that overflow before any sweep: the step fails, saying why, and
    // the world is unchanged (before that check the NaN was caught here as "solve: body 0: row 0").
    uint64_t before = cs_world_hash(w);
    assert_int_equal(cs_world_step(w), CS_ERR_USAGE);
    assert_non_null(strstr(cs_world_last_error(w), "overflow its coefficients"));
    assert_int_equal(cs_world_hash(w), before);
    cs_world_destroy(w);
    w = resting_pair();
    w->px[0] = 1e14 - 1e5; // moving at 9.9e7 m/s: the next position is past 1e14 m
    w->v[0] = 9.9e7;
    expect_phase(w, CS_PHASE_INTEGRATE, 0, "step 11: integrate: body 0: position (1e+14, 0.5)");
    assert_string_equal(cs_step_phase_name(CS_PHASE_ROWS), "rows");
    assert_string_equal(cs_step_phase_name(CS_PHASE_POSITION), "position");
}

// The CLI exits 1 with the located message, also with --quiet.
static void cli_reports_the_refused_step(void** state)
{
    (void)state;
    const char* path = cs_test_write_temp(
        ".json", "{\"world\": {\"gravity\": [0, -1e6]}, \"bodies\": [{\"position\": [0, 0], \"radius\": 0.5, "
                 "\"mass\": 1, \"velocity\": [0, -1e6]}]}");
    char args[1024];
    snprintf(args, sizeof args, "run %s --steps 10000 --quiet", path);
    cs_test_cli_expect(args, 1, ": forces: body 0: v* vy = -1e+08");
}

static void cli_options_are_range_checked(void** state)
{
    (void)state;
    const char* pool = cs_test_source_path("scenes/pool1.json");
    char args[2048];
    const char* bad[] = {"--alpha 1e308",      "--alpha 0",      "--gamma 1e308", "--relaxation 2",
                         "--relaxation 1e308", "--relaxation 0", "--alpha 1e999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k)
    {
        snprintf(args, sizeof args, "run %s --steps 1 %s", pool, bad[k]);
        cs_test_cli_expect(args, 2, "expected a number in");
    }
    snprintf(args, sizeof args, "run %s --dump-lcp 99999999999999999999:x.lcp", pool);
    cs_test_cli_expect(args, 2, "--dump-lcp: expected STEP:FILE with STEP in [1, 1000000000]");
    const char* out = cs_test_temp_path(".csv");
    snprintf(args, sizeof args, "run %s --steps 1 --csv %s --state-out %s", pool, out, out);
    cs_test_cli_expect(args, 2, "--csv and --state-out both write");
    snprintf(args, sizeof args, "converge %s --at-step 2 --tol 1e-3 --csv %s --history %s", pool, out, out);
    cs_test_cli_expect(args, 2, "--csv and --history both write");
    snprintf(args, sizeof args, "lcp solve %s --out %s --history %s", pool, out, out);
    cs_test_cli_expect(args, 2, "--out and --history both write");
    snprintf(args, sizeof args, "run %s --steps 0", pool);
    cs_test_cli_expect(args, 0, "bodies       221");
}

// Files with finite but extreme numbers: a clear error, never a .sol of NaN or an info of inf.
static void extreme_lcp_files_are_refused(void** state)
{
    (void)state;
    const char* cases[] = {
        // inverse masses 5e-324: A_ii denormal, 1/A_ii = inf
        "circlesim-lcp 1\nbodies 2\n5e-324 5e-324 0 0 0\n5e-324 5e-324 0 -1 0\nrows 1\nn 0 1 0 -1 0 0 1 0 0 "
        "0\n",
        // a Jacobian of 1e308: A_ii overflows
        "circlesim-lcp 1\nbodies 2\n1 1 0 0 0\n1 1 0 -1 0\nrows 1\nn 0 1 0 -1e308 0 0 1e308 0 0 0\n",
        // a bias of 1e300 over A_ii = 2: an impulse beyond 1e150
        "circlesim-lcp 1\nbodies 2\n1 1 0 0 0\n1 1 0 -1 0\nrows 1\nn 0 1 0 -1 0 0 1 0 -1e300 0\n",
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
    {
        const char* lcp = cs_test_write_temp(".lcp", cases[k]);
        const char* sol = cs_test_temp_path(".sol");
        char args[1024];
        snprintf(args, sizeof args, "lcp solve %s --out %s", lcp, sol);
        cs_test_cli_expect(args, 1, "row 0: ");
        FILE* f = fopen(sol, "r");
        assert_null(f);
        snprintf(args, sizeof args, "lcp info %s", lcp);
        cs_test_cli_expect(args, 1, "beyond");
    }
    // An empty problem (0 bodies, 0 rows) is solved by every solver (amgs-dense copied from NULL: the ASan
    // build's UBSan run of this test holds it).
    const char* empty = cs_test_write_temp(".lcp", "circlesim-lcp 1\nbodies 0\nrows 0\n");
    for (int k = 0; k < cs_solver_count(); ++k)
    {
        char args[1024];
        snprintf(args, sizeof args, "lcp solve %s --solver %s", empty, cs_solver_at(k)->name);
        cs_test_cli_expect(args, 0, "iterations=");
    }
    cs_test_cli_expect("lcp info /dev/urandom", 1, "/dev/urandom: byte");
    cs_test_cli_expect("lcp solve /dev/zero", 1, "/dev/zero: byte 1 is NUL: not a text file");
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(out_of_range_values_fail_at_their_key),
        cmocka_unit_test(extreme_but_valid_values_warn),
        cmocka_unit_test(public_api_refuses_what_would_become_nan),
        cmocka_unit_test(a_bad_step_is_refused_and_located),
        cmocka_unit_test(each_phase_is_named),
        cmocka_unit_test(cli_reports_the_refused_step),
        cmocka_unit_test(cli_options_are_range_checked),
        cmocka_unit_test(extreme_lcp_files_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
