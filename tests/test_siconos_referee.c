// Siconos Numerics (INRIA, Debian libsiconos-numerics-dev) as the outside referee of every registry solver.
//
// Problems: frozen steps of Stacking 30, Stacking 150, Pool 1 and Pool 2 (with and without friction) that
// the suite makes itself, plus seeded random ones. Reference: Siconos's exact methods — lexicographic Lemke
// on the LCP when there is no friction, fc2d Lemke (per contact [normal, tangent], the same Coulomb law
// as the box rows) with friction — on the dense W = J M⁻¹ Jᵀ and q = J v* + b formed here from the rows.
// Every circlesim solver in the registry (whatever other branches add) is run to its tolerance from the
// warm start and must: reach the tolerance within a generous cap; have a natural-map residual under it by
// circlesim's measure and by this file's dense one; pass Siconos's own error measure; without friction,
// where w is unique (W is symmetric positive semidefinite), match the reference's contact velocities within
// 1e-8. With friction solutions may differ: the reference must pass circlesim's residual check and the
// difference is printed. A problem whose reference fails is printed, and its solvers still face Siconos's
// error measure. On "hard" problems (the sweeps need far more than the cap) a solver need not converge,
// but what it reports must be true.
#include "test_support.h"

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc2d_compute_error.h>
#include <siconos/numerics/lcp_cst.h>
#include <siconos/numerics/Friction_cst.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Siconos keeps some workspace in static storage for the life of the process; not circlesim's leak.
const char* __lsan_default_suppressions(void);
const char* __lsan_default_suppressions(void)
{
    return "leak:libsiconos_numerics\nleak:libopenblas\nleak:liblapack\n";
}

enum
{
    MAX_PROBLEMS = 32,
    FRICTION_REFERENCE_MAX_ROWS = 400, // fc2d Lemke is dense and cubic: larger ones are reported, not run
    SWEEP_CAP = 50000,                 // iterations for a method without a known budget
    HARD_CAP = 2000,
};

static const double TOL = 1e-10;        // circlesim's tolerance on res_nat
static const double AGREE = 1e-8;       // contact velocities, frictionless
static const double SICONOS_TOL = 1e-8; // Siconos's error measure on a circlesim solution, and vice versa

typedef struct problem
{
    char name[64];
    cs_lcp p;
    bool hard;
} problem;

static problem problems[MAX_PROBLEMS];
static int problem_count;
static int failures;

#define REPORT_FAILURE(...)                                                                                  \
    do                                                                                                       \
    {                                                                                                        \
        print_message("REFEREE FAILURE: " __VA_ARGS__);                                                      \
        failures += 1;                                                                                       \
    } while (0)

static void add_problem(const char* name, const cs_lcp* p, bool hard)
{
    assert_true(problem_count < MAX_PROBLEMS);
    problem* pr = &problems[problem_count++];
    cs_error err;
    snprintf(pr->name, sizeof pr->name, "%s", name);
    assert_int_equal(cs_lcp_copy(&pr->p, p, &err), CS_OK);
    pr->hard = hard;
}

// Frozen steps of the scenes: {scene, step, friction, hard}. Hard: the sweeps need far more than HARD_CAP
// (Pool frictionless at step 100: 1e-5 after 20 000 PGS sweeps; Stacking 150 at step 10, still settling).
typedef struct scene_step
{
    const char* scene;
    int step;
    bool friction;
    bool hard;
} scene_step;

static const scene_step scene_steps[] = {
    {"stacking", 10, true, false},     {"stacking", 10, false, false},     {"stacking", 100, true, false},
    {"stacking", 100, false, false},   {"stacking150", 10, true, true},    {"stacking150", 10, false, true},
    {"stacking150", 100, true, false}, {"stacking150", 100, false, false}, {"pool1", 10, true, false},
    {"pool1", 10, false, false},       {"pool1", 100, true, false},        {"pool1", 100, false, true},
    {"pool2", 100, true, false},       {"pool2", 100, false, true},
};

