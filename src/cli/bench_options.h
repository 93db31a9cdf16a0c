// circlesim-cli bench's scene list (bench_options.c).
#ifndef CS_CLI_BENCH_OPTIONS_H
#define CS_CLI_BENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

// Finds DIR/NAME.json (dir given), else scenes/NAME.json, else ../scenes/NAME.json next to the binary.
bool cs_bench_find_scene(const char* dir, const char* name, char* path, size_t size);
// Comma-separated integers in [min, max] into out (at most capacity); their count, or -1 after a usage
// message naming cmd and opt.
int cs_bench_parse_int_list(const char* cmd, const char* opt, const char* text, int min, int max, int* out,
                            int capacity);
// pool-N and stream-N (no such file): the generated scenes of bench_scenes.h.
bool cs_bench_generated_name(const char* entry);
// A scene file's label: its base name without .json.
void cs_bench_label_from_path(const char* path, char* label, size_t size);

#endif
