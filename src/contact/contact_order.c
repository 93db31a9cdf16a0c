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

cs_status cs_contact_order_reserve(cs_contact_order* o, int count, int body_count, int threads, cs_error* err)
{
    if (count > o->order_capacity)
    {
        int cap = cs_grow_capacity(o->order_capacity, count);
        if (!CS_RESIZE(o->order, cap) || !CS_RESIZE(o->colour, cap) || !CS_RESIZE(o->keys, cap))
        {
            return cs_fail(err, CS_ERR_MEMORY, "contact order: out of memory for %d contacts", cap);
        }
        o->order_capacity = cap;
    }
    if (body_count > o->used_capacity || threads > o->used_threads)
    {
        // (All zero between calls: a fresh block, zeroed, replaces the old one.)
        int cap =
            body_count > o->used_capacity ? cs_grow_capacity(o->used_capacity, body_count) : o->used_capacity;
        int t = threads > o->used_threads ? threads : o->used_threads;
        uint32_t* q = calloc((size_t)cap * (size_t)t, sizeof *q);
        if (q == NULL)
        {
            return cs_fail(err, CS_ERR_MEMORY, "contact order: out of memory for %d bodies", cap);
        }
        free(o->used);
        o->used = q;
        o->used_capacity = cap;
        o->used_threads = t;
    }
    return CS_OK;
}

void cs_contact_order_blocks(cs_contact_order* o, const cs_contact* contacts, int count, int block, int first,
                             int end, int thread)
{
    uint32_t* used = o->used + (size_t)thread * (size_t)o->used_capacity;
    uint8_t* colour = o->colour;
    int* order = o->order;
    for (int b = first; b < end; ++b)
    {
        int start = b * block;
        int stop = start + block < count ? start + block : count;
        int histogram[CS_ORDER_COLOURS + 1] = {0};
        for (int k = start; k < stop; ++k)
        {
            // The bodies read once, the colour stored last: a store through uint8_t may alias anything,
            // so after it the compiler read c->a, c->b (and the arrays) again.
            const int a = contacts[k].a, bb = contacts[k].b;
            o->keys[k] = contacts[k].key;
            int col = pick_colour(used, a, bb);
            histogram[col + 1] += 1;
            uint32_t bit = 1u << col;
            used[bb] |= bit;
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
        for (int k = start; k < stop; ++k)
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
}

cs_status cs_contact_order_build(cs_contact_order* o, const cs_contact* contacts, int count, int body_count,
                                 int block, cs_error* err)
{
    cs_status st = cs_contact_order_reserve(o, count, body_count, 1, err);
    if (st != CS_OK)
    {
        return st;
    }
    if (block <= 0)
    {
        block = count > 0 ? count : 1;
    }
    cs_contact_order_blocks(o, contacts, count, block, 0, (count + block - 1) / block, 0);
    o->key_count = count;
    o->key_block = block;
    return CS_OK;
}

bool cs_contact_order_holds(const cs_contact_order* o, const cs_contact* contacts, int count, int block)
{
    if (count != o->key_count || block != o->key_block || o->key_count < 0)
    {
        return false;
    }
    const uint64_t* keys = o->keys;
    for (int k = 0; k < count; ++k)
    {
        if (contacts[k].key != keys[k])
        {
            return false;
        }
    }
    return true;
}

void cs_contact_order_free(cs_contact_order* o)
{
    free(o->order);
    free(o->colour);
    free(o->used);
    free(o->keys);
    *o = (cs_contact_order){0};
}
