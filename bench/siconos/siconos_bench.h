// circlesim-siconos (bench/siconos): what its commands share. siconos_run.c runs one method of either
// library on one problem; siconos_bench.c holds compare, random and main; siconos_profile.c the profiles.
#ifndef CS_SICONOS_BENCH_H
#define CS_SICONOS_BENCH_H

#include "siconos_problem.h"

#include "circlesim/base.h"

#include <stdio.h>

enum
{
    FC2D_LEMKE_MAX_ROWS = 400, // dense fc2d Lemke is cubic: 48 s at 1 134 rows (issue 17)
};

// One method of either library. A circlesim method is a registry name; a Siconos one has an LCP and an fc2d
// solver id (-1: none for that problem kind).
typedef struct method
{
    const char* label;
    const char* circlesim; // registry name, or NULL
    int lcp, fc2d;         // Siconos ids, or -1
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

// A problem loaded for both libraries: circlesim's rows and Siconos's dense problem.
typedef struct loaded
{
    cs_lcp p;
    sico_dense d;
    sico_problem s;
    char name[128];
} loaded;

bool sb_load(const char* path, loaded* l);
void sb_unload(loaded* l);
// circlesim's registry method `solver` from zero to res_nat <= tol (median time of o->repeat solves).
result sb_run_circlesim(const cs_lcp* p, int solver, double tol, const options* o);
// Siconos method `id` (-1: none) at equal accuracy: its tolerance tightened until res_nat <= tol.
result sb_run_siconos(const sico_dense* d, sico_problem* s, int id, double tol, const options* o);

int sb_cmd_profile(int count, char** files, const options* o);

#endif
