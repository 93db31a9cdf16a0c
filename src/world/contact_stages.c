// The step's per-contact stages on the world's workers (core/workers.h; docs/PERFORMANCE.md "Threads"):
// the narrow phase of the broad phase's pairs, the warm start, the contact instants, the rows and the
// impulses stored back. Chunks of CS_STAGE_CHUNK pairs or contacts, whatever the thread count
// (step_stages.c), each writing only its own entries: the same bits on any number of threads.
#include <math.h>
#include <string.h>

#include "contact/contact_rows.h"
#include "contact/impact.h"
#include "contact/narrowphase.h"
#include "core/array.h"
#include "world/world_internal.h"

// The narrow phase of circle pairs, in two passes so that the list comes out in pair order with no copy:
// each chunk marks which of its pairs touch and counts them; the counts give each chunk where its contacts
// start; then each chunk fills its contacts there.
typedef struct pairs_job
{
    cs_world* w;
    bool filtering;
    double margin;
    int* counts;  // per chunk; then its first contact
    uint8_t* hit; // per pair
} pairs_job;

// The broad phase's predicate: the gap may close by both circles' travel this step.
static inline double pair_reach(const double* reach, const double* radius, double margin, int a, int b)
{
    return margin + (reach[a] - radius[a]) + (reach[b] - radius[b]);
}

static void pairs_mark(void* ctx, int chunk, int thread)
{
    (void)thread;
    const pairs_job* j = ctx;
    const cs_world* w = j->w;
    const cs_pair* pairs = w->broadphase.pairs;
    const double *px = w->px, *py = w->py, *radius = w->radius;
    int first, end;
    const double* reach = w->reach;
    const double margin = j->margin;
    cs_stage_range(chunk, w->broadphase.pair_count, &first, &end);
    int count = 0;
    for (int k = first; k < end; ++k)
    {
        int a = pairs[k].a, b = pairs[k].b;
        // (filtered pairs never make rows: filter.c)
        bool hit = (!j->filtering || cs_pair_collides(w, a, b)) &&
                   cs_circles_meet(px[a], py[a], radius[a], px[b], py[b], radius[b],
                                   pair_reach(reach, radius, margin, a, b));
        j->hit[k] = hit;
        count += hit;
    }
    j->counts[chunk] = count;
}

static void pairs_fill(void* ctx, int chunk, int thread)
{
    (void)thread;
    const pairs_job* j = ctx;
    cs_world* w = j->w;
    const cs_pair* pairs = w->broadphase.pairs;
    const double *px = w->px, *py = w->py, *radius = w->radius;
    const double *friction = w->friction, *restitution = w->restitution;
    int first, end;
    const double* reach = w->reach;
    const double margin = j->margin;
    cs_stage_range(chunk, w->broadphase.pair_count, &first, &end);
    cs_contact* c = w->contacts.items + j->counts[chunk];
    for (int k = first; k < end; ++k)
    {
        if (!j->hit[k])
        {
            continue;
        }
        int a = pairs[k].a, b = pairs[k].b;
        cs_collide_circles(a, b, px[a], py[a], radius[a], px[b], py[b], radius[b],
                           pair_reach(reach, radius, margin, a, b), c);
        c->friction = sqrt(friction[a] * friction[b]);
        c->restitution = cs_max(restitution[a], restitution[b]);
        c += 1;
    }
}

int cs_stage_runs(cs_world* w, int* counts, int tasks)
{
    int end = w->contacts.count;
    for (int t = 0; t < tasks; ++t)
    {
        int n = counts[t];
        counts[t] = end;
        end += n;
    }
    return CS_GROW(w->contacts.items, w->contacts.capacity, end) ? end : -1;
}

