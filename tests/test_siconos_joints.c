// Siconos Numerics as the referee of joints (issue 17): chains and pendulums with their bilateral rows,
// solved by Siconos as a mixed LCP (bench/siconos/siconos_mlcp.h), against every registry method.
//
// Problems, frozen from worlds the test builds: rod and rope pendulums (a rope taut, and slack), the heavy
// chain (scenes/chain.json: ten 0.1 kg links on 0.2 m rods holding 10 kg) at several steps, the heavy chain
// falling onto a floor (rods plus contacts, with and without friction), the heavy chain whose ball rests on
// the floor (the ball held by the chain and the floor at once: λ not unique, w is), Newton's cradle (rods
// and frictionless contacts) and the rope bridge (ropes plus contacts, with and without friction).
// Reference: Siconos's MLCP Lemke (the rods eliminated by a Schur complement, lexicographic Lemke on the
// rest), cross-checked by MLCP enumeration where that is small enough; if Lemke fails, enumeration, then
// Siconos's MLCP PGS (without friction) or its Fischer-Burmeister Newton (with friction) stand in. A
// reference counts when Siconos says solved, its own mlcp_compute_error accepts it, z solves the posed MLCP
// on the problem's scale (sico_mlcp_miss: Siconos's error is relative to 1 + ‖w‖, which a wrong z with a
// huge entry inflates) and circlesim's res_nat of it is small; otherwise REFERENCE FAILED is printed and the
// methods face Siconos's error measure only. The referee fails when a z that solves the posed MLCP maps to
// a λ that does not solve circlesim's problem: that is a wrong conversion, not a wrong Siconos answer.
// Every registry method, run from the warm start to res_nat 1e-10, must: converge within its budget (methods
// without a theorem there, and hard problems: report truthfully); report a res_nat the dense one formed here
// confirms to 1e-6 relative; pass Siconos's MLCP error measure; without friction (W symmetric positive
// semidefinite: w = Wλ + q is unique), match the reference's row velocities within 1e-8. With friction the
// largest difference is printed, not required.
#include "referee.h"
#include "siconos_mlcp.h"

#include <siconos/numerics/mlcp_cst.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
    ENUM_MAX = 14, // complementarity variables up to which enumeration (2^m cases) cross-checks Lemke
};

static const double AGREE = REFEREE_AGREE; // row velocities, frictionless
static const double SICONOS_TOL = REFEREE_SICONOS_TOL;
typedef referee_problem problem;

// Worlds ------------------------------------------------------------------------------------------------

// Steps w and freezes the problems of the steps listed (ascending, ending with 0), named "label step N".
static void freeze_steps(cs_world* w, const char* label, const int* steps, bool hard)
{
    for (int step = 1, k = 0; steps[k] > 0; ++step)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        if (step != steps[k])
        {
            continue;
        }
        k += 1;
        const cs_lcp* p = cs_world_last_problem(w);
        bool box = false;
        for (int i = 0; i < p->row_count; ++i)
        {
            box = box || p->kind[i] == CS_ROW_BOX;
        }
        assert_true(box); // the joints' rows are in the problem
        char name[64];
        snprintf(name, sizeof name, "%s step %d", label, step);
        referee_add_problem(name, p, hard);
    }
}

static cs_world* scene(const char* file, bool friction)
{
    cs_error err = {0};
    cs_world* w = cs_scene_load(cs_test_source_path(file), NULL, &err);
    if (w == NULL)
    {
        fail_msg("%s", err.message);
    }
    cs_world_set_frictionless(w, !friction);
    return w;
}

