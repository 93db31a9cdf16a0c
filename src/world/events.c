// Contact and sensor events. After each step the contacts that touch (gap at most the linear slop, or a
// normal impulse) are listed by key; a merge with the list of the step before gives the begins and ends.
// Keys are slots, which a removed body hands on, so an entry also carries its public ids: the same key
// with other ids is the end of one contact and the begin of another.
//
// The approach speed of a hit is the normal speed at the contact instant. Over a step the external forces
// change the normal velocity at a constant rate α = (s* − s₀)/h (s₀ at the step's start, s* after the
// forces), and the gap g closes under it, so at the instant of contact s² = s̄² + 2αg with s̄ the mean of
// s₀ and s* — exact for a constant acceleration under symplectic Euler's positions (it leaves an error of
// (αh/2)², 0.0067 m²/s² for gravity at 60 Hz, against 2gH = 19.6 m²/s² for a 1 m drop).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "world/world_internal.h"

static void touch_list_free(cs_touch_list* l)
{
    free(l->keys);
    free(l->items);
    free(l->source);
}

void cs_event_state_free(cs_event_state* e)
{
    touch_list_free(&e->touching);
    touch_list_free(&e->touching_before);
    touch_list_free(&e->overlaps);
    touch_list_free(&e->overlaps_before);
    cs_event_list* lists[] = {&e->begin, &e->end, &e->hit, &e->sensor_begin, &e->sensor_end};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; ++i)
    {
        free(lists[i]->items);
    }
}

static bool touch_push(cs_touch_list* l, uint64_t key, const cs_contact_event* ev, int source)
{
    if (l->count == l->capacity)
    {
        int cap = cs_grow_capacity(l->capacity, l->count + 1);
        if (!CS_RESIZE(l->keys, cap) || !CS_RESIZE(l->items, cap) || !CS_RESIZE(l->source, cap))
        {
            return false;
        }
        l->capacity = cap;
    }
    l->keys[l->count] = key;
    l->source[l->count] = source;
    l->items[l->count++] = *ev;
    return true;
}

static bool event_push(cs_event_list* l, const cs_contact_event* ev)
{
    if (!CS_GROW(l->items, l->capacity, l->count + 1))
    {
        return false;
    }
    l->items[l->count++] = *ev;
    return true;
}

// Normal speed of approach (> 0 closing) of contact c in the 3-per-body velocities v.
static double approach(const cs_contact* c, const double* v)
{
    double vn = c->nx * v[3 * c->b] + c->ny * v[3 * c->b + 1];
    if (c->a >= 0)
    {
        vn -= c->nx * v[3 * c->a] + c->ny * v[3 * c->a + 1];
    }
    return -vn;
}

static double impact_speed(const cs_world* w, const cs_contact* c)
{
    double s0 = approach(c, w->v_pre);
    double s1 = approach(c, w->velocity_problem.v); // v*: after the external forces
    if (!(c->gap > 0.0))
    {
        return s0 > 0.0 ? s0 : 0.0;
    }
    double mean = 0.5 * (s0 + s1);
    double alpha = (s1 - s0) / w->def.time_step;
    double s2 = mean * mean + 2.0 * alpha * c->gap;
    return s2 > 0.0 ? sqrt(s2) : 0.0;
}

// A contact of the last list whose body (or one of whose bodies) sleeps: sleeping pairs make no contacts,
// but they still touch (a resting contact produces no events, asleep or not).
static bool carried(const cs_world* w, const cs_contact_event* e)
{
    int b = cs_world_slot(w, e->body_b), a = e->body_a >= 0 ? cs_world_slot(w, e->body_a) : -1;
    return b >= 0 && (e->body_a < 0 || a >= 0) && (w->asleep[b] || (a >= 0 && w->asleep[a]));
}

// Room for `count` entries in all: the loops below then write without checks.
static bool touch_reserve(cs_touch_list* l, int count)
{
    if (count <= l->capacity)
    {
        return true;
    }
    int cap = cs_grow_capacity(l->capacity, count);
    if (!CS_RESIZE(l->keys, cap) || !CS_RESIZE(l->items, cap) || !CS_RESIZE(l->source, cap))
    {
        return false;
    }
    l->capacity = cap;
    return true;
}

