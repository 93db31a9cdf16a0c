// circlesim-cli subcommands. Each returns the process exit code:
// 0 success, 1 a run error (bad file, failed solve), 2 a usage error (unknown option or value),
// 3 (lcp solve) the solver stopped without an answer (CS_EXIT_NOT_SOLVED: cs_solve_stop_failed).
#ifndef CS_CLI_COMMANDS_H
#define CS_CLI_COMMANDS_H

enum
{
    CS_EXIT_NOT_SOLVED = 3
};

int cs_cmd_run(int argc, char** argv);      // cmd_run.c
int cs_cmd_lcp(int argc, char** argv);      // cmd_lcp.c: lcp solve | lcp info
int cs_cmd_converge(int argc, char** argv); // cmd_converge.c: Table 1, Figures 3–5
int cs_cmd_table2(int argc, char** argv);   // cmd_table2.c: Table 2
int cs_cmd_bench(int argc, char** argv);    // cmd_bench.c: benchmark suites
int cs_cmd_queries(int argc, char** argv);  // cmd_queries.c: ray and box queries, sleeping, on a pool
// cmd_bench.c: the scale suite's pool of `count` circles in `columns` columns (Pool 1's layout).
cs_world* cs_bench_pool_world(int count, int columns, cs_error* err);
int cs_cmd_solvers(int argc, char** argv); // main.c: list the registry

// cmd_lcp_export.c: lcp export FILE (--fclib OUT | --lcp OUT), reached through cs_cmd_lcp.
int cs_cmd_lcp_export(int argc, char** argv);

#endif
