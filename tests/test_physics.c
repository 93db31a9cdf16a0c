// Closed-form physics checks on tiny worlds built through the public API.
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double pi = 3.14159265358979323846;

static cs_world* make_world(cs_vec2 gravity)
{
    cs_world_def def = cs_world_def_default();
    def.gravity = gravity;
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    return w;
}

static int add_disc(cs_world* w, double x, double y, double vx, double vy, double r, double m, double mu,
                    double e)
{
    return cs_test_add_disc(w, (cs_vec2){x, y}, (cs_vec2){vx, vy}, 0.0, r, m, mu, e);
}

// A disc released on a segment ramp of angle theta.
static void incline(double theta, double mu, double* accel, double* slip)
{
    cs_world* w = make_world((cs_vec2){0.0, -9.80665});
    cs_error err;
    double dx = cos(theta), dy = -sin(theta);
    assert_true(cs_world_add_segment(w, (cs_vec2){0, 0}, (cs_vec2){40 * dx, 40 * dy}, mu, 0.0, &err) >= 0);
    double nx = -dy, ny = dx; // left normal of the ramp: pointing up, out of it
    double r = 0.25;
    int id = add_disc(w, 1.0 * dx + r * nx, 1.0 * dy + r * ny, 0.0, 0.0, r, 2.0, mu, 0.0);
    double t1 = 0, t2 = 0, v1 = 0, v2 = 0;
    for (int s = 1; s <= 90; ++s)
    {
        cs_world_step(w);
        cs_body_state b = cs_world_body(w, id);
        double v = b.velocity.x * dx + b.velocity.y * dy;
        if (s == 30)
        {
            t1 = cs_world_stats(w)->time;
            v1 = v;
        }
        if (s == 90)
        {
            t2 = cs_world_stats(w)->time;
            v2 = v;
            // Speed of the contact point along the ramp: v + ω r for a disc touching below its centre.
            *slip = v + b.angular_velocity * r;
        }
    }
    *accel = (v2 - v1) / (t2 - t1);
    cs_world_destroy(w);
}

static void incline_rolls_without_slipping(void** state)
{
    (void)state;
    const double g = 9.80665;
    const double thetas[] = {pi / 12, pi / 6, pi / 4};
    for (int k = 0; k < 3; ++k)
    {
        double th = thetas[k];
        double mu = tan(th) / 3.0 * 1.5; // comfortably above the rolling threshold tanθ/3
        double a, slip;
        incline(th, mu, &a, &slip);
        double expected = 2.0 / 3.0 * g * sin(th);
        assert_near(a, expected, 0.01 * expected);
        assert_true(fabs(slip) < 1e-3);
    }
}

static void incline_slides_below_threshold(void** state)
{
    (void)state;
    const double g = 9.80665;
    const double thetas[] = {pi / 6, pi / 4};
    for (int k = 0; k < 2; ++k)
    {
        double th = thetas[k];
        double mu = tan(th) / 3.0 * 0.5; // below the threshold: it must slide
        double a, slip;
        incline(th, mu, &a, &slip);
        double expected = g * (sin(th) - mu * cos(th));
        assert_near(a, expected, 0.01 * expected);
        assert_true(slip > 0.1); // the contact point slides down the ramp
    }
}

// One head-on elastic collision, no gravity: v1' = (m1−m2)/(m1+m2) v1, v2' = 2 m1/(m1+m2) v1.
static void head_on_elastic(double m1, double m2)
{
    cs_world* w = make_world((cs_vec2){0.0, 0.0});
    const double v1 = 3.0;
    int a = add_disc(w, -1.0, 0.0, v1, 0.0, 0.2, m1, 0.1, 1.0);
    int b = add_disc(w, 0.0, 0.0, 0.0, 0.0, 0.2, m2, 0.1, 1.0);
    for (int s = 0; s < 60; ++s)
    {
        cs_world_step(w);
    }
    double va = cs_world_body(w, a).velocity.x;
    double vb = cs_world_body(w, b).velocity.x;
    assert_near(va, (m1 - m2) / (m1 + m2) * v1, 1e-9);
    assert_near(vb, 2.0 * m1 / (m1 + m2) * v1, 1e-9);
    assert_true(fabs(cs_world_body(w, a).velocity.y) < 1e-12);
    cs_world_destroy(w);
}

static void head_on_equal_masses_exchange(void** state)
{
    (void)state;
    head_on_elastic(1.0, 1.0);
}

static void head_on_unequal_masses(void** state)
{
    (void)state;
    head_on_elastic(1.0, 3.0);
}