// The contacts touching after this step, in key order, with the sleeping ones carried over (a pass of
// its own, only while something sleeps: this one runs every step and stays lean).
static bool list_touching(cs_world* w, const cs_touch_list* before, cs_touch_list* out)
{
    out->count = 0;
    if (!touch_reserve(out, w->contacts.count))
    {
        return false;
    }
    // (The list and the arrays in locals: the entries' int stores may alias w->contacts.count, which the
    // loop read again after each of them.)
    const double slop = w->def.linear_slop;
    const cs_contact* contacts = w->contacts.items;
    const int count = w->contacts.count;
    uint64_t* keys = out->keys;
    int* source = out->source;
    cs_contact_event* items = out->items;
    int n = 0;
    for (int k = 0; k < count; ++k)
    {
        const cs_contact* c = contacts + k;
        if (!(c->gap <= slop || c->normal_impulse > 0.0))
        {
            continue;
        }
        cs_contact_event* ev = items + n;
        ev->body_a = c->a >= 0 ? cs_world_slot_id(w, c->a) : -1;
        ev->body_b = cs_world_slot_id(w, c->b);
        ev->wall = c->wall;
        ev->point.x = c->px;
        ev->point.y = c->py;
        ev->approach_speed = 0.0;
        keys[n] = c->key;
        source[n] = k;
        n += 1;
    }
    out->count = n;
    if (w->asleep_count == 0)
    {
        return true;
    }
    // Merge in the sleeping contacts of the last list (they have no contact now), keeping key order.
    int carried_count = 0;
    for (int j = 0; j < before->count; ++j)
    {
        carried_count += carried(w, before->items + j);
    }
    if (carried_count == 0)
    {
        return true;
    }
    if (!touch_reserve(out, n + carried_count))
    {
        return false;
    }
    int i = n - 1, j = before->count - 1;
    for (int at = n + carried_count - 1; at >= 0; --at) // from the back, in place
    {
        while (j >= 0 && !carried(w, before->items + j))
        {
            --j;
        }
        bool take_before = j >= 0 && (i < 0 || before->keys[j] > out->keys[i]);
        if (take_before)
        {
            out->keys[at] = before->keys[j];
            out->items[at] = before->items[j];
            out->source[at] = -1;
            --j;
        }
        else
        {
            out->keys[at] = out->keys[i];
            out->items[at] = out->items[i];
            out->source[at] = out->source[i];
            --i;
        }
    }
    out->count = n + carried_count;
    return true;
}

static bool same_bodies(const cs_contact_event* x, const cs_contact_event* y)
{
    return x->body_a == y->body_a && x->body_b == y->body_b && x->wall == y->wall;
}

// Begins (in now, not before) and ends (before, not now) of two key-sorted lists. `on_begin` is called
// with the index in `now` of each begin, after it was pushed (NULL: nothing more to do).
typedef bool cs_begin_fn(cs_world* w, const cs_touch_list* now, int index_now);

static bool merge(cs_world* w, const cs_touch_list* now, const cs_touch_list* before, cs_event_list* begin,
                  cs_event_list* end, cs_begin_fn* on_begin)
{
    // (One key compare per entry while both lists last, then the tails: the lists are mostly equal from
    // step to step, and the two-flag form of this loop cost ~1 % of Pool 1's step.)
    const int nn = now->count, nb = before->count;
    int i = 0, j = 0;
    while (i < nn && j < nb)
    {
        uint64_t ki = now->keys[i], kj = before->keys[j];
        if (ki == kj)
        {
            // The same key: one contact going on, unless the slots changed hands in between.
            if (!same_bodies(now->items + i, before->items + j))
            {
                if (!event_push(end, before->items + j) || !event_push(begin, now->items + i) ||
                    (on_begin != NULL && !on_begin(w, now, i)))
                {
                    return false;
                }
            }
            ++i;
            ++j;
        }
        else if (ki < kj)
        {
            if (!event_push(begin, now->items + i) || (on_begin != NULL && !on_begin(w, now, i)))
            {
                return false;
            }
            ++i;
        }
        else
        {
            if (!event_push(end, before->items + j))
            {
                return false;
            }
            ++j;
        }
    }
    for (; i < nn; ++i)
    {
        if (!event_push(begin, now->items + i) || (on_begin != NULL && !on_begin(w, now, i)))
        {
            return false;
        }
    }
    for (; j < nb; ++j)
    {
        if (!event_push(end, before->items + j))
        {
            return false;
        }
    }
    return true;
}

