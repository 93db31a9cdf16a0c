// Scene generators (grid, stack, pile, ...): deterministic for a seed, and the shapes they promise.
#include "test_support.h"
#include "scene_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void assert_same_bodies(const cs_world* a, const cs_world* b)
{
    assert_int_equal(cs_world_body_count(a), cs_world_body_count(b));
    for (int i = 0; i < cs_world_body_count(a); ++i)
    {
        cs_body_state x = cs_world_body(a, i), y = cs_world_body(b, i);
        assert_memory_equal(&x, &y, sizeof x);
    }
    assert_true(cs_world_hash(a) == cs_world_hash(b));
}

static const char* jitter_grid(int seed)
{
    static char text[512];
    snprintf(text, sizeof text,
             "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 1], \"columns\": 7, \"rows\": 5,\n"
             " \"spacing\": [1, 1], \"row_offset\": 0.5, \"radius\": 0.2, \"mass\": 1, \"jitter\": 0.1, "
             "\"seed\": %d}]}",
             seed);
    return text;
}

static void test_generators_are_deterministic(void** state)
{
    (void)state;
    cs_scene_info info;
    cs_world* a = cs_test_load_shipped_scene("pile.json", &info);
    cs_world* b = cs_test_load_shipped_scene("pile.json", &info);
    assert_same_bodies(a, b);
    cs_world_destroy(a);
    cs_world_destroy(b);

    a = cs_test_load_scene_text(jitter_grid(7), NULL);
    b = cs_test_load_scene_text(jitter_grid(7), NULL);
    assert_same_bodies(a, b);
    cs_world* c = cs_test_load_scene_text(jitter_grid(8), NULL);
    assert_true(cs_world_hash(a) != cs_world_hash(c));
    for (int i = 0; i < 35; ++i)
    {
        // Jitter stays within ±0.1 of the lattice point (row i/7, column i%7, odd rows shifted).
        int row = i / 7, col = i % 7;
        cs_body_state s = cs_world_body(a, i);
        assert_true(fabs(s.position.x - (col + (row % 2 ? 0.5 : 0.0))) <= 0.1);
        assert_true(fabs(s.position.y - (1.0 + row)) <= 0.1);
    }
    cs_world_destroy(a);
    cs_world_destroy(b);
    cs_world_destroy(c);

    // Pile seeds matter too.
    const char* pile =
        "{\"generators\": [{\"type\": \"pile\", \"seed\": %d, \"count\": 50, \"region\": [0, 0, 5, 5],"
        " \"radius\": 0.2, \"mass\": 1}]}";
    char t1[512], t2[512];
    snprintf(t1, sizeof t1, pile, 1);
    snprintf(t2, sizeof t2, pile, 2);
    a = cs_test_load_scene_text(t1, NULL);
    b = cs_test_load_scene_text(t2, NULL);
    assert_true(cs_world_hash(a) != cs_world_hash(b));
    cs_test_check_no_overlap(a);
    cs_world_destroy(a);
    cs_world_destroy(b);
}

static void test_generator_shapes(void** state)
{
    (void)state;
    // Bodies first, then generators in order; a stack stands on its base with gaps; a one-row
    // mass_range uses its first value.
    cs_world* w = cs_test_load_scene_text(
        "{\"bodies\": [{\"position\": [9, 9], \"radius\": 1, \"mass\": 5}],\n"
        " \"generators\": [{\"type\": \"stack\", \"base\": [2, 1], \"count\": 3, \"radius\": 0.5,"
        " \"mass\": 1, \"gap\": 0.1},\n"
        "  {\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 2, \"rows\": 1, \"spacing\": [1, 1],"
        " \"radius\": 0.1, \"mass_range\": [4, 6]}]}",
        NULL);
    assert_int_equal(cs_world_body_count(w), 6);
    assert_true(cs_world_body(w, 0).mass == 5.0);
    for (int k = 0; k < 3; ++k)
    {
        cs_body_state b = cs_world_body(w, 1 + k);
        assert_true(b.position.x == 2.0 && fabs(b.position.y - (1.5 + 1.1 * k)) < 1e-12);
    }
    assert_true(cs_world_body(w, 4).mass == 4.0 && cs_world_body(w, 5).mass == 4.0);
    assert_true(cs_world_body(w, 5).position.x == 1.0);
    cs_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generators_are_deterministic),
        cmocka_unit_test(test_generator_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
