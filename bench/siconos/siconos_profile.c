// circlesim-siconos profile: Dolan-Moré performance profiles over a problem set (siconos_bench.h).
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

// Siconos methods of the profile (by their own names).
static const method siconos_methods[] = {
    {"siconos-pgs", NULL, SICONOS_LCP_PGS, -1, SICONOS_MLCP_PGS},
    {"siconos-psor", NULL, SICONOS_LCP_PSOR, -1, SICONOS_MLCP_PSOR},
    {"siconos-newton-min", NULL, SICONOS_LCP_NEWTONMIN, -1, -1},
    {"siconos-newton-fb", NULL, SICONOS_LCP_NEWTON_FB_FBLSA, -1, SICONOS_MLCP_FB},
    {"siconos-lemke", NULL, SICONOS_LCP_LEMKE, SICONOS_FRICTION_2D_LEMKE, SICONOS_MLCP_LCP_LEMKE},
    {"siconos-nsgs", NULL, -1, SICONOS_FRICTION_2D_NSGS, -1},
    {"siconos-cpg", NULL, -1, SICONOS_FRICTION_2D_CPG, -1},
};
enum
{
    SICONOS_METHOD_COUNT = (int)(sizeof siconos_methods / sizeof siconos_methods[0]),
};

// Every method of both libraries, circlesim's registry first.
static int method_list(method* out, int capacity)
{
    int n = 0;
    for (int k = 0; k < cs_solver_count() && n < capacity; ++k)
    {
        out[n++] = (method){cs_solver_at(k)->name, cs_solver_at(k)->name, -1, -1, -1};
    }
    for (int k = 0; k < SICONOS_METHOD_COUNT && n < capacity; ++k)
    {
        out[n++] = siconos_methods[k];
    }
    return n;
}

// A problem λ = 0 already solves to the tightest tolerance (every contact separating: Newton's cradle at
// rest, pegs before the discs arrive) costs every method nothing and ties them all: it says nothing about
// any method, so the profile leaves it out, saying so.
static bool solved_at_zero(const loaded* l, const options* o)
{
    const cs_lcp* p = &l->p;
    double* lambda = calloc((size_t)p->row_count + 1, sizeof(double));
    double* v = malloc(((size_t)p->body_count * 3 + 1) * sizeof(double));
    cs_lcp_velocity(p, lambda, v);
    double r0 = cs_residual_nat(p, v, lambda);
    free(lambda);
    free(v);
    double tightest = o->tol_count > 1 ? fmin(o->tol[0], o->tol[1]) : o->tol[0];
    if (r0 <= tightest)
    {
        fprintf(stderr,
                "circlesim-siconos profile: %s: res_nat %.1e at lambda = 0: left out (no method needed)\n",
                l->name, r0);
    }
    return r0 <= tightest;
}

