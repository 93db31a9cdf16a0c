// circlesim-siconos: circlesim's solvers beside Siconos Numerics's on the same frozen problems.
//   circlesim-siconos compare [options] FILE...         each circlesim method and its Siconos counterpart
//   circlesim-siconos profile --out DIR [options] FILE... every method on every file at two tolerances:
//                                                        runs.csv, Dolan-More profile CSVs and profile.gp
// FILE is a .lcp or an FCLIB file (told apart by content). Siconos runs on the dense W = J M⁻¹ Jᵀ formed by
// siconos_problem.c (its sparse-block storage is not used: see docs/SOLVERS-siconos.md); W's formation is not
// timed. Both start from zero. "Equal accuracy": circlesim stops at res_nat <= T (its own tolerance test);
// Siconos stops on its own error measure, so its tolerance is tightened until the res_nat of what it returns
// (the same definition, formed densely) is <= T as well, or it gives up (four tries).
#include "siconos_problem.h"

#include "circlesim/circlesim.h"
#include "circlesim/lcp_fclib.h"

#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/lcp_cst.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// One method of either library. A circlesim method is a registry name; a Siconos one has an LCP and an fc2d
// solver id (-1: none for that problem kind).
typedef struct method
{
    const char* label;
    const char* circlesim; // registry name, or NULL
    int lcp, fc2d;         // Siconos ids, or -1
} method;

// Counterparts, one line per pair: circlesim's method, Siconos's (frictionless, with friction).
typedef struct pair
{
    const char* circlesim;
    int lcp, fc2d;
    const char* siconos_label;
} pair;

static const pair pairs[] = {
    {"pgs", SICONOS_LCP_PGS, SICONOS_FRICTION_2D_NSGS, "PGS / fc2d NSGS"},
    {"psor", SICONOS_LCP_PSOR, -1, "PSOR"},
    // Without friction a block is one row: Siconos's dense LCP drivers have no NSGS (NSGS_SBM needs sparse
    // blocks).
    {"pgs-block", SICONOS_LCP_PGS, SICONOS_FRICTION_2D_NSGS, "PGS / fc2d NSGS"},
    {"newton-minmap", SICONOS_LCP_NEWTONMIN, -1, "Newton min"},
    {"newton-fb", SICONOS_LCP_NEWTON_FB_FBLSA, -1, "Newton FB (FBLSA)"},
    {"lemke", SICONOS_LCP_LEMKE, SICONOS_FRICTION_2D_LEMKE, "Lemke / fc2d Lemke"},
};
enum
{
    PAIR_COUNT = (int)(sizeof pairs / sizeof pairs[0]),
    FC2D_LEMKE_MAX_ROWS = 400, // dense fc2d Lemke is cubic: 48 s at 1 134 rows (issue 17)
};

// Siconos methods of the profile (by their own names).
static const method siconos_methods[] = {
    {"siconos-pgs", NULL, SICONOS_LCP_PGS, -1},
    {"siconos-psor", NULL, SICONOS_LCP_PSOR, -1},
    {"siconos-newton-min", NULL, SICONOS_LCP_NEWTONMIN, -1},
    {"siconos-newton-fb", NULL, SICONOS_LCP_NEWTON_FB_FBLSA, -1},
    {"siconos-lemke", NULL, SICONOS_LCP_LEMKE, SICONOS_FRICTION_2D_LEMKE},
    {"siconos-nsgs", NULL, -1, SICONOS_FRICTION_2D_NSGS},
    {"siconos-cpg", NULL, -1, SICONOS_FRICTION_2D_CPG},
};
enum
{
    SICONOS_METHOD_COUNT = (int)(sizeof siconos_methods / sizeof siconos_methods[0]),
};

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

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

// Iteration cap of a method: pivots for Lemke, Newton steps for Newton, sweeps otherwise.
static int cap_for(const char* name, int lcp_id, int rows, const options* o)
{
    bool lemke = (name != NULL && strstr(name, "lemke") != NULL) || lcp_id == SICONOS_LCP_LEMKE;
    bool newton = (name != NULL && strncmp(name, "newton", 6) == 0) || lcp_id == SICONOS_LCP_NEWTONMIN ||
                  lcp_id == SICONOS_LCP_NEWTON_FB_FBLSA;
    return lemke ? 20 * rows + 1000 : newton ? 100 : o->max_iterations;
}

