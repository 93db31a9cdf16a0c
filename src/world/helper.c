// The world's helper thread (world_internal.h cs_helper): it runs the split-impulse position solve of a
// large step beside the main thread's work (step.c decides when; cs_world_set_threads). A job is posted,
// run once, and waited for; the thread starts on first use and stops with the world.
#include "world/world_internal.h"

void cs_split_job_run(cs_split_job* job)
{
    double t0 = cs_seconds();
    cs_solve_split(job->solved, job->bodies, job->first, job->stride, job->count, job->bias, job->iterations,
                   job->simd, job->work, job->lambda, job->v);
    job->seconds = cs_seconds() - t0;
}

static int helper_main(void* arg)
{
    cs_helper* h = arg;
    mtx_lock(&h->lock);
    for (;;)
    {
        while (!h->posted && !h->quit)
        {
            cnd_wait(&h->wake, &h->lock);
        }
        if (h->quit)
        {
            break;
        }
        mtx_unlock(&h->lock);
        cs_split_job_run(&h->job);
        mtx_lock(&h->lock);
        h->posted = false;
        cnd_signal(&h->done);
    }
    mtx_unlock(&h->lock);
    return 0;
}

// Hands the job to the helper thread, starting it on first use. False (run it here) when the thread
// cannot be started.
bool cs_helper_post(cs_helper* h, const cs_split_job* job)
{
    if (!h->running)
    {
        if (mtx_init(&h->lock, mtx_plain) != thrd_success)
        {
            return false;
        }
        if (cnd_init(&h->wake) != thrd_success)
        {
            mtx_destroy(&h->lock);
            return false;
        }
        if (cnd_init(&h->done) != thrd_success)
        {
            cnd_destroy(&h->wake);
            mtx_destroy(&h->lock);
            return false;
        }
        h->posted = false;
        h->quit = false;
        if (thrd_create(&h->thread, helper_main, h) != thrd_success)
        {
            cnd_destroy(&h->done);
            cnd_destroy(&h->wake);
            mtx_destroy(&h->lock);
            return false;
        }
        h->running = true;
    }
    mtx_lock(&h->lock);
    h->job = *job;
    h->posted = true;
    cnd_signal(&h->wake);
    mtx_unlock(&h->lock);
    return true;
}

// Waits for the posted job; copies it back (its time).
void cs_helper_wait(cs_helper* h, cs_split_job* job)
{
    mtx_lock(&h->lock);
    while (h->posted)
    {
        cnd_wait(&h->done, &h->lock);
    }
    *job = h->job;
    mtx_unlock(&h->lock);
}

void cs_helper_stop(cs_helper* h)
{
    if (!h->running)
    {
        return;
    }
    mtx_lock(&h->lock);
    h->quit = true;
    cnd_signal(&h->wake);
    mtx_unlock(&h->lock);
    thrd_join(h->thread, NULL);
    cnd_destroy(&h->done);
    cnd_destroy(&h->wake);
    mtx_destroy(&h->lock);
    h->running = false;
}
