// Every registered method against `lemke` (issue 11): ≥ 100 seeded random problems built by the world from
// random circle piles (so A = J M⁻¹ Jᵀ has the real contact structure), frictionless and with friction, well
// and badly conditioned (mass ratios up to 1e4), plus frozen steps of Stacking 30 and 150 and of Pool 1 and
// 2 (every method on Pool 1 and 2 also in test_siconos_referee). The registry is iterated, so a method
// registered later is covered without editing this file.
//
// Per method and problem: solve from λ = 0 to res_nat <= TOL. Where it gets there:
//   frictionless (w is unique): contact velocities w = Jv + b agree with lemke's to 1e-8 and
//   ‖min(λ, w)‖∞ <= 1e-10;
//   with friction (λ, and so w, need not be unique): both answers satisfy the BLCP to the tolerance, and the
//   largest velocity difference is printed.
// Whether a method gets there is itself checked only where its registry flags guarantee it (guaranteed()):
// lemke (CS_SOLVER_EXACT) on every frictionless problem and every frozen one; the others per
// CS_SOLVER_CONVERGES_FIXED / CONVERGES_NONSINGULAR. The table printed at the end shows the rest (for
// example: Gauss–Seidel methods stall for hundreds of thousands of sweeps at mass ratio 1e4, and amgs-dense's
// O(m²) sweep gets a smaller sweep budget).
#include "solver_fixtures.h"

#include "circlesim/lemke.h"

#define TOL 1e-12

enum
{
    PROBLEMS_PER_CLASS = 26,
    CLASS_COUNT = 4,
    MAX_METHODS = 32,
};

static const char* class_names[CLASS_COUNT] = {"frictionless, mass ratio <= 2",
                                               "frictionless, mass ratio 1e4", "friction, mass ratio <= 2",
                                               "friction, mass ratio 1e4"};

// A random pile: `count` circles on a jittered grid in a box of three half-planes, neighbours overlapping
// or within the speculative margin, moving at random; one step with PGS makes the frozen problem.
static cs_world* random_pile(int count, bool friction, double mass_ratio)
{
    cs_error err = {0};
    cs_world_def def = cs_world_def_default();
    def.frictionless = !friction;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    int columns = 2 + rng_int(5);
    double spacing = 0.5;
    double width = columns * spacing;
    assert_true(cs_world_add_half_plane(w, (cs_vec2){0.0, 0.0}, (cs_vec2){0.0, 1.0}, 0.4, 0.0, &err) >= 0);
    assert_true(cs_world_add_half_plane(w, (cs_vec2){-0.25, 0.0}, (cs_vec2){1.0, 0.0}, 0.4, 0.0, &err) >= 0);
    assert_true(
        cs_world_add_half_plane(w, (cs_vec2){width - 0.25, 0.0}, (cs_vec2){-1.0, 0.0}, 0.4, 0.0, &err) >= 0);
    for (int k = 0; k < count; ++k)
    {
        cs_circle_def c = cs_circle_def_default();
        c.radius = rng_uniform(0.22, 0.27);
        c.position.x = (k % columns) * spacing + rng_uniform(-0.02, 0.02);
        c.position.y = 0.25 + (k / columns) * spacing * 0.95 + rng_uniform(-0.02, 0.02);
        c.velocity = (cs_vec2){rng_uniform(-1.0, 1.0), rng_uniform(-2.0, 0.5)};
        c.angular_velocity = rng_uniform(-2.0, 2.0);
        c.mass = exp(rng_uniform(0.0, log(mass_ratio)));
        c.friction = rng_uniform(0.1, 0.8);
        c.restitution = 0.0;
        assert_true(cs_world_add_circle(w, &c, &err) >= 0);
    }
    return w;
}