static result run_circlesim(const cs_lcp* p, int solver, double tol, const options* o)
{
    result r = {.run = true};
    cs_solver_params params = cs_solver_params_default();
    params.iterations = cap_for(cs_solver_at(solver)->name, -1, p->row_count, o);
    params.tolerance = tol;
    params.tolerance_on = CS_RES_NAT;
    params.warm_start = false;
    cs_solver_work work = {0};
    cs_error err = {0};
    double* lambda = malloc(((size_t)p->row_count + 1) * sizeof(double));
    double* times = malloc((size_t)o->repeat * sizeof(double));
    for (int k = 0; k < o->repeat && r.run; ++k)
    {
        cs_solver_stats stats = {0};
        if (cs_solve(p, solver, &params, &work, lambda, &stats, &err) != CS_OK)
        {
            r.run = false;
            snprintf(r.why, sizeof r.why, "%s", err.message);
            break;
        }
        times[k] = 1e3 * stats.seconds;
        r.iterations = stats.iterations;
        r.res_nat = stats.res_nat;
    }
    qsort(times, (size_t)o->repeat, sizeof(double), compare_double);
    r.ms = times[o->repeat / 2];
    r.solved = r.run && r.res_nat <= tol;
    free(times);
    free(lambda);
    cs_solver_work_free(&work);
    return r;
}

// Siconos at equal accuracy: its own tolerance tightened (up to four tries) until res_nat <= tol.
static result run_siconos(const sico_dense* d, sico_problem* s, int id, double tol, const options* o)
{
    result r = {.run = true};
    if (id < 0)
    {
        r.run = false;
        snprintf(r.why, sizeof r.why, "no counterpart");
        return r;
    }
    if (id == SICONOS_FRICTION_2D_LEMKE && d->n > FC2D_LEMKE_MAX_ROWS)
    {
        r.run = false;
        snprintf(r.why, sizeof r.why, "not run: %d rows > %d", d->n, FC2D_LEMKE_MAX_ROWS);
        return r;
    }
    double* x = malloc(((size_t)d->n + 1) * sizeof(double));
    double* u = malloc(((size_t)d->n + 1) * sizeof(double));
    double* times = malloc((size_t)o->repeat * sizeof(double));
    double siconos_tol = tol;
    int cap = cap_for(NULL, d->friction ? -1 : id, d->n, o);
    if (id == SICONOS_FRICTION_2D_LEMKE)
    {
        cap = 20 * d->n + 1000;
    }
    for (int attempt = 0; attempt < 4; ++attempt)
    {
        for (int k = 0; k < o->repeat; ++k)
        {
            memset(x, 0, (size_t)d->n * sizeof(double));
            // Siconos prints warnings on stdout (PSOR: "omega ... is not used"), which holds our table.
            fflush(stdout);
            int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
            dup2(null, STDOUT_FILENO);
            double t0 = now_ms();
            r.info = sico_solve(d, s, id, siconos_tol, cap, x, u, &r.iterations);
            times[k] = now_ms() - t0;
            fflush(stdout);
            dup2(saved, STDOUT_FILENO);
            close(saved);
            close(null);
        }
        sico_velocity(d, x, u);
        r.res_nat = sico_residual(d, x, u);
        if (r.res_nat <= tol || !(r.res_nat < INFINITY) || r.iterations >= cap)
        {
            break;
        }
        siconos_tol *= 0.5 * tol / r.res_nat;
    }
    qsort(times, (size_t)o->repeat, sizeof(double), compare_double);
    r.ms = times[o->repeat / 2];
    r.solved = r.res_nat <= tol;
    free(x);
    free(u);
    free(times);
    return r;
}

typedef struct loaded
{
    cs_lcp p;
    sico_dense d;
    sico_problem s;
    char name[128];
} loaded;

