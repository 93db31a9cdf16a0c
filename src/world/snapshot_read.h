// The snapshot reader's parts (snapshot_read.c: the file and its lists; snapshot_read_slots.c: the
// bodies' slots, their iteration order, the free list and the sleeping islands).
#ifndef CS_SNAPSHOT_READ_H
#define CS_SNAPSHOT_READ_H

#include "scene/scene_internal.h"

// An array of exactly `count` finite numbers at v, into out.
bool cs_snapshot_read_row(const cs_jctx* c, const cs_jval* v, int count, double* out);
// Fails at element k of the row v.
bool cs_snapshot_fail_field(const cs_jctx* c, const cs_jval* v, int k, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
// Whether x is an integer in [lo, hi].
bool cs_snapshot_integer(double x, double lo, double hi);

// One "bodies" entry into the next slot of l->world.
bool cs_snapshot_read_slot(cs_scene_loader* l, const cs_jval* v);
// After the last slot: "alive_order", "free_slots", and the islands' rings of the sleeping slots.
bool cs_snapshot_read_slot_lists(cs_scene_loader* l, const cs_jval* root);

#endif