static void scene_problems(void)
{
    int count = (int)(sizeof scene_steps / sizeof scene_steps[0]);
    for (int k = 0; k < count; ++k)
    {
        bool first = true; // one run per scene and friction setting, capturing all its steps
        for (int j = 0; j < k; ++j)
        {
            first = first && !(strcmp(scene_steps[j].scene, scene_steps[k].scene) == 0 &&
                               scene_steps[j].friction == scene_steps[k].friction);
        }
        if (!first)
        {
            continue;
        }
        cs_error err = {0};
        char path[64];
        snprintf(path, sizeof path, "scenes/%s.json", scene_steps[k].scene);
        cs_world* w = cs_scene_load(cs_test_source_path(path), NULL, &err);
        assert_non_null(w);
        cs_world_set_frictionless(w, !scene_steps[k].friction);
        for (int step = 1; step <= 100; ++step)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
            for (int j = k; j < count; ++j)
            {
                const scene_step* e = &scene_steps[j];
                if (e->step == step && strcmp(e->scene, scene_steps[k].scene) == 0 &&
                    e->friction == scene_steps[k].friction)
                {
                    char name[64];
                    snprintf(name, sizeof name, "%s%s step %d", e->scene, e->friction ? "" : " frictionless",
                             step);
                    add_problem(name, cs_world_last_problem(w), e->hard);
                }
            }
        }
        cs_world_destroy(w);
    }
}

static uint64_t rng = 0x853C49E6748FEA9Bull;
static double uniform(double lo, double hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * ((double)(rng >> 11) / 9007199254740992.0);
}

// A seeded random pile: discs on a chain of random contacts (each body touches the next and a wall),
// normal rows with random unit normals and, with friction, tangent rows right after them.
static void random_problem(cs_lcp* p, int bodies, bool friction)
{
    cs_error err;
    int contacts = 2 * bodies - 1, rows = contacts * (friction ? 2 : 1);
    assert_int_equal(cs_lcp_reserve(p, bodies, rows, &err), CS_OK);
    p->body_count = bodies;
    p->row_count = rows;
    snprintf(p->name, sizeof p->name, "random");
    for (int b = 0; b < bodies; ++b)
    {
        double m = uniform(0.5, 3.0), r = uniform(0.2, 1.0);
        p->inv_mass[b] = 1.0 / m;
        p->inv_inertia[b] = 1.0 / (0.5 * m * r * r);
        for (int k = 0; k < 3; ++k)
        {
            p->v[3 * b + k] = uniform(-1.0, 1.0);
        }
    }
    int row = 0;
    for (int c = 0; c < contacts; ++c)
    {
        int a = c < bodies ? c : c - bodies, b = c < bodies ? -1 : c - bodies + 1; // wall, or the next disc
        double angle = uniform(0.0, 6.283185307179586), nx = cos(angle), ny = sin(angle);
        double jn[6] = {-nx, -ny, 0.0, nx, ny, 0.0}, jt[6] = {ny, -nx, -0.3, -ny, nx, -0.3};
        for (int k = 3; b < 0 && k < 6; ++k)
        {
            jn[k] = jt[k] = 0.0;
        }
        int normal = row;
        cs_test_set_row(p, row++, a, b, jn, uniform(-1.0, 0.3), -1, 0.0, 0.0);
        if (friction)
        {
            cs_test_set_row(p, row++, a, b, jt, 0.0, normal, uniform(0.1, 0.8), 0.0);
        }
    }
}

// The dense problem in Siconos's order: frictionless, the normal rows; with friction, per contact the
// normal row and its tangent row.
typedef struct dense
{
    int n, contacts;
    bool friction;
    int* order; // [n] circlesim row of each entry
    double* W;  // [n*n], symmetric (so column-major = row-major)
    double* q;
    double* mu; // [contacts]
} dense;

static void dense_free(dense* d)
{
    free(d->order);
    free(d->W);
    free(d->q);
    free(d->mu);
}

