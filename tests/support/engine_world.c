// The engine test world (engine_world.h).
#include "engine_world.h"
#include "test_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

enum // ids in the order of creation (nothing is removed while the world is built)
{
    STACK0,
    STACK1,
    STACK2,
    PEG,
    KINEMATIC,
    BOB,
    ROPE_A,
    ROPE_B,
    SENSOR,
    GHOST_A,
    GHOST_B,
    BULLET,
    LONER,
};

static int add(cs_world* w, cs_circle_def d)
{
    cs_error err = {CS_OK, ""};
    int id = cs_world_add_circle(w, &d, &err);
    if (id < 0)
    {
        fail_msg("engine world: %s", err.message);
    }
    return id;
}

static cs_circle_def disc(double x, double y, double r)
{
    cs_circle_def d = cs_circle_def_default();
    d.position = (cs_vec2){x, y};
    d.radius = r;
    return d;
}

cs_world* cs_test_engine_world(void)
{
    cs_world_def def = cs_world_def_default();
    def.enable_sleep = true;
    def.hit_event_threshold = 0.5;
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_world_create(&def, &err);
    if (w == NULL || cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.6, 0.0, &err) < 0 ||
        cs_world_add_segment(w, (cs_vec2){-10, 0}, (cs_vec2){-10, 8}, 0.3, 0.0, &err) < 0)
    {
        fail_msg("engine world: %s", err.message);
    }
    for (int k = 0; k < 3; ++k) // a resting stack: asleep after half a second
    {
        add(w, disc(-3, 0.5 + k, 0.5));
    }
    cs_circle_def d = disc(0, 2, 0.3);
    d.type = CS_BODY_STATIC;
    d.mass = 0;
    add(w, d);
    d = disc(6, 3, 0.4);
    d.type = CS_BODY_KINEMATIC;
    d.mass = 0;
    d.velocity = (cs_vec2){0.3, 0};
    add(w, d);
    d = disc(2, 3, 0.25); // a pendulum bob on a rod to the world: swings through the sensor
    d.velocity = (cs_vec2){2, 0};
    add(w, d);
    add(w, disc(4, 0.3, 0.3));
    add(w, disc(5, 0.3, 0.3));
    d = disc(2, 3, 0.3);
    d.type = CS_BODY_STATIC;
    d.mass = 0;
    d.sensor = true;
    add(w, d);
    d = disc(-6, 0.5, 0.5); // a group that never collides: falls through itself
    d.group = -1;
    add(w, d);
    d = disc(-6, 1.2, 0.5);
    d.group = -1;
    d.category_bits = 2;
    d.mask_bits = 1;
    add(w, d);
    d = disc(-9, 5, 0.1); // flies up, alone, until it is removed
    d.bullet = true;
    d.velocity = (cs_vec2){0, 10};
    add(w, d);
    d = disc(8, 0.5, 0.5);
    d.restitution = 0.8;
    int bouncer = add(w, d);
    cs_test_join(w, -1, BOB, (cs_vec2){2, 5}, 2.0, false);
    cs_test_join(w, ROPE_A, ROPE_B, (cs_vec2){0, 0}, 1.5, true);
    // A spring (soft rows: reg) from the world to the bouncing disc, so snapshots must carry its constants.
    cs_distance_joint_def spring = cs_distance_joint_def_default();
    spring.body_a = -1;
    spring.body_b = bouncer;
    spring.local_anchor_a = (cs_vec2){8, 3};
    spring.length = 2.0;
    spring.hertz = 2.0;
    spring.damping_ratio = 0.1;
    if (cs_world_add_distance_joint(w, &spring, &err) < 0)
    {
        fail_msg("engine world: %s", err.message);
    }
    cs_world_set_body_velocity(w, ROPE_B, (cs_vec2){3, 2}, 0);
    return w;
}

// FNV-1a of a few ints.
static uint64_t mix(uint64_t h, int x)
{
    for (int k = 0; k < 4; ++k)
    {
        h ^= (uint64_t)((unsigned)x >> (8 * k)) & 0xff;
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t mix_events(uint64_t h, const cs_contact_event* e, int count)
{
    h = mix(h, count);
    for (int i = 0; i < count; ++i)
    {
        h = mix(mix(mix(h, e[i].body_a), e[i].body_b), e[i].wall);
    }
    return h;
}

uint64_t cs_test_engine_step(cs_world* w)
{
    int64_t next = cs_world_stats(w)->step + 1;
    uint64_t h = 1469598103934665603ull;
    if (next == 30)
    {
        // The bullet and a rope end go: their slots are freed (oldest first), the rope dies.
        assert_int_equal(cs_world_remove_circle(w, BULLET), CS_OK);
        assert_int_equal(cs_world_remove_circle(w, ROPE_A), CS_OK);
    }
    else if (next == 120 || next == 150)
    {
        // Dropped on the sleeping stack (120) and beside it (150): new bodies take the freed slots with the
        // next generation, so their ids say whether the free list and generations were carried.
        cs_circle_def d = disc(next == 120 ? -3 : -4.5, 6, 0.4);
        d.restitution = 0.5;
        h = mix(h, add(w, d));
    }
    else if (next == 160)
    {
        assert_int_equal(cs_world_remove_circle(w, KINEMATIC), CS_OK);
        assert_int_equal(cs_world_remove_circle(w, LONER), CS_OK);
    }
    assert_int_equal(cs_world_step(w), CS_OK);
    cs_contact_events ce = cs_world_contact_events(w);
    cs_sensor_events se = cs_world_sensor_events(w);
    h = mix_events(h, ce.begin, ce.begin_count);
    h = mix_events(h, ce.end, ce.end_count);
    h = mix_events(h, ce.hit, ce.hit_count);
    h = mix_events(h, se.begin, se.begin_count);
    h = mix_events(h, se.end, se.end_count);
    return mix(h, cs_world_awake_count(w));
}
