// Sleeping by islands (off by default: the paper's tables and the LCP export see every body).
//
// After each step a union-find over the touching contacts between dynamic bodies and over the joints
// groups the awake bodies into islands; a body whose fastest point has moved slower than Box2D v3's
// sleep threshold (|v| + |ω| r <= 0.05 m/s: the rim's speed, not a bare angle rate, so a wide circle
// turning slowly in a settled pile still counts as still) accumulates sleep time, and an island whose every
// body has slept that long goes to sleep as a whole: zero velocity, and zero inverse mass, so that the step's
// loops skip it as they skip static circles (no gravity, no wall contacts, no integration) and no row ever
// moves it. Contacts between sleeping bodies are not made at all; the events keep them touching (events.c).
// An island wakes as a whole when an awake body (or a moving kinematic one) comes within a contact of it,
// when a body of it is given a velocity or force, gets a joint, or loses a neighbour to removal. With
// every body asleep a step only advances time.
#include <math.h>
#include <string.h>

#include "core/union_find.h"
#include "world/world_internal.h"

#define CS_SLEEP_THRESHOLD 0.05 // m/s, of the fastest point (Box2D v3's b2BodyDef.sleepThreshold)
#define CS_TIME_TO_SLEEP   0.5  // s

void cs_world_enable_sleeping(cs_world* w, bool on)
{
    if (!on)
    {
        for (int k = 0; k < w->alive_count; ++k)
        {
            cs_sleep_wake(w, w->dense[k]);
        }
    }
    w->sleeping = on;
    w->def.enable_sleep = on; // what cs_world_get_def, snapshots and clones report
}

bool cs_world_sleeping_enabled(const cs_world* w)
{
    return w->sleeping;
}

bool cs_world_body_asleep(const cs_world* w, int id)
{
    int slot = cs_world_slot(w, id);
    return slot >= 0 && w->asleep[slot];
}

int cs_world_awake_count(const cs_world* w)
{
    return w->alive_count - w->nondynamic_count - w->asleep_count;
}

void cs_sleep_init_slot(cs_world* w, int slot)
{
    w->asleep[slot] = 0;
    w->sleep_time[slot] = 0.0;
    w->island_next[slot] = -1;
}

// Wakes the island of a sleeping slot (nothing for an awake one): every body of it gets its mass back.
void cs_sleep_wake(cs_world* w, int slot)
{
    if (slot < 0)
    {
        return;
    }
    if (!w->asleep[slot])
    {
        w->sleep_time[slot] = 0.0; // disturbed: it starts resting again
        return;
    }
    // Islands are rings: island_next leads round back to the slot.
    int k = slot;
    do
    {
        int next = w->island_next[k];
        w->asleep[k] = 0;
        w->sleep_time[k] = 0.0;
        w->island_next[k] = -1;
        w->inv_mass[k] = 1.0 / w->mass[k];
        w->inv_inertia[k] = 2.0 / (w->mass[k] * w->radius[k] * w->radius[k]);
        w->asleep_count -= 1;
        k = next;
    } while (k != slot && k >= 0);
}

bool cs_sleep_idle_step(cs_world* w)
{
    if (!w->sleeping || cs_world_awake_count(w) > 0 || w->kinematic_count > 0)
    {
        return false;
    }
    cs_step_stats* s = &w->stats;
    double t0 = cs_seconds();
    s->step += 1;
    s->time = (double)s->step * w->def.time_step;
    s->bodies = w->alive_count;
    s->contacts = s->rows = s->iterations = s->position_sweeps = s->restitution_sweeps = 0;
    s->res_lcp = s->res_nat = s->max_penetration = s->mean_penetration = s->kinetic_energy = 0.0;
    s->broadphase_seconds = s->narrowphase_seconds = s->solver_seconds = s->position_seconds = 0.0;
    cs_event_state* e = &w->events;
    e->begin.count = e->end.count = e->hit.count = e->sensor_begin.count = e->sensor_end.count = 0;
    s->step_seconds = cs_seconds() - t0;
    return true;
}

static bool moving_kinematic(const cs_world* w, int slot)
{
    const double* v = w->v + 3 * slot;
    return w->body_type[slot] == CS_BODY_KINEMATIC && (v[0] != 0.0 || v[1] != 0.0 || v[2] != 0.0);
}

