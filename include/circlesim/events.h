// circlesim — contact and sensor events of the last step.
#ifndef CIRCLESIM_EVENTS_H
#define CIRCLESIM_EVENTS_H

#include "circlesim/world.h"

#ifdef __cplusplus
extern "C"
{
#endif

    // Two shapes touch when their gap is at most the linear slop or their contact carries impulse.
    // As cs_contact_info: body_a -1 with a wall (then `wall` is its index, else -1).
    typedef struct cs_contact_event
    {
        int body_a;
        int body_b;
        int wall;
        cs_vec2 point;
        double approach_speed; // hit events: the normal speed at which they met (m/s); 0 otherwise
    } cs_contact_event;

    // begin: started touching this step; end: stopped (or a body was removed); hit: a begin whose approach
    // speed is at least the world's hit_event_threshold. A resting contact produces none. The arrays stay
    // valid until the next step.
    typedef struct cs_contact_events
    {
        const cs_contact_event* begin;
        int begin_count;
        const cs_contact_event* end;
        int end_count;
        const cs_contact_event* hit;
        int hit_count;
    } cs_contact_events;

    cs_contact_events cs_world_contact_events(const cs_world* world);

    // On by default (cs_world_def.contact_events). Off, the step skips the events' pass and reports none;
    // turned on again, contacts touching at that moment begin anew.
    void cs_world_enable_contact_events(cs_world* world, bool on);

    // Sensor circles (cs_circle_def.sensor) are never solved: these report the circles that started and
    // stopped overlapping one this step (body_a the sensor, body_b the visitor; a visitor is a dynamic or
    // kinematic circle, not a sensor, whose category is in the sensor's mask and the sensor's in its own).
    typedef struct cs_sensor_events
    {
        const cs_contact_event* begin;
        int begin_count;
        const cs_contact_event* end;
        int end_count;
    } cs_sensor_events;

    cs_sensor_events cs_world_sensor_events(const cs_world* world);

    // Dynamic bodies awake (all of them while sleeping is off).
    int cs_world_awake_count(const cs_world* world);

#ifdef __cplusplus
}
#endif

#endif
