// The scene generators' formulas — grid lattice, stack, random pile and the random stream — as plain C and
// libm with no other circlesim header, so that one source serves both the scene loader
// (scene_generators.c, in the library) and the benchmark scenes (src/cli/bench_scenes.c), which the peer
// programs (bench/peers: Box2D v3, Box2D 2.4.1, Chipmunk) compile without the library. A scene file and
// the same scene built by name therefore start bit for bit alike (test_bench_scenes holds it).
#ifndef CS_SCENE_GENERATOR_FORMULAS_H
#define CS_SCENE_GENERATOR_FORMULAS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    // splitmix64 (Steele, Lea & Flood 2014): tiny, statistically fine for placement, and portable — the
    // scene format's random stream (docs/SCENES.md), never the C library's.
    uint64_t cs_gen_splitmix64(uint64_t* state);
    // Uniform in [lo, hi) from the top 53 bits of the next splitmix64 number.
    double cs_gen_uniform(uint64_t* state, double lo, double hi);

    // A grid generator's lattice: circle k of row r (rows bottom first, columns left to right; odd rows
    // shift by row_offset so that a lattice collapses into a packing instead of standing as columns), moved
    // by two uniform draws in [-jitter, jitter) from *state (x, then y) when jitter > 0.
    void cs_gen_grid_point(double origin_x, double origin_y, double spacing_x, double spacing_y,
                           double row_offset, double jitter, int r, int k, uint64_t* state, double* x,
                           double* y);
    // Pool 2's masses: linear in the row index, row 0 `lowest`, row rows-1 `highest`.
    double cs_gen_row_mass(int r, int rows, double lowest, double highest);
    // The centre height of circle k of a stack standing on base_y, its circles `gap` apart.
    double cs_gen_stack_y(double base_y, double radius, double gap, int k);

    // A pile: random sequential addition of `count` non-overlapping discs in region [x0, y0, x1, y1], from
    // the stream seeded by `seed`: per disc its radius (uniform in radius_range when ranged, else radius),
    // then up to `tries` positions until one is free of every placed disc.
    typedef struct cs_gen_pile
    {
        uint64_t seed;
        int count;
        double region[4];
        bool ranged;
        double radius;          // when !ranged
        double radius_range[2]; // when ranged
        int tries;
    } cs_gen_pile;

    typedef enum cs_gen_pile_status
    {
        CS_GEN_PILE_OK,
        CS_GEN_PILE_MEMORY, // out of memory for the placement grid
        CS_GEN_PILE_FULL    // a disc found no free position in `tries` (*placed discs were placed)
    } cs_gen_pile_status;

    // Places the pile into x, y, r (count entries each); *placed: how many were placed. The region must hold
    // a disc of the largest radius (the loader checks it and says so at the key).
    cs_gen_pile_status cs_gen_pile_place(const cs_gen_pile* pile, double* x, double* y, double* r,
                                         int* placed);
    // A pile's "speed_range": the velocity stream (its own, so that positions do not depend on it) is seeded
    // by cs_gen_velocity_seed(seed); each disc moves at base + a speed uniform in [slowest, fastest] in a
    // direction uniform in [0, 2π).
    uint64_t cs_gen_velocity_seed(uint64_t seed);
    void cs_gen_pile_velocity(uint64_t* stream, double slowest, double fastest, double base_x, double base_y,
                              double* vx, double* vy);

#ifdef __cplusplus
}
#endif

#endif