// False (with a message) when the rows do not make an LCP or an fc2d problem.
static bool dense_make(const problem* pr, dense* d)
{
    const cs_lcp* p = &pr->p;
    int m = p->row_count;
    d->order = malloc(((size_t)m + 1) * sizeof(int));
    d->mu = malloc(((size_t)m + 1) * sizeof(double));
    d->n = d->contacts = 0;
    d->friction = false;
    for (int i = 0; i < m; ++i)
    {
        d->friction = d->friction || p->kind[i] == CS_ROW_FRICTION;
    }
    for (int i = 0; i < m; ++i)
    {
        if (p->kind[i] != CS_ROW_NORMAL)
        {
            continue;
        }
        d->order[d->n++] = i;
        int t = -1;
        for (int k = 0; d->friction && k < m; ++k)
        {
            t = p->kind[k] == CS_ROW_FRICTION && p->link[k] == i ? k : t;
        }
        if (d->friction && t < 0)
        {
            print_message("%s: normal row %d has no friction row: not an fc2d problem\n", pr->name, i);
            return false;
        }
        if (d->friction)
        {
            d->order[d->n++] = t;
            d->mu[d->contacts] = p->mu[t];
        }
        d->contacts += 1;
    }
    int n = d->n;
    d->W = calloc((size_t)n * (size_t)n + 1, sizeof(double));
    d->q = calloc((size_t)n + 1, sizeof(double));
    for (int a = 0; a < n; ++a)
    {
        int i = d->order[a];
        for (int side = 0; side < 2; ++side)
        {
            int body = side == 0 ? p->body_a[i] : p->body_b[i];
            if (body < 0)
            {
                continue;
            }
            const double* ji = p->jac + 6 * i + 3 * side;
            d->q[a] += ji[0] * p->v[3 * body] + ji[1] * p->v[3 * body + 1] + ji[2] * p->v[3 * body + 2];
            for (int b = 0; b < n; ++b)
            {
                int j = d->order[b];
                int jside = p->body_a[j] == body ? 0 : p->body_b[j] == body ? 1 : -1;
                if (jside < 0)
                {
                    continue;
                }
                const double* jj = p->jac + 6 * j + 3 * jside;
                d->W[(size_t)a * n + b] += ji[0] * p->inv_mass[body] * jj[0] +
                                           ji[1] * p->inv_mass[body] * jj[1] +
                                           ji[2] * p->inv_inertia[body] * jj[2];
            }
        }
        d->q[a] += p->bias[i];
    }
    return true;
}

// u = W r + q.
static void dense_velocity(const dense* d, const double* r, double* u)
{
    for (int a = 0; a < d->n; ++a)
    {
        double s = d->q[a];
        for (int b = 0; b < d->n; ++b)
        {
            s += d->W[(size_t)a * d->n + b] * r[b];
        }
        u[a] = s;
    }
}

// ‖r − clamp(r − u)‖₂ with this file's own bounds: normal [0, ∞), tangent [−μ r_n, μ r_n].
static double dense_residual(const dense* d, const double* r, const double* u)
{
    double s = 0.0;
    for (int a = 0; a < d->n; ++a)
    {
        bool tangent = d->friction && a % 2 == 1;
        double lo = tangent ? -d->mu[a / 2] * r[a - 1] : 0.0,
               hi = tangent ? d->mu[a / 2] * r[a - 1] : INFINITY;
        double x = r[a] - u[a];
        x = x < lo ? lo : x > hi ? hi : x;
        s += (r[a] - x) * (r[a] - x);
    }
    return sqrt(s);
}

// Siconos's problem over the dense data (the structs are filled here, so only the matrix is Siconos's).
typedef struct siconos
{
    NumericsMatrix* M;
    LinearComplementarityProblem lcp;
    FrictionContactProblem* fc;
} siconos;

static void siconos_make(const dense* d, siconos* s)
{
    s->M = NM_create(NM_DENSE, d->n, d->n);
    memcpy(s->M->matrix0, d->W, (size_t)d->n * (size_t)d->n * sizeof(double));
    s->lcp = (LinearComplementarityProblem){.size = d->n, .M = s->M, .q = d->q};
    s->fc = calloc(1, sizeof *s->fc);
    s->fc->dimension = 2;
    s->fc->numberOfContacts = d->contacts;
    s->fc->M = s->M;
    s->fc->q = d->q;
    s->fc->mu = d->mu;
}

static void siconos_free(siconos* s)
{
    NM_free(s->M);
    free(s->fc);
}

// Siconos's own error of (r, u): lcp_compute_error or fc2d_compute_error (u is recomputed as W r + q).
static double siconos_error(const dense* d, siconos* s, const double* r)
{
    double* z = malloc(((size_t)d->n + 1) * sizeof(double));
    double* u = malloc(((size_t)d->n + 1) * sizeof(double));
    memcpy(z, r, (size_t)d->n * sizeof(double));
    dense_velocity(d, z, u);
    double error = INFINITY;
    if (d->friction)
    {
        fc2d_compute_error(s->fc, z, u, SICONOS_TOL, 1.0, &error);
    }
    else
    {
        lcp_compute_error(&s->lcp, z, u, SICONOS_TOL, &error);
    }
    free(z);
    free(u);
    return error;
}