// A bob on a 1 m rod or rope from the world, released at 60° (a rope of 1.2 m hangs slack at first).
static void pendulums(void)
{
    static const int steps[] = {1, 20, 45, 0};
    const char* labels[] = {"rod pendulum", "rope pendulum", "slack rope pendulum"};
    for (int kind = 0; kind < 3; ++kind)
    {
        cs_world_def def = cs_world_def_default();
        cs_error err = {0};
        cs_world* w = cs_world_create(&def, &err);
        assert_non_null(w);
        int bob = cs_test_add(w, CS_BODY_DYNAMIC, sin(1.047), -cos(1.047), 0.1, 2.0);
        cs_test_join(w, -1, bob, (cs_vec2){0.0, 0.0}, kind == 2 ? 1.2 : 1.0, kind > 0);
        freeze_steps(w, labels[kind], steps, false);
        cs_world_destroy(w);
    }
}

static void chains(void)
{
    static const int hanging[] = {1, 10, 100, 0};
    cs_world* w = scene("scenes/chain.json", true);
    freeze_steps(w, "heavy chain", hanging, false);
    cs_world_destroy(w);
    // Held out horizontally and released above a floor at y = −0.5: it swings down, links and the ball pile
    // up on the floor and on each other while the rods hold them (non-neighbouring links collide).
    static const int falling[] = {30, 60, 120, 240, 0};
    for (int friction = 0; friction < 2; ++friction)
    {
        cs_world_def def = cs_world_def_default();
        cs_error err = {0};
        w = cs_world_create(&def, &err);
        assert_non_null(w);
        assert_true(cs_world_add_half_plane(w, (cs_vec2){0.0, -0.5}, (cs_vec2){0.0, 1.0}, 0.4, 0.0, &err) >=
                    0);
        int previous = -1;
        for (int k = 0; k <= 10; ++k) // chain.json's bodies and joints, turned 90°
        {
            int id = cs_test_add(w, CS_BODY_DYNAMIC, 0.2 * (k + 1), 0.0, k < 10 ? 0.05 : 0.15,
                                 k < 10 ? 0.1 : 10.0);
            cs_test_join(w, previous, id, (cs_vec2){0.0, 0.0}, 0.2, false);
            previous = id;
        }
        cs_world_set_frictionless(w, friction == 0);
        freeze_steps(w, friction ? "heavy chain on a floor" : "heavy chain on a floor frictionless", falling,
                     false);
        cs_world_destroy(w);
    }
    // The ball resting on a floor at its lowest point: chain and floor both hold it up.
    static const int resting[] = {2, 30, 0};
    w = scene("scenes/chain.json", false);
    cs_error err = {0};
    assert_true(cs_world_add_half_plane(w, (cs_vec2){0.0, -2.35}, (cs_vec2){0.0, 1.0}, 0.4, 0.0, &err) >= 0);
    freeze_steps(w, "heavy chain, ball on the floor", resting, false);
    cs_world_destroy(w);
}

static void scenes_with_joints(void)
{
    static const int cradle[] = {10, 30, 100, 0};
    cs_world* w = scene("scenes/cradle.json", false);
    freeze_steps(w, "cradle", cradle, false);
    cs_world_destroy(w);
    static const int bridge[] = {30, 40, 50, 150, 0};
    for (int friction = 0; friction < 2; ++friction)
    {
        w = scene("scenes/bridge.json", friction == 1);
        freeze_steps(w, friction ? "bridge" : "bridge frictionless", bridge, false);
        cs_world_destroy(w);
    }
}

// The referee ---------------------------------------------------------------------------------------------

typedef struct reference
{
    bool ok;
    double* lambda; // circlesim's row order
    double* w;      // (A + Σ)λ + q
} reference;

