// circlesim-siconos (bench/siconos): what its commands share. siconos_run.c runs one method of either
// library on one problem; siconos_bench.c holds compare, random and main; siconos_profile.c the profiles.
#ifndef CS_SICONOS_BENCH_H
#define CS_SICONOS_BENCH_H

#include "siconos_mlcp.h"
#include "siconos_problem.h"

#include "circlesim/base.h"

#include <stdio.h>

enum
{
    FC2D_LEMKE_MAX_ROWS = 400, // dense fc2d Lemke is cubic: 48 s at 1 134 rows (issue 17)
};

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
} options;

typedef struct result
{
    bool run;    // false: not applicable or skipped (why says which)
    bool solved; // res_nat <= tol
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
    sico_mlcp x;
    char why[128];
    char name[128];
} loaded;

// False (the reason on stderr) when the file cannot be read.
bool sb_load(const char* path, loaded* l);
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

#endif
