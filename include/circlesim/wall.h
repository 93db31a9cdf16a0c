// circlesim — static walls: contact geometry (the narrow phase collides circles with them), so the
// contact code needs this header and not the world's.
#ifndef CIRCLESIM_WALL_H
#define CIRCLESIM_WALL_H

#include "circlesim/base.h"

#ifdef __cplusplus
extern "C"
{
#endif

    typedef enum cs_wall_kind
    {
        CS_WALL_SEGMENT = 0,
        CS_WALL_HALF_PLANE = 1,
    } cs_wall_kind;

    typedef struct cs_wall
    {
        cs_wall_kind kind;
        cs_vec2 p0, p1; // segment end points; half-plane: p0 is a point on the boundary line
        cs_vec2 normal; // half-plane: unit normal pointing into the free side; segment: left normal of p0→p1
        double friction;
        double restitution;
    } cs_wall;

#ifdef __cplusplus
}
#endif

#endif
