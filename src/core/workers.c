// The worker pool (workers.h).
//
// A loop is published as (fn, ctx, tasks) plus a claim word: generation << 32 | next task. A thread takes a
// task by compare-and-swap on the claim word, so a thread that read an older loop's fields (it was
// descheduled while the caller started the next loop) fails its swap and reads again: nobody runs a task
// of one loop with another loop's function. `done` counts finished tasks; the caller waits for all.
//
// Waking: every publication (loop, background task, quit) bumps `signal`. A worker with nothing to do spins
// on it for a while (CS_SPIN checks with a pause, a yield every 64), then sleeps on `wake`; the publisher
// broadcasts only when a worker sleeps. (Dekker on seq_cst atomics: the worker counts itself in
// `sleepers` and then reads `signal` under the lock; the publisher bumps `signal` and then reads
// `sleepers`; at least one sees the other, and the broadcast is under the lock, so no wake-up is lost.)
#include "core/workers.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CS_PAUSE() _mm_pause()
#else
#define CS_PAUSE() ((void)0)
#endif

// Checks of `signal` before a worker sleeps: ~0.1–0.3 ms of pauses, longer than the gaps between a step's
// parallel stages on a busy world, much shorter than a frame, so a world that stops stepping frees the
// core at once.
#define CS_SPIN 4096

// Background task states.
enum
{
    BG_IDLE,
    BG_POSTED,
    BG_TAKEN,
    BG_DONE
};

typedef struct cs_worker_arg
{
    cs_workers* pool;
    int thread;
} cs_worker_arg;

struct cs_workers
{
    int count; // threads, the caller included
    int started;
    thrd_t thread[CS_WORKERS_MAX];
    cs_worker_arg arg[CS_WORKERS_MAX];
    // The current loop.
    _Atomic(cs_task_fn) fn;
    _Atomic(void*) ctx;
    atomic_int tasks;
    _Atomic uint64_t claim; // generation << 32 | next task
    atomic_int done;
    // The background task.
    _Atomic(cs_task_fn) bg_fn;
    _Atomic(void*) bg_ctx;
    atomic_int bg_state;
    // Waking.
    atomic_uint signal;
    atomic_int sleepers;
    atomic_bool quit;
    mtx_t lock;
    cnd_t wake;
};

// Runs tasks of the current loop until none is left; true if it ran any.
static bool run_tasks(cs_workers* p, int thread)
{
    bool ran = false;
    for (;;)
    {
        uint64_t c = atomic_load(&p->claim);
        cs_task_fn fn = atomic_load_explicit(&p->fn, memory_order_relaxed);
        void* ctx = atomic_load_explicit(&p->ctx, memory_order_relaxed);
        int tasks = atomic_load_explicit(&p->tasks, memory_order_relaxed);
        int next = (int)(uint32_t)c;
        if (next >= tasks)
        {
            return ran;
        }
        if (!atomic_compare_exchange_weak(&p->claim, &c, c + 1))
        {
            continue; // another thread took it, or a new loop started
        }
        fn(ctx, next, thread);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
        ran = true;
    }
}

// Runs the background task if it is posted and nobody took it; true if it ran it.
static bool run_background(cs_workers* p, int thread)
{
    int posted = BG_POSTED;
    if (atomic_load_explicit(&p->bg_state, memory_order_relaxed) != BG_POSTED ||
        !atomic_compare_exchange_strong(&p->bg_state, &posted, BG_TAKEN))
    {
        return false;
    }
    cs_task_fn fn = atomic_load_explicit(&p->bg_fn, memory_order_relaxed);
    fn(atomic_load_explicit(&p->bg_ctx, memory_order_relaxed), 0, thread);
    atomic_store_explicit(&p->bg_state, BG_DONE, memory_order_release);
    return true;
}

// Waits until `signal` moves past *seen: spins, then sleeps.
static void await_signal(cs_workers* p, unsigned* seen)
{
    for (int i = 0; i < CS_SPIN; ++i)
    {
        unsigned s = atomic_load_explicit(&p->signal, memory_order_acquire);
        if (s != *seen)
        {
            *seen = s;
            return;
        }
        if ((i & 63) == 63)
        {
            thrd_yield();
        }
        else
        {
            CS_PAUSE();
        }
    }
    mtx_lock(&p->lock);
    atomic_fetch_add(&p->sleepers, 1);
    while (atomic_load(&p->signal) == *seen)
    {
        cnd_wait(&p->wake, &p->lock);
    }
    atomic_fetch_sub(&p->sleepers, 1);
    *seen = atomic_load(&p->signal);
    mtx_unlock(&p->lock);
}

