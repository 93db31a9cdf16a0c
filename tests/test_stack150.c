// The stack of 150 at 20 iterations (docs/PHYSICS.md "What the stacks show"): 150 discs (r 0.18 m,
// 1 kg) stacked exactly touching, 20 iterations per step, every world setting at its default (relax, coloured
// row order, 20 position sweeps). The top must come within 0.3 % of its exact height (0.18 + 149·0.36 m; the
// 1 mm slop per contact alone takes 0.28 %) and every disc below 1e-3 m/s within 60 s.
//
// What meets it with PGS, the default solver: the relax formulation's support pass (world/shock.c, shock
// propagation): PGS alone at 20 sweeps still moved at 0.076 m/s after 60 s with the top 0.82 % low. pssor
// (a forward and a backward sweep per iteration) in key order is held to the same target.
#include "test_support.h"

#include <math.h>
#include <stdio.h>

// The bodies (the scene's "world" is left at its defaults unless a case names a key).
#define STACK150_BODIES                                                                                      \
    " \"materials\": {\"ball\": {\"friction\": 0.1, \"restitution\": 0.2}},\n"                               \
    " \"walls\": [{\"type\": \"half_plane\", \"point\": [0, 0], \"normal\": [0, 1], \"material\": "          \
    "\"ball\"}],\n"                                                                                          \
    " \"generators\": [{\"type\": \"stack\", \"base\": [0, 0], \"count\": 150, \"radius\": 0.18, \"mass\": " \
    "1,\n"                                                                                                   \
    "                  \"material\": \"ball\"}]}"

static const char* const stack150_pgs =
    "{\"solver\": {\"name\": \"pgs\", \"iterations\": 20},\n" STACK150_BODIES;

static const char* const stack150_pssor =
    "{\"world\": {\"row_order\": \"key\"},\n"
    " \"solver\": {\"name\": \"pssor\", \"iterations\": 20, \"relaxation\": 1},\n" STACK150_BODIES;

static void stack150_settles(const char* scene, const char* what)
{
    cs_scene_info info;
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load_string(scene, "stack150.json", &info, &err);
    if (w == NULL)
    {
        fail_msg("%s", err.message);
    }
    const cs_world_def* def = cs_world_get_def(w);
    cs_world_def defaults = cs_world_def_default();
    assert_int_equal(def->formulation, defaults.formulation);
    assert_int_equal(def->position_iterations, defaults.position_iterations);
    assert_int_equal(def->solver_params.iterations, 20);
    int n = cs_world_body_count(w);
    assert_int_equal(n, 150);
    int still_at = -1;
    double worst_x = 0.0;
    for (int s = 1; s <= 3600; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        for (int i = 0; i < n; ++i)
        {
            worst_x = fmax(worst_x, fabs(cs_world_body(w, i).position.x));
        }
        if (still_at < 0 && cs_world_max_speed(w) < 1e-3)
        {
            still_at = s;
        }
    }
    double top = 0.0;
    for (int i = 0; i < n; ++i)
    {
        top = fmax(top, cs_world_body(w, i).position.y);
    }
    double exact = 0.18 + 0.36 * 149;
    printf("# stack of 150, %s 20, relax: still (< 1e-3 m/s) from step %d, top %.4f m (exact %.2f, %.3f %%), "
           "final max speed %.3g m/s\n",
           what, still_at, top, exact, 100.0 * (top - exact) / exact, cs_world_max_speed(w));
    assert_true(worst_x <= 1e-9); // it stays a vertical stack
    assert_true(still_at > 0);
    assert_true(cs_world_max_speed(w) < 1e-3); // and stays still
    assert_true(fabs(top - exact) <= 0.003 * exact);
    cs_world_destroy(w);
}

static void stack150_pgs_settles_at_20_iterations(void** state)
{
    (void)state;
    stack150_settles(stack150_pgs, "pgs");
}

static void stack150_pssor_settles_at_20_iterations(void** state)
{
    (void)state;
    stack150_settles(stack150_pssor, "pssor");
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stack150_pgs_settles_at_20_iterations),
        cmocka_unit_test(stack150_pssor_settles_at_20_iterations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
