// Removal with ids that outlive it (issue 16): other bodies' states are the same bits across a removal
// and after it, stale ids are refused, and a spawn/remove fountain keeps memory flat.
#include "test_support.h"

#include <malloc.h>
#include <string.h>

#include "world/world_internal.h"

// A falling pile of 30 circles and one far away (X). World A removes X after 40 steps, world B keeps it:
// the pile's states are the same bits across the removal and for 80 steps after it.
static void others_bit_identical(void** state)
{
    (void)state;
    cs_world* a = cs_test_ground_world();
    cs_world* b = cs_test_ground_world();
    int x_id = -1;
    for (int i = 0; i < 31; ++i)
    {
        double x = i == 15 ? 50.0 : 0.3 * (i % 6) + 0.01 * i;
        double y = i == 15 ? 0.2 : 0.5 + 0.45 * (i / 6);
        int ia = cs_test_add(a, CS_BODY_DYNAMIC, x, y, 0.2, 1.0),
            ib = cs_test_add(b, CS_BODY_DYNAMIC, x, y, 0.2, 1.0);
        assert_int_equal(ia, i); // nothing removed yet: ids are 0, 1, 2, …
        assert_int_equal(ib, i);
        x_id = i == 15 ? ia : x_id;
    }
    for (int s = 0; s < 40; ++s)
    {
        assert_int_equal(cs_world_step(a), CS_OK);
        assert_int_equal(cs_world_step(b), CS_OK);
    }
    cs_body_state before[31];
    for (int i = 0; i < 31; ++i)
    {
        before[i] = cs_world_body(a, i);
    }
    assert_int_equal(cs_world_remove_circle(a, x_id), CS_OK);
    assert_int_equal(cs_world_body_count(a), 30);
    assert_false(cs_world_body_alive(a, x_id));
    for (int i = 0; i < 31; ++i)
    {
        if (i != x_id)
        {
            cs_body_state now = cs_world_body(a, i);
            assert_memory_equal(&now, &before[i], sizeof now);
        }
    }
    for (int s = 0; s < 80; ++s)
    {
        assert_int_equal(cs_world_step(a), CS_OK);
        assert_int_equal(cs_world_step(b), CS_OK);
        for (int i = 0; i < 31; ++i)
        {
            if (i != x_id)
            {
                cs_body_state sa = cs_world_body(a, i), sb = cs_world_body(b, i);
                assert_memory_equal(&sa, &sb, sizeof sa);
            }
        }
    }
    assert_true(cs_world_contact_count(a) > 20); // the pile really is a pile
    cs_world_destroy(a);
    cs_world_destroy(b);
}

static void stale_ids_refused(void** state)
{
    (void)state;
    cs_world* w = cs_test_ground_world();
    int first = cs_test_add(w, CS_BODY_DYNAMIC, 0.0, 1.0, 0.2, 1.0);
    int second = cs_test_add(w, CS_BODY_DYNAMIC, 1.0, 1.0, 0.2, 1.0);
    assert_int_equal(cs_world_remove_circle(w, first), CS_OK);
    assert_int_equal(cs_world_remove_circle(w, first), CS_ERR_USAGE); // twice
    assert_non_null(strstr(cs_world_last_error(w), "no body alive"));
    assert_int_equal(cs_world_remove_circle(w, -1), CS_ERR_USAGE);
    assert_int_equal(cs_world_remove_circle(w, 12345), CS_ERR_USAGE);
    int third =
        cs_test_add(w, CS_BODY_DYNAMIC, 2.0, 1.0, 0.2, 1.0); // reuses the freed slot, with a new generation
    assert_true(third != first);
    assert_false(cs_world_body_alive(w, first));
    assert_true(cs_world_body_alive(w, third));
    cs_body_state s = cs_world_body(w, first); // a zeroed state, never the new body's
    assert_near(s.radius, 0.0, 0.0);
    cs_world_set_body_velocity(w, first, (cs_vec2){5.0, 0.0}, 0.0); // ignored
    assert_near(cs_world_body(w, third).velocity.x, 0.0, 0.0);
    assert_near(cs_world_body(w, third).position.x, 2.0, 0.0);
    assert_near(cs_world_body(w, second).position.x, 1.0, 0.0);
    assert_int_equal(cs_world_body_count(w), 2);
    // Iteration by k sees exactly the bodies alive.
    int seen = 0;
    for (int k = 0; k < cs_world_body_count(w); ++k)
    {
        int id = cs_world_body_id(w, k);
        seen += id == second || id == third;
    }
    assert_int_equal(seen, 2);
    assert_int_equal(cs_world_body_id(w, 2), -1);
    assert_int_equal(cs_world_step(w), CS_OK);
    cs_world_destroy(w);
}

