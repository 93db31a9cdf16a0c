// circlesim-siconos: circlesim's solvers beside Siconos Numerics's on the same frozen problems.
//   circlesim-siconos compare [options] FILE...         each circlesim method and its Siconos counterpart
//   circlesim-siconos profile --out DIR [options] FILE... every method on every file at two tolerances:
//                                                        runs.csv, Dolan-More profile CSVs and profile.gp
//   circlesim-siconos random --out DIR [--count N]       seeded random piles as .lcp files
// FILE is a .lcp or an FCLIB file (told apart by content). Siconos runs on the dense W = J M⁻¹ Jᵀ formed by
// siconos_problem.c, or with joints on the MLCP of siconos_mlcp.c (its sparse-block storage is not used:
// see docs/SOLVERS.md, "Siconos"); W's formation is not timed. Problems without rows are left out. Both start
// from zero. "Equal accuracy": circlesim stops at res_nat <= T (its own tolerance test); Siconos stops on its
// own error measure, so its tolerance is tightened until the res_nat of what it returns (the same definition,
// formed densely) is <= T as well, or it gives up (four tries).
#include "siconos_bench.h"

#include "circlesim/circlesim.h"

#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/lcp_cst.h>
#include <siconos/numerics/mlcp_cst.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Siconos Numerics never frees some of its workspace (LeakSanitizer: a few dozen blocks of a few kB); in a
// sanitizer build that is named here by library, so leaks of circlesim's own still fail.
const char* __lsan_default_suppressions(void);
const char* __lsan_default_suppressions(void)
{
    return "leak:libsiconos_numerics\n";
}

// Counterparts, one line per pair: circlesim's method, Siconos's (frictionless, with friction).
typedef struct pair
{
    method siconos; // label, and its LCP, fc2d and MLCP ids
    const char* circlesim;
} pair;

static const pair pairs[] = {
    {{"PGS / fc2d NSGS", NULL, SICONOS_LCP_PGS, SICONOS_FRICTION_2D_NSGS, SICONOS_MLCP_PGS}, "pgs"},
    {{"PSOR", NULL, SICONOS_LCP_PSOR, -1, SICONOS_MLCP_PSOR}, "psor"},
    // Without friction a block is one row: Siconos's dense LCP drivers have no NSGS (NSGS_SBM needs sparse
    // blocks).
    {{"PGS / fc2d NSGS", NULL, SICONOS_LCP_PGS, SICONOS_FRICTION_2D_NSGS, SICONOS_MLCP_PGS}, "pgs-block"},
    {{"Newton min", NULL, SICONOS_LCP_NEWTONMIN, -1, -1}, "newton-minmap"},
    {{"Newton FB (FBLSA)", NULL, SICONOS_LCP_NEWTON_FB_FBLSA, -1, SICONOS_MLCP_FB}, "newton-fb"},
    {{"Lemke / fc2d Lemke", NULL, SICONOS_LCP_LEMKE, SICONOS_FRICTION_2D_LEMKE, SICONOS_MLCP_LCP_LEMKE},
     "lemke"},
};
enum
{
    PAIR_COUNT = (int)(sizeof pairs / sizeof pairs[0]),
};

static void print_cell(const result* r)
{
    if (!r->run || strcmp(r->stop, SB_STOP_TIME) == 0 || strcmp(r->stop, SB_STOP_ERROR) == 0)
    {
        printf(" %s | | |", r->why);
        return;
    }
    printf(" %d | %.3f | %.1e%s |", r->iterations, r->ms, r->res_nat, r->solved ? "" : " ✗");
}

