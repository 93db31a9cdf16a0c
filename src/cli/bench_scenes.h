// The benchmark scenes as plain numbers (discs, walls, materials, a stream of falling rows), so that
// circlesim-cli bench and the peer programs (bench/peers: Box2D v3, Box2D 2.4.1, Chipmunk) build them
// from one formula. Plain C and libm only: the peers compile this file and src/scene/generator_formulas.c
// (the scene loader's own generators) without the circlesim library.
//
// Names: pool1, pool2, stacking, stacking150 (scenes/*.json, the paper's four), pool1-jitter
// (scenes/pool1-jitter.json), gas (scenes/gas.json: 20 000 elastic discs), pool-N (the scale suite) and
// stream-N (pool-N under a row of falling circles every CS_BENCH_STREAM_EVERY steps). test_bench_scenes
// holds the scene files' loader to these formulas, body by body.
#ifndef CS_CLI_BENCH_SCENES_H
#define CS_CLI_BENCH_SCENES_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

    enum
    {
        CS_BENCH_STREAM_EVERY = 10, // steps between two spawned rows of a stream scene
        CS_BENCH_MAX_WALLS = 4
    };

    typedef struct cs_bench_disc
    {
        double x, y, vx, vy, r, m;
    } cs_bench_disc;

    // A wall is a half-plane for circlesim (point (x0, y0), inward unit normal) and the segment (x0, y0)–
    // (x1, y1) for engines without half-planes; the segment reaches far beyond anything the scene does.
    typedef struct cs_bench_wall
    {
        double x0, y0, x1, y1, nx, ny;
    } cs_bench_wall;

    typedef struct cs_bench_scene
    {
        char name[32];
        int count; // discs at the start
        cs_bench_disc* discs;
        int wall_count;
        cs_bench_wall walls[CS_BENCH_MAX_WALLS];
        double gravity_y;             // m/s²
        double friction, restitution; // every pair, walls included
        double restitution_threshold; // m/s: restitution applies above this approach speed
        double top_exact;             // a stack's exact top centre height (m), else 0
        // Stream scenes: before step s with s % CS_BENCH_STREAM_EVERY == 0, stream_columns discs appear.
        int stream_columns; // 0: no stream
        int pool_columns, pool_rows;
        double pool_half; // half the pool's width (m)
    } cs_bench_scene;

    // Builds the scene called name; false (with *out zeroed) for an unknown name or sizes out of range.
    bool cs_bench_scene_make(const char* name, cs_bench_scene* out);
    // count circles in `columns` columns of Pool 1's lattice (pool-N has round(sqrt(N)) columns).
    bool cs_bench_scene_pool(int count, int columns, cs_bench_scene* out);
    void cs_bench_scene_free(cs_bench_scene* s);

    // The stream's row spawned before step `step` (a multiple of CS_BENCH_STREAM_EVERY): writes
    // s->stream_columns discs into out and returns how many (0 when the scene has no stream or no row
    // is due). Row k appears one row spacing above row k-1 at 3 m/s downwards, where the pool's lattice would
    // continue: it never overlaps the pile, the walls or the previous row.
    int cs_bench_stream_row(const cs_bench_scene* s, int step, cs_bench_disc* out);

#ifdef __cplusplus
}
#endif

#endif
