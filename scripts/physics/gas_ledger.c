// Energy ledger of an elastic gas: where the kinetic energy goes, step by step, split by cause.
// It compiles the library's step.c into itself (its phases are static) and runs them with measurements in
// between. Every kinetic-energy change of a velocity pass is exactly Σ_k Δλ_k (vn_k⁻ + vn_k⁺)/2 over its
// contacts (M Δv = Σ J_kᵀ Δλ_k), so each contact's share is exact, not estimated.
// Usage (scripts/gas-ledger.sh builds it): gas_ledger DISCS [STEPS [split|spook [SEED [AREA_FRACTION]]]]
// The gas: discs of r 0.1 m, 1 kg, e = 1, μ = 0 on a jittered grid in a closed square box (elastic walls),
// speeds 0.5–3 m/s in random directions, no gravity, restitution threshold 0, the default step.
#include "../../src/world/step.c"

#include <stdio.h>
#include <stdlib.h>

// class = 3 kinds x bounce x shared x wall
#define L_COUNT 24
static const char* kinds[3] = {"touching", "impact", "speculative"};
static int* loads; // per body: loaded contacts this step
static double* work_solve;

static double ledger[L_COUNT];
static long ledger_n[L_COUNT];

static double vn_of(const cs_contact* c, const double* v)
{
    double vb = c->nx * v[3 * c->b] + c->ny * v[3 * c->b + 1];
    double va = c->a >= 0 ? c->nx * v[3 * c->a] + c->ny * v[3 * c->a + 1] : 0.0;
    return vb - va;
}

static double kinetic(const cs_world* w, const double* v)
{
    double ke = 0.0;
    for (int i = 0; i < w->body_count; ++i)
    {
        ke += 0.5 * w->mass[i] * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1]);
        ke += w->inv_inertia[i] > 0 ? 0.5 * v[3 * i + 2] * v[3 * i + 2] / w->inv_inertia[i] : 0.0;
    }
    return ke;
}

static double* lam0; // per contact: λ before the pass
static double* vbefore;

static cs_status ledger_step(cs_world* w, cs_error* err)
{
    step_run r = {{0, 0, 0, 0}, NULL, {0}, {0}};
    cs_status st = solve_phases(w, &r, err);
    if (st != CS_OK)
    {
        return st;
    }
    int n = w->body_count, m = w->contacts.count;
    lam0 = realloc(lam0, (size_t)(m + 1) * sizeof *lam0);
    vbefore = realloc(vbefore, (size_t)(3 * n) * sizeof *vbefore);
    memcpy(vbefore, w->velocity_problem.v, (size_t)(3 * n) * sizeof(double)); // v*, before the solve
    work_solve = realloc(work_solve, (size_t)(m + 1) * sizeof *work_solve);
    for (int k = 0; k < m; ++k)
    {
        cs_contact* c = w->contacts.items + k;
        work_solve[k] = c->normal_impulse * 0.5 * (vn_of(c, vbefore) + vn_of(c, w->v));
        lam0[k] = c->normal_impulse;
    }
    memcpy(vbefore, w->v, (size_t)(3 * n) * sizeof(double));
    // integrate(), with the restitution pass measured.
    cs_impact_bodies bodies = impact_bodies(w);
    cs_restitution_params rpar = restitution_params(w);
    cs_impact_reach reach = impact_reach(w);
    cs_pass_pack pack = pass_pack(w);
    cs_contact_restitution(w->contacts.items, m, &bodies, &rpar, &reach, &pack, w->v);
    loads = realloc(loads, (size_t)n * sizeof *loads);
    memset(loads, 0, (size_t)n * sizeof *loads);
    for (int k = 0; k < m; ++k)
    {
        cs_contact* c = w->contacts.items + k;
        if (c->normal_impulse > 0.0 || lam0[k] > 0.0)
        {
            loads[c->b]++;
            if (c->a >= 0)
                loads[c->a]++;
        }
    }
    for (int k = 0; k < m; ++k)
    {
        cs_contact* c = w->contacts.items + k;
        double dl = c->normal_impulse - lam0[k];
        double work = dl * 0.5 * (vn_of(c, vbefore) + vn_of(c, w->v)) + work_solve[k];
        int kind = c->impact_time > 0.0 ? 1 : c->impact_time == 0.0 ? 0 : 2;
        bool shared = loads[c->b] > 1 || (c->a >= 0 && loads[c->a] > 1);
        int cls = kind * 8 + (c->bounce ? 4 : 0) + (shared ? 2 : 0) + (c->a < 0 ? 1 : 0);
        ledger[cls] += work;
        ledger_n[cls] += (c->normal_impulse > 0.0 || lam0[k] > 0.0);
    }
    const double h = w->def.time_step;
    const double* pv = w->def.formulation == CS_FORMULATION_SPLIT ? w->pseudo_v : NULL;
    for (int i = 0; i < n; ++i)
    {
        w->px[i] += h * (w->v[3 * i] + (pv ? pv[3 * i] : 0.0));
        w->py[i] += h * (w->v[3 * i + 1] + (pv ? pv[3 * i + 1] : 0.0));
        w->angle[i] += h * (w->v[3 * i + 2] + (pv ? pv[3 * i + 2] : 0.0));
    }
    cs_contact_impact_shift(w->contacts.items, m, &bodies, w->body_count, w->def.frictionless, w->reach_roots,
                            w->px, w->py, w->angle);
    record_stats(w, &r.vstats, &r.job, r.t);
    return CS_OK;
}