static int cmd_compare(int count, char** files, const options* o)
{
    printf("| problem | rows | circlesim | it | ms | res_nat | Siconos | it | ms | res_nat |\n");
    printf("|---|---:|---|---:|---:|---:|---|---:|---:|---:|\n");
    for (int f = 0; f < count; ++f)
    {
        loaded l = {0};
        if (!sb_load(files[f], &l, o))
        {
            sb_unload(&l);
            return 1;
        }
        if (sb_skip_empty(&l, "compare"))
        {
            sb_unload(&l);
            continue;
        }
        for (int k = 0; k < PAIR_COUNT; ++k)
        {
            method mine = {pairs[k].circlesim, pairs[k].circlesim, -1, -1, -1};
            result c = sb_run_budgeted(&l, &mine, o->tol[0], o);
            result s = sb_run_budgeted(&l, &pairs[k].siconos, o->tol[0], o);
            printf("| %s | %d | %s |", l.name, l.p.row_count, pairs[k].circlesim);
            print_cell(&c);
            printf(" %s%s |", pairs[k].siconos.label, l.mlcp ? " (MLCP)" : "");
            print_cell(&s);
            printf("\n");
            fflush(stdout);
        }
        sb_unload(&l);
    }
    printf(
        "\n✗: res_nat %.0e not reached within the cap (sweeps %d, Newton 100, Lemke 20 rows + 1000) or the "
        "budget (%g s CPU per run).\n",
        o->tol[0], o->max_iterations, o->budget);
    return 0;
}

// Seeded random problems for the profile: count piles of 4 to 64 discs, each with and without friction.
static int cmd_random(const options* o, int count)
{
    if (o->out_dir == NULL || (mkdir(o->out_dir, 0777) != 0 && errno != EEXIST))
    {
        fprintf(stderr, "circlesim-siconos random: --out DIR is required and must be creatable\n");
        return o->out_dir == NULL ? 2 : 1;
    }
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < count; ++k)
    {
        int bodies = 4 + (int)((60.0 * k) / (count > 1 ? count - 1 : 1));
        for (int friction = 0; friction < 2; ++friction)
        {
            cs_lcp p = {0};
            cs_error err = {0};
            char path[1024];
            snprintf(path, sizeof path, "%s/random-%02d-%s.lcp", o->out_dir, k,
                     friction ? "friction" : "frictionless");
            bool ok = sico_random_problem(&p, bodies, friction == 1, &seed, &err) == CS_OK &&
                      cs_lcp_write(&p, path, &err) == CS_OK;
            cs_lcp_free(&p);
            if (!ok)
            {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
        }
    }
    return 0;
}

static void usage(FILE* out)
{
    fprintf(
        out,
        "usage: circlesim-siconos compare [--tol T] [BUDGETS] [--repeat R] FILE...\n"
        "       circlesim-siconos profile --out DIR [--tol T1,T2] [BUDGETS] [--repeat R] FILE...\n"
        "       circlesim-siconos random --out DIR [--count N]\n"
        "FILE: .lcp or FCLIB. compare: each circlesim method beside its Siconos counterpart at res_nat <= T\n"
        "(default 1e-8), a Markdown table on stdout. profile: every method of both on every FILE at two\n"
        "tolerances (default 1e-4,1e-8): DIR/runs.csv, Dolan-More profiles DIR/profile-{time,iterations}-\n"
        "{0,1}.csv and DIR/profile.gp (gnuplot). BUDGETS per run: --max-iterations K sweeps (default\n"
        "10000; Newton 100, pivots 20 rows + 1000), --budget S seconds of CPU (default 2; 0: none; a run\n"
        "past it fails), --max-dense-rows N (default 2500: dense methods above are not run, and fail).\n"
        "Times: CPU ms, medians of R solves (default 3 compare, 1 profile), from zero.\n"
        "random: N (default 6) seeded random piles of 4 to 64 discs, with and without friction, as .lcp.\n");
}

static bool parse_double(const char* s, double* out)
{
    char* end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || end == s || !(v > 0.0) || !isfinite(v))
    {
        return false;
    }
    *out = v;
    return *end == '\0' || *end == ',';
}

