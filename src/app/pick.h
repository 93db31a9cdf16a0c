// circlesim viewer — the body under a world point, found on the broad phase (cs_world_query_aabb), never
// by a scan of every body. A leaf: it knows the world's API only.
#ifndef CS_APP_PICK_H
#define CS_APP_PICK_H

#include "circlesim/circlesim.h"

// The id of the circle containing p with the nearest centre (ties: the lower id), whatever its filter
// bits, or -1 (sensors, which queries never see, cannot be picked).
int pick_body_at(const cs_world* w, cs_vec2 p);

#endif