static void frozen_problem(cs_world* w, int steps, cs_lcp* out)
{
    cs_error err = {0};
    for (int s = 0; s < steps; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    assert_int_equal(cs_lcp_copy(out, cs_world_last_problem(w), &err), CS_OK);
    cs_world_destroy(w);
}

// w = J v + b of every row.
static void contact_velocities(const cs_lcp* p, const double* v, double* w)
{
    for (int i = 0; i < p->row_count; ++i)
    {
        w[i] = cs_lcp_row_velocity(p, v, i);
    }
}

typedef struct tally
{
    int reached[MAX_METHODS][CLASS_COUNT + 1];
    int tried[MAX_METHODS][CLASS_COUNT + 1];
    double worst_dw[MAX_METHODS][CLASS_COUNT + 1];
} tally;

static tally results;

static bool has(int method, unsigned flag)
{
    return (cs_solver_at(method)->flags & flag) != 0;
}

// Must `method` reach TOL on problem class `c` (CLASS_COUNT: frozen scenes)? The registry's guarantee flags
// (solver.h) say where a theorem holds: CONVERGES_FIXED on frictionless problems, CONVERGES_NONSINGULAR on
// any with A nonsingular (maybe_nonsingular() is necessary for that). Within this test's budget a sweep
// method is held to them on the well-conditioned classes only (Gauss–Seidel methods stall for hundreds of
// thousands of sweeps at mass ratio 1e4); a Newton method everywhere.
static bool guaranteed(int method, int c, bool friction, bool nonsingular)
{
    bool within_budget = has(method, CS_SOLVER_NEWTON_STEPS) || c == (friction ? 2 : 0);
    bool theorem = (!friction && has(method, CS_SOLVER_CONVERGES_FIXED)) ||
                   (nonsingular && has(method, CS_SOLVER_CONVERGES_NONSINGULAR));
    return theorem && within_budget;
}

// Whether A = J M⁻¹ Jᵀ can be nonsingular: rank(A) <= rank(J) <= the number of body velocity components
// some row acts on (2 per circle without friction: a normal row has no angular terms).
static bool maybe_nonsingular(const cs_lcp* p)
{
    bool* used = calloc(3 * (size_t)p->body_count + 1, sizeof(bool));
    int columns = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        for (int k = 0; k < 6; ++k)
        {
            int body = k < 3 ? p->body_a[i] : p->body_b[i];
            int col = 3 * body + k % 3;
            if (body >= 0 && p->jac[6 * i + k] != 0.0 && !used[col])
            {
                used[col] = true;
                columns += 1;
            }
        }
    }
    free(used);
    return p->row_count <= columns;
}

// The iteration budget: a Newton iteration is a Krylov solve (500); a sweep method gets 100 000 sweeps where
// it is guaranteed to converge and 20 000 where it is only observed (the table); dense methods pay O(m²) a
// sweep and get proportionally fewer.
static int budget(int method, int c, bool friction, int rows, bool nonsingular)
{
    if (has(method, CS_SOLVER_NEWTON_STEPS))
    {
        return 500;
    }
    int sweeps = guaranteed(method, c, friction, nonsingular) ? 100000 : 20000;
    if (cs_solver_at(method)->flags & CS_SOLVER_DENSE)
    {
        long cap = 200000000L / ((long)rows * rows + 1);
        return cap < 1 ? 1 : cap > sweeps ? sweeps : (int)cap;
    }
    return sweeps;
}

// The reference answer: the registry's exact method (lemke). On a random frictional pile with A singular it
// may still end on a ray (reported, with its message), and then a Newton solve to TOL stands in; on every
// frictionless problem and every frozen scene problem it must give the answer. Returns 1 when lemke gave it,
// 0 for Newton.
static int reference(const cs_lcp* p, double* lambda, double* v, bool friction, bool frozen)
{
    cs_solver_work work = {0};
    cs_lemke_stats st;
    cs_error err = {0};
    cs_status s = cs_lemke_solve(p, &work, lambda, &st, &err);
    bool by_lemke = s == CS_OK;
    if (!by_lemke)
    {
        if (!friction || frozen || strstr(err.message, "lemke:") == NULL)
        {
            fail_msg("%s: lemke failed: %s", p->name, err.message);
        }
        printf("REFERENCE FAILED: %s: %s (newton-minmap to %g stands in)\n", p->name, err.message, TOL);
        cs_solver_params params = cs_solver_params_default();
        params.warm_start = false;
        params.iterations = 500;
        params.tolerance = TOL;
        cs_solver_stats stats;
        assert_int_equal(cs_solve(p, cs_solver_find("newton-minmap"), &params, &work, lambda, &stats, &err),
                         CS_OK);
        assert_true(stats.res_nat <= TOL);
    }
    else
    {
        assert_true(st.res_nat <= 1e-9);
        if (frozen)
        {
            printf("reference: %s: lemke, %d rows, %d variables, %d pivots, res_nat %.2e\n", p->name,
                   p->row_count, st.variables, st.pivots, st.res_nat);
        }
    }
    memcpy(v, work.v, 3 * (size_t)p->body_count * sizeof(double));
    cs_solver_work_free(&work);
    return by_lemke ? 1 : 0;
}

