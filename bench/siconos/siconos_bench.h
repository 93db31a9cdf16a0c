// circlesim-siconos (bench/siconos): what its commands share. siconos_run.c runs one method of either
// library on one problem; siconos_bench.c holds compare, random and main; siconos_profile.c the profiles.
#ifndef CS_SICONOS_BENCH_H
#define CS_SICONOS_BENCH_H

#include "siconos_mlcp.h"
#include "siconos_problem.h"

#include "circlesim/base.h"

#include <stdio.h>

// One method of either library. A circlesim method is a registry name; a Siconos one has an LCP, an fc2d and
// an MLCP solver id (-1: none for that problem kind; the MLCP one runs on problems with joints).
typedef struct method
{
    const char* label;
    const char* circlesim; // registry name, or NULL
    int lcp, fc2d, mlcp;   // Siconos ids, or -1
} method;

typedef struct options
{
    double tol[2];
    int tol_count;
    int max_iterations;
    int repeat;
    const char* out_dir;
    double budget;      // CPU seconds per run (0: none); siconos_budget.c
    int max_dense_rows; // dense methods (circlesim's CS_SOLVER_DENSE, every Siconos one) above: not run
} options;

// How a run ended (result.stop): the runs.csv column "stop".
#define SB_STOP_SOLVED     "solved"     // res_nat <= tol
#define SB_STOP_ITERATIONS "iterations" // its iteration (sweep, Newton step, pivot) cap, or it stopped short
#define SB_STOP_TIME       "time"       // the CPU-time budget ended it
#define SB_STOP_SIZE       "size"       // dense storage over --max-dense-rows: not run
#define SB_STOP_ERROR      "error"      // the method said it failed, or crashed
#define SB_STOP_NA         "n/a"        // no such method for this kind of problem

typedef struct result
{
    const char* stop; // SB_STOP_*
    bool run;         // false: not applicable (why says why)
    bool solved;      // res_nat <= tol
    int iterations;
    double ms;
    double res_nat;
    int info; // Siconos's status (0 = it says solved); circlesim: 0
    char why[CS_ERROR_MAX];
} result;

// A problem loaded for both libraries: circlesim's rows and Siconos's dense problem, an LCP or an fc2d
// problem (posable), or else, with joints, an MLCP (mlcp); why says why neither.
typedef struct loaded
{
    cs_lcp p;
    sico_dense d;
    sico_problem s;
    bool posable;
    bool mlcp;
    bool oversize; // rows over options.max_dense_rows: no dense form made
    sico_mlcp x;
    char why[128];
    char name[128];
} loaded;

// False (the reason on stderr) when the file cannot be read.
bool sb_load(const char* path, loaded* l, const options* o);
// A problem without rows says nothing about any method (and Siconos's Newton min asserts n > 0 on it):
// compare and profile leave it out, saying so on stderr.
bool sb_skip_empty(const loaded* l, const char* command);
// Siconos's method m for the problem's kind (its lcp, fc2d or mlcp id) on l, or a result saying why not.
result sb_run_siconos_on(loaded* l, const method* m, double tol, const options* o);
void sb_unload(loaded* l);
// circlesim's registry method `solver` from zero to res_nat <= tol (median time of o->repeat solves).
result sb_run_circlesim(const cs_lcp* p, int solver, double tol, const options* o);
// Siconos method `id` (-1: none) at equal accuracy: its tolerance tightened until res_nat <= tol.
result sb_run_siconos(const sico_dense* d, sico_problem* s, int id, double tol, const options* o);

int sb_cmd_profile(int count, char** files, const options* o);

// run(arg) in a forked child ended after budget_seconds of CPU time (<= 0: run here, no budget); a run the
// timer ends comes back as failed, stop SB_STOP_TIME.
result sb_budgeted(result (*run)(void* arg), void* arg, double budget_seconds);
// This process's CPU time, ms: what every run is timed by.
double sb_cpu_ms(void);
// A result for a run that was not made (stop, and why).
result sb_not_run(const char* stop, const char* why);
// circlesim's method `solver` or Siconos's m (circlesim == NULL) on l under o's budgets.
result sb_run_budgeted(loaded* l, const method* m, double tol, const options* o);

#endif
