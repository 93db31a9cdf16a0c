// Contact and sensor events (issue 16).
#include "test_support.h"

typedef struct totals
{
    int begin, end, hit;
    double hit_speed[4];
    double top; // highest centre seen
} totals;

static void step_counting(cs_world* w, int steps, totals* t)
{
    for (int s = 0; s < steps; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        t->top = fmax(t->top, cs_world_body(w, cs_world_body_id(w, 0)).position.y);
        cs_contact_events e = cs_world_contact_events(w);
        t->begin += e.begin_count;
        t->end += e.end_count;
        for (int k = 0; k < e.hit_count; ++k)
        {
            assert_true(t->hit < 4);
            t->hit_speed[t->hit++] = e.hit[k].approach_speed;
            assert_int_equal(e.hit[k].body_a, -1); // the ground: a wall
            assert_int_equal(e.hit[k].wall, 0);
        }
    }
}

// A ball dropped from 1 m lands, rests, is kicked up to 1 m and lands again: exactly 2 begins, 1 end and
// 2 hits, each at √(2gH) within 2 % (the test; Box2D v3 gives 4.413 for 4.429). Restitution 0, so
// no rebound makes contacts of its own. Resting makes no events; removing the resting ball ends its
// contact.
static void drop_kick_land(void** state)
{
    (void)state;
    const double g = 9.80665, H = 1.0, r = 0.1;
    cs_world_def def = cs_world_def_default();
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.5, 0.0, &err), 0);
    cs_circle_def c = cs_circle_def_default();
    c.position = (cs_vec2){0.0, r + H};
    c.radius = r;
    c.restitution = 0.0;
    int ball = cs_world_add_circle(w, &c, &err);
    totals t = {0, 0, 0, {0}, 0.0};
    step_counting(w, 120, &t); // falls 0.45 s, then rests
    assert_int_equal(t.begin, 1);
    assert_int_equal(t.end, 0);
    assert_int_equal(t.hit, 1);
    cs_world_set_body_velocity(w, ball, (cs_vec2){0.0, sqrt(2.0 * g * H)}, 0.0);
    t.top = 0.0;
    step_counting(w, 180, &t); // up 0.45 s, down 0.45 s, then rests 2 s
    assert_int_equal(t.begin, 2);
    assert_int_equal(t.end, 1);
    assert_int_equal(t.hit, 2);
    double expected = sqrt(2.0 * g * H);
    for (int k = 0; k < 2; ++k)
    {
        assert_near(t.hit_speed[k], expected, 0.02 * expected);
    }
    // Closer: the speed of a fall from the height each fall really started at. Symplectic Euler moves the
    // kicked ball with the velocity after one step of gravity, so it peaks h·v₀/2 = 3.7 cm short of 1 m.
    assert_near(t.hit_speed[0], expected, 0.001 * expected);
    double fall2 = sqrt(2.0 * g * (t.top - r));
    assert_near(t.hit_speed[1], fall2, 0.003 * fall2);
    // The ball rests: a contact every step, no events.
    step_counting(w, 60, &t);
    assert_int_equal(cs_world_contact_count(w), 1);
    assert_int_equal(t.begin + t.end + t.hit, 5);
    assert_int_equal(cs_world_remove_circle(w, ball), CS_OK);
    assert_int_equal(cs_world_step(w), CS_OK);
    cs_contact_events e = cs_world_contact_events(w);
    assert_int_equal(e.end_count, 1);
    assert_int_equal(e.end[0].body_b, ball);
    cs_world_destroy(w);
}

// A ball falls through a static sensor: one begin and one end, and its fall is the same bits as without
// the sensor (overlaps are never solved).
static void sensor_reports_never_solves(void** state)
{
    (void)state;
    cs_world* with = cs_test_ground_world();
    cs_world* without = cs_test_ground_world();
    cs_error err;
    cs_circle_def s = cs_circle_def_default();
    s.type = CS_BODY_STATIC;
    s.sensor = true;
    s.position = (cs_vec2){0.0, 1.0};
    s.radius = 0.3;
    int sensor = cs_world_add_circle(with, &s, &err);
    assert_true(sensor >= 0);
    int ball = cs_test_add(with, CS_BODY_DYNAMIC, 0.05, 2.0, 0.1, 1.0);
    int ball2 = cs_test_add(without, CS_BODY_DYNAMIC, 0.05, 2.0, 0.1, 1.0);
    int begins = 0, ends = 0;
    for (int k = 0; k < 90; ++k)
    {
        assert_int_equal(cs_world_step(with), CS_OK);
        assert_int_equal(cs_world_step(without), CS_OK);
        cs_body_state a = cs_world_body(with, ball), b = cs_world_body(without, ball2);
        assert_memory_equal(&a, &b, sizeof a);
        cs_sensor_events e = cs_world_sensor_events(with);
        for (int i = 0; i < e.begin_count; ++i)
        {
            assert_int_equal(e.begin[i].body_a, sensor);
            assert_int_equal(e.begin[i].body_b, ball);
            // It started overlapping during this step: now within the sum of radii.
            assert_true(fabs(a.position.y - 1.0) < 0.4);
        }
        begins += e.begin_count;
        ends += e.end_count;
        for (int i = 0; i < cs_world_contact_count(with); ++i)
        {
            assert_int_equal(cs_world_contact(with, i).body_a, -1); // only the ground ever
        }
    }
    assert_int_equal(begins, 1);
    assert_int_equal(ends, 1);
    cs_world_destroy(with);
    cs_world_destroy(without);
}

// Events off (cs_world_def.contact_events = false): the same drop reports nothing.
static void events_off(void** state)
{
    (void)state;
    cs_world_def def = cs_world_def_default();
    def.contact_events = false;
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.5, 0.0, &err), 0);
    cs_test_add(w, CS_BODY_DYNAMIC, 0.0, 1.1, 0.1, 1.0);
    totals t = {0, 0, 0, {0}, 0.0};
    step_counting(w, 120, &t);
    assert_int_equal(t.begin + t.end + t.hit, 0);
    assert_int_equal(cs_world_contact_count(w), 1); // the contact is there, its events are not
    cs_world_enable_contact_events(w, true);
    step_counting(w, 1, &t);
    assert_int_equal(t.begin, 1); // touching when turned on: it begins anew
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(drop_kick_land),
        cmocka_unit_test(sensor_reports_never_solves),
        cmocka_unit_test(events_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