static void check_problem(const cs_lcp* p, int c, bool friction)
{
    int m = p->row_count, nb = p->body_count;
    double* ref = calloc((size_t)m + 1, sizeof(double));
    double* ref_v = calloc(3 * (size_t)nb + 3, sizeof(double));
    double* ref_w = calloc((size_t)m + 1, sizeof(double));
    double* lambda = calloc((size_t)m + 1, sizeof(double));
    double* w = calloc((size_t)m + 1, sizeof(double));
    bool by_lemke = reference(p, ref, ref_v, friction, c >= CLASS_COUNT) == 1;
    bool nonsingular = maybe_nonsingular(p);
    if (friction && !by_lemke && c < CLASS_COUNT)
    {
        // A frictional problem lemke could not do must have a singular A.
        assert_false(nonsingular);
    }
    contact_velocities(p, ref_v, ref_w);
    cs_solver_work work = {0};
    for (int s = 0; s < cs_solver_count() && s < MAX_METHODS; ++s)
    {
        cs_solver_params params = cs_solver_params_default(); // the AMGS variants' default α, γ
        params.warm_start = false;
        params.tolerance = TOL;
        params.iterations = budget(s, c, friction, m, nonsingular);
        cs_solver_stats stats;
        cs_error err = {0};
        cs_status st = cs_solve(p, s, &params, &work, lambda, &stats, &err);
        if (st != CS_OK)
        {
            // Only the exact method may refuse a problem, one it failed as the reference (a random
            // frictional pile with A singular), and it says why.
            assert_true(has(s, CS_SOLVER_EXACT) && friction && c < CLASS_COUNT && !by_lemke);
            continue;
        }
        results.tried[s][c] += 1;
        bool reached = stats.res_nat <= TOL;
        if (!reached)
        {
            if (guaranteed(s, c, friction, nonsingular))
            {
                fail_msg("%s on %s (%d rows, %d bodies): res_nat %.3g after %d iterations",
                         cs_solver_at(s)->name, p->name, m, nb, stats.res_nat, stats.iterations);
            }
            continue;
        }
        results.reached[s][c] += 1;
        contact_velocities(p, work.v, w);
        double dw = 0.0, comp = 0.0;
        for (int i = 0; i < m; ++i)
        {
            dw = fmax(dw, fabs(w[i] - ref_w[i]));
            if (p->kind[i] == CS_ROW_NORMAL)
            {
                comp = fmax(comp, fabs(fmin(lambda[i], w[i])));
            }
        }
        results.worst_dw[s][c] = fmax(results.worst_dw[s][c], dw);
        if (!friction && (dw > 1e-8 || comp > 1e-10))
        {
            fail_msg("%s on %s (%d rows): velocities differ from lemke's by %.3g, complementarity %.3g",
                     cs_solver_at(s)->name, p->name, m, dw, comp);
        }
        if (friction)
        {
            // Both answers satisfy the BLCP (the natural residual is the driver's; check it independently).
            assert_true(blcp_holds(p, lambda, w, 1e-10));
            assert_true(blcp_holds(p, ref, ref_w, 1e-9));
        }
    }
    cs_solver_work_free(&work);
    free(ref);
    free(ref_v);
    free(ref_w);
    free(lambda);
    free(w);
}