static int worker_main(void* arg)
{
    const cs_worker_arg* me = arg;
    cs_workers* p = me->pool;
    unsigned seen = atomic_load(&p->signal);
    while (!atomic_load(&p->quit))
    {
        bool ran = run_background(p, me->thread);
        ran = run_tasks(p, me->thread) || ran;
        if (!ran)
        {
            await_signal(p, &seen);
        }
    }
    return 0;
}

// Tells the workers something was published.
static void publish(cs_workers* p)
{
    atomic_fetch_add(&p->signal, 1);
    if (atomic_load(&p->sleepers) > 0)
    {
        mtx_lock(&p->lock);
        cnd_broadcast(&p->wake);
        mtx_unlock(&p->lock);
    }
}

// Spins until *x == want (acquire), yielding now and then: the thread it waits for may share the core.
static void await_int(atomic_int* x, int want)
{
    for (int i = 1; atomic_load_explicit(x, memory_order_acquire) != want; ++i)
    {
        if ((i & 63) == 0)
        {
            thrd_yield();
        }
        else
        {
            CS_PAUSE();
        }
    }
}

cs_workers* cs_workers_create(int threads)
{
    if (threads < 2 || threads > CS_WORKERS_MAX)
    {
        return NULL;
    }
    cs_workers* p = calloc(1, sizeof *p);
    if (p == NULL)
    {
        return NULL;
    }
    p->count = threads;
    atomic_init(&p->fn, NULL);
    atomic_init(&p->ctx, NULL);
    atomic_init(&p->tasks, 0);
    atomic_init(&p->claim, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->bg_fn, NULL);
    atomic_init(&p->bg_ctx, NULL);
    atomic_init(&p->bg_state, BG_IDLE);
    atomic_init(&p->signal, 0u);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->quit, false);
    if (mtx_init(&p->lock, mtx_plain) != thrd_success)
    {
        free(p);
        return NULL;
    }
    if (cnd_init(&p->wake) != thrd_success)
    {
        mtx_destroy(&p->lock);
        free(p);
        return NULL;
    }
    for (int i = 0; i < threads - 1; ++i)
    {
        p->arg[i] = (cs_worker_arg){p, i + 1};
        if (thrd_create(&p->thread[i], worker_main, &p->arg[i]) != thrd_success)
        {
            cs_workers_destroy(p);
            return NULL;
        }
        p->started += 1;
    }
    return p;
}

void cs_workers_destroy(cs_workers* p)
{
    if (p == NULL)
    {
        return;
    }
    atomic_store(&p->quit, true);
    publish(p);
    for (int i = 0; i < p->started; ++i)
    {
        thrd_join(p->thread[i], NULL);
    }
    cnd_destroy(&p->wake);
    mtx_destroy(&p->lock);
    free(p);
}

int cs_workers_threads(const cs_workers* p)
{
    return p != NULL ? p->count : 1;
}

int cs_workers_sleeping(const cs_workers* p)
{
    return p != NULL ? atomic_load(&((cs_workers*)p)->sleepers) : 0;
}

void cs_workers_for(cs_workers* p, int tasks, cs_task_fn fn, void* ctx)
{
    if (p == NULL || tasks <= 1)
    {
        for (int t = 0; t < tasks; ++t)
        {
            fn(ctx, t, 0);
        }
        return;
    }
    // The last loop is finished (every task claimed and done), so nobody reads these fields but to fail
    // the swap on the old generation.
    atomic_store_explicit(&p->fn, fn, memory_order_relaxed);
    atomic_store_explicit(&p->ctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&p->tasks, tasks, memory_order_relaxed);
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    uint64_t generation = (atomic_load(&p->claim) >> 32) + 1;
    atomic_store(&p->claim, generation << 32);
    publish(p);
    run_tasks(p, 0);
    await_int(&p->done, tasks);
}

bool cs_workers_post(cs_workers* p, cs_task_fn fn, void* ctx)
{
    if (p == NULL)
    {
        return false;
    }
    atomic_store_explicit(&p->bg_fn, fn, memory_order_relaxed);
    atomic_store_explicit(&p->bg_ctx, ctx, memory_order_relaxed);
    atomic_store(&p->bg_state, BG_POSTED);
    publish(p);
    return true;
}

void cs_workers_join(cs_workers* p)
{
    if (p == NULL)
    {
        return;
    }
    run_background(p, 0); // not taken yet: run it here
    await_int(&p->bg_state, BG_DONE);
    atomic_store(&p->bg_state, BG_IDLE);
}