// The exact reference: lexicographic Lemke (LCP) or fc2d Lemke. Returns Siconos's info (0 = solved).
static int siconos_reference(const dense* d, siconos* s, double* r, double* u, int* pivots)
{
    SolverOptions* options =
        solver_options_create(d->friction ? SICONOS_FRICTION_2D_LEMKE : SICONOS_LCP_LEMKE);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = 20 * d->n + 1000;
    options->dparam[SICONOS_DPARAM_TOL] = 1e-10;
    memset(r, 0, (size_t)d->n * sizeof(double));
    memset(u, 0, (size_t)d->n * sizeof(double));
    int info = d->friction ? fc2d_driver(s->fc, r, u, options)
                           : linearComplementarity_driver(&s->lcp, r, u, options);
    *pivots = options->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(options);
    return info;
}

// Iterations a method gets: a pivoting method about one pivot per row, a Newton method a few hundred
// steps, anything else (sweeps) the generous SWEEP_CAP; hard problems at most HARD_CAP.
static int budget(const char* name, int rows, bool hard)
{
    int b = strstr(name, "lemke") != NULL     ? 20 * rows + 1000
            : strncmp(name, "newton", 6) == 0 ? 1000
                                              : SWEEP_CAP;
    return hard && b > HARD_CAP ? HARD_CAP : b;
}

typedef struct reference
{
    bool ok;
    double* r; // Siconos's solution and velocities, in dense order
    double* u;
} reference;

// One registry solver on one problem, judged against the reference and by Siconos's error measure.
static void judge(const problem* pr, const dense* d, siconos* s, const reference* ref, int solver,
                  double* lambda, double* r, double* u)
{
    const cs_lcp* p = &pr->p;
    const cs_solver_info* info = cs_solver_at(solver);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = budget(info->name, p->row_count, pr->hard);
    params.tolerance = TOL;
    params.tolerance_on = CS_RES_NAT;
    params.warm_start = true;
    cs_solver_work work = {0};
    cs_solver_stats stats = {0};
    cs_error err = {0};
    if (cs_solve(p, solver, &params, &work, lambda, &stats, &err) != CS_OK)
    {
        REPORT_FAILURE("%s on %s: cs_solve failed: %s\n", info->name, pr->name, err.message);
        cs_solver_work_free(&work);
        return;
    }
    cs_solver_work_free(&work);
    for (int a = 0; a < d->n; ++a)
    {
        r[a] = lambda[d->order[a]];
    }
    dense_velocity(d, r, u);
    double res = dense_residual(d, r, u);
    bool converged = stats.res_nat <= TOL;
    // What the solver reports must be true, converged or not.
    if (!(fabs(stats.res_nat - res) <= 1e-6 * res + 1e-12))
    {
        REPORT_FAILURE("%s on %s: reports res_nat %.3e, the dense residual is %.3e\n", info->name, pr->name,
                       stats.res_nat, res);
    }
    if (!converged)
    {
        if (!pr->hard)
        {
            REPORT_FAILURE("%s on %s: res_nat %.3e > %.0e after %d iterations (cap %d)\n", info->name,
                           pr->name, stats.res_nat, TOL, stats.iterations, params.iterations);
        }
        else
        {
            print_message("  %-12s %-32s not converged in %d (res_nat %.2e), as reported\n", info->name,
                          pr->name, stats.iterations, stats.res_nat);
        }
        return;
    }
    double sic = siconos_error(d, s, r);
    if (!(sic <= SICONOS_TOL))
    {
        REPORT_FAILURE("%s on %s: Siconos's %s error %.3e > %.0e (circlesim res_nat %.3e)\n", info->name,
                       pr->name, d->friction ? "fc2d" : "lcp", sic, SICONOS_TOL, stats.res_nat);
    }
    int worst = 0;
    double dw = ref->ok ? 0.0 : NAN;
    for (int a = 0; ref->ok && a < d->n; ++a)
    {
        double e = fabs(u[a] - ref->u[a]);
        worst = e > dw ? a : worst;
        dw = e > dw ? e : dw;
    }
    if (ref->ok && !d->friction && !(dw <= AGREE))
    {
        REPORT_FAILURE(
            "%s on %s: row %d: contact velocity %.17g, Siconos Lemke's %.17g (|diff| %.3e > %.0e)\n",
            info->name, pr->name, d->order[worst], u[worst], ref->u[worst], dw, AGREE);
    }
    print_message("  %-12s %-32s %6d it  res_nat %.2e  siconos err %.2e  max|w - w_ref| %.2e (row %d)%s\n",
                  info->name, pr->name, stats.iterations, stats.res_nat, sic, dw, d->order[worst],
                  !ref->ok      ? " [no reference]"
                  : d->friction ? " [friction: reported, not required]"
                                : "");
}

