// cs_world_contact_colour: in the coloured row order no two contacts of one colour in a block share a
// body (what makes the sweep's neighbouring rows independent); in key order there are no colours.
#include <stdlib.h>

#include "test_support.h"

#define BLOCK 64 // CS_ORDER_BLOCK: contacts per coloured block

static void test_colours_are_a_graph_colouring(void** state)
{
    (void)state;
    cs_error err = {0};
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), NULL, &err);
    assert_non_null(w);
    for (int i = 0; i < 60; ++i)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    int n = cs_world_contact_count(w);
    assert_true(n > 2 * BLOCK);
    int colours_seen = 0;
    for (int start = 0; start < n; start += BLOCK)
    {
        int end = start + BLOCK < n ? start + BLOCK : n;
        for (int j = start; j < end; ++j)
        {
            cs_contact_info cj = cs_world_contact(w, j);
            int colour = cs_world_contact_colour(w, j);
            assert_true(colour >= 0);
            colours_seen = colour + 1 > colours_seen ? colour + 1 : colours_seen;
            for (int k = start; k < j; ++k)
            {
                if (cs_world_contact_colour(w, k) != colour)
                {
                    continue;
                }
                cs_contact_info ck = cs_world_contact(w, k);
                bool shared = cj.body_b == ck.body_b ||
                              (cj.body_a >= 0 && (cj.body_a == ck.body_a || cj.body_a == ck.body_b)) ||
                              (ck.body_a >= 0 && ck.body_a == cj.body_b);
                if (shared)
                {
                    fail_msg("contacts %d and %d share a body and colour %d", j, k, colour);
                }
            }
        }
    }
    assert_true(colours_seen >= 3); // a pile needs several colours
    assert_int_equal(cs_world_contact_colour(w, -1), -1);
    assert_int_equal(cs_world_contact_colour(w, n), -1);
    cs_world_set_row_order(w, CS_ROW_ORDER_KEY);
    assert_int_equal(cs_world_step(w), CS_OK);
    assert_int_equal(cs_world_contact_colour(w, 0), -1);
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colours_are_a_graph_colouring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