int main(int argc, char** argv)
{
    // One BLAS thread: circlesim's solvers run on one, runs are timed by the thread's CPU clock, and a
    // forked run must not wait on pool threads its fork did not copy. OpenBLAS reads the variable when it is
    // loaded, before main: so set it and start again.
    if (getenv("OPENBLAS_NUM_THREADS") == NULL)
    {
        setenv("OPENBLAS_NUM_THREADS", "1", 1);
        setenv("OMP_NUM_THREADS", "1", 1);
        execv("/proc/self/exe", argv);
        fprintf(stderr, "circlesim-siconos: cannot restart with one BLAS thread: %s\n", strerror(errno));
        return 1;
    }
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
    {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    bool profile = strcmp(argv[1], "profile") == 0, random = strcmp(argv[1], "random") == 0;
    if (!profile && !random && strcmp(argv[1], "compare") != 0)
    {
        fprintf(stderr, "circlesim-siconos: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    options o = {.tol = {profile ? 1e-4 : 1e-8, 1e-8},
                 .tol_count = profile ? 2 : 1,
                 .max_iterations = 10000,
                 .repeat = profile ? 1 : 3,
                 .budget = 2.0,
                 .max_dense_rows = 2500};
    int first_file = argc, random_count = 6;
    for (int i = 2; i < argc; ++i)
    {
        const char* a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--tol") == 0 && has_value)
        {
            const char* v = argv[++i];
            const char* comma = strchr(v, ',');
            o.tol_count = comma != NULL ? 2 : 1;
            if (!parse_double(v, &o.tol[0]) || (comma != NULL && !parse_double(comma + 1, &o.tol[1])) ||
                (comma != NULL && strchr(comma + 1, ',') != NULL) || (!profile && comma != NULL))
            {
                fprintf(stderr, "circlesim-siconos: --tol: expected %s, got '%s'\n",
                        profile ? "T1,T2 (> 0)" : "T > 0", v);
                return 2;
            }
        }
        else if ((strcmp(a, "--max-iterations") == 0 || strcmp(a, "--repeat") == 0) && has_value)
        {
            char* end = NULL;
            long v = strtol(argv[++i], &end, 10);
            if (*end != '\0' || v < 1 || v > 100000000)
            {
                fprintf(stderr, "circlesim-siconos: %s: expected an integer >= 1, got '%s'\n", a, argv[i]);
                return 2;
            }
            *(strcmp(a, "--repeat") == 0 ? &o.repeat : &o.max_iterations) = (int)v;
        }
        else if (strcmp(a, "--budget") == 0 && has_value)
        {
            const char* v = argv[++i];
            char* end = NULL;
            o.budget = strtod(v, &end);
            if (*end != '\0' || end == v || !(o.budget >= 0.0 && o.budget <= 1e6))
            {
                fprintf(stderr, "circlesim-siconos: --budget: expected seconds in [0, 1e6], got '%s'\n", v);
                return 2;
            }
        }
        else if (strcmp(a, "--max-dense-rows") == 0 && has_value)
        {
            char* end = NULL;
            long v = strtol(argv[++i], &end, 10);
            if (*end != '\0' || v < 1 || v > 100000)
            {
                fprintf(stderr,
                        "circlesim-siconos: --max-dense-rows: expected an integer in [1, 100000], got '%s'\n",
                        argv[i]);
                return 2;
            }
            o.max_dense_rows = (int)v;
        }
        else if (strcmp(a, "--out") == 0 && has_value && (profile || random))
        {
            o.out_dir = argv[++i];
        }
        else if (strcmp(a, "--count") == 0 && has_value && random)
        {
            char* end = NULL;
            long v = strtol(argv[++i], &end, 10);
            if (*end != '\0' || v < 1 || v > 1000)
            {
                fprintf(stderr, "circlesim-siconos: --count: expected an integer in [1, 1000], got '%s'\n",
                        argv[i]);
                return 2;
            }
            random_count = (int)v;
        }
        else if (a[0] == '-')
        {
            fprintf(stderr, "circlesim-siconos: unknown option or missing value: '%s'\n", a);
            return 2;
        }
        else
        {
            first_file = i;
            break;
        }
    }
    if (random)
    {
        if (first_file < argc)
        {
            fprintf(stderr, "circlesim-siconos random: unexpected argument '%s'\n", argv[first_file]);
            return 2;
        }
        return cmd_random(&o, random_count);
    }
    if (first_file >= argc)
    {
        fprintf(stderr, "circlesim-siconos: no FILE\n");
        usage(stderr);
        return 2;
    }
    return profile ? sb_cmd_profile(argc - first_file, argv + first_file, &o)
                   : cmd_compare(argc - first_file, argv + first_file, &o);
}
