// The order the solver sweeps contacts in. Gauss-Seidel updates a row from the velocities the rows
// before it left, so two consecutive rows on a common body form a dependency chain the CPU cannot
// overlap (~30 cycles a row, docs/PERFORMANCE.md). The narrow phase emits contacts sorted by key
// (body a-major): nearly every contact shares a body with the one before. Here each block of
// consecutive contacts is greedily coloured (a colour is a set of contacts with no common body; walls are
// not bodies) and swept colour by colour, so that neighbouring rows are independent and the CPU
// overlaps them, while a block still touches only the bodies of its neighbourhood (cache locality).
// The order is a permutation of the contacts: the sweep is still Gauss-Seidel, in another row order.
#ifndef CS_CONTACT_ORDER_H
#define CS_CONTACT_ORDER_H

#include "circlesim/base.h"
#include "contact/contact.h"

// Contacts per coloured block. Measured (docs/PERFORMANCE.md): 16–256 give the same speed on Pool 1;
// one block of all contacts loses ~10 % at 50 000 circles, where a colour's rows then span all bodies.
#define CS_ORDER_BLOCK 64

typedef struct cs_contact_order
{
    int* order; // order[k]: the contact swept k-th
    int order_capacity;
    uint8_t* colour;   // per contact: its colour in its block
    uint32_t* used;    // per thread, per body: colours taken in its current block (all zero between calls)
    int used_capacity; // bodies per thread
    int used_threads;
    // The key of each contact of the last order built (its bodies a, b, or wall and b), its count of
    // contacts and its block: the order is a function of the contacts' bodies alone, so a step whose
    // contacts have the same keys in the same order (a settled pile) keeps it (cs_contact_order_holds).
    // key_count −1: none.
    uint64_t* keys;
    int key_count, key_block;
} cs_contact_order;

// Fills o->order with a permutation of [0, count) for contacts on body_count bodies; block = contacts per
// coloured block (<= 0: the whole list is one block). Grows only when count or body_count grow.
cs_status cs_contact_order_build(cs_contact_order* o, const cs_contact* contacts, int count, int body_count,
                                 int block, cs_error* err);

// The same in parts, for a step that colours blocks on several threads (blocks are independent): room for
// count contacts on body_count bodies and `threads` threads, then blocks first .. end − 1 (of `block`
// contacts) on thread `thread` (its own colour masks).
cs_status cs_contact_order_reserve(cs_contact_order* o, int count, int body_count, int threads,
                                   cs_error* err);
void cs_contact_order_blocks(cs_contact_order* o, const cs_contact* contacts, int count, int block, int first,
                             int end, int thread);

// Whether o's order is the one blocks of `block` contacts would build for these contacts (their keys are
// the order's, in order).
bool cs_contact_order_holds(const cs_contact_order* o, const cs_contact* contacts, int count, int block);

void cs_contact_order_free(cs_contact_order* o);

#endif