static void test_random_piles(void** state)
{
    (void)state;
    rng_state = 0x9E3779B97F4A7C15ull;
    int problems = 0;
    for (int c = 0; c < CLASS_COUNT; ++c)
    {
        bool friction = c >= 2;
        double ratio = (c % 2 == 0) ? 2.0 : 1e4;
        for (int k = 0; k < PROBLEMS_PER_CLASS; ++k)
        {
            cs_lcp p = {0};
            frozen_problem(random_pile(3 + rng_int(18), friction, ratio), 1, &p);
            snprintf(p.name, sizeof p.name, "class%d-problem%d", c, k);
            if (p.row_count == 0)
            {
                cs_lcp_free(&p);
                continue;
            }
            check_problem(&p, c, friction);
            problems += 1;
            cs_lcp_free(&p);
        }
    }
    assert_true(problems >= 100);
}

static void test_frozen_scenes(void** state)
{
    (void)state;
    // Frozen steps of the scenes, each with lemke as the reference. Pool 1 without friction at step 210 and
    // Pool 2 at step 300 (about 600 rows, A singular); with friction at step 10 (517 rows): a later
    // frictional pool step is 2 400 LCP variables and tens of seconds of pivoting, over this test's budget
    // (docs/SOLVERS.md has the measurements). (Pool 1 was frozen at step 300 too; since the impact shift
    // closes no contact (impact.c) the settled frictionless piles of steps 240–400 are problems lemke does
    // not answer — a singular basis, a residual on a redundant set, or its pivot cap — while 100, 150 and
    // 200 converge in 500–1 600 pivots. Since the restitution pass sweeps only the reached components
    // (impact_reach.c), step 200 is a problem ppm does not answer (res_nat 2.5e-6 on the true problem) and
    // 210 takes lemke 17 pivots.)
    const struct
    {
        const char* scene;
        int step;
        bool friction;
    } frozen[] = {
        {"scenes/stacking.json", 300, false},    {"scenes/stacking.json", 300, true},
        {"scenes/stacking150.json", 100, false}, {"scenes/stacking150.json", 100, true},
        {"scenes/pool1.json", 210, false},       {"scenes/pool1.json", 10, true},
        {"scenes/pool2.json", 300, false},       {"scenes/pool2.json", 10, true},
    };
    for (size_t k = 0; k < sizeof frozen / sizeof frozen[0]; ++k)
    {
        cs_error err = {0};
        cs_scene_info info;
        cs_world* w = cs_scene_load(cs_test_source_path(frozen[k].scene), &info, &err);
        assert_non_null(w);
        cs_world_set_frictionless(w, !frozen[k].friction);
        cs_lcp p = {0};
        frozen_problem(w, frozen[k].step, &p);
        snprintf(p.name, sizeof p.name, "%s step %d%s", frozen[k].scene + 7, frozen[k].step,
                 frozen[k].friction ? "" : " frictionless");
        check_problem(&p, CLASS_COUNT, frozen[k].friction);
        cs_lcp_free(&p);
    }
}

// The table of who reached TOL where (the documentation's numbers come from here).
static void test_print_table(void** state)
{
    (void)state;
    print_message("%-14s", "method");
    for (int c = 0; c <= CLASS_COUNT; ++c)
    {
        print_message(" | %-30s", c < CLASS_COUNT ? class_names[c] : "frozen Stacking 30/150, Pool 1/2");
    }
    print_message("\n");
    for (int s = 0; s < cs_solver_count() && s < MAX_METHODS; ++s)
    {
        print_message("%-14s", cs_solver_at(s)->name);
        for (int c = 0; c <= CLASS_COUNT; ++c)
        {
            char cell[64];
            snprintf(cell, sizeof cell, "%d/%d, max |dw| %.1e", results.reached[s][c], results.tried[s][c],
                     results.worst_dw[s][c]);
            print_message(" | %-30s", cell);
        }
        print_message("\n");
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_piles),
        cmocka_unit_test(test_frozen_scenes),
        cmocka_unit_test(test_print_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
