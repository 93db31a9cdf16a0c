// The worker pool (workers.h).
//
// A loop is published as (fn, ctx, base) plus a claim word: generation | task count | next task (24, 20, 20
// bits). A thread takes a task by compare-and-swap on the claim word, which holds the loop's bound too: a
// thread that read an older loop's word (it was descheduled while the caller started the next loop) fails
// its swap and reads again, so nobody runs a task twice or a task of one loop with another loop's fields.
// (With the bound in a field of its own, a worker that read a finished loop's word and then the next loop's
// count claimed a task before the new word was out: TSan found a task run twice.) `done` counts finished
// tasks; the caller waits for all. A loop of more than CS_CLAIM_TASKS tasks goes out in parts (base).
//
// POSIX threads, not C11's <threads.h>: ThreadSanitizer intercepts pthread_create but not glibc's
// thrd_create (a TSan build crashed on the first worker), and it must see the lock to check the rest.
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
#include <pthread.h>
#include <sched.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CS_PAUSE() _mm_pause()
#else
#define CS_PAUSE() ((void)0)
#endif

// Checks of `signal` before a worker sleeps: ~0.5 ms of pauses (0.56 ms measured on the 2-vCPU Zen 4 VM),
// longer than most serial stretches between a step's parallel stages (a 2 000-circle stream's velocity
// solve is ~0.4 ms; its restitution pass, ~0.9 ms, still outlasts it). A sleeping worker woke late in a VM:
// at 4 096 checks (0.14 ms) two threads ran stream-2000 25–55 % slower than one, at 16 384 13 % faster, and
// 65 536 (2.1 ms) gained nothing more (docs/PERFORMANCE.md "Issue 12 now"). Still much shorter than a frame,
// so a world that stops stepping frees the core within a millisecond.
#define CS_SPIN 16384

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
    pthread_t thread[CS_WORKERS_MAX];
    cs_worker_arg arg[CS_WORKERS_MAX];
    // The current loop.
    _Atomic(cs_task_fn) fn;
    _Atomic(void*) ctx;
    atomic_int base;        // the loop's task numbers start here
    _Atomic uint64_t claim; // generation << 40 | tasks << 20 | next task
    atomic_int done;
    // The background task.
    _Atomic(cs_task_fn) bg_fn;
    _Atomic(void*) bg_ctx;
    atomic_int bg_state;
    // Waking.
    atomic_uint signal;
    atomic_int sleepers;
    atomic_bool quit;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    atomic_bool caller_sleeps; // the caller waits on `finished` for a chunk or the background task
    pthread_cond_t finished;
};

// After a task: wakes the caller if it went to sleep waiting (the same Dekker pattern as `signal`).
static void wake_caller(cs_workers* p)
{
    if (atomic_load(&p->caller_sleeps))
    {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->finished);
        pthread_mutex_unlock(&p->lock);
    }
}

// The claim word's fields.
#define CS_CLAIM_BITS  20
#define CS_CLAIM_TASKS ((1 << CS_CLAIM_BITS) - 1)

static inline uint64_t claim_word(uint64_t generation, int tasks)
{
    return generation << (2 * CS_CLAIM_BITS) | (uint64_t)tasks << CS_CLAIM_BITS;
}

