// The state of contact and sensor events (the types world_internal.h embeds; events.c fills them): what
// touches now against what touched after the last step.
#ifndef CS_EVENT_STATE_H
#define CS_EVENT_STATE_H

#include "circlesim/events.h"

typedef struct cs_touch_list
{
    uint64_t* keys; // sorted (contact keys; sensor pairs: sensor slot << 32 | visitor slot)
    cs_contact_event* items;
    int* source; // contacts: the index in the world's contact list
    int count;
    int capacity;
} cs_touch_list;

typedef struct cs_event_list
{
    cs_contact_event* items;
    int count;
    int capacity;
} cs_event_list;

typedef struct cs_event_state
{
    cs_touch_list touching, touching_before; // contacts touching after this step and after the last
    cs_touch_list overlaps, overlaps_before; // sensor overlaps
    cs_event_list begin, end, hit;
    cs_event_list sensor_begin, sensor_end;
} cs_event_state;

void cs_event_state_free(cs_event_state* e);

#endif
