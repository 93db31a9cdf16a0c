// Placeholder until its issue lands; replaced, never shipped as done.
#include <stdio.h>

#include "cli/commands.h"

int cs_cmd_table2(int argc, char** argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "circlesim-cli table2: not built yet\n");
    return 2;
}
