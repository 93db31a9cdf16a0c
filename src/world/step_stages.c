// The step's per-body stages on the world's workers (core/workers.h; docs/PERFORMANCE.md "Threads").
//
// Each stage splits its loop into chunks of a fixed size (CS_STAGE_CHUNK bodies), never into one range per
// thread, and reduces only with max, and or counts: so every thread count gives the same bits, and the
// chunks of one thread count are the chunks of any other. A world with one chunk (Pool 1) or one thread
// runs the loop in place, with no hand-over.
#include <math.h>
#include <string.h>

#include "core/array.h"
#include "world/world_internal.h"

int cs_stage_chunks(int n)
{
    return (n + CS_STAGE_CHUNK - 1) / CS_STAGE_CHUNK;
}

void cs_stage_range(int chunk, int n, int* first, int* end)
{
    *first = chunk * CS_STAGE_CHUNK;
    *end = *first + CS_STAGE_CHUNK < n ? *first + CS_STAGE_CHUNK : n;
}

// The trampoline from a chunk index to its range (cs_stage_for_range).
typedef struct range_job
{
    cs_range_fn fn;
    void* ctx;
    int n;
} range_job;

static void range_chunk(void* job, int chunk, int thread)
{
    (void)thread;
    const range_job* j = job;
    int first, end;
    cs_stage_range(chunk, j->n, &first, &end);
    j->fn(j->ctx, first, end);
}

void cs_stage_for_range(cs_world* w, int n, cs_range_fn fn, void* ctx)
{
    range_job j = {fn, ctx, n};
    cs_workers_for(cs_world_workers(w), cs_stage_chunks(n), range_chunk, &j);
}

cs_workers* cs_world_workers(cs_world* w)
{
    return w->workers; // (started by cs_world_set_threads, which refuses a count it cannot start)
}

bool cs_stage_chunk_reserve(cs_world* w, int chunks)
{
    return CS_GROW(w->chunk_ints, w->chunk_ints_capacity, 2 * chunks + 1) &&
           CS_GROW(w->chunk_doubles, w->chunk_doubles_capacity, CS_STAGE_PART_WIDTH * chunks + 1);
}

// The trampoline from a chunk index to its range and its part (cs_stage_parts).
typedef struct parts_job
{
    cs_part_fn fn;
    void* ctx;
    int n, width;
    double* parts;
} parts_job;

static void part_chunk(void* job, int chunk, int thread)
{
    (void)thread;
    const parts_job* j = job;
    int first, end;
    cs_stage_range(chunk, j->n, &first, &end);
    j->fn(j->ctx, first, end, j->parts + (size_t)chunk * (size_t)j->width);
}

const double* cs_stage_parts(cs_world* w, int n, int width, cs_part_fn fn, void* ctx)
{
    parts_job j = {fn, ctx, n, width, w->chunk_doubles};
    cs_workers_for(cs_world_workers(w), cs_stage_chunks(n), part_chunk, &j);
    return w->chunk_doubles;
}

// 1. External forces: v* = v + h M⁻¹ f; the velocity before them is kept (the contact instant needs both).
// The same pass writes v* into the velocity problem (reserved for the world's bodies) and how far each
// circle reaches this step (the broad phase's boxes): r + h|v*|. (Three passes over the bodies before, and
// two copies.)
static void forces_range(void* ctx, int first, int end)
{
    cs_world* w = ctx;
    const double h = w->def.time_step;
    const double gx = w->def.gravity.x, gy = w->def.gravity.y;
    const double *inv_mass = w->inv_mass, *fx = w->fx, *fy = w->fy, *radius = w->radius;
    double *v = w->v, *v_pre = w->v_pre, *v_star = w->velocity_problem.v, *reach = w->reach;
    for (int i = first; i < end; ++i)
    {
        double vx = v[3 * i], vy = v[3 * i + 1], om = v[3 * i + 2];
        v_pre[3 * i] = vx;
        v_pre[3 * i + 1] = vy;
        v_pre[3 * i + 2] = om;
        if (inv_mass[i] != 0.0) // (else static, kinematic or a free slot: no force moves it)
        {
            vx += h * (gx + fx[i] * inv_mass[i]);
            vy += h * (gy + fy[i] * inv_mass[i]);
            v[3 * i] = vx;
            v[3 * i + 1] = vy;
        }
        v_star[3 * i] = vx;
        v_star[3 * i + 1] = vy;
        v_star[3 * i + 2] = om;
        reach[i] = radius[i] + h * sqrt(vx * vx + vy * vy);
    }
}

