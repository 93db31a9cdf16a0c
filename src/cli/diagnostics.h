// What the commands that load scenes print besides their results: the scene's range warnings, the check
// that a command's output files are distinct, and opening those files ('-': standard output).
#ifndef CS_CLI_DIAGNOSTICS_H
#define CS_CLI_DIAGNOSTICS_H

#include <stdbool.h>
#include <stdio.h>

#include "circlesim/scene.h"

// Each kept warning on its own line on stderr, then "(N more warnings)" when some were not kept.
void cs_cli_print_warnings(const cs_scene_info* info);
// False (with a usage message naming both options) when two of the given output paths name one file
// (the same string, or the same existing file); NULL entries are skipped.
bool cs_cli_distinct_outputs(const char* cmd, const char* const* options, const char* const* paths,
                             int count);
// False (with a usage message naming the option) when one of the given paths is "-": these outputs are
// written to a named file only (snapshots, LCP files); NULL entries are skipped.
bool cs_cli_named_files(const char* cmd, const char* const* options, const char* const* paths, int count);
// An output file of a command (--csv FILE and the like): "-" is standard output, as bench's --csv -; the
// caller then keeps its own table off stdout. NULL (with "PATH: cannot open for writing" on stderr) when
// it cannot be opened.
FILE* cs_cli_open_output(const char* path);
// Closes what cs_cli_open_output opened (standard output is flushed, not closed); false when a write
// failed. NULL: true.
bool cs_cli_close_output(FILE* f);

#endif
