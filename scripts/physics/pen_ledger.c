// Penetration ledger of a scene: where each step's overlaps come from, by phase and contact class.
// It compiles the library's step.c into itself (its phases are static) and runs the step's phases with
// measurements in between. After each step every overlapping pair (circle-circle by brute force, circle-
// wall) is measured at the step's end, and its depth is split exactly into what the positions' phases
// contributed along the pair's line of centres: h·v (the velocity after the solve and the restitution
// pass, with the split pseudo-velocity), the impact shift (−s* M⁻¹Jᵀλ of the step's contacts with s* > 0),
// the relax take-back (relax formulation). The shift's share is split into the pair's own contact and the
// contacts of third bodies (a body's other contacts).
// Usage (scripts/penetration-ledger.sh builds it): pen_ledger SCENE [STEPS]; SCENE is a scene file or a
// generated benchmark scene (stream-N, pool-N: src/cli/bench_scenes.h; a stream's rows are added as bench
// adds them).
#include "../../src/world/step.c"

#include "cli/bench_scenes.h"
#include "cli/bench_world.h"

#include <stdio.h>

#include "circlesim/scene.h"
#include <stdlib.h>

static double* shift_own; // per body: the shift of its contacts, 2 per body
static double* x_start;   // positions at the step's start, 2 per body
static double* x_moved;   // after h·(v + pseudo)
static double* x_shifted; // after the impact shift
static double* vsolve;    // velocity after the solve, 3 per body

static double deep_solve[8], deep_pass[8], sum_deep_solve[8], sum_deep_pass[8];

static void grow(double** p, int n)
{
    *p = realloc(*p, (size_t)n * sizeof(double));
}

static cs_status ledger_step(cs_world* w, cs_error* err)
{
    step_run r = {{0, 0, 0, 0}, NULL, {0}, {0}};
    cs_status st = solve_phases(w, &r, err);
    if (st != CS_OK)
    {
        return st;
    }
    int n = w->body_count;
    grow(&x_start, 2 * n);
    grow(&x_moved, 2 * n);
    grow(&x_shifted, 2 * n);
    grow(&vsolve, 3 * n);
    grow(&shift_own, 2 * n);
    for (int i = 0; i < n; ++i)
    {
        x_start[2 * i] = w->px[i]; // (the solve phases move nothing)
        x_start[2 * i + 1] = w->py[i];
    }
    memcpy(vsolve, w->v, (size_t)(3 * n) * sizeof(double));
    cs_continuous_begin(w);
    // integrate(), phase by phase.
    const double h = w->def.time_step;
    cs_impact_bodies bodies = impact_bodies(w);
    cs_restitution_params rp = restitution_params(w);
    cs_impact_reach reach = impact_reach(w);
    cs_pass_pack pack = pass_pack(w);
    cs_contact_restitution(w->contacts.items, w->contacts.count, &bodies, &rp, &reach, &pack, w->v);
    for (int k = 0; k < w->contacts.count; ++k)
    {
        const cs_contact* c = w->contacts.items + k;
        double vs = c->nx * (vsolve[3 * c->b] - (c->a >= 0 ? vsolve[3 * c->a] : 0.0)) +
                    c->ny * (vsolve[3 * c->b + 1] - (c->a >= 0 ? vsolve[3 * c->a + 1] : 0.0));
        double vf = c->nx * (w->v[3 * c->b] - (c->a >= 0 ? w->v[3 * c->a] : 0.0)) +
                    c->ny * (w->v[3 * c->b + 1] - (c->a >= 0 ? w->v[3 * c->a + 1] : 0.0));
        double floor_gap = c->gap < 0.0 ? c->gap : 0.0;
        double ds = floor_gap - (c->gap + h * vs), dp = floor_gap - (c->gap + h * vf);
        int cls = c->impact_time > 0.0 ? 1 : c->impact_time == 0.0 ? 0 : 2;
        cls += c->bounce ? 4 : 0;
        deep_solve[cls] = fmax(deep_solve[cls], ds);
        deep_pass[cls] = fmax(deep_pass[cls], dp);
        sum_deep_solve[cls] += fmax(ds, 0.0);
        sum_deep_pass[cls] += fmax(dp, 0.0);
    }
    const double* pv = cs_formulation_splits(w->def.formulation) ? w->pseudo_v : NULL;
    for (int i = 0; i < n; ++i)
    {
        w->px[i] += h * (w->v[3 * i] + (pv ? pv[3 * i] : 0.0));
        w->py[i] += h * (w->v[3 * i + 1] + (pv ? pv[3 * i + 1] : 0.0));
        w->angle[i] += h * (w->v[3 * i + 2] + (pv ? pv[3 * i + 2] : 0.0));
        x_moved[2 * i] = w->px[i];
        x_moved[2 * i + 1] = w->py[i];
    }
    cs_contact_impact_shift(w->contacts.items, w->contacts.count, &bodies, w->body_count, w->def.frictionless,
                            w->reach_roots, w->px, w->py, w->angle);
    for (int i = 0; i < n; ++i)
    {
        x_shifted[2 * i] = w->px[i];
        x_shifted[2 * i + 1] = w->py[i];
    }
    if (w->def.formulation == CS_FORMULATION_RELAX)
    {
        cs_relax_split(w, r.order);
    }
    if (w->def.formulation == CS_FORMULATION_SOFT &&
        (st = cs_relax_step(w, r.order, &r.job.seconds, err)) != CS_OK)
    {
        return st;
    }
    cs_continuous(w);
    cs_sleep_update(w);
    record_stats(w, &r.vstats, &r.job, r.t);
    return CS_OK;
}

