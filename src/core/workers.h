// A small pool of worker threads for the step's stages (cs_world_set_threads; docs/PERFORMANCE.md
// "Threads").
//
// Two kinds of work, few hand-overs per step (an earlier pool with ~25 hand-overs and yielding barriers per
// step was slower than one thread):
// - a parallel loop, cs_workers_for: tasks 0 .. n−1 taken one at a time by the caller and the workers (an
//   atomic claim), returning when all are done. Each task writes its own outputs, so the results are the
//   same bits whatever thread ran which task and however many threads there are;
// - one background task, cs_workers_post / cs_workers_join: run by one worker while the caller goes on
//   (the split-impulse position solve beside the velocity solve). Loops started meanwhile run on the
//   caller and the other workers.
// Workers spin briefly on an atomic after their last task, then sleep on a condition variable, so an idle
// world burns no core. A NULL pool runs everything on the caller.
#ifndef CS_WORKERS_H
#define CS_WORKERS_H

#include <stdbool.h>

// Threads in a pool, the caller included.
#define CS_WORKERS_MAX 8

typedef struct cs_workers cs_workers;

// One task of a loop (task in [0, tasks)) or the background task (task 0), run on thread `thread` of the
// pool (0: the caller; workers 1 .. threads − 1), for scratch memory of its own.
typedef void (*cs_task_fn)(void* ctx, int task, int thread);

// A pool of `threads` threads, the caller included (2 .. CS_WORKERS_MAX): threads − 1 workers are started.
// NULL when out of memory or a thread cannot be started (the caller then runs everything itself).
cs_workers* cs_workers_create(int threads);
// Stops and joins the workers (no task may be running); NULL is a no-op.
void cs_workers_destroy(cs_workers* p);
// Threads of the pool, the caller included (1 for NULL).
int cs_workers_threads(const cs_workers* p);
// Workers asleep on the condition variable right now (0 for NULL): all of them soon after the last task.
int cs_workers_sleeping(const cs_workers* p);

// Runs fn(ctx, t, thread) for every t in [0, tasks) and returns when all have run. Not reentrant: one loop at
// a time, started by the pool's owner.
void cs_workers_for(cs_workers* p, int tasks, cs_task_fn fn, void* ctx);

// Hands fn(ctx, 0, thread) to a worker and returns at once; false (nothing posted) for NULL. One at a time:
// cs_workers_join waits for it (and runs it on the caller if no worker has taken it yet).
bool cs_workers_post(cs_workers* p, cs_task_fn fn, void* ctx);
void cs_workers_join(cs_workers* p);

#endif
