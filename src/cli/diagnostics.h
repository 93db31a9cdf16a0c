// What the commands that load scenes print besides their results: the scene's range warnings, and the
// check that a command's output files are distinct.
#ifndef CS_CLI_DIAGNOSTICS_H
#define CS_CLI_DIAGNOSTICS_H

#include <stdbool.h>

#include "circlesim/scene.h"

// Each kept warning on its own line on stderr, then "(N more warnings)" when some were not kept.
void cs_cli_print_warnings(const cs_scene_info* info);
// False (with a usage message naming both options) when two of the given output paths name one file
// (the same string, or the same existing file); NULL entries are skipped.
bool cs_cli_distinct_outputs(const char* cmd, const char* const* options, const char* const* paths,
                             int count);

#endif
