// A step allocates nothing in the steady state: malloc, calloc and realloc are wrapped at link time
// (-Wl,--wrap, see tests/CMakeLists.txt) and counted around 100 steps of a settled Pool 1.
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>

void* __real_malloc(size_t size);
void* __real_calloc(size_t n, size_t size);
void* __real_realloc(void* p, size_t size);

static long allocations = 0;

void* __wrap_malloc(size_t size)
{
    allocations += 1;
    return __real_malloc(size);
}

void* __wrap_calloc(size_t n, size_t size)
{
    allocations += 1;
    return __real_calloc(n, size);
}

void* __wrap_realloc(void* p, size_t size)
{
    allocations += 1;
    return __real_realloc(p, size);
}

static void steady_state_steps_do_not_allocate(void** state)
{
    (void)state;
    const char* scenes[] = {"scenes/pool1.json", "scenes/stacking.json"};
    for (int k = 0; k < 2; ++k)
    {
        cs_error err;
        cs_scene_info info;
        long before_load = allocations;
        cs_world* w = cs_scene_load(cs_test_source_path(scenes[k]), &info, &err);
        assert_non_null(w);
        assert_true(allocations > before_load); // the counter sees the library's allocations
        for (int s = 0; s < 300; ++s)
        {
            cs_world_step(w);
        }
        long before = allocations;
        for (int s = 0; s < 100; ++s)
        {
            cs_world_step(w);
        }
        long during = allocations - before;
        printf("# %s: %ld allocations in 100 steady-state steps\n", scenes[k], during);
        assert_int_equal(during, 0);
        cs_world_destroy(w);
    }
}

// The same for every registered solver (Stacking 30, with friction): a method's own buffers grow while the
// rows grow and are reused after.
static void every_solver_steady_state_does_not_allocate(void** state)
{
    (void)state;
    for (int s = 0; s < cs_solver_count(); ++s)
    {
        cs_error err;
        cs_scene_info info;
        cs_world* w = cs_scene_load(cs_test_source_path("scenes/stacking.json"), &info, &err);
        assert_non_null(w);
        cs_world_set_solver(w, s);
        for (int k = 0; k < 200; ++k)
        {
            cs_world_step(w);
        }
        long before = allocations;
        for (int k = 0; k < 50; ++k)
        {
            cs_world_step(w);
        }
        long during = allocations - before;
        if (during != 0)
        {
            fail_msg("%s: %ld allocations in 50 steady-state steps", cs_solver_at(s)->name, during);
        }
        cs_world_destroy(w);
    }
}

static void history_recording_does_not_allocate_per_step(void** state)
{
    (void)state;
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), &info, &err);
    assert_non_null(w);
    assert_int_equal(cs_world_set_record_history(w, true, &err), CS_OK);
    for (int s = 0; s < 300; ++s)
    {
        cs_world_step(w);
    }
    long before = allocations;
    for (int s = 0; s < 50; ++s)
    {
        cs_world_step(w);
    }
    assert_int_equal(allocations - before, 0);
    const double* res_lcp = NULL;
    assert_int_equal(cs_world_history(w, &res_lcp, NULL), 11);
    assert_non_null(res_lcp);
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(steady_state_steps_do_not_allocate),
        cmocka_unit_test(every_solver_steady_state_does_not_allocate),
        cmocka_unit_test(history_recording_does_not_allocate_per_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