static bool load(const char* path, loaded* l)
{
    cs_error err = {0};
    char why[128];
    if (cs_lcp_load(path, &l->p, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    if (!sico_dense_make(&l->p, &l->d, why, sizeof why))
    {
        fprintf(stderr, "%s: %s\n", path, why);
        return false;
    }
    sico_problem_make(&l->d, &l->s);
    const char* base = strrchr(path, '/');
    snprintf(l->name, sizeof l->name, "%s", base != NULL ? base + 1 : path);
    char* dot = strrchr(l->name, '.');
    if (dot != NULL)
    {
        *dot = '\0';
    }
    return true;
}

static void unload(loaded* l)
{
    sico_problem_free(&l->s);
    sico_dense_free(&l->d);
    cs_lcp_free(&l->p);
}

static void print_cell(const result* r)
{
    if (!r->run)
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
        if (!load(files[f], &l))
        {
            unload(&l);
            return 1;
        }
        for (int k = 0; k < PAIR_COUNT; ++k)
        {
            int solver = cs_solver_find(pairs[k].circlesim);
            int id = l.d.friction ? pairs[k].fc2d : pairs[k].lcp;
            result c = {.run = false}, s;
            if (solver < 0)
            {
                snprintf(c.why, sizeof c.why, "not in this build");
            }
            else
            {
                c = run_circlesim(&l.p, solver, o->tol[0], o);
            }
            s = run_siconos(&l.d, &l.s, id, o->tol[0], o);
            printf("| %s | %d | %s |", l.name, l.p.row_count, pairs[k].circlesim);
            print_cell(&c);
            printf(" %s |", pairs[k].siconos_label);
            print_cell(&s);
            printf("\n");
            fflush(stdout);
        }
        unload(&l);
    }
    printf("\n✗: res_nat %.0e not reached within the cap (sweeps %d, Newton 100, Lemke 20 rows + 1000).\n",
           o->tol[0], o->max_iterations);
    return 0;
}

// Every method of both libraries, circlesim's registry first.
static int method_list(method* out, int capacity)
{
    int n = 0;
    for (int k = 0; k < cs_solver_count() && n < capacity; ++k)
    {
        out[n++] = (method){cs_solver_at(k)->name, cs_solver_at(k)->name, -1, -1};
    }
    for (int k = 0; k < SICONOS_METHOD_COUNT && n < capacity; ++k)
    {
        out[n++] = siconos_methods[k];
    }
    return n;
}

enum
{
    MAX_METHODS = 48,
    TAU_POINTS = 241, // τ from 1 to 10^4, 60 points per decade
};

// Dolan-Moré: ρ_s(τ) = share of problems that method s solves within τ times the best method's cost.
static bool write_profile(const char* dir, const char* metric, int t, const options* o, const method* m,
                          int methods, int problems, const result* runs)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/profile-%s-%d.csv", dir, metric, t);
    FILE* f = fopen(path, "w");
    if (f == NULL)
    {
        fprintf(stderr, "%s: cannot open for writing: %s\n", path, strerror(errno));
        return false;
    }
    bool time = strcmp(metric, "time") == 0;
    double* ratio = malloc(((size_t)problems * (size_t)methods + 1) * sizeof(double));
    for (int p = 0; p < problems; ++p)
    {
        double best = INFINITY;
        for (int s = 0; s < methods; ++s)
        {
            const result* r = &runs[((size_t)p * o->tol_count + (size_t)t) * methods + s];
            double cost = time ? fmax(r->ms, 1e-3) : fmax((double)r->iterations, 1.0);
            ratio[p * methods + s] = r->run && r->solved ? cost : INFINITY;
            best = fmin(best, ratio[p * methods + s]);
        }
        for (int s = 0; s < methods; ++s)
        {
            ratio[p * methods + s] /= best;
        }
    }
    fprintf(f, "tau");
    for (int s = 0; s < methods; ++s)
    {
        fprintf(f, ",%s", m[s].label);
    }
    fprintf(f, "\n");
    for (int k = 0; k < TAU_POINTS; ++k)
    {
        double tau = pow(10.0, 4.0 * k / (TAU_POINTS - 1));
        fprintf(f, "%.6g", tau);
        for (int s = 0; s < methods; ++s)
        {
            int within = 0;
            for (int p = 0; p < problems; ++p)
            {
                within += ratio[p * methods + s] <= tau;
            }
            fprintf(f, ",%.6g", problems > 0 ? (double)within / problems : 0.0);
        }
        fprintf(f, "\n");
    }
    free(ratio);
    bool bad = ferror(f) != 0;
    return fclose(f) == 0 && !bad;
}