void cs_stage_forces(cs_world* w)
{
    cs_stage_for_range(w, w->body_count, forces_range, w);
}

// The velocity solve's velocities back into the world.
typedef struct copy_job
{
    double* to;
    const double* from;
} copy_job;

static void copy_range(void* ctx, int first, int end)
{
    const copy_job* j = ctx;
    memcpy(j->to + 3 * first, j->from + 3 * first, (size_t)(3 * (end - first)) * sizeof(double));
}

void cs_stage_copy_velocities(cs_world* w, double* to, const double* from)
{
    copy_job j = {to, from};
    cs_stage_for_range(w, w->body_count, copy_range, &j);
}

// The velocity problem's bodies' inverse masses and inertias (after the broad phase, which may wake a body;
// v* is the forces stage's).
static void bodies_range(void* ctx, int first, int end)
{
    cs_world* w = ctx;
    cs_lcp* p = &w->velocity_problem;
    size_t n = (size_t)(end - first);
    memcpy(p->inv_mass + first, w->inv_mass + first, n * sizeof(double));
    memcpy(p->inv_inertia + first, w->inv_inertia + first, n * sizeof(double));
}

void cs_stage_problem_bodies(cs_world* w)
{
    cs_stage_for_range(w, w->body_count, bodies_range, w);
}

// Symplectic Euler: positions move with the new velocity plus the pseudo-velocity (NULL: none). Each
// chunk's largest squared move goes to its slot of `move2`.
typedef struct integrate_job
{
    cs_world* w;
    const double* pseudo;
    double* move2; // per chunk
} integrate_job;

static void integrate_chunk(void* ctx, int chunk, int thread)
{
    (void)thread;
    const integrate_job* j = ctx;
    cs_world* w = j->w;
    int first, end;
    cs_stage_range(chunk, w->body_count, &first, &end);
    const double h = w->def.time_step;
    const double *v = w->v, *vp_pseudo = j->pseudo;
    double *px = w->px, *py = w->py, *angle = w->angle;
    double move2 = 0.0;
    for (int i = first; i < end; ++i)
    {
        double dx = vp_pseudo != NULL ? vp_pseudo[3 * i] : 0.0;
        double dy = vp_pseudo != NULL ? vp_pseudo[3 * i + 1] : 0.0;
        double dw = vp_pseudo != NULL ? vp_pseudo[3 * i + 2] : 0.0;
        double mx = h * (v[3 * i] + dx), my = h * (v[3 * i + 1] + dy);
        px[i] += mx;
        py[i] += my;
        angle[i] += h * (v[3 * i + 2] + dw);
        move2 = cs_max(move2, mx * mx + my * my);
    }
    j->move2[chunk] = move2;
}

double cs_stage_integrate(cs_world* w, const double* pseudo)
{
    int chunks = cs_stage_chunks(w->body_count);
    double* move2 = w->chunk_doubles;
    integrate_job j = {w, pseudo, move2};
    cs_workers_for(cs_world_workers(w), chunks, integrate_chunk, &j);
    double most = 0.0;
    for (int c = 0; c < chunks; ++c)
    {
        most = cs_max(most, move2[c]);
    }
    return most;
}

void cs_split_job_run(cs_split_job* job)
{
    double t0 = cs_seconds();
    job->sweeps = cs_solve_split(job->solved, job->bodies, job->first, job->stride, job->count, job->bias,
                                 job->iterations, job->dv_limit, job->simd, job->work, job->lambda, job->v);
    job->seconds = cs_seconds() - t0;
}