// Siconos solver `id` from zero; true when Siconos says solved, its own error accepts the answer, the answer
// solves the posed MLCP (sico_mlcp_miss) and circlesim's res_nat of it is at most SICONOS_TOL. Printed
// either way.
static bool siconos_solve(const problem* pr, sico_mlcp* x, int id, double* lambda)
{
    size_t size = (size_t)(x->n + x->m);
    double* z = calloc(size + 1, sizeof(double));
    int iterations = 0;
    int cap = id == SICONOS_MLCP_PGS ? 200000 : 20 * (int)size + 1000;
    int info = sico_mlcp_solve(x, id, 1e-12, cap, z, &iterations);
    double own = sico_mlcp_error(x, z), norm_z;
    int row;
    double miss = sico_mlcp_miss(x, z, &row, &norm_z);
    sico_mlcp_lambda(x, z, lambda);
    double* v = malloc(((size_t)pr->p.body_count * 3 + 3) * sizeof(double));
    cs_lcp_velocity(&pr->p, lambda, v);
    double res = cs_residual_nat(&pr->p, v, lambda);
    free(v);
    free(z);
    bool ok = info == 0 && own <= SICONOS_TOL && miss <= SICONOS_TOL && res <= SICONOS_TOL;
    print_message("%s: %d rows (MLCP n %d, m %d), Siconos %s: info %d, %d iterations, its own error %.2e, "
                  "MLCP miss %.2e, circlesim res_nat %.2e%s\n",
                  pr->name, pr->p.row_count, x->n, x->m, sico_mlcp_solver_name(id), info, iterations, own,
                  miss, res, ok ? "" : "  (not accepted)");
    if (info == 0 && own <= SICONOS_TOL && !(miss <= SICONOS_TOL))
    {
        // Siconos's measure is relative to 1 + ‖w‖ (siconos_mlcp.h): its answer is Siconos's failure.
        print_message("%s: Siconos's %s says solved, but its z misses the MLCP by %.2e at z row %d (‖z‖∞ "
                      "%.2e inflates its own error measure): not a reference\n",
                      pr->name, sico_mlcp_solver_name(id), miss, row, norm_z);
    }
    if (info == 0 && miss <= SICONOS_TOL && !(res <= SICONOS_TOL))
    {
        REPORT_FAILURE("%s: Siconos's %s solution solves the posed MLCP (miss %.2e) but its λ has circlesim "
                       "res_nat %.3e > %.0e: the MLCP is not circlesim's problem\n",
                       pr->name, sico_mlcp_solver_name(id), miss, res, SICONOS_TOL);
    }
    return ok;
}

static double max_abs_difference(const double* a, const double* b, int n, int* where)
{
    double d = 0.0;
    *where = 0;
    for (int i = 0; i < n; ++i)
    {
        if (fabs(a[i] - b[i]) > d)
        {
            d = fabs(a[i] - b[i]);
            *where = i;
        }
    }
    return d;
}

// Lemke, cross-checked by enumeration when small; enumeration or PGS when Lemke fails.
static void reference_solve(const problem* pr, sico_mlcp* x, reference* ref)
{
    int rows = pr->p.row_count;
    double* lambda = malloc(((size_t)rows + 1) * sizeof(double));
    double* w = malloc(((size_t)rows + 1) * sizeof(double));
    bool small = x->m <= ENUM_MAX;
    ref->ok = siconos_solve(pr, x, SICONOS_MLCP_LCP_LEMKE, ref->lambda);
    if (small && siconos_solve(pr, x, SICONOS_MLCP_ENUM, lambda))
    {
        if (!ref->ok)
        {
            memcpy(ref->lambda, lambda, (size_t)rows * sizeof(double));
            ref->ok = true;
        }
        else if (!x->friction)
        {
            // Two exact methods of Siconos must give the same unique w: the referee checks itself.
            sico_mlcp_row_velocity(x, ref->lambda, ref->w);
            sico_mlcp_row_velocity(x, lambda, w);
            int at;
            double d = max_abs_difference(ref->w, w, rows, &at);
            if (!(d <= AGREE))
            {
                REPORT_FAILURE("%s: Siconos's Lemke and enumeration disagree at row %d: w %.17g vs %.17g\n",
                               pr->name, at, ref->w[at], w[at]);
            }
        }
    }
    // Without friction M is symmetric positive semidefinite (PGS converges); with it, the β model's M is
    // not, and Siconos's semismooth Newton on the Fischer-Burmeister function stands in.
    if (!ref->ok && siconos_solve(pr, x, x->friction ? SICONOS_MLCP_FB : SICONOS_MLCP_PGS, lambda))
    {
        memcpy(ref->lambda, lambda, (size_t)rows * sizeof(double));
        ref->ok = true;
    }
    if (ref->ok)
    {
        sico_mlcp_row_velocity(x, ref->lambda, ref->w);
    }
    else
    {
        print_message("%s: REFERENCE FAILED: no Siconos MLCP method solved it; circlesim's methods face "
                      "Siconos's error measure only\n",
                      pr->name);
    }
    free(lambda);
    free(w);
}

