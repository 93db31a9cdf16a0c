// circlesim — queries: point, box and ray casts on the broad phase (never a scan of every body).
#ifndef CIRCLESIM_QUERY_H
#define CIRCLESIM_QUERY_H

#include "circlesim/world.h"

#ifdef __cplusplus
extern "C"
{
#endif

    // Which circles a query sees, Box2D's convention: a circle is seen when its category is in the
    // filter's mask and the filter's category is in the circle's mask. Sensors are never seen.
    typedef struct cs_query_filter
    {
        uint32_t category_bits; // default 1
        uint32_t mask_bits;     // default all bits
    } cs_query_filter;

    cs_query_filter cs_query_filter_default(void);

    // The circle containing `point` (distance to the centre at most the radius) with the nearest centre
    // (ties: the lower id), or -1. Default filter. -1 for a non-finite point.
    int cs_world_query_point(const cs_world* world, cs_vec2 point);

    // Ids of the circles overlapping the box [lower, upper]: writes at most `capacity` of them and returns
    // how many there are in all (which may exceed capacity). 0 for a non-finite or inverted box.
    int cs_world_query_aabb(const cs_world* world, cs_vec2 lower, cs_vec2 upper, int* ids, int capacity);
    int cs_world_query_aabb_filtered(const cs_world* world, cs_vec2 lower, cs_vec2 upper,
                                     cs_query_filter filter, int* ids, int capacity);

    // A ray hit: a circle (wall -1) or a wall (body -1), the point, the unit normal of the surface there
    // (pointing back toward the ray) and the fraction of the translation at which it is met. A ray that
    // starts inside a circle (or behind a half-plane's boundary) hits it at fraction 0, at the origin, with
    // a zero normal (Box2D's initial overlap).
    typedef struct cs_ray_hit
    {
        int body;
        int wall;
        cs_vec2 point;
        cs_vec2 normal;
        double fraction;
    } cs_ray_hit;

    // The first thing the segment origin → origin + translation meets; false (hit untouched) when it
    // meets nothing or the input is not finite. Tangent rays hit; walls are two-sided (segments) or solid
    // behind their boundary (half-planes).
    bool cs_world_ray_cast_closest(const cs_world* world, cs_vec2 origin, cs_vec2 translation,
                                   cs_ray_hit* hit);
    bool cs_world_ray_cast_closest_filtered(const cs_world* world, cs_vec2 origin, cs_vec2 translation,
                                            cs_query_filter filter, cs_ray_hit* hit);

    // Every hit, in no particular order, as Box2D's b2CastResultFcn: the callback returns -1 to ignore the
    // hit, 0 to stop, a fraction f to clip the ray there (later hits beyond f are not reported), or 1 to go
    // on unchanged. Returns the number of hits reported.
    typedef double cs_ray_callback(const cs_ray_hit* hit, void* context);
    int cs_world_ray_cast(const cs_world* world, cs_vec2 origin, cs_vec2 translation, cs_query_filter filter,
                          cs_ray_callback* callback, void* context);

#ifdef __cplusplus
}
#endif

#endif
