// Block-local greedy colouring of the contact list (contact_order.h).
#include "contact/contact_order.h"

#include <stdlib.h>

#include "core/array.h"

enum
{
    CS_ORDER_COLOURS = 32 // one bit each in `used`; the last colour takes whatever fits nowhere else
};

// Lowest colour free on both bodies (a wall half, -1, takes none).
static int pick_colour(const uint32_t* used, int a, int b)
{
    uint32_t taken = used[b] | (a >= 0 ? used[a] : 0u);
    uint32_t free_bits = ~taken;
    if (free_bits == 0u)
    {
        return CS_ORDER_COLOURS - 1;
    }
    return __builtin_ctz(free_bits);
}

cs_status cs_contact_order_build(cs_contact_order* o, const cs_contact* contacts, int count, int body_count,
                                 int block, cs_error* err)
{
    if (count > o->order_capacity)
    {
        int cap = cs_grow_capacity(o->order_capacity, count);
        if (!CS_RESIZE(o->order, cap) || !CS_RESIZE(o->colour, cap))
        {
            return cs_fail(err, CS_ERR_MEMORY, "contact order: out of memory for %d contacts", cap);
        }
        o->order_capacity = cap;
    }
    if (body_count > o->used_capacity)
    {
        int cap = cs_grow_capacity(o->used_capacity, body_count);
        uint32_t* q = realloc(o->used, (size_t)cap * sizeof *q);
        if (q == NULL)
        {
            return cs_fail(err, CS_ERR_MEMORY, "contact order: out of memory for %d bodies", cap);
        }
        for (int i = o->used_capacity; i < cap; ++i)
        {
            q[i] = 0u;
        }
        o->used = q;
        o->used_capacity = cap;
    }
    if (block <= 0)
    {
        block = count;
    }
    uint32_t* used = o->used;
    uint8_t* colour = o->colour;
    int* order = o->order;
    for (int start = 0; start < count; start += block)
    {
        int end = start + block < count ? start + block : count;
        int histogram[CS_ORDER_COLOURS + 1] = {0};
        for (int k = start; k < end; ++k)
        {
            // The bodies read once, the colour stored last: a store through uint8_t may alias anything,
            // so after it the compiler read c->a, c->b (and the arrays) again.
            const int a = contacts[k].a, b = contacts[k].b;
            int col = pick_colour(used, a, b);
            histogram[col + 1] += 1;
            uint32_t bit = 1u << col;
            used[b] |= bit;
            if (a >= 0)
            {
                used[a] |= bit;
            }
            colour[k] = (uint8_t)col;
        }
        // Stable counting sort by colour: within a colour, key order.
        for (int col = 0; col < CS_ORDER_COLOURS; ++col)
        {
            histogram[col + 1] += histogram[col];
        }
        for (int k = start; k < end; ++k)
        {
            order[start + histogram[colour[k]]++] = k;
            const cs_contact* c = contacts + k;
            used[c->b] = 0u;
            if (c->a >= 0)
            {
                used[c->a] = 0u;
            }
        }
    }
    return CS_OK;
}

void cs_contact_order_free(cs_contact_order* o)
{
    free(o->order);
    free(o->colour);
    free(o->used);
    *o = (cs_contact_order){0};
}
