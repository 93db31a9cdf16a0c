// A world with every kind of engine state a snapshot or a clone must carry (tests of resume and fork):
// static, kinematic, sensor, filtered and bullet circles, a rod to the world, a rope between bodies,
// sleeping on (a resting stack falls asleep, a dropped ball wakes it), contact events, and a script of
// removals and additions by step, so that slots are freed, generations advance and joints die.
#ifndef CS_ENGINE_WORLD_H
#define CS_ENGINE_WORLD_H

#include <stdint.h>

#include "circlesim/circlesim.h"

cs_world* cs_test_engine_world(void);
// The script's action for the world's next step (removals, additions, a kinematic's new velocity), then
// the step; asserts success. Returns a digest of the step's contact and sensor events (ids, walls,
// counts), so that two runs can be compared event for event.
uint64_t cs_test_engine_step(cs_world* w);

#endif
