// Continuous collision (issue 16): 300 m/s circles against a segment, a static circle and (a bullet) a
// resting dynamic circle never pass through.
//
// The first three tests shoot a circle at 300 m/s from rest-free flight: the step finds its pair before it
// moves (its reach is 5 m), and the speculative row's half-plane holds its straight path on the near side
// of any convex obstacle, so they pass with continuous collision off too — they guard the outcome. The
// struck_* tests are the cases only continuous collision saves: a resting ball struck by a kinematic paddle
// at 300 m/s gets its speed inside the solve, after the broad phase saw it at rest (reach = its radius), so
// it has no row with what lies behind it. Each runs first with cs_world_enable_continuous(false) and asserts
// that the ball DOES pass through (the case is real), then with it on, and asserts that it does not.
#include "test_support.h"

#include <string.h>

static cs_world* no_gravity(void)
{
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0.0, 0.0};
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    return w;
}

static int shoot(cs_world* w, double y, double r, bool bullet)
{
    cs_circle_def c = cs_circle_def_default();
    c.position = (cs_vec2){0.0, y};
    c.velocity = (cs_vec2){300.0, 0.0}; // 5 m per step
    c.radius = r;
    c.bullet = bullet;
    cs_error err;
    int id = cs_world_add_circle(w, &c, &err);
    assert_true(id >= 0);
    return id;
}

static void through_segment(void** state)
{
    (void)state;
    cs_world* w = no_gravity();
    cs_error err;
    assert_int_equal(cs_world_add_segment(w, (cs_vec2){3, -1}, (cs_vec2){3, 2}, 0.1, 0.5, &err), 0);
    int ball = shoot(w, 0.5, 0.1, false);
    for (int s = 0; s < 30; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        assert_true(cs_world_body(w, ball).position.x < 3.0 - 0.09);
    }
    assert_true(cs_world_body(w, ball).velocity.x < 0.0); // it bounced
    cs_world_destroy(w);
}

// Off-centre by a quarter of the radii's sum, at a static circle 3 m ahead.
static void through_static_circle(void** state)
{
    (void)state;
    for (int offset = 0; offset < 3; ++offset)
    {
        cs_world* w = no_gravity();
        int peg = cs_test_add(w, CS_BODY_STATIC, 3.0, 0.0, 0.2, 0.0);
        int ball = shoot(w, 0.075 * offset, 0.1, false);
        for (int s = 0; s < 30; ++s)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
            cs_body_state b = cs_world_body(w, ball);
            // Never inside the peg beyond the slop, never on its far side within its shadow.
            assert_true(hypot(b.position.x - 3.0, b.position.y) > 0.3 - 0.01);
            assert_false(b.position.x > 3.0 && fabs(b.position.y) < 0.3);
        }
        // Bounced off the peg: moving away from it (straight back head-on, sideways when glancing).
        cs_body_state b = cs_world_body(w, ball);
        assert_true((b.position.x - 3.0) * b.velocity.x + b.position.y * b.velocity.y > 0.0);
        assert_near(cs_world_body(w, peg).position.x, 3.0, 0.0);
        cs_world_destroy(w);
    }
}

static void bullet_through_resting_circle(void** state)
{
    (void)state;
    cs_world* w = no_gravity();
    int target = cs_test_add(w, CS_BODY_DYNAMIC, 3.0, 0.02, 0.1, 1.0);
    int bullet = shoot(w, 0.0, 0.05, true);
    for (int s = 0; s < 3; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        cs_body_state b = cs_world_body(w, bullet), t = cs_world_body(w, target);
        assert_true(b.position.x < t.position.x); // never past the target
    }
    assert_true(cs_world_body(w, target).velocity.x > 10.0); // the bullet's momentum went into it
    cs_world_destroy(w);
}

