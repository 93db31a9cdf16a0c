// Threads (cs_world_set_threads) must not change a single bit: the step's stages split into chunks of a
// fixed size whatever the thread count, each writing its own entries, and the split-impulse position solve
// shares only read-only packed rows with the velocity solve. Checked on a pool big enough for every parallel
// stage to split (bodies, pairs and contacts in several chunks; the position solve handed over) and on
// Pool 1, which stays on one thread.
#include "test_support.h"

#include <math.h>
#include <time.h>

#include "world/world_internal.h"

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

// The step's stats, summed in chunks on the workers, against the sums here on one thread (a chunk skipped
// or counted twice is off by a thousandth of the pool, not by rounding).
static void check_stats(const cs_world* w)
{
    double ke = 0.0, max_pen = 0.0, sum_pen = 0.0;
    int touching = 0;
    for (int i = 0; i < w->body_count; ++i)
    {
        if (w->inv_mass[i] != 0.0)
        {
            const double* v = w->v + 3 * i;
            ke += 0.5 * w->mass[i] * (v[0] * v[0] + v[1] * v[1]) + 0.5 * v[2] * v[2] / w->inv_inertia[i];
        }
    }
    for (int k = 0; k < w->contacts.count; ++k)
    {
        double g = w->contacts.items[k].gap;
        max_pen = g < 0.0 && -g > max_pen ? -g : max_pen;
        sum_pen += g < 0.0 ? -g : 0.0;
        touching += g < 0.0;
    }
    const cs_step_stats* s = cs_world_stats(w);
    assert_true(ke > 0.0 && touching > CS_STAGE_CHUNK);
    assert_near(s->kinetic_energy, ke, 1e-12 * ke);
    assert_true(s->max_penetration == max_pen);
    assert_near(s->mean_penetration, sum_pen / touching, 1e-12 * max_pen);
}

static void big_pool_same_bits_on_any_thread_count(void** state)
{
    (void)state;
    cs_world* w[3];
    uint64_t hash[3];
    double seconds[3];
    for (int t = 0; t < 3; ++t)
    {
        w[t] = cs_test_pool(3000, 55);
        hash[t] = run(w[t], t + 1, 120, &seconds[t]);
        assert_true(seconds[t] > 0.0); // every run measured the position solve
        check_stats(w[t]);
    }
    // Every stage split: more than one chunk of bodies, pairs and contacts, and the position solve big
    // enough to be handed over (step.c CS_PARALLEL_SPLIT_MIN).
    assert_true(cs_world_body_count(w[0]) > 2 * CS_STAGE_CHUNK);
    assert_true(w[0]->broadphase.pair_count > 2 * CS_STAGE_CHUNK);
    assert_true(cs_world_contact_count(w[0]) > 2 * CS_STAGE_CHUNK);
    assert_true(cs_world_contact_count(w[0]) * w[0]->def.position_iterations >= 40000);
    assert_non_null(w[2]->workers);
    for (int t = 1; t < 3; ++t)
    {
        assert_true(hash[t] == hash[0]);
        // Every body's state, not only the hash, and the step's numbers.
        for (int i = 0; i < cs_world_body_count(w[0]); ++i)
        {
            cs_body_state x = cs_world_body(w[0], i), y = cs_world_body(w[t], i);
            assert_memory_equal(&x, &y, sizeof x);
        }
        const cs_step_stats *a = cs_world_stats(w[0]), *b = cs_world_stats(w[t]);
        assert_true(a->kinetic_energy == b->kinetic_energy && a->max_penetration == b->max_penetration &&
                    a->mean_penetration == b->mean_penetration && a->res_lcp == b->res_lcp);
    }
    for (int t = 0; t < 3; ++t)
    {
        cs_world_destroy(w[t]); // joins the workers
    }
}

static void pool1_same_bits_on_any_thread_count(void** state)
{
    (void)state;
    cs_error err = {CS_OK, ""};
    cs_scene_info info;
    uint64_t hashes[3];
    for (int threads = 1; threads <= 3; ++threads)
    {
        cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), &info, &err);
        assert_non_null(w);
        double t;
        hashes[threads - 1] = run(w, threads, 300, &t);
        cs_world_destroy(w);
    }
    assert_true(hashes[0] == hashes[1] && hashes[0] == hashes[2]);
}

// Changing the count mid-run keeps the bits too (the workers are stopped and the next step starts new ones),
// and a world that stops stepping lets its workers sleep (no core burnt; polled for up to 30 s, not timed).
static void thread_count_changes_and_idle_workers_sleep(void** state)
{
    (void)state;
    cs_world* a = cs_test_pool(3000, 55);
    cs_world* b = cs_test_pool(3000, 55);
    double t;
    run(a, 1, 60, &t);
    run(b, 3, 20, &t);
    run(b, 2, 20, &t);
    uint64_t one = run(a, 1, 0, &t);
    uint64_t mixed = run(b, 4, 20, &t);
    assert_true(one == mixed);
    struct timespec nap = {0, 10 * 1000 * 1000};
    for (int polls = 0; polls < 3000 && cs_workers_sleeping(b->workers) < 3; ++polls)
    {
        nanosleep(&nap, NULL);
    }
    assert_int_equal(cs_workers_sleeping(b->workers), 3);
    // A clone runs on as many threads (its own), with the same bits.
    cs_error err = {CS_OK, ""};
    cs_world* c = cs_world_clone(b, &err);
    assert_non_null(c);
    assert_int_equal(cs_world_threads(c), 4);
    assert_true(c->workers != NULL && c->workers != b->workers);
    for (int s = 0; s < 5; ++s)
    {
        assert_int_equal(cs_world_step(b), CS_OK);
        assert_int_equal(cs_world_step(c), CS_OK);
    }
    assert_true(cs_world_hash(b) == cs_world_hash(c));
    cs_world_destroy(a);
    cs_world_destroy(b);
    cs_world_destroy(c);
}