// One thread: every pair tested once, its contact filled in place at the list's end (kept by counting it).
static cs_status pairs_in_one_pass(const pairs_job* j, cs_error* err)
{
    cs_world* w = j->w;
    cs_contact_list* list = &w->contacts;
    const int pair_count = w->broadphase.pair_count;
    if (pair_count == 0)
    {
        return CS_OK; // (the list may have no storage yet: no pointer into it)
    }
    if (!CS_GROW(list->items, list->capacity, list->count + pair_count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    const cs_pair* pairs = w->broadphase.pairs;
    const double *px = w->px, *py = w->py, *radius = w->radius;
    const double *friction = w->friction, *restitution = w->restitution, *reach = w->reach;
    // (In locals: the compiler read them through w and j again for every pair.)
    const double margin = j->margin;
    const bool filtering = j->filtering;
    cs_contact* c = list->items + list->count;
    for (int k = 0; k < pair_count; ++k)
    {
        int a = pairs[k].a, b = pairs[k].b;
        if (filtering && !cs_pair_collides(w, a, b))
        {
            continue; // filtered pairs never make rows (filter.c)
        }
        if (cs_collide_circles(a, b, px[a], py[a], radius[a], px[b], py[b], radius[b],
                               pair_reach(reach, radius, margin, a, b), c))
        {
            c->friction = sqrt(friction[a] * friction[b]);
            c->restitution = cs_max(restitution[a], restitution[b]);
            c += 1;
        }
    }
    list->count = (int)(c - list->items);
    return CS_OK;
}

cs_status cs_stage_pair_contacts(cs_world* w, cs_error* err)
{
    const int pair_count = w->broadphase.pair_count;
    const int chunks = cs_stage_chunks(pair_count);
    if (!cs_stage_chunk_reserve(w, chunks) || !CS_GROW(w->pair_hits, w->pair_hits_capacity, pair_count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    bool filtering = w->filter_count + w->nondynamic_count + w->no_collide_joints + w->asleep_count > 0;
    pairs_job j = {w, filtering, w->def.speculative_margin, w->chunk_ints, w->pair_hits};
    cs_workers* pool = cs_world_workers(w);
    if (pool == NULL || chunks <= 1)
    {
        return pairs_in_one_pass(&j, err); // (the marking pass would only cost: ~1 % of a step)
    }
    cs_workers_for(pool, chunks, pairs_mark, &j);
    int total = cs_stage_runs(w, j.counts, chunks);
    if (total < 0)
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    cs_workers_for(pool, chunks, pairs_fill, &j);
    w->contacts.count = total;
    return CS_OK;
}

// Both lists are sorted by key: a merge gives each persisting contact last step's impulses. Each chunk of
// the new list finds where its first key would sit in the old one (binary search) and merges from there.
// (One key compare per entry while both lists last; scanning `before` for every contact of `now` cost ~19 M
// instructions per 1 000 steps of Pool 1.) The same pass sums the chunk's penetrations for the step's stats
// (the gaps stay as the narrow phase found them): its deepest, their sum and how many touch, in contact
// order, to w->penetration_parts (a pass of its own over the 160-byte contacts before).
typedef struct warm_job
{
    cs_contact* now;
    const cs_contact* before;
    int nb;
    double* parts; // 3 per chunk
} warm_job;

// A chunk's penetration sums (deepest, sum, how many touch), contact by contact in list order.
typedef struct penetration_sums
{
    double max, sum;
    int touching;
} penetration_sums;

static inline void add_penetration(penetration_sums* s, double g)
{
    if (g < 0.0)
    {
        s->max = cs_max(s->max, -g);
        s->sum += -g;
        s->touching += 1;
    }
}

static void warm_range(void* ctx, int first, int n)
{
    const warm_job* wj = ctx;
    cs_contact* c = wj->now;
    const cs_contact* p = wj->before;
    int lo = 0, hi = wj->nb; // the first old entry with key >= c[first].key
    while (lo < hi)
    {
        int mid = lo + (hi - lo) / 2;
        if (p[mid].key < c[first].key)
        {
            lo = mid + 1;
        }
        else
        {
            hi = mid;
        }
    }
    int i = first, j = lo;
    const int nb = wj->nb;
    penetration_sums pen = {0.0, 0.0, 0};
    while (i < n && j < nb)
    {
        uint64_t ki = c[i].key, kj = p[j].key;
        if (ki == kj)
        {
            c[i].normal_impulse = p[j].normal_impulse;
            c[i].friction_impulse = p[j].friction_impulse;
            add_penetration(&pen, c[i].gap);
            ++i;
            ++j;
        }
        else if (ki < kj)
        {
            c[i].normal_impulse = 0.0; // new this step
            c[i].friction_impulse = 0.0;
            add_penetration(&pen, c[i].gap);
            ++i;
        }
        else
        {
            ++j; // gone since the last step
        }
    }
    for (; i < n; ++i)
    {
        c[i].normal_impulse = 0.0;
        c[i].friction_impulse = 0.0;
        add_penetration(&pen, c[i].gap);
    }
    double* part = wj->parts + 3 * (first / CS_STAGE_CHUNK);
    part[0] = pen.max;
    part[1] = pen.sum;
    part[2] = pen.touching;
}

bool cs_stage_warm_start(cs_world* w)
{
    const int chunks = cs_stage_chunks(w->contacts.count);
    if (!CS_GROW(w->penetration_parts, w->penetration_parts_capacity, 3 * chunks + 1))
    {
        return false;
    }
    warm_job j = {w->contacts.items, w->previous.items, w->previous.count, w->penetration_parts};
    cs_stage_for_range(w, w->contacts.count, warm_range, &j);
    return true;
}

// The contact instant of every contact (impact.h), then, if any contact is timed, the bodies held.
typedef struct impacts_job
{
    cs_contact* contacts;
    const cs_impact_bodies* bodies;
    const cs_restitution_params* params;
} impacts_job;

static void impacts_range(void* ctx, int first, int end)
{
    const impacts_job* j = ctx;
    cs_contact_impacts_range(j->contacts, first, end, j->bodies, j->params);
}

void cs_stage_impacts(cs_world* w, const cs_impact_bodies* bodies, const cs_restitution_params* params)
{
    impacts_job j = {w->contacts.items, bodies, params};
    cs_stage_for_range(w, w->contacts.count, impacts_range, &j);
    // Every step (the pass may run on a pending contact alone): they read every contact.
    cs_contact_impacts_held(w->contacts.items, w->contacts.count, w->body_count, bodies, params);
}

// The velocity problem's contact rows and the position problem's biases, in the sweeps' order.
typedef struct rows_job
{
    const cs_contact* contacts;
    const int* order;
    const cs_row_params* rp;
    cs_lcp* p;
    double* position_bias; // NULL: none
    int laid;              // contacts whose rows hold the fixed numbers (cs_contact_rows_velocity_range)
} rows_job;

static void rows_range(void* ctx, int first, int end)
{
    const rows_job* j = ctx;
    cs_contact_rows_velocity_range(j->contacts, j->order, first, end, j->rp, j->p, j->position_bias, j->laid);
}

cs_status cs_stage_rows(cs_world* w, const int* order, const cs_row_params* rp, double* position_bias,
                        cs_error* err)
{
    cs_lcp* p = &w->velocity_problem;
    cs_status st = cs_contact_rows_velocity_reserve(w->contacts.count, rp, p, err);
    if (st != CS_OK)
    {
        return st;
    }
    // The rows' fixed numbers stay in p from step to step (only the joint rows, after the contacts' rows,
    // overwrite them: cs_stage_rows_overwritten); a change of frictionless moves every row.
    if (rp->frictionless != w->rows_laid_frictionless)
    {
        w->rows_laid = 0;
        w->rows_laid_frictionless = rp->frictionless;
    }
    rows_job j = {w->contacts.items, order, rp, p, position_bias, w->rows_laid};
    cs_stage_for_range(w, w->contacts.count, rows_range, &j);
    w->rows_laid = w->rows_laid > w->contacts.count ? w->rows_laid : w->contacts.count;
    return CS_OK;
}

void cs_stage_rows_overwritten(cs_world* w, int contacts)
{
    w->rows_laid = w->rows_laid < contacts ? w->rows_laid : contacts;
}

// The solved λ back into the contacts (the next step's warm start).
typedef struct store_job
{
    cs_contact* contacts;
    const int* order;
    int per;
    const double* lambda;
} store_job;

static void store_range(void* ctx, int first, int end)
{
    const store_job* j = ctx;
    const int per = j->per;
    for (int k = first; k < end; ++k)
    {
        cs_contact* c = j->contacts + (j->order != NULL ? j->order[k] : k);
        c->normal_impulse = j->lambda[per * k];
        c->friction_impulse = per == 2 ? j->lambda[per * k + 1] : 0.0;
    }
}

void cs_stage_store_impulses(cs_world* w, const int* order, int per, const double* lambda)
{
    store_job j = {w->contacts.items, order, per, lambda};
    cs_stage_for_range(w, w->contacts.count, store_range, &j);
}

// The sweeps' order: each 64-contact block coloured on its own (contact_order.h), so chunks of blocks go to
// threads, each with its own colour masks.
typedef struct order_job
{
    cs_contact_order* o;
    const cs_contact* contacts;
    int count;
} order_job;

static void order_chunk(void* ctx, int chunk, int thread)
{
    const order_job* j = ctx;
    enum
    {
        BLOCKS = CS_STAGE_CHUNK / CS_ORDER_BLOCK
    };
    int blocks = (j->count + CS_ORDER_BLOCK - 1) / CS_ORDER_BLOCK;
    int first = chunk * BLOCKS, end = first + BLOCKS < blocks ? first + BLOCKS : blocks;
    cs_contact_order_blocks(j->o, j->contacts, j->count, CS_ORDER_BLOCK, first, end, thread);
}

cs_status cs_stage_order(cs_world* w, cs_error* err)
{
    if (cs_contact_order_holds(&w->order, w->contacts.items, w->contacts.count, CS_ORDER_BLOCK))
    {
        return CS_OK; // the same bodies in the same order as last step's contacts: the same colouring
    }
    cs_workers* pool = cs_world_workers(w);
    w->order.key_count = -1; // (until it is built)
    cs_status st =
        cs_contact_order_reserve(&w->order, w->contacts.count, w->body_count, cs_workers_threads(pool), err);
    if (st == CS_OK)
    {
        order_job j = {&w->order, w->contacts.items, w->contacts.count};
        cs_workers_for(pool, cs_stage_chunks(j.count), order_chunk, &j);
        w->order.key_count = j.count;
        w->order.key_block = CS_ORDER_BLOCK;
    }
    return st;
}
