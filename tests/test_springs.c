// Spring joints (issue 16): a distance joint made soft by SPOOK's regularisation, in the same box LCP as
// every other row. Checked against the closed forms of a mass on a spring: period 2π√(m/k) within 1 % for
// every registered solver, the damped decay (logarithmic decrement 2πζ/√(1 − ζ²)), the static deflection
// m g / k, and by frequency (Box2D v3's hertz and damping ratio); the exported LCP holds the soft row.
#include "test_support.h"

#include <stdio.h>
#include <string.h>

static const double pi = 3.14159265358979323846;
static const double h = 1.0 / 60.0;

static cs_world* world_with(int solver, double gravity)
{
    cs_world_def def = cs_world_def_default();
    def.solver = solver;
    def.gravity = (cs_vec2){0.0, -gravity};
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    return w;
}

// A body of mass m hung from the world at the origin on a spring of rest length L, released at y0.
static int hang(cs_world* w, double m, double L, double y0, const cs_distance_joint_def* spring)
{
    int body = cs_test_add(w, CS_BODY_DYNAMIC, 0.0, y0, 0.05, m);
    cs_distance_joint_def j = *spring;
    j.body_a = -1;
    j.body_b = body;
    j.length = L;
    cs_error err;
    if (cs_world_add_distance_joint(w, &j, &err) < 0)
    {
        fail_msg("%s", err.message);
    }
    return body;
}

// The oscillation of the stretch x = |p| − L − x_eq about the equilibrium: mean period from upward zero
// crossings (interpolated) over `periods` periods, and the peaks of x (one per period).
typedef struct oscillation
{
    double period;
    double peaks[64];
    int peak_count;
} oscillation;

static oscillation watch(cs_world* w, int body, double L, double x_eq, int periods)
{
    oscillation o;
    memset(&o, 0, sizeof o);
    double prev = 0.0, t = 0.0, first = -1.0, last = -1.0, peak = 0.0;
    int crossings = 0;
    bool started = false;
    while (crossings < periods)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        t += h;
        cs_body_state s = cs_world_body(w, body);
        double x = hypot(s.position.x, s.position.y) - L - x_eq;
        peak = fmax(peak, x);
        if (started && prev < 0.0 && x >= 0.0)
        {
            double tc = t - h * x / (x - prev);
            if (first < 0.0)
            {
                first = tc;
            }
            else
            {
                crossings += 1;
                last = tc;
            }
        }
        if (started && prev >= 0.0 && x < 0.0 && o.peak_count < 64)
        {
            o.peaks[o.peak_count++] = peak; // the largest stretch of the half period above equilibrium
            peak = 0.0;
        }
        started = true;
        prev = x;
        assert_true(t < 120.0);
    }
    o.period = (last - first) / crossings;
    return o;
}

// Undamped, k = 50 N/m, m = 2 kg (T = 2π√(m/k) = 1.2566 s, 75 steps), released 0.1 m stretched: the
// period within 1 % and the amplitude kept within 1 % over ten periods, for every registered solver (the
// spring is a row of the problem each of them solves).
static void period_every_solver(void** state)
{
    (void)state;
    const double m = 2.0, k = 50.0, L = 1.0, x0 = 0.1;
    const double period = 2.0 * pi * sqrt(m / k);
    cs_distance_joint_def spring = cs_distance_joint_def_default();
    spring.stiffness = k;
    for (int s = 0; s < cs_solver_count(); ++s)
    {
        cs_world* w = world_with(s, 0.0);
        int body = hang(w, m, L, -(L + x0), &spring);
        oscillation o = watch(w, body, L, 0.0, 10);
        printf("  %-14s period %.5f s (closed form %.5f), amplitude %.5f .. %.5f m (released at %.3f)\n",
               cs_solver_at(s)->name, o.period, period, o.peaks[1], o.peaks[o.peak_count - 1], x0);
        assert_near(o.period, period, 0.01 * period);
        for (int i = 1; i < o.peak_count; ++i)
        {
            assert_near(o.peaks[i], x0, 0.01 * x0);
        }
        cs_world_destroy(w);
    }
}

// Logarithmic decrement of peaks one period apart, averaged.
static double decrement(const oscillation* o)
{
    assert_true(o->peak_count >= 4);
    return log(o->peaks[1] / o->peaks[o->peak_count - 1]) / (o->peak_count - 2);
}