static double uniform(uint64_t* s, double lo, double hi)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(*s >> 11) / 9007199254740992.0;
}

int main(int argc, char** argv)
{
    int N = argc > 1 ? atoi(argv[1]) : 200;
    int steps = argc > 2 ? atoi(argv[2]) : 3600;
    bool spook = argc > 3 && strcmp(argv[3], "spook") == 0;
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    double r = 0.1, phi = argc > 5 ? atof(argv[5]) : 0.2;
    double L = sqrt(N * M_PI * r * r / phi);
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0, 0};
    def.restitution_threshold = 0.0;
    def.frictionless = true;
    if (spook)
    {
        def.formulation = CS_FORMULATION_SPOOK;
    }
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0, 1, &err);
    cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){1, 0}, 0, 1, &err);
    cs_world_add_half_plane(w, (cs_vec2){L, L}, (cs_vec2){0, -1}, 0, 1, &err);
    cs_world_add_half_plane(w, (cs_vec2){L, L}, (cs_vec2){-1, 0}, 0, 1, &err);
    int side = (int)ceil(sqrt((double)N));
    double cell = L / side;
    uint64_t s = seed;
    for (int k = 0; k < N; ++k)
    {
        cs_circle_def d = cs_circle_def_default();
        d.radius = r;
        d.mass = 1.0;
        d.friction = 0.0;
        d.restitution = 1.0;
        double slack = 0.5 * cell - r - 0.001;
        d.position = (cs_vec2){(k % side + 0.5) * cell + uniform(&s, -slack, slack),
                               (k / side + 0.5) * cell + uniform(&s, -slack, slack)};
        double ang = uniform(&s, 0, 2 * M_PI), sp = uniform(&s, 0.5, 3.0);
        d.velocity = (cs_vec2){sp * cos(ang), sp * sin(ang)};
        if (cs_world_add_circle(w, &d, &err) < 0)
        {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
    }
    double ke0 = kinetic(w, w->v);
    double pen_max = 0.0, pen_sum = 0.0;
    for (int k = 0; k < steps; ++k)
    {
        pen_max = fmax(pen_max, w->stats.max_penetration);
        pen_sum += w->stats.max_penetration;
        if (ledger_step(w, &err) != CS_OK)
        {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        if ((k + 1) % (steps / 6) == 0)
        {
            printf("t %6.1f  KE/KE0 %.9f  max pen %.4f mean %.5f\n", (k + 1) * def.time_step,
                   kinetic(w, w->v) / ke0, w->stats.max_penetration, w->stats.mean_penetration);
        }
    }
    double ke1 = kinetic(w, w->v);
    printf("max penetration over the run %.4f m, mean of the steps' max %.5f m\n", pen_max, pen_sum / steps);
    double sum = 0;
    for (int k = 0; k < L_COUNT; ++k)
        sum += ledger[k];
    printf("N %d box %.3f m  phi %.2f  %s  KE0 %.4f  KE %.4f (%.4f)  sum of ledger %.6f vs dKE %.6f\n", N, L,
           phi, spook ? "spook" : "split", ke0, ke1, ke1 / ke0, sum, ke1 - ke0);
    for (int k = 0; k < L_COUNT; ++k)
    {
        if (ledger_n[k] == 0)
            continue;
        printf("  %-12s %-9s %-8s %-6s %+12.5f  (%+.4f of KE0, %ld loaded contact-steps)\n", kinds[k / 8],
               (k & 4) ? "bounce" : "no-bounce", (k & 2) ? "shared" : "isolated", (k & 1) ? "wall" : "pair",
               ledger[k], ledger[k] / ke0, ledger_n[k]);
    }
    cs_world_destroy(w);
    return 0;
}