// Runs tasks of the current loop until none is left; true if it ran any.
static bool run_tasks(cs_workers* p, int thread)
{
    bool ran = false;
    for (;;)
    {
        uint64_t c = atomic_load(&p->claim);
        int next = (int)(c & CS_CLAIM_TASKS);
        int tasks = (int)((c >> CS_CLAIM_BITS) & CS_CLAIM_TASKS);
        if (next >= tasks)
        {
            return ran;
        }
        // (Read after the word: the loop's own fields, published before it.)
        cs_task_fn fn = atomic_load_explicit(&p->fn, memory_order_relaxed);
        void* ctx = atomic_load_explicit(&p->ctx, memory_order_relaxed);
        int base = atomic_load_explicit(&p->base, memory_order_relaxed);
        if (!atomic_compare_exchange_weak(&p->claim, &c, c + 1))
        {
            continue; // another thread took it
        }
        fn(ctx, base + next, thread);
        atomic_fetch_add(&p->done, 1);
        wake_caller(p);
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
    atomic_store(&p->bg_state, BG_DONE);
    wake_caller(p);
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
            sched_yield();
        }
        else
        {
            CS_PAUSE();
        }
    }
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->sleepers, 1);
    while (atomic_load(&p->signal) == *seen)
    {
        pthread_cond_wait(&p->wake, &p->lock);
    }
    atomic_fetch_sub(&p->sleepers, 1);
    *seen = atomic_load(&p->signal);
    pthread_mutex_unlock(&p->lock);
}

static void* worker_main(void* arg)
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
    return NULL;
}

// Tells the workers something was published.
static void publish(cs_workers* p)
{
    atomic_fetch_add(&p->signal, 1);
    if (atomic_load(&p->sleepers) > 0)
    {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
}

// Waits until *x == want: spins as a worker does, then sleeps on `finished` (on a busy machine the thread it
// waits for may be off its core; spinning on took the core it needed: two threads ran 1.6× slower than one
// at a load of 4 on two cores).
static void await_int(cs_workers* p, atomic_int* x, int want)
{
    for (int i = 1; i <= CS_SPIN; ++i)
    {
        if (atomic_load(x) == want)
        {
            return;
        }
        if ((i & 63) == 0)
        {
            sched_yield();
        }
        else
        {
            CS_PAUSE();
        }
    }
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->caller_sleeps, true);
    while (atomic_load(x) != want)
    {
        pthread_cond_wait(&p->finished, &p->lock);
    }
    atomic_store(&p->caller_sleeps, false);
    pthread_mutex_unlock(&p->lock);
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
    atomic_init(&p->base, 0);
    atomic_init(&p->claim, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->bg_fn, NULL);
    atomic_init(&p->bg_ctx, NULL);
    atomic_init(&p->bg_state, BG_IDLE);
    atomic_init(&p->signal, 0u);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->quit, false);
    if (pthread_mutex_init(&p->lock, NULL) != 0)
    {
        free(p);
        return NULL;
    }
    atomic_init(&p->caller_sleeps, false);
    if (pthread_cond_init(&p->wake, NULL) != 0)
    {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->finished, NULL) != 0)
    {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    for (int i = 0; i < threads - 1; ++i)
    {
        p->arg[i] = (cs_worker_arg){p, i + 1};
        if (pthread_create(&p->thread[i], NULL, worker_main, &p->arg[i]) != 0)
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
        pthread_join(p->thread[i], NULL);
    }
    pthread_cond_destroy(&p->finished);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
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
    for (int base = 0; base < tasks; base += CS_CLAIM_TASKS)
    {
        int part = tasks - base < CS_CLAIM_TASKS ? tasks - base : CS_CLAIM_TASKS;
        // The last loop is finished (every task claimed and done), so nobody reads these fields but to
        // fail the swap on the old word.
        atomic_store_explicit(&p->fn, fn, memory_order_relaxed);
        atomic_store_explicit(&p->ctx, ctx, memory_order_relaxed);
        atomic_store_explicit(&p->base, base, memory_order_relaxed);
        atomic_store_explicit(&p->done, 0, memory_order_relaxed);
        uint64_t generation = (atomic_load(&p->claim) >> (2 * CS_CLAIM_BITS)) + 1;
        atomic_store(&p->claim, claim_word(generation, part));
        publish(p);
        run_tasks(p, 0);
        await_int(p, &p->done, part);
    }
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
    await_int(p, &p->bg_state, BG_DONE);
    atomic_store(&p->bg_state, BG_IDLE);
}
