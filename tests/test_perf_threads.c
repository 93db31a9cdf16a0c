// A second thread for the split-impulse position solve (cs_world_set_threads) must not change a single
// bit: the two solves share only read-only packed rows. Checked on a pool big enough for the hand-over
// to happen and on Pool 1, which stays on one thread.
#include "test_support.h"

#include <math.h>

static uint64_t run(cs_world* w, int threads, int steps, double* position_seconds)
{
    assert_true(cs_world_set_threads(w, threads));
    assert_int_equal(cs_world_threads(w), threads);
    *position_seconds = 0.0;
    int most_contacts = 0;
    for (int s = 0; s < steps; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        *position_seconds += cs_world_stats(w)->position_seconds;
        most_contacts = cs_world_contact_count(w) > most_contacts ? cs_world_contact_count(w) : most_contacts;
    }
    print_message("%d threads: up to %d contacts, state hash %016llx\n", threads, most_contacts,
                  (unsigned long long)cs_world_hash(w));
    return cs_world_hash(w);
}

static void big_pool_same_bits_on_two_threads(void** state)
{
    (void)state;
    double t1, t2;
    cs_world* a = cs_test_pool(3000, 55);
    cs_world* b = cs_test_pool(3000, 55);
    uint64_t one = run(a, 1, 120, &t1);
    uint64_t two = run(b, 2, 120, &t2);
    assert_true(one == two);
    assert_true(t1 > 0.0 && t2 > 0.0); // both measured the position solve
    // Every body's state, not only the hash.
    for (int i = 0; i < cs_world_body_count(a); ++i)
    {
        cs_body_state x = cs_world_body(a, i), y = cs_world_body(b, i);
        assert_memory_equal(&x, &y, sizeof x);
    }
    cs_world_destroy(a);
    cs_world_destroy(b); // joins the helper thread
}

static void pool1_same_bits_on_two_threads(void** state)
{
    (void)state;
    cs_error err = {CS_OK, ""};
    cs_scene_info info;
    uint64_t hashes[2];
    for (int threads = 1; threads <= 2; ++threads)
    {
        cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), &info, &err);
        assert_non_null(w);
        double t;
        hashes[threads - 1] = run(w, threads, 300, &t);
        cs_world_destroy(w);
    }
    assert_true(hashes[0] == hashes[1]);
}

static void only_one_or_two_threads(void** state)
{
    (void)state;
    cs_world_def def = cs_world_def_default();
    cs_world* w = cs_world_create(&def, NULL);
    assert_non_null(w);
    assert_int_equal(cs_world_threads(w), 1);
    assert_false(cs_world_set_threads(w, 0));
    assert_false(cs_world_set_threads(w, 3));
    assert_int_equal(cs_world_threads(w), 1);
    cs_world_destroy(w); // never started a thread
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(big_pool_same_bits_on_two_threads),
        cmocka_unit_test(pool1_same_bits_on_two_threads),
        cmocka_unit_test(only_one_or_two_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