// A begin is a hit when it met fast enough.
static bool maybe_hit(cs_world* w, const cs_touch_list* now, int i)
{
    double speed = impact_speed(w, w->contacts.items + now->source[i]);
    cs_event_list* begin = &w->events.begin;
    begin->items[begin->count - 1].approach_speed = speed;
    return speed < w->def.hit_event_threshold || event_push(&w->events.hit, begin->items + begin->count - 1);
}

// Sensor overlaps after this step, keyed sensor slot-major; a visitor is a dynamic or kinematic circle
// that is not a sensor and passes the category/mask test both ways. Candidates are the broad phase's
// pairs (found with each circle's reach over the step), tested at the positions after it.
static bool list_overlaps(cs_world* w, cs_touch_list* out)
{
    out->count = 0;
    if (w->sensor_count == 0)
    {
        return true;
    }
    const cs_broadphase* bp = &w->broadphase;
    for (int k = 0; k < bp->pair_count; ++k)
    {
        int a = bp->pairs[k].a, b = bp->pairs[k].b;
        bool sa = w->body_flags[a] & CS_BODY_SENSOR, sb = w->body_flags[b] & CS_BODY_SENSOR;
        if (sa == sb)
        {
            continue;
        }
        int sensor = sa ? a : b, visitor = sa ? b : a;
        if (w->body_type[visitor] == CS_BODY_STATIC || !(w->category[sensor] & w->mask[visitor]) ||
            !(w->category[visitor] & w->mask[sensor]))
        {
            continue;
        }
        double dx = w->px[visitor] - w->px[sensor], dy = w->py[visitor] - w->py[sensor];
        double reach = w->radius[sensor] + w->radius[visitor];
        if (dx * dx + dy * dy >= reach * reach)
        {
            continue;
        }
        cs_contact_event ev = {
            cs_world_slot_id(w, sensor),
            cs_world_slot_id(w, visitor),
            -1,
            {w->px[sensor] + dx * w->radius[sensor] / reach, w->py[sensor] + dy * w->radius[sensor] / reach},
            0.0};
        if (!touch_push(out, (uint64_t)sensor << 32 | (uint64_t)visitor, &ev, -1))
        {
            return false;
        }
    }
    // Pairs come sorted by (min, max) slot; the key is (sensor, visitor): sort when a sensor came second.
    for (int i = 1; i < out->count; ++i)
    {
        for (int j = i; j > 0 && out->keys[j - 1] > out->keys[j]; --j)
        {
            uint64_t key = out->keys[j];
            cs_contact_event ev = out->items[j];
            out->keys[j] = out->keys[j - 1];
            out->items[j] = out->items[j - 1];
            out->keys[j - 1] = key;
            out->items[j - 1] = ev;
        }
    }
    return true;
}

static void swap_lists(cs_touch_list* x, cs_touch_list* y)
{
    cs_touch_list t = *x;
    *x = *y;
    *y = t;
}

cs_status cs_events_update(cs_world* w, cs_error* err)
{
    cs_event_state* e = &w->events;
    e->begin.count = e->end.count = e->hit.count = 0;
    e->sensor_begin.count = e->sensor_end.count = 0;
    if (!w->def.contact_events)
    {
        e->touching.count = e->touching_before.count = e->overlaps.count = e->overlaps_before.count = 0;
        return CS_OK;
    }
    swap_lists(&e->touching, &e->touching_before);
    swap_lists(&e->overlaps, &e->overlaps_before);
    if (!list_touching(w, &e->touching_before, &e->touching) ||
        !merge(w, &e->touching, &e->touching_before, &e->begin, &e->end, maybe_hit) ||
        !list_overlaps(w, &e->overlaps) ||
        !merge(w, &e->overlaps, &e->overlaps_before, &e->sensor_begin, &e->sensor_end, NULL))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory (events)");
    }
    return CS_OK;
}

cs_contact_events cs_world_contact_events(const cs_world* w)
{
    const cs_event_state* e = &w->events;
    cs_contact_events out = {e->begin.items, e->begin.count, e->end.items,
                             e->end.count,   e->hit.items,   e->hit.count};
    return out;
}

cs_sensor_events cs_world_sensor_events(const cs_world* w)
{
    const cs_event_state* e = &w->events;
    cs_sensor_events out = {e->sensor_begin.items, e->sensor_begin.count, e->sensor_end.items,
                            e->sensor_end.count};
    return out;
}

void cs_world_enable_contact_events(cs_world* w, bool on)
{
    w->def.contact_events = on;
}