// z of a circlesim λ (the inverse of sico_mlcp_lambda; β of a friction row is |w_t|, which makes the β
// rows complementary at a solution).
static void to_z(const sico_mlcp* x, const cs_lcp* p, const double* lambda, const double* w, double* z)
{
    for (int i = 0; i < p->row_count; ++i)
    {
        if (x->var_minus[i] < 0)
        {
            z[x->var[i]] = (lambda[i] - x->offset[i]) * x->sign[i];
            continue;
        }
        z[x->var[i]] = fmax(lambda[i], 0.0);
        z[x->var_minus[i]] = fmax(-lambda[i], 0.0);
        // β = the slip speed |w_t|: where the row sticks, w_t = 0 at a solution (testing |λ_t| against its
        // bound instead would misread a λ_t that sits an ulp inside μλ_n as sticking)
        z[x->var_minus[i] + 1] = fabs(w[i]);
    }
}

static void judge(const problem* pr, sico_mlcp* x, const reference* ref, int solver)
{
    const cs_lcp* p = &pr->p;
    const cs_solver_info* info = cs_solver_at(solver);
    bool no_theorem;
    cs_solver_params params = referee_params(pr, info, &no_theorem);
    size_t rows = (size_t)p->row_count + 1;
    double* lambda = malloc(rows * sizeof(double));
    double* w = malloc(rows * sizeof(double));
    double* z = calloc((size_t)(x->n + x->m) + 1, sizeof(double));
    cs_solver_work work = {0};
    cs_solver_stats stats = {0};
    cs_error err = {0};
    cs_status st = cs_solve(p, solver, &params, &work, lambda, &stats, &err);
    cs_solver_work_free(&work);
    if (st != CS_OK)
    {
        REPORT_FAILURE("%s on %s: cs_solve failed: %s\n", info->name, pr->name, err.message);
        goto done;
    }
    double res = sico_mlcp_residual(x, p, lambda);
    if (!referee_converged(pr, info, params.iterations, &stats, res, no_theorem))
    {
        goto done;
    }
    sico_mlcp_row_velocity(x, lambda, w);
    to_z(x, p, lambda, w, z);
    double sic = sico_mlcp_error(x, z);
    if (!(sic <= SICONOS_TOL))
    {
        double norm_z;
        int k;
        double far = sico_mlcp_miss(x, z, &k, &norm_z);
        REPORT_FAILURE(
            "%s on %s: Siconos's MLCP error %.3e > %.0e (circlesim res_nat %.3e); worst MLCP row %d "
            "(of %d free, %d complementary): miss %.3e\n",
            info->name, pr->name, sic, SICONOS_TOL, stats.res_nat, k, x->n, x->m, far);
    }
    int at = 0;
    double dw = ref->ok ? max_abs_difference(w, ref->w, p->row_count, &at) : NAN;
    if (ref->ok && !x->friction && !(dw <= AGREE))
    {
        REPORT_FAILURE("%s on %s: row %d (%s): velocity %.17g, Siconos's %.17g (|diff| %.3e > %.0e)\n",
                       info->name, pr->name, at, p->kind[at] == CS_ROW_BOX ? "joint" : "contact", w[at],
                       ref->w[at], dw, AGREE);
    }
    print_message("  %-14s %-40s %6d it  res_nat %.2e  siconos err %.2e  max|w - w_ref| %.2e (row %d)%s\n",
                  info->name, pr->name, stats.iterations, stats.res_nat, sic, dw, at,
                  !ref->ok      ? " [no reference]"
                  : x->friction ? " [friction: reported, not required]"
                                : "");
done:
    free(lambda);
    free(w);
    free(z);
}

