// Scene keys of the engine (issue 16): body type, filters and sensors, strictly, with located errors.
#include "test_support.h"

#include <stdio.h>
#include <string.h>

static cs_world* load(const char* text)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load_string(text, "engine.json", NULL, &err);
    if (w == NULL)
    {
        fail_msg("%s", err.message);
    }
    return w;
}

// The load fails with "engine.json:LINE:COL: ..." containing `also`.
static void expect_error(const char* text, int line, int column, const char* also)
{
    cs_error err = {CS_OK, ""};
    assert_null(cs_scene_load_string(text, "engine.json", NULL, &err));
    char where[64];
    snprintf(where, sizeof where, "engine.json:%d:%d: ", line, column);
    if (strncmp(err.message, where, strlen(where)) != 0 || strstr(err.message, also) == NULL)
    {
        fail_msg("got '%s', expected '%s...%s'", err.message, where, also);
    }
}

static void keys_reach_the_world(void** state)
{
    (void)state;
    cs_world* w =
        load("{\"world\": {\"hit_event_threshold\": 2.5},\n"
             " \"bodies\": [\n"
             "  {\"position\": [0, 1], \"radius\": 0.5, \"type\": \"static\"},\n"
             "  {\"position\": [3, 1], \"radius\": 0.5, \"type\": \"kinematic\", \"velocity\": [1, 0]},\n"
             "  {\"position\": [0, 3], \"radius\": 0.2, \"mass\": 1, \"category_bits\": 4,\n"
             "   \"mask_bits\": 4294967291, \"group\": -2},\n"
             "  {\"position\": [0, 5], \"radius\": 0.2, \"density\": 1, \"sensor\": true, \"bullet\": true, "
             "\"type\": "
             "\"dynamic\"}]}");
    assert_int_equal(cs_world_body_type(w, 0), CS_BODY_STATIC);
    assert_int_equal(cs_world_body_type(w, 1), CS_BODY_KINEMATIC);
    assert_int_equal(cs_world_body_type(w, 2), CS_BODY_DYNAMIC);
    assert_near(cs_world_get_def(w)->hit_event_threshold, 2.5, 0.0);
    // The filtered circle's mask (~4) takes in the static circle's category 1: it lands on it. The sensor
    // falls through everything.
    for (int s = 0; s < 90; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    assert_near(cs_world_body(w, 2).position.y, 1.7, 0.01);
    assert_true(cs_world_body(w, 3).position.y < 0.0);
    assert_near(cs_world_body(w, 1).position.x, 4.5, 1e-9); // kinematic: 1.5 s at 1 m/s
    cs_world_destroy(w);
}

static void errors_are_located(void** state)
{
    (void)state;
    expect_error("{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5,\n \"type\": \"ghost\"}]}", 2, 10,
                 "unknown body type \"ghost\" (dynamic, static, kinematic)");
    expect_error(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5,\n \"type\": \"static\", \"mass\": 2}]}", 2, 28,
        "a static body has no mass");
    expect_error(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5,\n \"type\": \"kinematic\", \"density\": 2}]}",
        2, 34, "a kinematic body has no mass");
    expect_error(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1,\n \"mask_bits\": 4294967296}]}",
        2, 15, "32 bits");
    expect_error(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1,\n \"category_bits\": -1}]}", 2,
        19, "integer");
    expect_error("{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1,\n \"group\": 1.5}]}", 2,
                 11, "integer");
    expect_error("{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1,\n \"sensor\": 1}]}", 2,
                 12, "must be true or false");
    expect_error("{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5,\n \"type\": \"static\", "
                 "\"velocity\": [1, 0]}]}",
                 2, 32, "velocity must be zero"); // at the velocity key itself
    expect_error("{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5,\n \"type\": \"dynamic\"}]}", 1, 13,
                 "mass");
    expect_error("{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1}],\n \"world\": "
                 "{\"hit_event_threshold\": -1}}",
                 2, 35, "hit_event_threshold");
}

#define TWO_BODIES                                                                                           \
    "{\"bodies\": [{\"position\": [0, 0], \"radius\": 0.1, \"mass\": 1},\n"                                  \
    "            {\"position\": [0, -1], \"radius\": 0.1, \"mass\": 1}],\n"

static void joints(void** state)
{
    (void)state;
    // The length defaults to the anchors' distance: body 1 hangs 1 m below body 0, which hangs from the
    // world at (0, 1).
    cs_world* w = load(TWO_BODIES " \"joints\": [{\"body_a\": -1, \"body_b\": 0, \"anchor_a\": [0, 1]},\n"
                                  "            {\"body_a\": 0, \"body_b\": 1, \"rope\": true}]}");
    assert_int_equal(cs_world_joint_count(w), 2);
    assert_near(cs_world_joint(w, 0).length, 1.0, 1e-15);
    assert_near(cs_world_joint(w, 1).length, 1.0, 1e-15);
    assert_true(cs_world_joint(w, 1).rope);
    assert_int_equal(cs_world_joint(w, 0).body_a, -1);
    cs_world_destroy(w);
    expect_error(TWO_BODIES " \"joints\": [{\"body_a\": 0, \"body_b\": 2}]}", 3, 37,
                 "no body 2: the scene has 2 (0 to 1; -1 is the world)");
    expect_error(TWO_BODIES " \"joints\": [{\"body_a\": 1, \"body_b\": 1}]}", 3, 37, "two different bodies");
    expect_error(TWO_BODIES " \"joints\": [{\"body_a\": 0, \"body_b\": 1, \"length\": -1}]}", 3, 50,
                 "finite number > 0");
    expect_error(TWO_BODIES " \"joints\": [{\"type\": \"weld\", \"body_a\": 0, \"body_b\": 1}]}", 3, 22,
                 "unknown joint type \"weld\"");
    expect_error(TWO_BODIES " \"joints\": [{\"body_a\": 0}]}", 3, 13, "body_b");
    expect_error(TWO_BODIES " \"joints\": [{\"body_a\": 0, \"body_b\": 1, \"spring\": 3}]}", 3, 40, "spring");
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys_reach_the_world),
        cmocka_unit_test(errors_are_located),
        cmocka_unit_test(joints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
