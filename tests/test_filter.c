// Collision filtering (issue 16), Box2D's convention: a shared non-zero group decides alone (positive:
// always collide, negative: never); otherwise each circle's category must be in the other's mask. Filtered
// pairs never make contacts or rows.
#include "test_support.h"

typedef struct filter
{
    uint32_t category, mask;
    int group;
} filter;

// Two overlapping circles with the given filters: the number of contacts of one step.
static int contacts_between(filter fa, filter fb)
{
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0.0, 0.0};
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    const filter fs[2] = {fa, fb};
    for (int i = 0; i < 2; ++i)
    {
        cs_circle_def c = cs_circle_def_default();
        c.position = (cs_vec2){0.3 * i, 0.0};
        c.radius = 0.2;
        c.category_bits = fs[i].category;
        c.mask_bits = fs[i].mask;
        c.group = fs[i].group;
        assert_true(cs_world_add_circle(w, &c, &err) >= 0);
    }
    assert_int_equal(cs_world_step(w), CS_OK);
    int n = cs_world_contact_count(w);
    assert_int_equal(cs_world_last_problem(w)->row_count, 2 * n);
    cs_world_destroy(w);
    return n;
}

static void box2d_convention(void** state)
{
    (void)state;
    const uint32_t all = UINT32_MAX;
    assert_int_equal(contacts_between((filter){1, all, 0}, (filter){1, all, 0}), 1);   // defaults
    assert_int_equal(contacts_between((filter){2, all, 0}, (filter){1, ~2u, 0}), 0);   // b masks a out
    assert_int_equal(contacts_between((filter){2, ~1u, 0}, (filter){1, all, 0}), 0);   // a masks b out
    assert_int_equal(contacts_between((filter){2, 4, 0}, (filter){4, 2, 0}), 1);       // each in the other's
    assert_int_equal(contacts_between((filter){1, all, -3}, (filter){1, all, -3}), 0); // same negative group
    assert_int_equal(contacts_between((filter){2, 0, 5}, (filter){4, 0, 5}), 1);       // same positive group
    assert_int_equal(contacts_between((filter){1, all, -3}, (filter){1, all, -4}), 1); // different groups
    assert_int_equal(contacts_between((filter){2, all, 3}, (filter){1, ~2u, -3}), 0);  // then the masks
}

// A falling circle whose mask leaves out the resting circle's category falls through it to the ground.
static void masked_circle_falls_through(void** state)
{
    (void)state;
    cs_world* w = cs_test_ground_world();
    cs_error err;
    cs_circle_def c = cs_circle_def_default();
    c.position = (cs_vec2){0.0, 0.2};
    c.radius = 0.2;
    c.category_bits = 2;
    assert_true(cs_world_add_circle(w, &c, &err) >= 0);
    c.position = (cs_vec2){0.0, 1.0};
    c.category_bits = 1;
    c.mask_bits = ~2u;
    int ghost = cs_world_add_circle(w, &c, &err);
    for (int s = 0; s < 120; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    assert_near(cs_world_body(w, ghost).position.y, 0.2, 0.003); // on the ground, through the other
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(box2d_convention),
        cmocka_unit_test(masked_circle_falls_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
