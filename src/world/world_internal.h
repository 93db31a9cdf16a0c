// The world's data. Bodies are a structure of arrays: the step's loops touch a few fields of every body.
#ifndef CS_WORLD_INTERNAL_H
#define CS_WORLD_INTERNAL_H

#include <threads.h>

#include "circlesim/world.h"
#include "contact/broadphase.h"
#include "contact/contact.h"
#include "contact/contact_order.h"
#include "solver/solver_internal.h"

// A second thread for the split-impulse position solve (cs_world_set_threads): it depends on the velocity
// solve's packed rows only, so it runs while the velocity sweeps run and the results are the same bits as
// on one thread. The thread is started on first use and sleeps between steps.
typedef struct cs_split_job
{
    const cs_solver_work* solved;
    int bodies, first, stride, count, iterations;
    const double* bias;
    bool simd;
    cs_split_work* work;
    double* lambda;
    double* v;
    double seconds; // wall time of the solve, measured on the thread that ran it
} cs_split_job;

typedef struct cs_helper
{
    bool running; // thread, lock and conditions exist
    thrd_t thread;
    mtx_t lock;
    cnd_t wake; // a job was posted, or quit
    cnd_t done; // the posted job is finished
    bool posted;
    bool quit;
    cs_split_job job;
} cs_helper;

typedef struct cs_contact_list
{
    cs_contact* items;
    int count;
    int capacity;
} cs_contact_list;

struct cs_world
{
    cs_world_def def;

    // Bodies (structure of arrays, all of body_capacity).
    int body_count;
    int body_capacity;
    double* px;
    double* py;
    double* angle;
    double* v;     // 3 per body: vx, vy, ω (the layout of cs_lcp.v, so v* is one memcpy)
    double* v_pre; // 3 per body: velocity at the start of the step (restitution)
    double* fx;    // external force (mouse spring and the like) until cleared
    double* fy;
    double* radius;
    double* reach; // radius + h·|v*|: how far a circle may get this step (speculative contacts)
    double* mass;
    double* inv_mass;
    double* inv_inertia;
    double* friction;
    double* restitution;

    int wall_count;
    int wall_capacity;
    cs_wall* walls;

    cs_broadphase broadphase;
    cs_contact_list contacts; // this step's, sorted by key
    cs_contact_list previous; // last step's, for the warm start
    cs_contact_order order;   // the order the solver sweeps this step's contacts in (contact_order.h)

    cs_lcp velocity_problem;
    double* lambda;
    int lambda_capacity;
    cs_solver_work work;
    // Split impulses, solved on the velocity problem's packed normal rows (cs_solve_split).
    double* position_bias;    // per contact
    double* position_lambda;  // per contact
    cs_split_work split_work; // the split solve's compact rows and schedule
    int position_capacity;
    double* pseudo_v; // 3 per body + the zero slot: the position problem's velocities
    int pseudo_v_capacity;
    int threads; // 1, or 2: the position solve runs on `helper` when it is big enough
    cs_helper helper;

    cs_step_stats stats;
    cs_error last_error; // a failed step (out of memory) leaves the world unchanged and says why here
    cs_health health;    // health.c
};

// health.c: before the positions move, checks that the step's results are finite and sane; otherwise
// finds the first phase with a bad value, undoes the step's velocity and contact changes, and fails.
cs_status cs_health_check_step(cs_world* w, cs_error* err);

// step.c: stops and joins the helper thread (world destruction).
void cs_helper_stop(cs_helper* h);

#endif
