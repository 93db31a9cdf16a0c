// Sleeping by islands (issue 16): a 40-circle pile sleeps within 5 s, wakes when hit, sleeps again within
// 5 s; a second pile stays asleep all along; a removed neighbour, a joint or a velocity wakes exactly its
// island; asleep, a step makes no contacts and no events.
#include "test_support.h"

#include <stdio.h>

// Two piles of 20 circles, 6 m apart, in one world with sleeping on.
static cs_world* two_piles(int* first_of_right)
{
    cs_world_def def = cs_world_def_default();
    def.enable_sleep = true;
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.5, 0.0, &err), 0);
    for (int pile = 0; pile < 2; ++pile)
    {
        if (pile == 1)
        {
            *first_of_right = cs_world_body_count(w);
        }
        // A box for each pile (a ball rolling on the open floor never stops).
        double x0 = 6.0 * pile - 0.22, x1 = 6.0 * pile + 1.96;
        assert_true(cs_world_add_segment(w, (cs_vec2){x0, 0}, (cs_vec2){x0, 3}, 0.5, 0.0, &err) >= 0);
        assert_true(cs_world_add_segment(w, (cs_vec2){x1, 3}, (cs_vec2){x1, 0}, 0.5, 0.0, &err) >= 0);
        for (int i = 0; i < 20; ++i)
        {
            cs_test_add(w, CS_BODY_DYNAMIC, 6.0 * pile + 0.42 * (i % 5) + 0.02 * (i / 5),
                        0.25 + 0.45 * (i / 5), 0.2, 1.0);
        }
    }
    return w;
}

// Steps until every dynamic body sleeps; returns the steps taken (fails past `limit`).
static int steps_to_sleep(cs_world* w, int limit)
{
    for (int s = 1; s <= limit; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        if (cs_world_awake_count(w) == 0)
        {
            return s;
        }
    }
    fail_msg("still %d awake after %d steps", cs_world_awake_count(w), limit);
    return -1;
}

static bool asleep_range(const cs_world* w, int first, int count)
{
    for (int i = first; i < first + count; ++i)
    {
        if (!cs_world_body_asleep(w, i))
        {
            return false;
        }
    }
    return true;
}

static void piles_sleep_and_wake(void** state)
{
    (void)state;
    int right = 0;
    cs_world* w = two_piles(&right);
    int first = steps_to_sleep(w, 300);
    printf("both piles asleep after %d steps\n", first);
    // Asleep: a step makes no contacts, no rows and no events, and moves nothing.
    uint64_t hash = cs_world_hash(w);
    assert_int_equal(cs_world_step(w), CS_OK);
    assert_int_equal(cs_world_stats(w)->rows, 0);
    assert_int_equal(cs_world_contact_events(w).end_count, 0);
    assert_true(cs_world_hash(w) == hash);
    // A ball thrown at the left pile wakes it, not the right one.
    cs_circle_def c = cs_circle_def_default();
    c.position = (cs_vec2){0.9, 4.0}; // dropped into the left box
    c.velocity = (cs_vec2){0.0, -6.0};
    c.radius = 0.2;
    c.mass = 2.0;
    cs_error err;
    assert_true(cs_world_add_circle(w, &c, &err) >= 0);
    bool left_woke = false;
    for (int s = 0; s < 60; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        left_woke = left_woke || !asleep_range(w, 0, 20);
        assert_true(asleep_range(w, right, 20));
    }
    assert_true(left_woke);
    int again = steps_to_sleep(w, 300);
    printf("asleep again %d steps after the hit\n", again + 60);
    // A velocity wakes exactly its island; so does a removed neighbour, and a joint.
    cs_world_set_body_velocity(w, right, (cs_vec2){0.0, 0.1}, 0.0);
    assert_false(asleep_range(w, right, 20));
    assert_true(cs_world_body_asleep(w, 0));
    steps_to_sleep(w, 300);
    assert_int_equal(cs_world_remove_circle(w, 2), CS_OK); // a bottom circle of the left pile
    assert_false(cs_world_body_asleep(w, 0));
    assert_true(asleep_range(w, right, 20));
    steps_to_sleep(w, 300);
    cs_distance_joint_def j = cs_distance_joint_def_default();
    j.body_a = -1;
    j.body_b = right + 19; // the top of the right pile, to a point above it
    j.local_anchor_a = (cs_vec2){6.0, 4.0};
    j.length = 3.0;
    j.rope = true;
    assert_true(cs_world_add_distance_joint(w, &j, &err) >= 0);
    assert_false(cs_world_body_asleep(w, right));
    assert_true(cs_world_body_asleep(w, 0));
    cs_world_destroy(w);
}

// Sleeping off (the default): the same world never sleeps, and turning sleeping off wakes everything.
static void off_by_default(void** state)
{
    (void)state;
    cs_world_def def = cs_world_def_default();
    assert_false(def.enable_sleep);
    int right = 0;
    cs_world* w = two_piles(&right);
    steps_to_sleep(w, 300);
    cs_world_enable_sleeping(w, false);
    assert_int_equal(cs_world_awake_count(w), 40);
    for (int s = 0; s < 400; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    assert_int_equal(cs_world_awake_count(w), 40);
    cs_world_destroy(w);
}

// The sleep threshold is Box2D v3's: the fastest point's speed |v| + |ω| r <= 0.05 m/s for 0.5 s. A free
// circle of r = 1 m in zero gravity keeps its motion; it sleeps within 1 s when the rim is slower (ω 0.04
// rad/s, 2.3°/s — above a bare 2°/s rate, which kept wide slow-turning circles of a settled pile awake) and
// never when it is faster (ω 0.03 rad/s with v 0.03 m/s: rim 0.06 m/s; ω 0.06 rad/s alone).
static void threshold_at_the_rim(void** state)
{
    (void)state;
    const double cases[3][2] = {{0.0, 0.04}, {0.03, 0.03}, {0.0, 0.06}}; // v, ω
    for (int k = 0; k < 3; ++k)
    {
        cs_world_def def = cs_world_def_default();
        def.gravity = (cs_vec2){0.0, 0.0};
        def.enable_sleep = true;
        cs_error err;
        cs_world* w = cs_world_create(&def, &err);
        assert_non_null(w);
        int id = cs_test_add(w, CS_BODY_DYNAMIC, 0.0, 0.0, 1.0, 1.0);
        assert_true(cs_world_set_body_velocity(w, id, (cs_vec2){cases[k][0], 0.0}, cases[k][1]));
        for (int s = 0; s < 60; ++s)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
        }
        assert_int_equal(cs_world_body_asleep(w, id), k == 0);
        cs_world_destroy(w);
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(piles_sleep_and_wake),
        cmocka_unit_test(off_by_default),
        cmocka_unit_test(threshold_at_the_rim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
