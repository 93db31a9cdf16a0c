// The worker pool (core/workers.h): every task of a loop runs exactly once, on a thread index of the pool;
// loops follow each other without mixing; the background task runs once beside loops; an idle pool sleeps.
#include "test_support.h"

#include <stdatomic.h>
#include <time.h>

#include "core/workers.h"

enum
{
    TASKS = 1000
};

typedef struct loop_ctx
{
    atomic_int runs[TASKS];
    atomic_int bad_thread;
    int threads;
    int loop; // which loop this is: written into out
    int* out;
} loop_ctx;

static void count_task(void* arg, int task, int thread)
{
    loop_ctx* c = arg;
    atomic_fetch_add(&c->runs[task], 1);
    if (thread < 0 || thread >= c->threads)
    {
        atomic_fetch_add(&c->bad_thread, 1);
    }
    c->out[task] = c->loop * TASKS + task;
}

static void every_task_once(void** state)
{
    (void)state;
    static int out[TASKS];
    for (int threads = 2; threads <= 4; ++threads)
    {
        cs_workers* p = cs_workers_create(threads);
        assert_non_null(p);
        assert_int_equal(cs_workers_threads(p), threads);
        static loop_ctx c;
        for (int loop = 0; loop < 200; ++loop) // back to back: a late worker must not run a stale loop
        {
            for (int t = 0; t < TASKS; ++t)
            {
                atomic_init(&c.runs[t], 0);
            }
            atomic_init(&c.bad_thread, 0);
            c.threads = threads;
            c.loop = loop;
            c.out = out;
            int tasks = 1 + (loop * 37) % TASKS;
            cs_workers_for(p, tasks, count_task, &c);
            for (int t = 0; t < TASKS; ++t)
            {
                assert_int_equal(atomic_load(&c.runs[t]), t < tasks ? 1 : 0);
                if (t < tasks)
                {
                    assert_int_equal(out[t], loop * TASKS + t);
                }
            }
            assert_int_equal(atomic_load(&c.bad_thread), 0);
        }
        cs_workers_destroy(p);
    }
    assert_null(cs_workers_create(1));
    assert_null(cs_workers_create(CS_WORKERS_MAX + 1));
}

typedef struct bg_ctx
{
    atomic_int runs;
    atomic_int thread;
} bg_ctx;

static void bg_task(void* arg, int task, int thread)
{
    bg_ctx* b = arg;
    atomic_store(&b->thread, task == 0 ? thread : -2); // (no cmocka assert off the test's thread)
    atomic_fetch_add(&b->runs, 1);
}

// One round: a background task posted, a loop of `tasks` run beside it, both joined. Returns how many things
// went wrong: a task of the loop (or the one after its end) not run exactly as often as it should, the
// background task not run once, or run on a thread index outside the pool.
static int loop_beside_background(cs_workers* p, loop_ctx* c, int* out, int threads, int round, int tasks)
{
    bg_ctx b;
    atomic_init(&b.runs, 0);
    atomic_init(&b.thread, -1);
    if (!cs_workers_post(p, bg_task, &b))
    {
        return 1;
    }
    int end = tasks < TASKS ? tasks + 1 : TASKS;
    for (int t = 0; t < end; ++t)
    {
        atomic_store(&c->runs[t], 0);
    }
    c->threads = threads;
    c->loop = round;
    c->out = out;
    cs_workers_for(p, tasks, count_task, c); // the caller (and the other workers) run it
    cs_workers_join(p);
    int wrong = 0;
    for (int t = 0; t < end; ++t)
    {
        wrong += atomic_load(&c->runs[t]) != (t < tasks ? 1 : 0);
    }
    int thread = atomic_load(&b.thread);
    wrong += atomic_load(&b.runs) != 1;
    wrong += thread < 0 || thread >= threads;
    return wrong;
}

static void background_beside_loops(void** state)
{
    (void)state;
    static int out[TASKS];
    static loop_ctx c;
    for (int threads = 2; threads <= 3; ++threads)
    {
        cs_workers* p = cs_workers_create(threads);
        assert_non_null(p);
        for (int round = 0; round < 100; ++round)
        {
            assert_int_equal(loop_beside_background(p, &c, out, threads, round, TASKS), 0);
        }
        assert_int_equal(atomic_load(&c.bad_thread), 0);
        cs_workers_destroy(p);
    }
    // No pool: nothing is posted, loops run on the caller.
    bg_ctx b;
    atomic_init(&b.runs, 0);
    atomic_init(&b.thread, -1);
    assert_false(cs_workers_post(NULL, bg_task, &b));
    cs_workers_join(NULL);
    assert_int_equal(atomic_load(&b.runs), 0);
    c.threads = 1;
    c.loop = 0;
    c.out = out;
    for (int t = 0; t < TASKS; ++t)
    {
        atomic_init(&c.runs[t], 0);
    }
    cs_workers_for(NULL, 10, count_task, &c);
    assert_int_equal(atomic_load(&c.runs[9]), 1);
    assert_int_equal(cs_workers_threads(NULL), 1);
}

// Many short loops of changing sizes back to back, each beside a background task: a worker that read a
// finished loop's claim must not take a task of the next one early (it ran a task twice before the bound
// went into the claim word; seen under ThreadSanitizer, whose scheduling widens the window).
static void short_loops_back_to_back(void** state)
{
    (void)state;
    static int out[TASKS];
    static loop_ctx c;
    for (int threads = 2; threads <= 3; ++threads)
    {
        cs_workers* p = cs_workers_create(threads);
        assert_non_null(p);
        int wrong = 0;
        for (int round = 0; round < 20000 && wrong == 0; ++round)
        {
            wrong += loop_beside_background(p, &c, out, threads, round, 1 + (round * 37) % 64);
        }
        assert_int_equal(wrong, 0);
        assert_int_equal(atomic_load(&c.bad_thread), 0);
        cs_workers_destroy(p);
    }
}

// An idle pool burns no core: after a short spin every worker sleeps on the condition variable. (Not a
// timing: it polls for up to 30 s, and a worker that spins forever never gets there.)
static void idle_workers_sleep(void** state)
{
    (void)state;
    cs_workers* p = cs_workers_create(4);
    assert_non_null(p);
    static int out[TASKS];
    static loop_ctx c;
    c.threads = 4;
    c.out = out;
    cs_workers_for(p, TASKS, count_task, &c);
    struct timespec nap = {0, 10 * 1000 * 1000};
    int polls = 0;
    while (cs_workers_sleeping(p) < 3 && polls < 3000)
    {
        nanosleep(&nap, NULL);
        polls += 1;
    }
    assert_int_equal(cs_workers_sleeping(p), 3);
    // And they wake for the next loop.
    for (int t = 0; t < TASKS; ++t)
    {
        atomic_init(&c.runs[t], 0);
    }
    cs_workers_for(p, TASKS, count_task, &c);
    assert_int_equal(atomic_load(&c.runs[TASKS - 1]), 1);
    cs_workers_destroy(p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_task_once),
        cmocka_unit_test(background_beside_loops),
        cmocka_unit_test(short_loops_back_to_back),
        cmocka_unit_test(idle_workers_sleep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