// A force at the centre (cs_world_set_body_force; docs/PHYSICS.md step 1: v* = v + h M⁻¹ f) acts until
// cleared, alongside gravity: after n steps v = v0 + n h (g + F/m), and with symplectic Euler the centre is
// at x0 + n h v0 + h² (g + F/m) n (n + 1) / 2. Nothing else applies a force (the viewer's spring is untested
// here).
static void body_force_accelerates_by_f_over_m(void** state)
{
    (void)state;
    const double h = 1.0 / 60.0, m = 2.0;
    const cs_vec2 g = {0.0, -1.5}, f = {3.0, 7.0}, v0 = {0.5, 0.0};
    cs_world* w = make_world(g);
    int d = add_disc(w, 0.0, 5.0, v0.x, v0.y, 0.2, m, 0.1, 0.0);
    assert_true(cs_world_set_body_force(w, d, f));
    const int n = 30;
    for (int s = 0; s < n; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    cs_body_state b = cs_world_body(w, d);
    double ax = g.x + f.x / m, ay = g.y + f.y / m, sum = 0.5 * n * (n + 1);
    assert_near(b.velocity.x, v0.x + n * h * ax, 1e-12);
    assert_near(b.velocity.y, v0.y + n * h * ay, 1e-12);
    assert_near(b.position.x, n * h * v0.x + h * h * ax * sum, 1e-12);
    assert_near(b.position.y, 5.0 + n * h * v0.y + h * h * ay * sum, 1e-12);
    // Cleared, the body flies on under gravity alone.
    cs_world_clear_forces(w);
    assert_int_equal(cs_world_step(w), CS_OK);
    assert_near(cs_world_body(w, d).velocity.x, b.velocity.x, 1e-12);
    assert_near(cs_world_body(w, d).velocity.y, b.velocity.y + h * g.y, 1e-12);
    cs_world_destroy(w);
}

// The pair material of two circles (docs/PHYSICS.md, cs_circle_def): friction sqrt(μa μb), restitution
// max(ea, eb). The scenes give every circle one material, so no other test tells these rules from a mean.
static void pair_materials_combine_as_documented(void** state)
{
    (void)state;
    const double g = 9.80665, h = 1.0 / 60.0;
    // A disc (μ 0.1) slides at 2 m/s on top of a static circle of radius 100 (μ 0.9). Resting, its normal
    // impulse is m g h per step (half that in the first, which stops only the h g / 2 of its start), so while
    // it slides (contact point speed v − ωr > 0) its speed drops by μ g h per step with μ = sqrt(0.1 · 0.9) =
    // 0.3 (a mean would give 0.5, the smaller 0.1): measured between steps 2 and 6.
    cs_world* w = make_world((cs_vec2){0.0, -g});
    cs_circle_def ground = cs_circle_def_default();
    ground.position = (cs_vec2){0.0, -100.0};
    ground.radius = 100.0;
    ground.friction = 0.9;
    ground.type = CS_BODY_STATIC;
    cs_error err;
    assert_true(cs_world_add_circle(w, &ground, &err) >= 0);
    int d = add_disc(w, 0.0, 0.2, 2.0, 0.5 * g * h, 0.2, 1.0, 0.1, 0.0); // at rest vertically (mean velocity)
    double v2 = 0.0;
    for (int s = 1; s <= 6; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        v2 = s == 2 ? cs_world_body(w, d).velocity.x : v2;
    }
    cs_body_state b = cs_world_body(w, d);
    assert_true(b.velocity.x - fabs(b.angular_velocity) * 0.2 > 0.5); // still sliding
    double mu = (v2 - b.velocity.x) / (4.0 * g * h);
    assert_near(mu, sqrt(0.1 * 0.9), 0.01 * sqrt(0.1 * 0.9));
    cs_world_destroy(w);

    // Head-on, equal masses, no gravity: e = max(0.2, 0.6) = 0.6 gives v1' = (1 − e)/2 v, v2' = (1 + e)/2 v.
    w = make_world((cs_vec2){0.0, 0.0});
    const double v = 3.0, e = 0.6;
    int a = add_disc(w, -1.0, 0.0, v, 0.0, 0.2, 1.0, 0.1, 0.2);
    int c = add_disc(w, 0.0, 0.0, 0.0, 0.0, 0.2, 1.0, 0.1, e);
    for (int s = 0; s < 60; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    assert_near(cs_world_body(w, a).velocity.x, 0.5 * (1.0 - e) * v, 1e-9);
    assert_near(cs_world_body(w, c).velocity.x, 0.5 * (1.0 + e) * v, 1e-9);
    cs_world_destroy(w);
}

// A wall-free cascade of collisions: contact impulses are equal and opposite, so the total linear momentum
// is the same after every step.
static void momentum_conserved_in_cascade(void** state)
{
    (void)state;
    cs_world* w = make_world((cs_vec2){0.0, 0.0});
    uint64_t s = 12345;
    for (int i = 0; i < 80; ++i)
    {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double u1 = (double)(s >> 11) / 9007199254740992.0;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double u2 = (double)(s >> 11) / 9007199254740992.0;
        double x = (i % 10) * 0.5 + 0.1 * u1, y = (i / 10) * 0.5 + 0.1 * u2;
        add_disc(w, x, y, 4.0 * (u1 - 0.5), 4.0 * (u2 - 0.5), 0.2, 1.0 + (i % 3), 0.3, 0.5);
    }
    // One fast projectile into the pile.
    add_disc(w, -3.0, 2.0, 12.0, 0.3, 0.25, 5.0, 0.3, 0.5);
    double px0 = 0, py0 = 0, scale = 0;
    for (int i = 0; i < cs_world_body_count(w); ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        px0 += b.mass * b.velocity.x;
        py0 += b.mass * b.velocity.y;
        scale += b.mass * hypot(b.velocity.x, b.velocity.y);
    }
    int max_contacts = 0;
    for (int step = 0; step < 300; ++step)
    {
        cs_world_step(w);
        max_contacts =
            cs_world_stats(w)->contacts > max_contacts ? cs_world_stats(w)->contacts : max_contacts;
        double px = 0, py = 0;
        for (int i = 0; i < cs_world_body_count(w); ++i)
        {
            cs_body_state b = cs_world_body(w, i);
            px += b.mass * b.velocity.x;
            py += b.mass * b.velocity.y;
        }
        assert_true(fabs(px - px0) <= 1e-9 * scale);
        assert_true(fabs(py - py0) <= 1e-9 * scale);
    }
    assert_true(max_contacts > 20); // it really was a cascade
    cs_world_destroy(w);
}

static void invalid_bodies_rejected(void** state)
{
    (void)state;
    cs_world* w = make_world((cs_vec2){0.0, -9.8});
    cs_circle_def c = cs_circle_def_default();
    cs_error err;
    double bad[] = {0.0, -1.0, NAN, INFINITY};
    for (int k = 0; k < 4; ++k)
    {
        c = cs_circle_def_default();
        c.radius = bad[k];
        assert_int_equal(cs_world_add_circle(w, &c, &err), -1);
        assert_non_null(strstr(err.message, "radius"));
        c = cs_circle_def_default();
        c.mass = bad[k];
        assert_int_equal(cs_world_add_circle(w, &c, &err), -1);
        assert_non_null(strstr(err.message, "mass"));
    }
    assert_int_equal(cs_world_add_segment(w, (cs_vec2){1, 1}, (cs_vec2){1, 1}, 0.1, 0.1, &err), -1);
    assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 0}, 0.1, 0.1, &err), -1);
    assert_int_equal(cs_world_body_count(w), 0);
    assert_int_equal(cs_world_wall_count(w), 0);
    cs_world_destroy(w);
}

