// cs_world_clone: a clone stepped with any solver gives the same bits as a freshly loaded world brought to
// the same step and stepped with that solver (so the clone carries the warm start and every body field),
// for every scene in scenes/; and clone and original stay independent.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_world.h"
#include "test_support.h"

static cs_world* load(const char* path)
{
    cs_error err = {0};
    cs_world* w = cs_scene_load(path, NULL, &err);
    if (w == NULL)
    {
        fail_msg("%s: %s", path, err.message);
    }
    return w;
}

static void step(cs_world* w, int n)
{
    for (int i = 0; i < n; ++i)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
}

// Fork at step `fork`, then `after` steps with `solver` on both the clone and a fresh run.
static void check_scene(const char* path, int fork, int after)
{
    cs_world* original = load(path);
    step(original, fork);
    cs_error err = {0};
    cs_world* clone = cs_world_clone(original, &err);
    if (clone == NULL)
    {
        fail_msg("%s: clone at step %d: %s", path, fork, err.message);
    }
    assert_int_equal(cs_world_hash(clone), cs_world_hash(original));
    assert_int_equal(cs_world_stats(clone)->step, fork);
    bool small = strstr(path, "stacking.json") != NULL || strstr(path, "newton.json") != NULL;
    for (int s = 0; s < cs_solver_count(); ++s)
    {
        // The slow methods (pivoting, Newton, pgs-sm/kz: seconds per pool step, minutes under the
        // sanitizers) fork the small scenes; every method forks those, every scene forks the fast ones.
        const cs_solver_info* info = cs_solver_at(s);
        bool slow = (info->flags & (CS_SOLVER_PIVOTING | CS_SOLVER_USES_KGS | CS_SOLVER_DENSE)) != 0 ||
                    strncmp(info->name, "newton-", 7) == 0;
        if (slow && !small)
        {
            continue;
        }
        cs_world* fresh = load(path);
        step(fresh, fork);
        cs_world* fork_world = cs_world_clone(original, &err);
        assert_non_null(fork_world);
        cs_world_set_solver(fresh, s);
        cs_world_set_solver(fork_world, s);
        step(fresh, after);
        step(fork_world, after);
        if (cs_world_hash(fresh) != cs_world_hash(fork_world))
        {
            fail_msg("%s: clone at step %d and %s for %d steps differs from a fresh run", path, fork,
                     cs_solver_at(s)->name, after);
        }
        cs_world_destroy(fresh);
        cs_world_destroy(fork_world);
    }
    // Independent: stepping the clone leaves the original where it was.
    uint64_t before = cs_world_hash(original);
    step(clone, 3);
    assert_int_equal(cs_world_hash(original), before);
    cs_world_destroy(clone);
    cs_world_destroy(original);
}

static void test_clone_every_scene(void** state)
{
    (void)state;
    const char* dir_path = cs_test_source_path("scenes");
    char dir_copy[4096];
    snprintf(dir_copy, sizeof dir_copy, "%s", dir_path);
    DIR* dir = opendir(dir_copy);
    assert_non_null(dir);
    int scenes = 0;
    for (struct dirent* e = readdir(dir); e != NULL; e = readdir(dir))
    {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
        {
            continue;
        }
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir_copy, e->d_name);
        check_scene(path, 40, 12);
        scenes++;
    }
    closedir(dir);
    assert_true(scenes >= 3);
}

// The warm start is what a clone most easily loses: a warm-started step differs from a cold one on a
// resting pile, so a clone without the last contacts' impulses would fail check_scene. Make sure the
// scene used really depends on it.
static void test_warm_start_matters(void** state)
{
    (void)state;
    cs_world* a = load(cs_test_source_path("scenes/pool1.json"));
    step(a, 40);
    cs_error err = {0};
    cs_world* b = cs_world_clone(a, &err);
    cs_solver_params cold = *cs_world_solver_params(b);
    cold.warm_start = false;
    cs_world_set_solver_params(b, &cold);
    step(a, 1);
    step(b, 1);
    assert_true(cs_world_hash(a) != cs_world_hash(b));
    cs_world_destroy(a);
    cs_world_destroy(b);
}

// Removed slots, sleeping islands, joints, filters, sensors and events clone too (the clone is a snapshot
// written and read in memory): a clone taken at step 100 of the engine world and stepped 100 more with the
// same script of removals and additions has the events, new ids and state hash of the uninterrupted run,
// and so does the original it was taken from.
static void test_clone_engine_world(void** state)
{
    (void)state;
    cs_world* straight = cs_test_engine_world();
    uint64_t digest[100];
    for (int s = 1; s <= 200; ++s)
    {
        uint64_t d = cs_test_engine_step(straight);
        digest[(s - 1) % 100] = d;
    }
    cs_world* original = cs_test_engine_world();
    for (int s = 1; s <= 100; ++s)
    {
        cs_test_engine_step(original);
    }
    assert_true(cs_world_body_asleep(original, 0));
    cs_error err = {0};
    cs_world* clone = cs_world_clone(original, &err);
    if (clone == NULL)
    {
        fail_msg("clone: %s", err.message);
    }
    assert_int_equal(cs_world_body_id(clone, 5), cs_world_body_id(original, 5));
    for (int s = 101; s <= 200; ++s)
    {
        if (cs_test_engine_step(clone) != digest[s - 101] || cs_test_engine_step(original) != digest[s - 101])
        {
            fail_msg("step %d: the clone's (or the original's) events, new ids or awake count differ", s);
        }
    }
    assert_int_equal(cs_world_hash(clone), cs_world_hash(straight));
    assert_int_equal(cs_world_hash(original), cs_world_hash(straight));
    cs_world_destroy(clone);
    cs_world_destroy(original);
    cs_world_destroy(straight);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clone_every_scene),
        cmocka_unit_test(test_warm_start_matters),
        cmocka_unit_test(test_clone_engine_world),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