// A paddle (kinematic, r 0.2) at the origin moving +x at 300 m/s strikes a resting ball (r 0.05, 0.1 kg,
// the given bullet flag and restitution) 0.25 m ahead of it: within that one step the ball leaves at
// (1 + e) 300 m/s.
typedef struct strike
{
    cs_world* world;
    int paddle, ball;
} strike;

static strike struck_ball(bool continuous, bool bullet, double restitution)
{
    strike s;
    s.world = no_gravity();
    cs_world_enable_continuous(s.world, continuous);
    assert_true(cs_world_continuous_enabled(s.world) == continuous);
    s.paddle = cs_test_add(s.world, CS_BODY_KINEMATIC, 0.0, 0.0, 0.2, 0.0);
    assert_true(cs_world_set_body_velocity(s.world, s.paddle, (cs_vec2){300.0, 0.0}, 0.0));
    cs_circle_def c = cs_circle_def_default();
    c.position = (cs_vec2){0.5, 0.0};
    c.radius = 0.05;
    c.mass = 0.1;
    c.bullet = bullet;
    c.restitution = restitution;
    cs_error err;
    s.ball = cs_world_add_circle(s.world, &c, &err);
    assert_true(s.ball >= 0);
    return s;
}

// The largest x the ball reaches in `steps` steps.
static double farthest(const strike* s, int steps)
{
    double x = -INFINITY;
    for (int k = 0; k < steps; ++k)
    {
        assert_int_equal(cs_world_step(s->world), CS_OK);
        x = fmax(x, cs_world_body(s->world, s->ball).position.x);
    }
    return x;
}

// A thin static peg (r 0.05) 3 m ahead: without continuous collision the struck ball ends beyond it in
// the first step; with it, the ball never passes the peg's near side and keeps off its inside.
static void struck_through_static_circle(void** state)
{
    (void)state;
    for (int on = 0; on < 2; ++on)
    {
        strike s = struck_ball(on, false, 0.2);
        cs_test_add(s.world, CS_BODY_STATIC, 3.0, 0.0, 0.05, 0.0);
        double x = farthest(&s, 1);
        assert_true(cs_world_body(s.world, s.ball).velocity.x > 200.0); // it was struck this step
        if (!on)
        {
            assert_true(x > 3.0 + 0.1); // passed straight through the peg
        }
        else
        {
            x = fmax(x, farthest(&s, 30));
            assert_true(x <= 3.0 - 0.1 + 1e-9); // stopped at the first touch
        }
        cs_world_destroy(s.world);
    }
}

// A segment (x = 3, y in [-1, 1]) and, separately, a half-plane (x <= 3 free): the struck ball passes
// either without continuous collision and stops at it with.
static void struck_through_walls(void** state)
{
    (void)state;
    for (int kind = 0; kind < 2; ++kind)
    {
        for (int on = 0; on < 2; ++on)
        {
            strike s = struck_ball(on, false, 0.2);
            cs_error err;
            int wall =
                kind == 0
                    ? cs_world_add_segment(s.world, (cs_vec2){3, -1}, (cs_vec2){3, 1}, 0.1, 0.0, &err)
                    : cs_world_add_half_plane(s.world, (cs_vec2){3, 0}, (cs_vec2){-1, 0}, 0.1, 0.0, &err);
            assert_int_equal(wall, 0);
            double x = farthest(&s, 1);
            assert_true(cs_world_body(s.world, s.ball).velocity.x > 200.0);
            if (!on)
            {
                assert_true(x > 3.0 + 0.05);
            }
            else
            {
                x = fmax(x, farthest(&s, 30));
                assert_true(x <= 3.0 - 0.05 + 1e-9);
            }
            cs_world_destroy(s.world);
        }
    }
}