// A world with walls and no circles (or nothing at all) steps: no contacts, no rows, time advances.
static void empty_world_steps(void** state)
{
    (void)state;
    for (int walls = 0; walls < 2; ++walls)
    {
        cs_error err;
        cs_world* w = cs_world_create(NULL, &err);
        assert_non_null(w);
        cs_vec2 o = {0.0, 0.0}, up = {0.0, 1.0};
        if (walls > 0)
        {
            assert_true(cs_world_add_half_plane(w, o, up, 0.1, 0.2, &err) >= 0);
        }
        for (int s = 0; s < 3; ++s)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
        }
        const cs_step_stats* st = cs_world_stats(w);
        assert_int_equal(st->step, 3);
        assert_int_equal(st->contacts, 0);
        assert_int_equal(st->rows, 0);
        cs_world_destroy(w);
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_world_steps),
        cmocka_unit_test(incline_rolls_without_slipping),
        cmocka_unit_test(incline_slides_below_threshold),
        cmocka_unit_test(head_on_equal_masses_exchange),
        cmocka_unit_test(head_on_unequal_masses),
        cmocka_unit_test(momentum_conserved_in_cascade),
        cmocka_unit_test(pair_materials_combine_as_documented),
        cmocka_unit_test(body_force_accelerates_by_f_over_m),
        cmocka_unit_test(invalid_bodies_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