// A run that ended on its iteration cap, its time budget or the dense-size budget.
static bool spent(const result* r)
{
    return strcmp(r->stop, SB_STOP_ITERATIONS) == 0 || strcmp(r->stop, SB_STOP_TIME) == 0 ||
           strcmp(r->stop, SB_STOP_SIZE) == 0;
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
    // Each panel's key outside, on the right: with twenty-odd methods a key inside hides the curves.
    fprintf(
        f, "# Dolan-Moré performance profiles written by circlesim-siconos profile; run: gnuplot profile.gp\n"
           "set datafile separator ','\nset terminal pngcairo size 1800,1150 font 'DejaVu Sans,10'\n"
           "set output 'profile.png'\nset termoption noenhanced\nset multiplot layout 2,2\n"
           "set logscale x\nset xrange [1:10000]\nset yrange [0:1.02]\nset grid\n"
           "set key outside right top vertical font ',9' spacing 1.0 samplen 5\n"
           "set xlabel 'tau (cost / best cost)'\nset ylabel 'share of problems solved within tau'\n");
    const char* metrics[2] = {"time", "iterations"};
    // Twelve distinct colours (gnuplot's default cycle has eight, which pairs methods up); circlesim's
    // methods solid (dash-dot past twelve), Siconos's dashed and thicker.
    static const char* const colours[12] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                                            "#e377c2", "#17becf", "#bcbd22", "#000000", "#7f7f7f", "#aec7e8"};
    for (int t = 0; t < o->tol_count; ++t)
    {
        for (int k = 0; k < 2; ++k)
        {
            fprintf(f, "set title \"%s, res_nat <= %.0e\"\nplot",
                    k == 0 ? "CPU time"
                           : "iterations (in each method's own unit: sweeps, Newton steps, pivots)",
                    o->tol[t]);
            char file[64];
            snprintf(file, sizeof file, "profile-%s-%d.csv", metrics[k], t);
            for (int c = 2; c <= methods + 1; ++c)
            {
                int index = c - 2;
                bool ours = index < cs_solver_count();
                const char* dash = ours ? (index < 12 ? "1" : "(12,4,2,4)") : "(7,5)";
                fprintf(f, "%s '%s' using 1:%d with steps lw %s dt %s lc rgb '%s' title columnheader(%d)",
                        c > 2 ? "," : "", c == 2 ? file : "", c, ours ? "1.8" : "3", dash,
                        colours[(ours ? index : index - cs_solver_count() + 3) % 12], c);
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "unset multiplot\n");
    bool bad = ferror(f) != 0;
    return fclose(f) == 0 && !bad;
}

int sb_cmd_profile(int count, char** files, const options* o)
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
    fprintf(csv, "problem,rows,friction,method,tol,run,solved,iterations,ms,res_nat,info,stop,note\n");
    int kept = 0; // problems in the profile (empty ones are left out)
    for (int f = 0; f < count; ++f)
    {
        loaded l = {0};
        if (!sb_load(files[f], &l, o))
        {
            sb_unload(&l);
            fclose(csv);
            free(runs);
            return 1;
        }
        if (sb_skip_empty(&l, "profile") || solved_at_zero(&l, o))
        {
            sb_unload(&l);
            continue;
        }
        for (int t = 0; t < o->tol_count; ++t)
        {
            for (int s = 0; s < methods; ++s)
            {
                result* r = &runs[((size_t)kept * o->tol_count + (size_t)t) * methods + s];
                const result* looser = t > 0 ? r - methods : NULL; // the same method at tol[t - 1]
                if (looser != NULL && spent(looser) && o->tol[t] < o->tol[t - 1])
                {
                    // From zero, the first iterate under the tighter tolerance is under the looser one too: a
                    // method that spent its budget before the looser one cannot reach the tighter one.
                    *r = *looser;
                    r->solved = false;
                    snprintf(r->why, sizeof r->why, "budget spent at %.0e", o->tol[t - 1]);
                }
                else
                {
                    *r = sb_run_budgeted(&l, &m[s], o->tol[t], o);
                }
                for (char* c = r->why; *c != '\0'; ++c)
                {
                    *c = *c == ',' || *c == '\n' ? ';' : *c; // one CSV field
                }
                fprintf(csv, "%s,%d,%d,%s,%.0e,%d,%d,%d,%.6g,%.3e,%d,%s,%s\n", l.name, l.p.row_count,
                        l.d.friction, m[s].label, o->tol[t], r->run, r->solved, r->iterations, r->ms,
                        r->res_nat, r->info, r->stop, r->why);
                fflush(csv);
            }
        }
        fprintf(stderr, "circlesim-siconos profile: %s done (%d/%d)\n", l.name, f + 1, count);
        kept += 1;
        sb_unload(&l);
    }
    bool ok = fclose(csv) == 0;
    for (int t = 0; t < o->tol_count && ok; ++t)
    {
        ok = write_profile(o->out_dir, "time", t, o, m, methods, kept, runs) &&
             write_profile(o->out_dir, "iterations", t, o, m, methods, kept, runs);
    }
    ok = ok && write_gnuplot(o->out_dir, o, methods);
    free(runs);
    return ok ? 0 : 1;
}