// The contact of this step between a and b (a = −1 - wall for a wall), or NULL.
static const cs_contact* find(const cs_world* w, int a, int b, int wall)
{
    for (int k = 0; k < w->contacts.count; ++k)
    {
        const cs_contact* c = w->contacts.items + k;
        if (c->b == b && (wall >= 0 ? c->wall == wall : c->a == a))
        {
            return c;
        }
    }
    return NULL;
}

// class: 0 touching, 1 impact (s* > 0), 2 speculative (stays open), 3 not in the step's list; +4 bounce
static int klass(const cs_contact* c)
{
    if (c == NULL)
    {
        return 3;
    }
    int kind = c->impact_time > 0.0 ? 1 : c->impact_time == 0.0 ? 0 : 2;
    return kind + (c->bounce ? 4 : 0);
}
static const char* kname[8] = {"touching",     "impact",        "speculative", "absent",
                               "touch+bounce", "impact+bounce", "spec+bounce", "?"};

static double sum_depth[8], sum_shift[8], sum_motion[8], max_depth[8];
static long count_cls[8];

// The part of a body's shift that its own contact with the other body gave it, along (nx, ny).
static double own_shift(const cs_world* w, const cs_contact* c, int body, double nx, double ny)
{
    if (c == NULL || !(c->impact_time > 0.0 && c->normal_impulse > 0.0))
    {
        return 0.0;
    }
    double s = c->impact_time, sign = body == c->b ? -1.0 : 1.0;
    double jx = c->nx * c->normal_impulse, jy = c->ny * c->normal_impulse;
    if (!w->def.frictionless)
    {
        jx += -c->ny * c->friction_impulse;
        jy += c->nx * c->friction_impulse;
    }
    return sign * s * w->inv_mass[body] * (jx * nx + jy * ny);
}