// The reference of one problem, checked by circlesim's own residual; printed either way.
static void reference_solve(const problem* pr, const dense* d, siconos* s, reference* ref, double* lambda)
{
    const cs_lcp* p = &pr->p;
    if (d->friction && d->n > FRICTION_REFERENCE_MAX_ROWS)
    {
        print_message(
            "%s: %d rows: reference not run (dense fc2d Lemke is cubic; limit %d rows); solvers face "
            "Siconos's error measure only\n",
            pr->name, d->n, FRICTION_REFERENCE_MAX_ROWS);
        ref->ok = false;
        return;
    }
    int pivots = 0;
    int info = siconos_reference(d, s, ref->r, ref->u, &pivots);
    memset(lambda, 0, (size_t)p->row_count * sizeof(double));
    for (int a = 0; a < d->n; ++a)
    {
        lambda[d->order[a]] = ref->r[a];
    }
    double* v = malloc(((size_t)p->body_count * 3 + 1) * sizeof(double));
    cs_lcp_velocity(p, lambda, v);
    double res = cs_residual_nat(p, v, lambda);
    free(v);
    dense_velocity(d, ref->r, ref->u);
    double own = siconos_error(d, s, ref->r);
    // Debian 4.4's fc2d Lemke can return info 0 with a solution its own error measure rejects: not a
    // reference.
    ref->ok = info == 0 && own <= SICONOS_TOL;
    print_message("%s: %d rows, Siconos %s: info %d, %d pivots, its own error %.2e, circlesim res_nat of its "
                  "solution %.2e\n",
                  pr->name, d->n, d->friction ? "fc2d Lemke" : "Lemke", info, pivots, own, res);
    if (!ref->ok)
    {
        print_message(
            "%s: REFERENCE FAILED (Siconos info %d, its own error %.2e): reported; solvers face Siconos's "
            "error measure only\n",
            pr->name, info, own);
    }
    else if (!(res <= SICONOS_TOL))
    {
        REPORT_FAILURE("%s: Siconos's reference has circlesim res_nat %.3e > %.0e\n", pr->name, res,
                       SICONOS_TOL);
    }
}

static void referee(const problem* pr)
{
    dense d = {0};
    if (!dense_make(pr, &d))
    {
        REPORT_FAILURE("%s: cannot be posed to Siconos\n", pr->name);
        dense_free(&d);
        return;
    }
    siconos s = {0};
    siconos_make(&d, &s);
    size_t n = (size_t)d.n + 1, m = (size_t)pr->p.row_count + 1;
    reference ref = {.r = malloc(n * sizeof(double)), .u = malloc(n * sizeof(double))};
    double* lambda = malloc(m * sizeof(double));
    double* r = malloc(n * sizeof(double));
    double* u = malloc(n * sizeof(double));
    reference_solve(pr, &d, &s, &ref, lambda);
    for (int k = 0; k < cs_solver_count(); ++k)
    {
        judge(pr, &d, &s, &ref, k, lambda, r, u);
    }
    free(lambda);
    free(r);
    free(u);
    free(ref.r);
    free(ref.u);
    siconos_free(&s);
    dense_free(&d);
}

static void run_all(void)
{
    for (int k = 0; k < problem_count; ++k)
    {
        referee(&problems[k]);
    }
    if (failures > 0)
    {
        fail_msg("%d disagreement(s) with the Siconos referee (REFEREE FAILURE lines above)", failures);
    }
}

static void free_problems(void)
{
    for (int k = 0; k < problem_count; ++k)
    {
        cs_lcp_free(&problems[k].p);
    }
    problem_count = 0;
    failures = 0;
}

static void test_scenes_against_siconos(void** state)
{
    (void)state;
    scene_problems();
    run_all();
    free_problems();
}

static void test_random_against_siconos(void** state)
{
    (void)state;
    for (int k = 0; k < 12; ++k)
    {
        cs_lcp p = {0};
        random_problem(&p, 2 + k % 6, k % 2 == 1);
        char name[64];
        snprintf(name, sizeof name, "random %d (%s)", k, k % 2 == 1 ? "friction" : "frictionless");
        add_problem(name, &p, false);
        cs_lcp_free(&p);
    }
    run_all();
    free_problems();
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_siconos),
        cmocka_unit_test(test_scenes_against_siconos),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