// 10⁶ spawns and 10⁶ removals (a fountain of ~100 circles alive, one step every 100 spawns): after a
// warm-up no array of the world grows and the heap in use stays the same.
static void fountain_memory_flat(void** state)
{
    (void)state;
    cs_world* w = cs_test_ground_world();
    enum
    {
        alive = 100,
        total = 1000000
    };
    int ids[alive];
    size_t heap_warm = 0;
    int cap_bodies = 0, cap_free = 0, cap_contacts = 0;
    for (int n = 0; n < total; ++n)
    {
        if (n >= alive)
        {
            assert_int_equal(cs_world_remove_circle(w, ids[n % alive]), CS_OK);
        }
        ids[n % alive] =
            cs_test_add(w, CS_BODY_DYNAMIC, 0.45 * (n % 10), 1.0 + 0.5 * ((n / 10) % 10), 0.2, 1.0);
        if (n % 100 == 99)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
        }
        if (n == total / 10)
        {
            heap_warm = mallinfo2().uordblks;
            cap_bodies = w->body_capacity;
            cap_free = w->free_capacity;
            cap_contacts = w->contacts.capacity;
        }
    }
    assert_int_equal(cs_world_body_count(w), alive);
    assert_true(w->body_count <= alive + 1); // slots: the peak alive plus the one freed before a spawn
    assert_int_equal(w->body_capacity, cap_bodies);
    assert_int_equal(w->free_capacity, cap_free);
    assert_int_equal(w->contacts.capacity, cap_contacts);
    assert_int_equal(mallinfo2().uordblks, heap_warm);
    cs_world_destroy(w);
}

// cs_world_max_speed iterates the live ids: after removing body 0 of four (speeds 1, 2, 3, 4 m/s) the
// answer is 4. A loop over ids 0..count-1 (the removed id 0 reads as a zeroed state) would stop at 3; the
// removed fastest body's speed no longer counts.
static void max_speed_after_removal(void** state)
{
    (void)state;
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0.0, 0.0};
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    assert_true(cs_world_max_speed(w) == 0.0);
    int ids[4];
    for (int i = 0; i < 4; ++i)
    {
        ids[i] = cs_test_add(w, CS_BODY_DYNAMIC, 3.0 * i, 0.0, 0.5, 1.0);
        assert_true(cs_world_set_body_velocity(w, ids[i], (cs_vec2){0.6 * (i + 1), 0.8 * (i + 1)}, 0.0));
    }
    assert_near(cs_world_max_speed(w), 4.0, 1e-12);
    assert_int_equal(cs_world_remove_circle(w, ids[0]), CS_OK);
    assert_near(cs_world_max_speed(w), 4.0, 1e-12);
    assert_int_equal(cs_world_remove_circle(w, ids[3]), CS_OK);
    assert_near(cs_world_max_speed(w), 3.0, 1e-12);
    assert_int_equal(cs_world_step(w), CS_OK);
    assert_near(cs_world_max_speed(w), 3.0, 1e-12);
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(others_bit_identical),
        cmocka_unit_test(stale_ids_refused),
        cmocka_unit_test(fountain_memory_flat),
        cmocka_unit_test(max_speed_after_removal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
