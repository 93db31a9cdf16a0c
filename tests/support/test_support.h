// Shared helpers for the cmocka test programs.
#ifndef CS_TEST_SUPPORT_H
#define CS_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "circlesim/circlesim.h"

// |a − b| <= tol in double precision (cmocka 1.1 only compares floats), with both values in the message.
#define assert_near(a, b, tol)                                                                               \
    do                                                                                                       \
    {                                                                                                        \
        double a_ = (a), b_ = (b), t_ = (tol);                                                               \
        if (!(fabs(a_ - b_) <= t_))                                                                          \
        {                                                                                                    \
            fail_msg("%s = %.17g, expected %s = %.17g within %.3g", #a, a_, #b, b_, t_);                     \
        }                                                                                                    \
    } while (0)

// What a test that holds double methods to `tol` (a residual, or a relative gap between answers) holds method
// `solver` to: a single-precision method (CS_SOLVER_SINGLE, pgs-f32) floors at float round-off, so it is held
// to CS_TEST_SINGLE_TOL instead when that is looser (docs/SOLVERS.md, "pgs-f32").
#define CS_TEST_SINGLE_TOL 1e-5
static inline double cs_test_tolerance(int solver, double tol)
{
    bool single = (cs_solver_at(solver)->flags & CS_SOLVER_SINGLE) != 0;
    return single && tol < CS_TEST_SINGLE_TOL ? CS_TEST_SINGLE_TOL : tol;
}
// The same for the gap between two answers that each meet cs_test_tolerance: a residual of 1e-5 moves λ by
// up to the problem's conditioning times that (measured up to 1.6e-5 relative on test_solver_reg's problems).
#define CS_TEST_SINGLE_GAP 1e-3
static inline double cs_test_gap(int solver, double gap)
{
    bool single = (cs_solver_at(solver)->flags & CS_SOLVER_SINGLE) != 0;
    return single && gap < CS_TEST_SINGLE_GAP ? CS_TEST_SINGLE_GAP : gap;
}

// Path of a file in the source tree ("scenes/pool1.json" → absolute path), in a static buffer.
const char* cs_test_source_path(const char* relative);
// A fresh temporary file path with the given suffix (under the build directory), in a static ring.
const char* cs_test_temp_path(const char* suffix);
// Writes text to a fresh temporary file and returns its path.
const char* cs_test_write_temp(const char* suffix, const char* text);
// Reads the whole file at path into text (size bytes, NUL-terminated); fails the test when it cannot be read
// or does not fit. Returns its length.
size_t cs_test_read_text(const char* path, char* text, size_t size);
// Runs a shell command, captures stdout+stderr into out (truncated), returns the exit status.
int cs_test_run(const char* command, char* out, size_t out_size);
// A pool of `count` circles (r 0.21 m, 2 kg) in rows of `columns` in a three-walled box: the Pool 1 layout
// that circlesim-cli bench builds its scale suite from. Asserts success.
cs_world* cs_test_pool(int count, int columns);
// Where cs_test_pool puts its circle i.
cs_vec2 cs_test_pool_position(int i, int columns);
// The same in a world made with `def`.
cs_world* cs_test_pool_def(int count, int columns, const cs_world_def* def);
// Adds a disc (position x, velocity v, spin omega, radius r, mass m, friction mu, restitution e); asserts
// success and returns its id.
int cs_test_add_disc(cs_world* w, cs_vec2 x, cs_vec2 v, double omega, double r, double m, double mu,
                     double e);
// Runs `circlesim-cli ARGS` (the build's binary) and fails the test unless it exits with `code` and its
// output contains `expected`.
void cs_test_cli_expect(const char* args, int code, const char* expected);
// A default world with the ground: a half-plane y >= 0 (μ 0.1, e 0). Asserts success.
cs_world* cs_test_ground_world(void);
// Adds a circle of the default material; returns its id (fails the test on error).
int cs_test_add(cs_world* w, cs_body_type type, double x, double y, double r, double m);
// Adds a distance joint (a rod, or a rope) from anchor_a on body a (world coordinates for a = −1) to body b's
// centre; fails the test on error, returns the joint's index.
int cs_test_join(cs_world* w, int a, int b, cs_vec2 anchor_a, double length, bool rope);
// The velocity problem of step `steps` of a shipped scene ("scenes/pool1.json"), with or without friction,
// copied into out (with its warm start λ0) for a frozen-problem test; asserts success. Free with cs_lcp_free.
void cs_test_frozen_scene(const char* scene, int steps, bool friction, cs_lcp* out);
// Fails unless a and b are the same problem bit for bit (every array, box bounds of box rows).
void cs_test_assert_problems_equal(const cs_lcp* a, const cs_lcp* b);
// Line-buffers stdout so output survives a sanitizer abort; call first in main().
void cs_test_init(void);

// cmocka setup and teardown of a test that sets the sweeps' process-wide knobs, cs_fuse_min_rows
// (solver/fuse.h) and cs_split_own_min_rows (solver/split.h): the teardown restores both, also after a failed
// assert, so that later tests take the default paths.
int cs_test_save_sweep_knobs(void** state);
int cs_test_restore_sweep_knobs(void** state);

#endif
