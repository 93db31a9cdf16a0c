// A scene's solver and world settings, materials, walls and body states reach the world it loads.
#include "test_support.h"
#include "scene_check.h"

#include <stdio.h>

#define BODY "{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1}"

static void test_solver_and_world_settings_reach_the_world(void** state)
{
    (void)state;
    // amgs: the solver that reads alpha, gamma and amgs_literal (a key the solver does not read is an error).
    const char* last = "amgs";
    char text[2048];
    snprintf(
        text, sizeof text,
        "{\"world\": {\"gravity\": [1.5, -2], \"time_step\": 0.01, \"speculative_margin\": 0.03,\n"
        " \"linear_slop\": 0.002, \"baumgarte\": 0.3, \"max_correction\": 0.1, \"position_iterations\": 7,\n "
        "\"position_tolerance\": 2e-7, \"restitution_threshold\": 0.5,\n"
        " \"frictionless\": true, \"row_order\": \"key\"},\n"
        " \"solver\": {\"name\": \"%s\", \"iterations\": 37, \"tolerance\": 1e-5, \"tolerance_on\": "
        "\"nat\",\n"
        "  \"warm_start\": false, \"alpha\": 0.3, \"gamma\": 1.5, "
        "\"amgs_literal\": true, \"simd\": false},\n"
        " \"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 2}]}",
        last);
    cs_scene_info info;
    cs_world* w = cs_test_load_scene_text(text, &info);
    assert_int_equal(cs_world_solver(w), cs_solver_find("amgs"));
    const cs_solver_params* p = cs_world_solver_params(w);
    assert_int_equal(p->iterations, 37);
    assert_true(p->tolerance == 1e-5 && p->tolerance_on == CS_RES_NAT && !p->warm_start);
    assert_true(p->alpha == 0.3 && p->gamma == 1.5 && p->amgs_literal && !p->simd);
    const cs_world_def* d = cs_world_get_def(w);
    assert_int_equal(d->row_order, CS_ROW_ORDER_KEY);
    assert_true(d->gravity.x == 1.5 && d->gravity.y == -2.0 && d->time_step == 0.01);
    assert_true(d->speculative_margin == 0.03 && d->linear_slop == 0.002 && d->baumgarte == 0.3);
    assert_true(d->max_correction == 0.1 && d->restitution_threshold == 0.5 && d->frictionless);
    assert_int_equal(d->position_iterations, 7);
    assert_true(d->position_tolerance == 2e-7);
    // Defaults: the file name without .json, no description, 600 steps.
    assert_string_equal(info.name, "ok");
    assert_string_equal(info.description, "");
    assert_int_equal(info.steps, 600);
    cs_world_destroy(w);

    // Absent sections give exactly cs_world_def_default(); "solver": "NAME" is a shorthand.
    w = cs_test_load_scene_text(
        "{\"solver\": \"pgs\", \"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"density\": 2}]}", NULL);
    cs_world_def def = cs_world_def_default();
    d = cs_world_get_def(w);
    assert_true(d->time_step == def.time_step && d->gravity.y == def.gravity.y && !d->frictionless);
    assert_true(d->row_order == CS_ROW_ORDER_COLOURED && cs_world_solver_params(w)->simd);
    assert_int_equal(cs_world_solver(w), cs_solver_find("pgs"));
    assert_int_equal(cs_world_solver_params(w)->iterations, def.solver_params.iterations);
    assert_true(fabs(cs_world_body(w, 0).mass - 2.0 * 3.14159265358979323846 * 0.25) < 1e-12);
    cs_world_destroy(w);
}

static void test_materials_walls_and_bodies(void** state)
{
    (void)state;
    cs_world* w = cs_test_load_scene_text(
        "{\"materials\": {\"rubber\": {\"friction\": 0.9, \"restitution\": 0.6}},\n"
        " \"walls\": [{\"type\": \"half_plane\", \"point\": [0, -1], \"normal\": [0, 2.5],\n"
        "             \"material\": \"rubber\", \"restitution\": 0.1},\n"
        "            {\"type\": \"segment\", \"p0\": [-1, 0], \"p1\": [1, 0]}],\n"
        " \"bodies\": [{\"position\": [0.5, 2], \"radius\": 0.25, \"mass\": 3, \"velocity\": [1, -2],\n"
        "             \"angle\": 0.5, \"angular_velocity\": -4, \"material\": \"rubber\"}]}",
        NULL);
    assert_int_equal(cs_world_wall_count(w), 2);
    cs_wall plane = cs_world_wall(w, 0);
    assert_true(plane.normal.x == 0.0 && plane.normal.y == 1.0);    // normalised
    assert_true(plane.friction == 0.9 && plane.restitution == 0.1); // inline overrides the material
    cs_wall segment = cs_world_wall(w, 1);
    cs_circle_def defaults = cs_circle_def_default();
    assert_true(segment.friction == defaults.friction && segment.restitution == defaults.restitution);
    assert_int_equal(segment.kind, CS_WALL_SEGMENT);
    cs_body_state b = cs_world_body(w, 0);
    assert_true(b.position.x == 0.5 && b.position.y == 2.0 && b.radius == 0.25 && b.mass == 3.0);
    assert_true(b.velocity.x == 1.0 && b.velocity.y == -2.0 && b.angle == 0.5 && b.angular_velocity == -4.0);
    cs_world_destroy(w);
}

// The last registered solver loads by name, and psor's relaxation reaches the world.
static void test_last_solver_and_relaxation(void** state)
{
    (void)state;
    char text[512];
    snprintf(text, sizeof text, "{\"solver\": \"%s\", \"bodies\": [" BODY "]}",
             cs_solver_at(cs_solver_count() - 1)->name);
    cs_scene_info info;
    cs_world* w = cs_test_load_scene_text(text, &info);
    assert_int_equal(cs_world_solver(w), cs_solver_count() - 1);
    cs_world_destroy(w);
    w = cs_test_load_scene_text(
        "{\"solver\": {\"name\": \"psor\", \"relaxation\": 1.2}, \"bodies\": [" BODY "]}", &info);
    assert_true(cs_world_solver_params(w)->relaxation == 1.2);
    cs_world_destroy(w);
}

// pgs-sm's keys: read into the solver params, and rejected at their value when out of range.
static void test_subspace_keys(void** state)
{
    (void)state;
    cs_world* w = cs_test_load_scene_text(
        "{\"solver\": {\"name\": \"pgs-sm\", \"kgs\": 2, \"ksm\": 4, \"subspace_solver\": \"pcg\"},"
        " \"bodies\": [" BODY "]}",
        NULL);
    const cs_solver_params* p = cs_world_solver_params(w);
    assert_int_equal(cs_world_solver(w), cs_solver_find("pgs-sm"));
    assert_true(p->kgs == 2 && p->ksm == 4 && p->subspace_solver == CS_SUBSPACE_PCG);
    cs_world_destroy(w);
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "],\n \"solver\": {\"name\": \"pgs-sm\", \"subspace_solver\": \"lu\"}}",
                               "\"lu\"", "solver.subspace_solver", "must be \"cholmod\" or \"pcg\"");
    cs_test_expect_scene_error("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"pgs-sm\", \"kgs\": 0}}",
                               "0}", "solver.kgs", "must be an integer in [1, ");
    cs_test_expect_scene_error("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"pgs-sm\", \"ksm\": -1}}",
                               "-1}", "solver.ksm", "must be an integer in [0, ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver_and_world_settings_reach_the_world),
        cmocka_unit_test(test_materials_walls_and_bodies),
        cmocka_unit_test(test_last_solver_and_relaxation),
        cmocka_unit_test(test_subspace_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