static void measure(const cs_world* w, int step, double* step_max, double* step_noshift, double* step_third)
{
    int n = w->body_count;
    *step_max = *step_noshift = *step_third = 0.0;
    for (int b = 0; b < n; ++b)
    {
        for (int a = -1 - w->wall_count; a < b; ++a)
        {
            if (a == -1)
            {
                continue;
            }
            double gap, nx, ny;
            int wall = a < -1 ? -2 - a : -1;
            if (wall >= 0)
            {
                const cs_wall* wl = w->walls + wall;
                if (wl->kind != CS_WALL_HALF_PLANE)
                {
                    continue;
                }
                nx = wl->normal.x;
                ny = wl->normal.y;
                gap = (w->px[b] - wl->p0.x) * nx + (w->py[b] - wl->p0.y) * ny - w->radius[b];
            }
            else
            {
                double dx = w->px[b] - w->px[a], dy = w->py[b] - w->py[a];
                double d = sqrt(dx * dx + dy * dy);
                gap = d - w->radius[a] - w->radius[b];
                if (gap > 0.0)
                {
                    continue;
                }
                nx = dx / d;
                ny = dy / d;
            }
            if (gap > -2.0 * w->def.linear_slop)
            {
                continue;
            }
            const cs_contact* c = find(w, wall >= 0 ? -1 : a, b, wall);
            int cls = klass(c);
            // The shift's share along n (b's shift minus a's), and its own contact's part.
            double shb =
                (x_shifted[2 * b] - x_moved[2 * b]) * nx + (x_shifted[2 * b + 1] - x_moved[2 * b + 1]) * ny;
            double sha = 0.0;
            double own = own_shift(w, c, b, nx, ny);
            if (wall < 0)
            {
                sha = (x_shifted[2 * a] - x_moved[2 * a]) * nx +
                      (x_shifted[2 * a + 1] - x_moved[2 * a + 1]) * ny;
                own -= own_shift(w, c, a, nx, ny);
            }
            double by_shift = -(shb - sha); // > 0: the shift closed the pair by this much
            double depth = -gap;
            sum_depth[cls] += depth;
            sum_shift[cls] += by_shift;
            sum_motion[cls] += depth - by_shift;
            max_depth[cls] = fmax(max_depth[cls], depth);
            count_cls[cls] += 1;
            *step_max = fmax(*step_max, depth);
            *step_noshift = fmax(*step_noshift, depth - by_shift);
            *step_third = fmax(*step_third, depth - (by_shift + own)); // the third bodies' shift left out
            if (depth > 0.010)
            {
                printf("  step %3d %s %3d-%3d depth %.1f mm: shift %+.1f (own contact %+.1f) %s s*=%.4f "
                       "lambda %.3f "
                       "gap0 %.1f mm\n",
                       step, wall >= 0 ? "wall" : "pair", wall >= 0 ? -wall - 1 : a, b, depth * 1e3,
                       by_shift * 1e3, -own * 1e3, kname[cls], c ? c->impact_time : -9.0,
                       c ? c->normal_impulse : 0.0, c ? c->gap * 1e3 : 0.0);
            }
        }
    }
}

int main(int argc, char** argv)
{
    if (argc < 2)
    {
        fprintf(stderr, "usage: pen_ledger SCENE [STEPS]\n");
        return 2;
    }
    cs_error err = {CS_OK, ""};
    cs_scene_info info = {0};
    cs_bench_scene generated = {0};
    bool bench = cs_bench_scene_make(argv[1], &generated);
    cs_world* w = bench ? cs_bench_world(&generated, &err) : cs_scene_load(argv[1], &info, &err);
    if (w == NULL)
    {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    cs_bench_disc* row = calloc((size_t)generated.stream_columns + 1, sizeof *row);
    int steps = argc > 2 ? atoi(argv[2]) : bench ? 300 : info.steps;
    double run_max = 0.0, run_noshift = 0.0;
    printf("step  max_end_mm  max_if_no_shift_mm  max_if_no_third_body_shift_mm\n");
    for (int k = 0; k < steps; ++k)
    {
        int spawned = cs_bench_stream_row(&generated, k, row);
        if (!cs_bench_world_add(w, &generated, row, spawned, &err) || ledger_step(w, &err) != CS_OK)
        {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        double m, ns, third;
        measure(w, k + 1, &m, &ns, &third);
        run_max = fmax(run_max, m);
        run_noshift = fmax(run_noshift, ns);
        printf("%4d %7.2f %7.2f %7.2f\n", k + 1, m * 1e3, ns * 1e3, third * 1e3);
    }
    printf("over the run: max %.2f mm, without the shift %.2f mm\n", run_max * 1e3, run_noshift * 1e3);
    printf("class            pairs   mean depth mm  mean shift share mm  max depth mm\n");
    for (int c = 0; c < 8; ++c)
    {
        if (count_cls[c] > 0)
        {
            printf("%-15s %6ld %10.2f %10.2f %10.2f\n", kname[c], count_cls[c],
                   sum_depth[c] / count_cls[c] * 1e3, sum_shift[c] / count_cls[c] * 1e3, max_depth[c] * 1e3);
        }
    }
    printf("deepening by h*vn (no shift, no pseudo-velocity) of each contact, after the solve | after the "
           "pass: max, sum (mm)\n");
    for (int c = 0; c < 8; ++c)
    {
        if (deep_solve[c] != 0.0 || deep_pass[c] != 0.0)
        {
            printf("%-15s %8.2f %10.1f | %8.2f %10.1f\n", kname[c], deep_solve[c] * 1e3,
                   sum_deep_solve[c] * 1e3, deep_pass[c] * 1e3, sum_deep_pass[c] * 1e3);
        }
    }
    cs_world_destroy(w);
    cs_bench_scene_free(&generated);
    free(row);
    return 0;
}
