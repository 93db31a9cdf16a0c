// circlesim-cli: the headless face. Dispatches to one file per subcommand.
#include <stdio.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "cli/commands.h"

typedef struct command
{
    const char* name;
    int (*run)(int argc, char** argv);
    const char* summary;
} command;

static const command commands[] = {
    {"run", cs_cmd_run, "run a scene headless; summary, per-step CSV, final state, LCP dumps"},
    {"lcp", cs_cmd_lcp, "solve or inspect a frozen LCP file (lcp solve | lcp info)"},
    {"converge", cs_cmd_converge, "freeze one step and run solvers to a tolerance (paper Table 1, Fig. 3-5)"},
    {"table2", cs_cmd_table2, "whole-run timing per solver and alpha (paper Table 2)"},
    {"bench", cs_cmd_bench, "benchmark suites (paper workloads, scaling)"},
    {"queries", cs_cmd_queries, "ray and box queries and sleeping on a settled pool (Box2D v3's rays mode)"},
    {"solvers", cs_cmd_solvers, "list the registered solvers"},
};

static void usage(FILE* out)
{
    fprintf(
        out,
        "usage: circlesim-cli COMMAND [ARGS]   (circlesim-cli COMMAND --help for details)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
    {
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    }
}

int cs_cmd_solvers(int argc, char** argv)
{
    (void)argv;
    if (argc > 1)
    {
        printf("usage: circlesim-cli solvers\n");
        return strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    int width = 0; // the longest name sets the column (amgs-adaptive, newton-minmap overran a fixed 12)
    for (int i = 0; i < cs_solver_count(); ++i)
    {
        int n = (int)strlen(cs_solver_at(i)->name);
        width = n > width ? n : width;
    }
    for (int i = 0; i < cs_solver_count(); ++i)
    {
        const cs_solver_info* s = cs_solver_at(i);
        printf("%-*s %s\n", width, s->name, s->description);
    }
    return 0;
}

int main(int argc, char** argv)
{
    if (argc < 2)
    {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)
    {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
    {
        if (strcmp(argv[1], commands[i].name) == 0)
        {
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "circlesim-cli: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