static void referee(const problem* pr)
{
    sico_mlcp x = {0};
    char why[160];
    if (!sico_mlcp_make(&pr->p, &x, why, sizeof why))
    {
        REPORT_FAILURE("%s: cannot be posed to Siconos as an MLCP: %s\n", pr->name, why);
        sico_mlcp_free(&x);
        return;
    }
    size_t rows = (size_t)pr->p.row_count + 1;
    reference ref = {.lambda = calloc(rows, sizeof(double)), .w = calloc(rows, sizeof(double))};
    reference_solve(pr, &x, &ref);
    for (int k = 0; k < cs_solver_count(); ++k)
    {
        judge(pr, &x, &ref, k);
    }
    free(ref.lambda);
    free(ref.w);
    sico_mlcp_free(&x);
}

static void run_all(void)
{
    for (int k = 0; k < problem_count; ++k)
    {
        referee(&problems[k]);
        cs_lcp_free(&problems[k].p);
    }
    problem_count = 0;
    int found = failures;
    failures = 0;
    if (found > 0)
    {
        fail_msg("%d disagreement(s) with the Siconos MLCP referee (REFEREE FAILURE lines above)", found);
    }
}

static void test_pendulums(void** state)
{
    (void)state;
    pendulums();
    run_all();
}

static void test_heavy_chains(void** state)
{
    (void)state;
    chains();
    run_all();
}

static void test_cradle_and_bridge(void** state)
{
    (void)state;
    scenes_with_joints();
    run_all();
}

// The MLCP itself: a rod's row is free, a rope's is flipped, a friction row becomes λ⁺, λ⁻, β; and a box
// row with two finite bounds is refused with its reason (never posed without it).
static void test_mlcp_form(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_reserve(&p, 2, 5, &err), CS_OK);
    p.body_count = 2;
    p.row_count = 5;
    for (int b = 0; b < 2; ++b)
    {
        p.inv_mass[b] = 1.0;
        p.inv_inertia[b] = 2.0;
        p.v[3 * b] = p.v[3 * b + 1] = p.v[3 * b + 2] = 0.0;
    }
    const double jn[6] = {0, -1, 0, 0, 1, 0}, jt[6] = {1, 0, 0.1, -1, 0, 0.1};
    cs_lcp_set_contact_row(&p, 0, 0, 1, jn, -0.5, -1, 0.0, 0.0);
    cs_lcp_set_contact_row(&p, 1, 0, 1, jt, 0.2, 0, 0.5, 0.0);
    for (int i = 2; i < 5; ++i) // a rod, a rope, a rope again (made a two-sided box below)
    {
        cs_lcp_set_contact_row(&p, i, -1, i % 2, jn, 0.1 * i, -1, 0.0, 0.0);
        p.kind[i] = CS_ROW_BOX;
        p.lo[i] = -INFINITY;
        p.hi[i] = i == 2 ? INFINITY : 0.0;
    }
    sico_mlcp x = {0};
    char why[160];
    assert_true(sico_mlcp_make(&p, &x, why, sizeof why));
    assert_int_equal(x.n, 1);         // the rod
    assert_int_equal(x.m, 1 + 3 + 2); // normal, friction (λ⁺ λ⁻ β), two ropes
    assert_int_equal(x.var[2], 0);
    assert_true(x.sign[3] == -1.0 && x.offset[3] == 0.0);
    sico_mlcp_free(&x);
    p.lo[4] = -1.0;
    assert_false(sico_mlcp_make(&p, &x, why, sizeof why));
    assert_non_null(strstr(why, "box row 4 has two finite bounds"));
    sico_mlcp_free(&x);
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mlcp_form),
        cmocka_unit_test(test_pendulums),
        cmocka_unit_test(test_heavy_chains),
        cmocka_unit_test(test_cradle_and_bridge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