// The walls' contacts on the workers ((wall, chunk of bodies) tasks, their runs closed up) against one
// thread's single pass: 3 000 circles in a row on a floor under a ceiling, so that every task finds
// contacts (a task skipped or a run out of place changes the list).
static void wall_contacts_on_any_thread_count(void** state)
{
    (void)state;
    enum
    {
        N = 3000
    };
    cs_contact_info first[2 * N];
    for (int threads = 1; threads <= 3; ++threads)
    {
        cs_world_def def = cs_world_def_default();
        cs_error err;
        cs_world* w = cs_world_create(&def, &err);
        assert_non_null(w);
        assert_true(cs_world_set_threads(w, threads));
        assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.5, 0.0, &err), 0);
        assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){0, 0.21}, (cs_vec2){0, -1}, 0.5, 0.0, &err), 1);
        for (int i = 0; i < N; ++i)
        {
            cs_test_add(w, CS_BODY_DYNAMIC, 0.3 * i, 0.1, 0.1, 1.0);
        }
        assert_int_equal(cs_world_step(w), CS_OK);
        assert_int_equal(cs_world_contact_count(w), 2 * N); // each circle on the floor and near the ceiling
        for (int k = 0; k < 2 * N; ++k)
        {
            cs_contact_info c = cs_world_contact(w, k);
            if (threads == 1)
            {
                first[k] = c;
            }
            const cs_contact_info* f = first + k; // (field by field: the struct has padding)
            assert_true(c.body_a == f->body_a && c.body_b == f->body_b && c.wall == f->wall &&
                        c.point.x == f->point.x && c.point.y == f->point.y && c.normal.x == f->normal.x &&
                        c.normal.y == f->normal.y && c.gap == f->gap &&
                        c.normal_impulse == f->normal_impulse && c.friction_impulse == f->friction_impulse);
        }
        cs_world_destroy(w);
    }
}

// cs_stage_parts: every chunk once, its part in its slot, in chunk order, on 1 to 4 threads.
static void index_part(void* ctx, int first, int end, double* part)
{
    (void)ctx;
    part[0] = first;
    part[1] = end;
    part[2] = 0.0;
    for (int i = first; i < end; ++i)
    {
        part[2] += i;
    }
}

static void parts_in_chunk_order(void** state)
{
    (void)state;
    const int n = 3 * CS_STAGE_CHUNK + 77;
    for (int threads = 1; threads <= 4; ++threads)
    {
        cs_world* w = cs_test_pool(100, 1);
        assert_true(cs_world_set_threads(w, threads));
        assert_int_equal(cs_world_step(w), CS_OK); // (starts the workers)
        assert_true(cs_stage_chunk_reserve(w, cs_stage_chunks(n)));
        const double* parts = cs_stage_parts(w, n, 3, index_part, NULL);
        double sum = 0.0;
        for (int c = 0; c < cs_stage_chunks(n); ++c)
        {
            int first, end;
            cs_stage_range(c, n, &first, &end);
            assert_true(parts[3 * c] == first && parts[3 * c + 1] == end);
            sum += parts[3 * c + 2];
        }
        assert_true(sum == 0.5 * n * (n - 1.0));
        cs_world_destroy(w);
    }
}

static void one_to_eight_threads(void** state)
{
    (void)state;
    cs_world_def def = cs_world_def_default();
    cs_world* w = cs_world_create(&def, NULL);
    assert_non_null(w);
    assert_int_equal(cs_world_threads(w), 1);
    assert_false(cs_world_set_threads(w, 0));
    assert_false(cs_world_set_threads(w, 9));
    assert_int_equal(cs_world_threads(w), 1);
    assert_true(cs_world_set_threads(w, 8));
    assert_int_equal(cs_world_threads(w), 8);
    assert_int_equal(cs_workers_threads(w->workers), 8); // started here
    assert_true(cs_world_set_threads(w, 1));
    assert_null(w->workers); // stopped
    assert_true(cs_world_set_threads(w, 3));
    cs_world_destroy(w); // joins them
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(big_pool_same_bits_on_any_thread_count),
        cmocka_unit_test(pool1_same_bits_on_any_thread_count),
        cmocka_unit_test(thread_count_changes_and_idle_workers_sleep),
        cmocka_unit_test(one_to_eight_threads),
        cmocka_unit_test(parts_in_chunk_order),
        cmocka_unit_test(wall_contacts_on_any_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
