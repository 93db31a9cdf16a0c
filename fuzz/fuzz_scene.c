// libFuzzer target: arbitrary bytes through the scene loader (optionally one world step when it loads).
//
// The system cJSON is not instrumented, so the target goes through our own loader, whose position
// finder, readers and generators are compiled in with the sanitizers. Build and run (fuzz/CMakeLists.txt):
//   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCS_FUZZ=ON -DCS_BUILD_TESTS=OFF -DCS_BUILD_VIEWER=OFF
//   cmake --build build-fuzz --target fuzz_scene
//   mkdir -p build-fuzz/corpus && cp scenes/*.json build-fuzz/corpus/
//   build-fuzz/fuzz_scene -dict=fuzz/scene.dict -max_total_time=120 -max_len=8192 build-fuzz/corpus
// (the top-level CMakeLists.txt needs `add_subdirectory(fuzz)`; `cmake -S fuzz -B DIR
// -DCMAKE_C_COMPILER=clang` also builds the target alone, as DIR/fuzz_scene.)
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/circlesim.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    char* text = malloc(size + 1);
    if (text == NULL)
    {
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    cs_error err = {CS_OK, ""};
    cs_scene_info info;
    cs_world* world = cs_scene_load_string(text, "fuzz.json", &info, &err);
    if (world == NULL)
    {
        // The contract: a failure is one non-empty line starting with the file name.
        if (err.status == CS_OK || err.message[0] == '\0' || strchr(err.message, '\n') != NULL ||
            strncmp(err.message, "fuzz.json:", 10) != 0)
        {
            abort();
        }
    }
    else
    {
        if (cs_world_body_count(world) < 1 || info.steps < 1 || info.name[0] == '\0')
        {
            abort();
        }
        // With CS_FUZZ_STEP=1 in the environment, one step of small scenes also fuzzes the world with
        // whatever geometry the loader accepts (much slower; off for loader campaigns).
        static int step = -1;
        if (step < 0)
        {
            const char* e = getenv("CS_FUZZ_STEP");
            step = e != NULL && strcmp(e, "1") == 0;
        }
        if (step && cs_world_body_count(world) <= 64)
        {
            cs_world_step(world);
        }
        cs_world_destroy(world);
    }
    free(text);
    return 0;
}