// Damped, by k and c (ζ = c / 2√(km) = 0.1) with gravity: the equilibrium stretch m g / k within 0.5 %,
// the damped period 2π/(ω√(1 − ζ²)) within 1 % and the decrement 2πζ/√(1 − ζ²) within 3 %.
static void damped_by_stiffness(void** state)
{
    (void)state;
    const double m = 2.0, k = 50.0, L = 1.0, zeta = 0.1, g = 9.80665;
    const double omega = sqrt(k / m), x_eq = m * g / k;
    cs_distance_joint_def spring = cs_distance_joint_def_default();
    spring.stiffness = k;
    spring.damping = 2.0 * zeta * sqrt(k * m);
    cs_world* w = world_with(cs_solver_find("pgs"), g);
    int body = hang(w, m, L, -(L + x_eq + 0.1), &spring);
    oscillation o = watch(w, body, L, x_eq, 6);
    double period = 2.0 * pi / (omega * sqrt(1.0 - zeta * zeta));
    double delta = 2.0 * pi * zeta / sqrt(1.0 - zeta * zeta);
    printf("  damped: period %.5f s (closed form %.5f), decrement %.5f (closed form %.5f)\n", o.period,
           period, decrement(&o), delta);
    assert_near(o.period, period, 0.01 * period);
    assert_near(decrement(&o), delta, 0.03 * delta);
    for (int s = 0; s < 1200; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    cs_body_state b = cs_world_body(w, body);
    assert_near(-b.position.y - L, x_eq, 0.005 * x_eq);
    assert_near(cs_world_joint(w, 0).impulse, -m * g * h, 1e-6);
    cs_world_destroy(w);
}

// By frequency: f = 1.5 Hz, ζ = 0.05, on bodies of 0.5 and 20 kg — the same period 1/(f√(1 − ζ²)) within
// 1 % and decrement within 3 % whatever the mass (k follows the row's effective mass).
static void damped_by_frequency(void** state)
{
    (void)state;
    const double f = 1.5, zeta = 0.05, L = 0.5;
    cs_distance_joint_def spring = cs_distance_joint_def_default();
    spring.hertz = f;
    spring.damping_ratio = zeta;
    const double masses[2] = {0.5, 20.0};
    for (int i = 0; i < 2; ++i)
    {
        cs_world* w = world_with(cs_solver_find("amgs"), 0.0);
        int body = hang(w, masses[i], L, -(L + 0.05), &spring);
        oscillation o = watch(w, body, L, 0.0, 6);
        double period = 1.0 / (f * sqrt(1.0 - zeta * zeta));
        double delta = 2.0 * pi * zeta / sqrt(1.0 - zeta * zeta);
        assert_near(o.period, period, 0.01 * period);
        assert_near(decrement(&o), delta, 0.03 * delta);
        cs_world_destroy(w);
    }
}

// A rope spring (a bungee) pulls when stretched and never pushes: compressed, it is slack.
static void bungee_only_pulls(void** state)
{
    (void)state;
    cs_distance_joint_def spring = cs_distance_joint_def_default();
    spring.stiffness = 50.0;
    spring.rope = true;
    cs_world* w = world_with(cs_solver_find("pgs"), 0.0);
    int body = hang(w, 2.0, 1.0, -0.5, &spring); // 0.5 m shorter than its rest length
    assert_true(cs_world_set_body_velocity(w, body, (cs_vec2){0.0, -0.3}, 0.0));
    for (int s = 0; s < 30; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        assert_near(cs_world_body(w, body).velocity.y, -0.3, 1e-12); // slack: free flight
        assert_true(cs_world_joint(w, 0).impulse == 0.0);
    }
    for (int s = 0; s < 300; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        assert_true(cs_world_joint(w, 0).impulse <= 0.0);
    }
    // It went taut, stopped the body and pulled it back (a spring: past its rest length, then slack again).
    assert_true(cs_world_body(w, body).position.y > -1.5);
    cs_world_destroy(w);
}

// The velocity problem carries the soft row: a box row with reg = Σ = 4Υ/(h²k), Υ = 1/(1 + 4τ/h), τ = c/k,
// next to hard contact rows (reg 0); the exported file (LCP-FORMAT version 2) gives it back bit for bit;
// a world without springs exports version 1 as before.
static void exported_problem_holds_the_spring(void** state)
{
    (void)state;
    const double k = 400.0, c = 8.0;
    cs_distance_joint_def spring = cs_distance_joint_def_default();
    spring.stiffness = k;
    spring.damping = c;
    cs_world* w = world_with(cs_solver_find("pgs"), 9.80665);
    cs_error err;
    assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){0, -3}, (cs_vec2){0, 1}, 0.5, 0.0, &err), 0);
    cs_test_add(w, CS_BODY_DYNAMIC, 1.0, -3.0 + 0.2, 0.2, 1.0); // resting on the ground: contact rows
    hang(w, 1.0, 1.0, -1.1, &spring);
    for (int s = 0; s < 3; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    const cs_lcp* p = cs_world_last_problem(w);
    assert_int_equal(p->row_count, 3); // normal + friction + the spring
    assert_non_null(p->reg);
    double upsilon = 1.0 / (1.0 + 4.0 * (c / k) / h);
    assert_int_equal(p->kind[2], CS_ROW_BOX);
    assert_near(p->reg[2], 4.0 * upsilon / (h * h * k), 1e-12 * p->reg[2]);
    assert_true(p->reg[0] == 0.0 && p->reg[1] == 0.0);
    const char* path = cs_test_temp_path(".lcp");
    assert_int_equal(cs_lcp_write(p, path, &err), CS_OK);
    cs_lcp back = {0};
    assert_int_equal(cs_lcp_read(path, &back, &err), CS_OK);
    cs_test_assert_problems_equal(p, &back);
    // Solving the file gives the world's λ (the same problem, the same method).
    cs_world_destroy(w);
    cs_lcp_free(&back);

    cs_world* hard = world_with(cs_solver_find("pgs"), 9.80665);
    cs_distance_joint_def rod = cs_distance_joint_def_default();
    hang(hard, 1.0, 1.0, -1.0, &rod);
    assert_int_equal(cs_world_step(hard), CS_OK);
    assert_null(cs_world_last_problem(hard)->reg);
    path = cs_test_temp_path(".lcp");
    assert_int_equal(cs_lcp_write(cs_world_last_problem(hard), path, &err), CS_OK);
    char text[64] = "";
    FILE* f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "circlesim-lcp 1\n");
    cs_world_destroy(hard);
}