// A resting dynamic circle (r 0.1) 6 m ahead, beyond the paddle's reach this step (5 m): the ball, elastic
// (e = 1), leaves the paddle at 600 m/s and reaches it within the step. Only a bullet's path is swept
// against dynamic circles, so the ball passes the target unless it is a bullet (with continuous collision
// on in all three runs but the first, which has it off).
static void struck_bullet_through_resting_circle(void** state)
{
    (void)state;
    for (int run = 0; run < 3; ++run)
    {
        bool on = run > 0, bullet = run != 1;
        strike s = struck_ball(on, bullet, 1.0);
        cs_test_add(s.world, CS_BODY_DYNAMIC, 6.0, 0.0, 0.1, 1.0);
        double x = farthest(&s, 1);
        assert_true(cs_world_body(s.world, s.ball).velocity.x > 500.0);
        if (!(on && bullet))
        {
            assert_true(x > 6.0 + 0.15); // through the target
        }
        else
        {
            assert_true(x <= 6.0 - 0.15 + 1e-9); // at the first touch
        }
        cs_world_destroy(s.world);
    }
}

// The setting comes from scenes too ("world": {"continuous": false}); on by default.
static void continuous_setting(void** state)
{
    (void)state;
    cs_world* w = no_gravity();
    assert_true(cs_world_continuous_enabled(w));
    cs_world_destroy(w);
    cs_error err;
    cs_scene_info info;
    w = cs_scene_load_string("{\"world\": {\"continuous\": false}, \"bodies\": [{\"position\": [0, 1], "
                             "\"radius\": 0.5, \"mass\": 1}]}",
                             "ccd.json", &info, &err);
    assert_non_null(w);
    assert_false(cs_world_continuous_enabled(w));
    cs_world_destroy(w);
    assert_null(
        cs_scene_load_string("{\"world\": {\"continuous\": 1}, \"bodies\": []}", "ccd.json", &info, &err));
    assert_non_null(strstr(err.message, "ccd.json:1:"));
}

// Many struck balls at once, a row each (1 m apart), against one half-plane, on 1, 2 and 3 threads: the
// sweeps run in chunks of 1 024 bodies on the world's workers, and a chunk skipped lets its balls through.
static void many_struck_on_threads(void** state)
{
    (void)state;
    enum
    {
        ROWS = 1600 // (3 200 bodies: three chunks and a part)
    };
    for (int threads = 0; threads <= 3; ++threads) // (0: one thread with continuous collision off)
    {
        cs_world* w = no_gravity();
        cs_world_enable_continuous(w, threads > 0);
        assert_true(cs_world_set_threads(w, threads > 0 ? threads : 1));
        cs_error err;
        assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){3, 0}, (cs_vec2){-1, 0}, 0.1, 0.0, &err), 0);
        for (int k = 0; k < ROWS; ++k)
        {
            int paddle = cs_test_add(w, CS_BODY_KINEMATIC, 0.0, k, 0.2, 0.0);
            assert_true(cs_world_set_body_velocity(w, paddle, (cs_vec2){300.0, 0.0}, 0.0));
            cs_circle_def c = cs_circle_def_default();
            c.position = (cs_vec2){0.5, k};
            c.radius = 0.05;
            c.mass = 0.1;
            c.restitution = 0.2;
            assert_true(cs_world_add_circle(w, &c, &err) == 2 * k + 1);
        }
        assert_int_equal(cs_world_step(w), CS_OK);
        for (int k = 0; k < ROWS; ++k)
        {
            cs_body_state b = cs_world_body(w, 2 * k + 1);
            assert_true(b.velocity.x > 200.0); // struck this step
            assert_true(threads > 0 ? b.position.x <= 3.0 - 0.05 + 1e-9 : b.position.x > 3.0 + 0.05);
        }
        cs_world_destroy(w);
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(through_segment),
        cmocka_unit_test(through_static_circle),
        cmocka_unit_test(bullet_through_resting_circle),
        cmocka_unit_test(struck_through_static_circle),
        cmocka_unit_test(struck_through_walls),
        cmocka_unit_test(struck_bullet_through_resting_circle),
        cmocka_unit_test(continuous_setting),
        cmocka_unit_test(many_struck_on_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
