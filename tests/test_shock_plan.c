// The relax formulation's support pass (world/shock.c) replays the last step's pushes when its graph of
// supporting contacts is the last step's: every step must give the bits of a pass that builds the graph every
// time (shock_no_plan), on a settling pool, the 150-stack, a pile, balls falling through pegs (contacts that
// begin and end every step), a zig-zag column and discs rolling over pegs (one supporting contact replaced by
// another in one step) — each scene's highest disc struck from above now and then (pushes in steps whose
// graph held) — and both ways must have run. (What the graph compares besides its bodies, each side's being
// static, cannot change while a contact lasts: no call changes a body's type, and a sleeping body, whose
// inverse mass is 0, makes no contact with a static one and is woken by a moving one.)
#include "test_support.h"
#include "world/world_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static cs_world* load(const char* scene)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = scene[0] == '{' ? cs_scene_load_string(scene, "test.json", NULL, &err)
                                  : cs_scene_load(cs_test_source_path(scene), NULL, &err);
    if (w == NULL)
    {
        fail_msg("%s", err.message);
    }
    assert_true(cs_world_set_formulation(w, CS_FORMULATION_RELAX)); // (the paper's scenes pin split)
    return w;
}

// Discs rolling fast over a floor of pegs: each hands its weight from one peg to the next, sometimes within
// one step, so that a supporting contact is replaced by another on a different lower body at the same place
// in the list. The pegs are kinematic, drifting ±2 cm/s, so that pushing off the wrong one shows (off any
// static body it would not: a static body's velocity is 0).
static const char* rollers(void)
{
    static char scene[8192];
    int n = snprintf(scene, sizeof scene, "{\"bodies\": [");
    for (int i = 0; i < 49; ++i)
    {
        n += snprintf(
            scene + n, sizeof scene - (size_t)n,
            "{\"position\": [%g, 0], \"radius\": 0.1, \"type\": \"kinematic\", \"velocity\": [%g, 0]},\n",
            -6.0 + 0.25 * i, i % 2 ? 0.02 : -0.02);
    }
    n += snprintf(scene + n, sizeof scene - (size_t)n,
                  "{\"position\": [-5.5, 0.38], \"radius\": 0.3, \"mass\": 2, \"velocity\": [4, 0]},\n"
                  "{\"position\": [-3.5, 0.38], \"radius\": 0.3, \"mass\": 2, \"velocity\": [3, 0]},\n"
                  "{\"position\": [-1.5, 0.38], \"radius\": 0.3, \"mass\": 2, \"velocity\": [2.5, 0]},\n"
                  "{\"position\": [-1.5, 1.0], \"radius\": 0.3, \"mass\": 2, \"velocity\": [2.5, 0]}]}");
    assert_true(n < (int)sizeof scene);
    return scene;
}

// A zig-zag column of discs (every other one 2 cm aside) on a floor: its normals lean, and each strike from
// above (strike_top, below) moves them while the column keeps its contacts.
static const char* zigzag(void)
{
    static char scene[4096];
    int n = snprintf(scene, sizeof scene,
                     "{\"walls\": [{\"type\": \"half_plane\", \"point\": [0, 0], \"normal\": [0, 1]}],\n"
                     " \"bodies\": [");
    for (int i = 0; i < 12; ++i)
    {
        n += snprintf(scene + n, sizeof scene - (size_t)n,
                      "%s{\"position\": [%g, %g], \"radius\": 0.2, \"mass\": 1, \"friction\": 0.8}",
                      i > 0 ? ",\n" : "", 0.02 * (i % 2), 0.2 + 0.4005 * i);
    }
    n += snprintf(scene + n, sizeof scene - (size_t)n, "]}");
    assert_true(n < (int)sizeof scene);
    return scene;
}

// Every STRIKE_EVERY steps the highest disc is struck downwards (strike_top): the velocity solve does not
// carry the blow down a chain in its sweeps, so the support pass pushes in steps whose graph held, along
// normals that moved since the graph was built.
enum
{
    STRIKE_EVERY = 25
};

static void strike_top(cs_world* w)
{
    int top = -1;
    double y = -INFINITY;
    for (int i = 0; i < cs_world_body_count(w); ++i)
    {
        int id = cs_world_body_id(w, i);
        if (cs_world_body_type(w, id) == CS_BODY_DYNAMIC && cs_world_body(w, id).position.y > y)
        {
            y = cs_world_body(w, id).position.y;
            top = id;
        }
    }
    assert_true(cs_world_set_body_velocity(w, top, (cs_vec2){0.0, -3.0}, 0.0));
}

static void same_bits_as_building(const char* scene, int steps)
{
    cs_world* planned = load(scene);
    cs_world* built = load(scene);
    built->shock_no_plan = true;
    cs_world* both[2] = {planned, built};
    for (int s = 1; s <= steps; ++s)
    {
        for (int k = 0; k < 2; ++k)
        {
            if (s % STRIKE_EVERY == 0)
            {
                strike_top(both[k]);
            }
            assert_int_equal(cs_world_step(both[k]), CS_OK);
        }
        if (cs_world_hash(planned) != cs_world_hash(built))
        {
            fail_msg("%.40s: step %d differs from building the graph every step (%lld replays, %lld builds)",
                     scene, s, (long long)planned->shock_replays, (long long)planned->shock_builds);
        }
    }
    // Both ways ran: replays where the graph held, builds where it changed (beyond the first step's).
    assert_true(planned->shock_replays > 0);
    assert_true(planned->shock_builds > 1);
    assert_int_equal(built->shock_replays, 0);
    assert_int_equal(planned->shock_replays + planned->shock_builds, built->shock_builds);
    cs_world_destroy(planned);
    cs_world_destroy(built);
}

// The cases: a scene file, or a scene built here (scene_of), and how many steps.
typedef struct plan_case
{
    const char* file;
    const char* (*scene_of)(void);
    int steps;
} plan_case;

static void same_bits_case(void** state)
{
    const plan_case* c = *state;
    same_bits_as_building(c->file != NULL ? c->file : c->scene_of(), c->steps);
}

int main(void)
{
    static const plan_case pool = {"scenes/pool1.json", NULL, 400},
                           stack = {"scenes/stacking150.json", NULL, 300},
                           pile = {"scenes/pile.json", NULL, 300}, pegs = {"scenes/pegs.json", NULL, 400},
                           column = {NULL, zigzag, 300}, rolling = {NULL, rollers, 300};
    const struct CMUnitTest tests[] = {
        {"pool_settling", same_bits_case, NULL, NULL, (void*)&pool},
        {"stack150", same_bits_case, NULL, NULL, (void*)&stack},
        {"pile", same_bits_case, NULL, NULL, (void*)&pile},
        {"pegs", same_bits_case, NULL, NULL, (void*)&pegs},
        {"zigzag_column", same_bits_case, NULL, NULL, (void*)&column},
        {"rolling_over_pegs", same_bits_case, NULL, NULL, (void*)&rolling},
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
