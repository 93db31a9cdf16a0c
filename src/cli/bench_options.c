// circlesim-cli bench's scene list: finding the suite's scene files, naming them, telling generated scenes
// (pool-N, stream-N) from files, and integer lists.
#include "cli/bench_options.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/bench_scenes.h"
#include "cli/variants.h"

// Finds a scene file of the paper suite: DIR/NAME.json for the given directory, else scenes/ in the
// working directory, else ../scenes next to the binary (build directories live inside the repository).
bool cs_bench_find_scene(const char* dir, const char* name, char* path, size_t size)
{
    if (dir != NULL)
    {
        int len = snprintf(path, size, "%s/%s.json", dir, name);
        return len > 0 && (size_t)len < size && access(path, R_OK) == 0;
    }
    snprintf(path, size, "scenes/%s.json", name);
    if (access(path, R_OK) == 0)
    {
        return true;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0)
    {
        exe[n] = '\0';
        char* slash = strrchr(exe, '/');
        if (slash != NULL)
        {
            *slash = '\0';
            int len = snprintf(path, size, "%s/../scenes/%s.json", exe, name);
            return len > 0 && (size_t)len < size && access(path, R_OK) == 0;
        }
    }
    return false;
}

int cs_bench_parse_int_list(const char* cmd, const char* opt, const char* text, int min, int max, int* out,
                            int capacity)
{
    double values[CS_MAX_VARIANTS];
    int n =
        cs_arg_double_list(cmd, opt, text, values, capacity < CS_MAX_VARIANTS ? capacity : CS_MAX_VARIANTS);
    for (int k = 0; k < n; ++k)
    {
        if (values[k] != floor(values[k]) || values[k] < min || values[k] > max)
        {
            fprintf(stderr, "circlesim-cli %s: %s: expected integers in [%d, %d], got '%s'\n", cmd, opt, min,
                    max, text);
            return -1;
        }
        out[k] = (int)values[k];
    }
    return n;
}

// pool-N and stream-N in --scenes are the generated scenes of bench_scenes.h (when no such file exists).
bool cs_bench_generated_name(const char* entry)
{
    cs_bench_scene s;
    if ((strncmp(entry, "pool-", 5) != 0 && strncmp(entry, "stream-", 7) != 0) || access(entry, R_OK) == 0 ||
        !cs_bench_scene_make(entry, &s))
    {
        return false;
    }
    cs_bench_scene_free(&s);
    return true;
}

// Labels a scene file by its base name without .json.
void cs_bench_label_from_path(const char* path, char* label, size_t size)
{
    const char* base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    size_t len = strlen(base);
    len = len < size - 1 ? len : size - 1;
    memcpy(label, base, len);
    label[len] = '\0';
    char* dot = strrchr(label, '.');
    if (dot != NULL && strcmp(dot, ".json") == 0)
    {
        *dot = '\0';
    }
}
