// Continuous collision (issue 16): 300 m/s circles against a segment, a static circle and (a bullet) a
// resting dynamic circle never pass through. (On the contact rows of this writing the speculative contacts
// alone already stop these three — checked by switching continuous.c off — so the tests guard the
// outcome, whichever part of the step provides it.)
#include "test_support.h"

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
        assert_true(cs_world_body(w, ball).velocity.x < 0.0); // bounced back off the peg
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

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(through_segment),
        cmocka_unit_test(through_static_circle),
        cmocka_unit_test(bullet_through_resting_circle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
