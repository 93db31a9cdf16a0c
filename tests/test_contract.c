// The public names of issue 16 are a contract: programs written against them must keep compiling. Each
// name is taken here with the exact type the issue gives it (a function pointer of that signature, the
// fields by name and type), so a change of any of them breaks this build.
#include "test_support.h"

#include <stddef.h>

static void names_and_types(void** state)
{
    (void)state;
    cs_body_type types[3] = {CS_BODY_DYNAMIC, CS_BODY_STATIC, CS_BODY_KINEMATIC};
    assert_int_equal(types[0], 0);
    assert_int_equal(types[1], 1);
    assert_int_equal(types[2], 2);
    cs_circle_def c = cs_circle_def_default();
    cs_body_type* type = &c.type;
    uint32_t* category = &c.category_bits;
    uint32_t* mask = &c.mask_bits;
    bool* bullet = &c.bullet;
    assert_int_equal(*type, CS_BODY_DYNAMIC);
    assert_int_equal(*category, 1u);
    assert_int_equal(*mask, UINT32_MAX);
    assert_false(*bullet);

    cs_status (*remove_circle)(cs_world*, int) = cs_world_remove_circle;
    void (*enable_sleeping)(cs_world*, bool) = cs_world_enable_sleeping;
    int (*awake_count)(const cs_world*) = cs_world_awake_count;
    bool (*ray_cast_closest)(const cs_world*, cs_vec2, cs_vec2, cs_ray_hit*) = cs_world_ray_cast_closest;
    int (*query_aabb)(const cs_world*, cs_vec2, cs_vec2, int*, int) = cs_world_query_aabb;
    int (*query_point)(const cs_world*, cs_vec2) = cs_world_query_point;
    cs_contact_events (*contact_events)(const cs_world*) = cs_world_contact_events;
    cs_distance_joint_def (*joint_default)(void) = cs_distance_joint_def_default;
    int (*add_joint)(cs_world*, const cs_distance_joint_def*, cs_error*) = cs_world_add_distance_joint;
    assert_non_null(remove_circle);
    assert_non_null(enable_sleeping);
    assert_non_null(awake_count);
    assert_non_null(ray_cast_closest);
    assert_non_null(query_aabb);
    assert_non_null(query_point);
    assert_non_null(contact_events);
    assert_non_null(add_joint);

    cs_ray_hit hit = {-1, 0, {0, 0}, {0, 1}, 0.5}; // body, wall, point, normal, fraction: in this order
    assert_near(hit.fraction, 0.5, 0.0);
    cs_contact_event ev = {-1, 3, 0, {1, 2}, 4.5}; // body_a, body_b, wall, point, approach_speed
    assert_near(ev.approach_speed, 4.5, 0.0);
    cs_contact_events evs = {&ev, 1, NULL, 0, NULL, 0};
    assert_int_equal(evs.begin[0].body_b, 3);
    assert_int_equal(evs.end_count + evs.hit_count, 0);
    cs_distance_joint_def j = joint_default();
    int* sides[2] = {&j.body_a, &j.body_b};
    cs_vec2* anchors[2] = {&j.local_anchor_a, &j.local_anchor_b};
    double* length = &j.length;
    assert_non_null(sides[0]);
    assert_non_null(anchors[1]);
    assert_true(*length > 0.0);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_and_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