static bool write_gnuplot(const char* dir, const options* o, int methods)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/profile.gp", dir);
    FILE* f = fopen(path, "w");
    if (f == NULL)
    {
        fprintf(stderr, "%s: cannot open for writing: %s\n", path, strerror(errno));
        return false;
    }
    fprintf(
        f, "# Dolan-Moré performance profiles written by circlesim-siconos profile; run: gnuplot profile.gp\n"
           "set datafile separator ','\nset terminal pngcairo size 1400,1000 font 'DejaVu Sans,10'\n"
           "set output 'profile.png'\nset termoption noenhanced\nset multiplot layout 2,2\nset logscale "
           "x\nset xrange [1:10000]\n"
           "set yrange [0:1.02]\nset key bottom right font ',8'\nset xlabel 'tau (cost / best cost)'\n"
           "set ylabel 'share of problems solved within tau'\n");
    const char* metrics[2] = {"time", "iterations"};
    for (int t = 0; t < o->tol_count; ++t)
    {
        for (int k = 0; k < 2; ++k)
        {
            // circlesim's methods solid, Siconos's dashed; '' is the previous clause's file.
            fprintf(f, "set title '%s, res_nat <= %.0e'\nplot", metrics[k], o->tol[t]);
            for (int c = 2; c <= methods + 1; ++c)
            {
                char file[64];
                snprintf(file, sizeof file, "profile-%s-%d.csv", metrics[k], t);
                // Twelve distinct colours (gnuplot's default cycle has eight, which pairs methods up).
                static const char* const colours[12] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                        "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                                        "#bcbd22", "#000000", "#7f7f7f", "#aec7e8"};
                fprintf(f, "%s '%s' using 1:%d with steps lw 2 dt %d lc rgb '%s' title columnheader(%d)",
                        c > 2 ? "," : "", c == 2 ? file : "", c, c - 2 < cs_solver_count() ? 1 : 2,
                        colours[(c - 2) % 12], c);
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "unset multiplot\n");
    bool bad = ferror(f) != 0;
    return fclose(f) == 0 && !bad;
}

static int cmd_profile(int count, char** files, const options* o)
{
    if (o->out_dir == NULL)
    {
        fprintf(stderr, "circlesim-siconos profile: --out DIR is required\n");
        return 2;
    }
    if (mkdir(o->out_dir, 0777) != 0 && errno != EEXIST)
    {
        fprintf(stderr, "%s: cannot create: %s\n", o->out_dir, strerror(errno));
        return 1;
    }
    method m[MAX_METHODS];
    int methods = method_list(m, MAX_METHODS);
    result* runs = calloc((size_t)count * (size_t)o->tol_count * (size_t)methods + 1, sizeof(result));
    char path[1024];
    snprintf(path, sizeof path, "%s/runs.csv", o->out_dir);
    FILE* csv = fopen(path, "w");
    if (csv == NULL)
    {
        fprintf(stderr, "%s: cannot open for writing: %s\n", path, strerror(errno));
        free(runs);
        return 1;
    }
    fprintf(csv, "problem,rows,friction,method,tol,run,solved,iterations,ms,res_nat,info,note\n");
    for (int p = 0; p < count; ++p)
    {
        loaded l = {0};
        if (!load(files[p], &l))
        {
            unload(&l);
            fclose(csv);
            free(runs);
            return 1;
        }
        for (int t = 0; t < o->tol_count; ++t)
        {
            for (int s = 0; s < methods; ++s)
            {
                result* r = &runs[((size_t)p * o->tol_count + (size_t)t) * methods + s];
                if (m[s].circlesim != NULL)
                {
                    *r = run_circlesim(&l.p, cs_solver_find(m[s].circlesim), o->tol[t], o);
                }
                else
                {
                    *r = run_siconos(&l.d, &l.s, l.d.friction ? m[s].fc2d : m[s].lcp, o->tol[t], o);
                }
                fprintf(csv, "%s,%d,%d,%s,%.0e,%d,%d,%d,%.4f,%.3e,%d,%s\n", l.name, l.p.row_count,
                        l.d.friction, m[s].label, o->tol[t], r->run, r->solved, r->iterations, r->ms,
                        r->res_nat, r->info, r->why);
                fflush(csv);
            }
        }
        fprintf(stderr, "circlesim-siconos profile: %s done (%d/%d)\n", l.name, p + 1, count);
        unload(&l);
    }
    bool ok = fclose(csv) == 0;
    for (int t = 0; t < o->tol_count && ok; ++t)
    {
        ok = write_profile(o->out_dir, "time", t, o, m, methods, count, runs) &&
             write_profile(o->out_dir, "iterations", t, o, m, methods, count, runs);
    }
    ok = ok && write_gnuplot(o->out_dir, o, methods);
    free(runs);
    return ok ? 0 : 1;
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
        "usage: circlesim-siconos compare [--tol T] [--max-iterations K] [--repeat R] FILE...\n"
        "       circlesim-siconos profile --out DIR [--tol T1,T2] [--max-iterations K] [--repeat R] FILE...\n"
        "FILE: .lcp or FCLIB. compare: each circlesim method beside its Siconos counterpart at res_nat <= T\n"
        "(default 1e-8), a Markdown table on stdout. profile: every method of both on every FILE at two\n"
        "tolerances (default 1e-4,1e-8): DIR/runs.csv, Dolan-More profiles DIR/profile-{time,iterations}-\n"
        "{0,1}.csv and DIR/profile.gp (gnuplot). Sweeps capped at K (default 10000), Newton 100, Lemke\n"
        "20 rows + 1000; times are medians of R solves (default 3 compare, 1 profile), from zero.\n");
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
                 .repeat = profile ? 1 : 3};
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
    return profile ? cmd_profile(argc - first_file, argv + first_file, &o)
                   : cmd_compare(argc - first_file, argv + first_file, &o);
}
