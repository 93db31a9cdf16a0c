// Body ids that outlive removals. A body lives in a slot of the structure-of-arrays; its id is the slot
// plus the slot's generation, which counts the bodies that have lived there, so a removed body's id is
// refused even after its slot was reused. Free slots wait in a FIFO ring (oldest reused first), and the
// slot arrays only grow to the peak number of bodies: a spawn/remove fountain keeps memory flat. Removal
// and addition are O(1) (the dense list of alive slots swaps its last entry into the hole).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "world/world_internal.h"

void cs_world_free_ids(cs_world* w)
{
    void* arrays[] = {w->body_type, w->body_flags, w->active, w->category, w->mask,
                      w->group,     w->generation, w->dense,  w->dense_of, w->free_ring};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i)
    {
        free(arrays[i]);
    }
}

int cs_world_slot(const cs_world* w, int id)
{
    if (id < 0)
    {
        return -1;
    }
    int slot = id & CS_ID_SLOT_MASK;
    if (slot >= w->body_count || !(w->body_flags[slot] & CS_BODY_ALIVE) ||
        w->generation[slot] != (id >> CS_ID_SLOT_BITS))
    {
        return -1;
    }
    return slot;
}

int cs_world_acquire_slot(cs_world* w)
{
    int slot;
    if (w->free_count > 0)
    {
        slot = w->free_ring[w->free_head];
        w->free_head = (w->free_head + 1) % w->free_capacity;
        w->free_count -= 1;
    }
    else
    {
        if (w->body_count > CS_ID_SLOT_MASK || !cs_world_reserve_bodies(w, w->body_count + 1))
        {
            return -1;
        }
        slot = w->body_count++;
        w->generation[slot] = 0;
        w->body_flags[slot] = 0;
    }
    w->active[slot] = 1;
    w->joint_head[slot] = -1;
    cs_sleep_init_slot(w, slot);
    w->body_flags[slot] = (uint8_t)(CS_BODY_ALIVE | (w->body_flags[slot] & CS_BODY_LISTED));
    w->dense_of[slot] = w->alive_count;
    w->dense[w->alive_count++] = slot;
    return slot;
}

// Appends to the FIFO ring; a full ring is copied out in order into a larger one.
static bool push_free(cs_world* w, int slot)
{
    if (w->free_count == w->free_capacity)
    {
        int cap = cs_grow_capacity(w->free_capacity, w->free_count + 1);
        int* ring = malloc((size_t)cap * sizeof(int));
        if (ring == NULL)
        {
            return false;
        }
        for (int i = 0; i < w->free_count; ++i)
        {
            ring[i] = w->free_ring[(w->free_head + i) % w->free_capacity];
        }
        free(w->free_ring);
        w->free_ring = ring;
        w->free_head = 0;
        w->free_capacity = cap;
    }
    w->free_ring[(w->free_head + w->free_count) % w->free_capacity] = slot;
    w->free_count += 1;
    return true;
}

// The last step's contacts on the slot go (they are what cs_world_contact reports and the next step's
// warm start; a new body in the slot must not inherit them). O(contacts of the last step).
static void drop_contacts(cs_contact_list* list, int slot)
{
    int n = 0;
    for (int k = 0; k < list->count; ++k)
    {
        if (list->items[k].a != slot && list->items[k].b != slot)
        {
            list->items[n++] = list->items[k];
        }
    }
    list->count = n;
}

cs_status cs_world_remove_circle(cs_world* w, int id)
{
    int slot = cs_world_slot(w, id);
    if (slot < 0)
    {
        cs_fail(&w->last_error, CS_ERR_USAGE, "remove: no body alive with id %d", id);
        return CS_ERR_USAGE;
    }
    if (!push_free(w, slot))
    {
        cs_fail(&w->last_error, CS_ERR_MEMORY, "remove: out of memory");
        return CS_ERR_MEMORY;
    }
    // Its island, and whatever touched it, wake: they lose a support.
    cs_sleep_wake(w, slot);
    for (int k = 0; k < w->contacts.count; ++k)
    {
        const cs_contact* c = w->contacts.items + k;
        if (c->a == slot || c->b == slot)
        {
            cs_sleep_wake(w, c->a == slot ? c->b : c->a);
        }
    }
    drop_contacts(&w->contacts, slot);
    cs_joint_remove_body(w, slot);
    int k = w->dense_of[slot];
    int last = w->dense[--w->alive_count];
    w->dense[k] = last;
    w->dense_of[last] = k;

    bool dynamic = w->body_type[slot] == CS_BODY_DYNAMIC;
    w->nondynamic_count -= dynamic ? 0 : 1;
    w->kinematic_count -= w->body_type[slot] == CS_BODY_KINEMATIC;
    w->sensor_count -= (w->body_flags[slot] & CS_BODY_SENSOR) ? 1 : 0;
    w->bullet_count -= (w->body_flags[slot] & CS_BODY_BULLET) ? 1 : 0;
    w->filter_count -= (w->body_flags[slot] & CS_BODY_SENSOR) || w->category[slot] != 1 ||
                       w->mask[slot] != UINT32_MAX || w->group[slot] != 0;
    // The slot keeps finite numbers (so no NaN check ever trips on it) but moves no more and meets
    // nothing: the broad phase skips it and its rows cannot exist.
    w->body_flags[slot] &= CS_BODY_LISTED;
    w->active[slot] = 0;
    w->body_type[slot] = CS_BODY_STATIC;
    w->v[3 * slot] = w->v[3 * slot + 1] = w->v[3 * slot + 2] = 0.0;
    w->fx[slot] = w->fy[slot] = 0.0;
    w->mass[slot] = w->inv_mass[slot] = w->inv_inertia[slot] = 0.0;
    w->generation[slot] = (w->generation[slot] + 1) % CS_ID_GENERATIONS;
    return CS_OK;
}

int cs_world_body_id(const cs_world* w, int k)
{
    return k >= 0 && k < w->alive_count ? cs_world_slot_id(w, w->dense[k]) : -1;
}

double cs_world_max_speed(const cs_world* w)
{
    double vmax = 0.0;
    for (int k = 0; k < w->alive_count; ++k)
    {
        const double* v = w->v + 3 * w->dense[k];
        double s = hypot(v[0], v[1]);
        vmax = s > vmax ? s : vmax;
    }
    return vmax;
}

bool cs_world_body_alive(const cs_world* w, int id)
{
    return cs_world_slot(w, id) >= 0;
}

int cs_world_body_index(const cs_world* w, int id)
{
    int slot = cs_world_slot(w, id);
    return slot >= 0 ? w->dense_of[slot] : -1;
}
