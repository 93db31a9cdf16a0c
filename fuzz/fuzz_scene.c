// libFuzzer target: arbitrary bytes through the scene loader, and every world it loads through a few steps
// (docs/RELIABILITY.md "Fuzzing"). Inputs that name "circlesim_state" go through the snapshot reader
// instead; a snapshot that loads is also cloned (written and read again in memory) and must clone to the
// same state.
//
// The system cJSON is not instrumented, so the target goes through our own loader, whose position
// finder, readers and generators are compiled in with the sanitizers. Build and run (fuzz/CMakeLists.txt):
//   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCS_FUZZ=ON -DCS_BUILD_TESTS=OFF -DCS_BUILD_VIEWER=OFF
//   cmake --build build-fuzz --target fuzz_scene
//   mkdir -p build-fuzz/corpus && cp scenes/*.json build-fuzz/corpus/
//   build-fuzz/fuzz_scene -dict=fuzz/scene.dict -max_total_time=120 -max_len=8192 build-fuzz/corpus
// (the top-level CMakeLists.txt needs `add_subdirectory(fuzz)`; `cmake -S fuzz -B DIR
// -DCMAKE_C_COMPILER=clang` also builds the target alone, as DIR/fuzz_scene.)
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// The contract of a failed load: one non-empty line starting with the file name.
static void check_error(const cs_error* err)
{
    if (err->status == CS_OK || err->message[0] == '\0' || strchr(err->message, '\n') != NULL ||
        strncmp(err->message, "fuzz.json:", 10) != 0)
    {
        abort();
    }
}

// A few steps of every loaded world reach what loading alone cannot: the broad phase at extreme extents,
// the rows, the solve, the health check. Bounded so that one input stays fast (the body cap is
// CS_SCENE_MAX_BODIES, below; the iterations are capped here). A step either succeeds or is refused with
// the world's health saying where; the bodies stay finite either way.
static void step_and_check(cs_world* world)
{
    cs_solver_params params = *cs_world_solver_params(world);
    params.iterations = params.iterations < 50 ? params.iterations : 50;
    cs_world_set_solver_params(world, &params);
    const cs_world_def* def = cs_world_get_def(world);
    int steps = cs_world_body_count(world) > 256 ? 0 : (def->position_iterations > 100 ? 1 : 4);
    for (int s = 0; s < steps; ++s)
    {
        cs_status st = cs_world_step(world);
        if (st != CS_OK)
        {
            if (st != CS_ERR_VALUE || cs_world_health(world)->ok || cs_world_last_error(world)[0] == '\0')
            {
                abort();
            }
            break;
        }
    }
    for (int k = 0; k < cs_world_body_count(world); ++k)
    {
        cs_body_state b = cs_world_body(world, cs_world_body_id(world, k));
        if (!isfinite(b.position.x) || !isfinite(b.position.y) || !isfinite(b.velocity.x) ||
            !isfinite(b.velocity.y) || !isfinite(b.angular_velocity))
        {
            abort();
        }
    }
}

static void snapshot_input(const char* text)
{
    cs_error err = {CS_OK, ""};
    cs_world* world = cs_world_load_state_string(text, "fuzz.json", &err);
    if (world == NULL)
    {
        check_error(&err);
        return;
    }
    cs_world* copy = cs_world_clone(world, &err);
    if (copy == NULL || cs_world_hash(copy) != cs_world_hash(world) ||
        cs_world_body_count(copy) != cs_world_body_count(world))
    {
        abort();
    }
    step_and_check(world);
    cs_world_destroy(copy);
    cs_world_destroy(world);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    char* text = fuzz_text(data, size);
    if (text == NULL)
    {
        return 0;
    }
    if (strstr(text, "\"circlesim_state\"") != NULL)
    {
        snapshot_input(text);
        free(text);
        return 0;
    }
    cs_error err = {CS_OK, ""};
    cs_scene_info info;
    cs_world* world = cs_scene_load_string(text, "fuzz.json", &info, &err);
    if (world == NULL)
    {
        check_error(&err);
    }
    else
    {
        if (cs_world_body_count(world) < 1 || info.steps < 1 || info.name[0] == '\0')
        {
            abort();
        }
        step_and_check(world);
        cs_world_destroy(world);
    }
    free(text);
    return 0;
}