// Version 2's reg section: malformed ones are refused with the line and a reason.
static void reg_section_errors(void** state)
{
    (void)state;
    static const char* head = "circlesim-lcp %d\nbodies 1\n1 1 0 0 0\nrows 2\n"
                              "n -1 0 0 0 0 0 1 0 0 0\nf -1 0 0 0 0 1 0 0 0 0 0 0.5\n%s";
    struct
    {
        int version;
        const char* tail;
        const char* message;
    } cases[] = {
        {2, "reg 1\n0 0.25\n", NULL},
        {1, "reg 1\n0 0.25\n", "trailing garbage 'reg'"},
        {2, "reg 1\n1 0.25\n", ":8: row 1: a friction row cannot be regularised"},
        {2, "reg 1\n0 0\n", ":8: row 0: reg must be > 0"},
        {2, "reg 2\n0 0.25\n0 0.5\n", ":9: row 0: listed twice"},
        {2, "reg 1\n2 0.25\n", ":8:"},
        {2, "reg 2\n0 0.25\n", "reg lines"},
        {3, "", "unsupported version '3' (this reader knows versions 1 to 2)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    {
        char text[512];
        snprintf(text, sizeof text, head, cases[i].version, cases[i].tail);
        cs_lcp p = {0};
        cs_error err = {CS_OK, ""};
        cs_status st = cs_lcp_read_string(text, "soft.lcp", &p, &err);
        if (cases[i].message == NULL)
        {
            assert_int_equal(st, CS_OK);
            assert_true(p.reg != NULL && p.reg[0] == 0.25 && p.reg[1] == 0.0);
        }
        else
        {
            assert_int_not_equal(st, CS_OK);
            if (strstr(err.message, cases[i].message) == NULL)
            {
                fail_msg("case %zu: '%s' does not contain '%s'", i, err.message, cases[i].message);
            }
        }
        cs_lcp_free(&p);
    }
}

// Bad spring fields are value errors from the API and located errors from scene files.
static void bad_springs_refused(void** state)
{
    (void)state;
    cs_world* w = world_with(cs_solver_find("pgs"), 0.0);
    int body = cs_test_add(w, CS_BODY_DYNAMIC, 0.0, -1.0, 0.05, 1.0);
    cs_distance_joint_def bad[5];
    for (int i = 0; i < 5; ++i)
    {
        bad[i] = cs_distance_joint_def_default();
        bad[i].body_b = body;
    }
    bad[0].hertz = -1.0;
    bad[1].stiffness = NAN;
    bad[2].hertz = 2.0, bad[2].stiffness = 10.0;
    bad[3].damping_ratio = 0.5;
    bad[4].damping = 1.0;
    for (int i = 0; i < 5; ++i)
    {
        cs_error err;
        assert_int_equal(cs_world_add_distance_joint(w, &bad[i], &err), -1);
        assert_int_equal(err.status, CS_ERR_VALUE);
    }
    assert_int_equal(cs_world_joint_count(w), 0);
    cs_world_destroy(w);

    struct
    {
        const char* joint;
        const char* message;
    } cases[] = {
        {"\"hertz\": -2", "spring.json:1:111: joints[0].hertz:"},
        {"\"hertz\": 2, \"stiffness\": 10", "joints[0].stiffness: a spring is given by \"hertz\" or by"},
        {"\"damping_ratio\": 0.3", "joints[0].damping_ratio: \"damping_ratio\" needs \"hertz\" > 0"},
        {"\"stiffness\": 10, \"damping\": -1", "joints[0].damping:"},
        {"\"damping\": 1", "joints[0].damping: \"damping\" needs \"stiffness\" > 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"bodies\": [{\"position\": [0, -1], \"radius\": 0.1, \"mass\": 1}], \"joints\": "
                 "[{\"body_a\": -1, \"body_b\": 0, %s}]}",
                 cases[i].joint);
        cs_error err;
        cs_scene_info info;
        assert_null(cs_scene_load_string(text, "spring.json", &info, &err));
        if (strstr(err.message, cases[i].message) == NULL)
        {
            fail_msg("case %zu: '%s' does not contain '%s'", i, err.message, cases[i].message);
        }
    }
    cs_error err;
    cs_scene_info info;
    cs_world* ok =
        cs_scene_load_string("{\"bodies\": [{\"position\": [0, -1], \"radius\": 0.1, \"mass\": 1}], "
                             "\"joints\": [{\"body_a\": -1, \"body_b\": 0, \"hertz\": 2, "
                             "\"damping_ratio\": 0.7}]}",
                             "spring.json", &info, &err);
    assert_non_null(ok);
    assert_true(cs_world_joint(ok, 0).spring);
    cs_world_destroy(ok);
}

// A stiffness that is finite and > 0 but so small that the spring's regularisation 4Υ/(h²k) overflows (the
// fuzzer's 1e-320 N/m) is refused by the step itself, in the rows phase, with the world's health saying
// where, and the step undone — not handed to the solver, which refused it as a malformed problem
// (CS_ERR_USAGE) while the health still said ok.
static void too_soft_a_spring_refuses_the_step(void** state)
{
    (void)state;
    cs_world* w = world_with(cs_solver_find("pgs"), 9.81);
    cs_distance_joint_def spring = cs_distance_joint_def_default();
    spring.stiffness = 1e-320;
    int body = hang(w, 1.0, 1.0, -0.9, &spring);
    cs_body_state before = cs_world_body(w, body);
    assert_int_equal(cs_world_step(w), CS_ERR_VALUE);
    const cs_health* hl = cs_world_health(w);
    assert_false(hl->ok);
    assert_int_equal(hl->phase, CS_PHASE_ROWS);
    assert_int_equal(hl->body, body);
    assert_int_equal(hl->step, 1);
    assert_non_null(strstr(cs_world_last_error(w), "step 1: rows: body 0: row 0: regularisation inf"));
    cs_body_state after = cs_world_body(w, body);
    assert_memory_equal(&before, &after, sizeof before); // undone: the last good state stays
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(period_every_solver),
        cmocka_unit_test(damped_by_stiffness),
        cmocka_unit_test(damped_by_frequency),
        cmocka_unit_test(bungee_only_pulls),
        cmocka_unit_test(exported_problem_holds_the_spring),
        cmocka_unit_test(reg_section_errors),
        cmocka_unit_test(bad_springs_refused),
        cmocka_unit_test(too_soft_a_spring_refuses_the_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