// Before the narrow phase: an awake dynamic body or a moving kinematic one within a contact's reach of a
// sleeping one wakes its island, so that the whole island takes part in this step's contacts.
void cs_sleep_wake_touched(cs_world* w)
{
    if (w->asleep_count == 0)
    {
        return;
    }
    const cs_broadphase* bp = &w->broadphase;
    for (int k = 0; k < bp->pair_count; ++k)
    {
        int a = bp->pairs[k].a, b = bp->pairs[k].b;
        if (w->asleep[a] == w->asleep[b])
        {
            continue;
        }
        int sleeper = w->asleep[a] ? a : b, other = w->asleep[a] ? b : a;
        bool wakes = (w->body_type[other] == CS_BODY_DYNAMIC || moving_kinematic(w, other)) &&
                     !((w->body_flags[other] | w->body_flags[sleeper]) & CS_BODY_SENSOR);
        if (wakes)
        {
            cs_sleep_wake(w, sleeper);
        }
    }
}

static bool awake_dynamic(const cs_world* w, int slot)
{
    return slot >= 0 && w->body_type[slot] == CS_BODY_DYNAMIC && !w->asleep[slot] &&
           (w->body_flags[slot] & CS_BODY_ALIVE);
}

// Each awake dynamic body's rest time grows by the step while it is slow and unforced, else starts again
// at 0; every body starts as its own island.
static void update_rest_times(cs_world* w, int* parent)
{
    double h = w->def.time_step;
    int n = w->body_count;
    for (int i = 0; i < n; ++i)
    {
        parent[i] = i;
        if (!awake_dynamic(w, i))
        {
            continue;
        }
        const double* v = w->v + 3 * i;
        bool slow = sqrt(v[0] * v[0] + v[1] * v[1]) + fabs(v[2]) * w->radius[i] <= CS_SLEEP_THRESHOLD &&
                    w->fx[i] == 0.0 && w->fy[i] == 0.0;
        w->sleep_time[i] = slow ? w->sleep_time[i] + h : 0.0;
    }
}

// Awake dynamic bodies in touch (a pushing or closed contact) or joined by a live joint share an island.
static void join_islands(cs_world* w, int* parent)
{
    for (int k = 0; k < w->contacts.count; ++k)
    {
        const cs_contact* c = w->contacts.items + k;
        if (awake_dynamic(w, c->a) && awake_dynamic(w, c->b) &&
            (c->normal_impulse > 0.0 || c->gap <= w->def.linear_slop))
        {
            cs_uf_unite(parent, c->a, c->b);
        }
    }
    for (int k = 0; k < w->joint_count; ++k)
    {
        const cs_joint* j = w->joints + k;
        if (j->alive && awake_dynamic(w, j->a) && awake_dynamic(w, j->b))
        {
            cs_uf_unite(parent, j->a, j->b);
        }
    }
}

// An island sleeps when its least rested body has rested long enough: the minimum per root, into least.
static void least_rest(cs_world* w, int* parent, double* least)
{
    int n = w->body_count;
    for (int i = 0; i < n; ++i)
    {
        least[i] = INFINITY;
    }
    for (int i = 0; i < n; ++i)
    {
        if (awake_dynamic(w, i))
        {
            int r = cs_uf_find(parent, i);
            least[r] = w->sleep_time[i] < least[r] ? w->sleep_time[i] : least[r];
        }
    }
}

// Each sleeping island becomes a ring through island_next, entered at any of its bodies; then its bodies
// stop and take no impulse (zero inverse mass and inertia) until woken.
static void sleep_islands(cs_world* w, int* parent, const double* least)
{
    int n = w->body_count;
    for (int i = 0; i < n; ++i)
    {
        if (!awake_dynamic(w, i) || least[cs_uf_find(parent, i)] < CS_TIME_TO_SLEEP)
        {
            continue;
        }
        int r = cs_uf_find(parent, i);
        if (i != r)
        {
            // Insert after the root (which is processed first: it is the lowest slot of its island).
            w->island_next[i] = w->island_next[r];
            w->island_next[r] = i;
        }
        else
        {
            w->island_next[i] = i;
        }
    }
    for (int i = 0; i < n; ++i)
    {
        if (awake_dynamic(w, i) && least[cs_uf_find(parent, i)] >= CS_TIME_TO_SLEEP)
        {
            w->asleep[i] = 1;
            w->asleep_count += 1;
            w->v[3 * i] = w->v[3 * i + 1] = w->v[3 * i + 2] = 0.0;
            w->inv_mass[i] = 0.0;
            w->inv_inertia[i] = 0.0;
        }
    }
}

// After the step: sleep times, islands, and the islands that have rested long enough go to sleep.
void cs_sleep_update(cs_world* w)
{
    if (!w->sleeping)
    {
        return;
    }
    update_rest_times(w, w->island_parent);
    join_islands(w, w->island_parent);
    least_rest(w, w->island_parent, w->island_rest);
    sleep_islands(w, w->island_parent, w->island_rest);
}
