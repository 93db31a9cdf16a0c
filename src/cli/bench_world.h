// A circlesim world from a benchmark scene of bench_scenes.h (the same numbers the peers build theirs from).
#ifndef CS_CLI_BENCH_WORLD_H
#define CS_CLI_BENCH_WORLD_H

#include "circlesim/circlesim.h"
#include "cli/bench_scenes.h"

// The scene's walls as half-planes and its discs as dynamic circles, gravity, restitution threshold and
// (μ = 0) a frictionless world as the scene says; everything else the world's defaults.
cs_world* cs_bench_world(const cs_bench_scene* s, cs_error* err);
// Adds n discs with the scene's materials; false (err set) when the world refuses one.
bool cs_bench_world_add(cs_world* w, const cs_bench_scene* s, const cs_bench_disc* discs, int n,
                        cs_error* err);

#endif
