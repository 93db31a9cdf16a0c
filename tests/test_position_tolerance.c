// The split-impulse solve's early end (cs_world_def.position_tolerance, docs/PHYSICS.md step 7): it ends
// after its first sweep when no single contact's update in that sweep moved a body's position correction by
// the tolerance. A settled pile then takes one sweep a step instead of all of position_iterations, its
// penetration stays where the full solve leaves it, the measure itself changes no bit (tolerance 0, and a
// tolerance that stops only where further sweeps change nothing, give the bits of the full solve), the stop
// is the same with and without vector lanes and on any thread count, and snapshots keep the tolerance.
#include "test_support.h"

#include <math.h>
#include <string.h>

#include "solver/split.h"
#include "world/world_internal.h"

// The Pool 1 layout (221 circles in rows of 13), Pool 1's settings: split formulation, PGS 10 iterations.
static cs_world* pool(int count, int columns, double tolerance, bool frictionless)
{
    cs_world_def def = cs_world_def_default();
    def.formulation = CS_FORMULATION_SPLIT;
    def.frictionless = frictionless;
    def.solver_params.iterations = 10;
    def.position_tolerance = tolerance;
    cs_world* w = cs_test_pool_def(count, columns, &def);
    assert_true(cs_world_get_def(w)->position_tolerance == tolerance);
    return w;
}

// What a run of `steps` says: the sweeps of each step (into sweeps[], when given), their sum, and the max
// and mean penetration over the last 60 steps.
typedef struct run_summary
{
    long sweeps;
    int fewest, most;
    int decided; // steps that ended after one sweep with some λ > 0: the tolerance, not a fixed point
    double max_penetration, mean_penetration;
} run_summary;

static bool some_position_impulse(const cs_world* w)
{
    for (int k = 0; k < w->contacts.count; ++k)
    {
        if (w->position_lambda[k] > 0.0)
        {
            return true;
        }
    }
    return false;
}

static run_summary run(cs_world* w, int steps, int* sweeps)
{
    run_summary r = {0, 1 << 30, 0, 0, 0.0, 0.0};
    for (int s = 0; s < steps; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        const cs_step_stats* st = cs_world_stats(w);
        int n = st->position_sweeps;
        assert_true(n == 1 || n == cs_world_get_def(w)->position_iterations); // the first sweep decides
        r.decided += n == 1 && some_position_impulse(w);
        r.sweeps += n;
        r.fewest = n < r.fewest ? n : r.fewest;
        r.most = n > r.most ? n : r.most;
        if (sweeps != NULL)
        {
            sweeps[s] = n;
        }
        if (s >= steps - 60)
        {
            r.max_penetration = fmax(r.max_penetration, st->max_penetration);
            r.mean_penetration += st->mean_penetration / 60.0;
        }
    }
    return r;
}

// A settled Pool 1 takes one sweep a step with a tolerance of 0.1 µm, and its penetration over the last 60
// of 1 000 steps stays within 2 µm of the full solve's (measured: max 1.000000 → 1.000275 mm, mean 0.943464 →
// 0.943488 mm).
static void settled_pile_takes_fewer_sweeps(void** state)
{
    (void)state;
    const int steps = 1000;
    cs_world* full = pool(221, 13, 0.0, false);
    run_summary f = run(full, steps, NULL);
    cs_world* early = pool(221, 13, 1e-7, false);
    int sweeps[1000];
    run_summary e = run(early, steps, sweeps);
    print_message("sweeps %ld (full) vs %ld (1e-7 m); last 60 steps: max penetration %.6f vs %.6f mm, mean "
                  "%.6f vs %.6f mm\n",
                  f.sweeps, e.sweeps, 1e3 * f.max_penetration, 1e3 * e.max_penetration,
                  1e3 * f.mean_penetration, 1e3 * e.mean_penetration);
    assert_int_equal(f.fewest, 20); // tolerance 0: every step all position_iterations sweeps
    assert_int_equal(f.most, 20);
    assert_true(e.most == 20); // the collapse still takes every sweep
    assert_true(f.decided == 0 && e.decided > 0);
    // At least halved: measured 6 947 of 20 000. The pile is chaotic and so is when it settles: at 7–14
    // iterations the same run took 2 900–7 954 sweeps (on a40c1a5, before the pass left unmoved rows out)
    // and 3 926–7 498 (after).
    assert_true(e.sweeps * 2 < f.sweeps);
    for (int s = steps - 60; s < steps; ++s)
    {
        assert_int_equal(sweeps[s], 1); // settled: the first sweep moves nothing by 0.1 µm
    }
    assert_true(fabs(e.max_penetration - f.max_penetration) <= 2e-6);
    assert_true(fabs(e.mean_penetration - f.mean_penetration) <= 2e-6);
    cs_world_destroy(early);
    cs_world_destroy(full);
}

// The measure changes no λ: a tolerance so small that the sweeps end only where a sweep changed nothing
// (while Pool 1 falls, before it touches) gives the full solve's bits in fewer sweeps.
static void fixed_point_stop_keeps_the_bits(void** state)
{
    (void)state;
    cs_world* full = pool(221, 13, 0.0, false);
    run_summary f = run(full, 300, NULL);
    cs_world* early = pool(221, 13, 1e-150, false);
    run_summary e = run(early, 300, NULL);
    assert_true(e.fewest == 1 && e.sweeps < f.sweeps && e.decided == 0);
    assert_true(cs_world_hash(early) == cs_world_hash(full));
    for (int i = 0; i < cs_world_body_count(full); ++i)
    {
        cs_body_state x = cs_world_body(full, i), y = cs_world_body(early, i);
        assert_memory_equal(&x, &y, sizeof x);
    }
    cs_world_destroy(early);
    cs_world_destroy(full);
}

// One run's sweeps per step and final hash, with vector lanes on or off and on `threads` threads; the steps
// the tolerance decided into *decided. own: past 6 000 split rows the split solve compacts its own rows and
// schedule (split.c, cs_split_own_min_rows), as it does where the velocity sweeps are fused.
static uint64_t run_variant(int count, int columns, double tolerance, bool frictionless, bool own, bool simd,
                            int threads, int steps, int* sweeps, int* decided)
{
    cs_world* w = pool(count, columns, tolerance, frictionless);
    cs_solver_params p = *cs_world_solver_params(w);
    p.simd = simd;
    assert_true(cs_world_set_solver_params(w, &p));
    assert_true(cs_world_set_threads(w, threads));
    int saved = cs_split_own_min_rows;
    cs_split_own_min_rows = own ? 6000 : saved;
    *decided = run(w, steps, sweeps).decided;
    cs_split_own_min_rows = saved;
    if (own)
    {
        assert_true(cs_world_contact_count(w) > 6000);
        if (simd && cs_solver_simd_available())
        {
            assert_true(w->split_work.item_count > 0); // the last step swept the split's own schedule
        }
    }
    uint64_t hash = cs_world_hash(w);
    cs_world_destroy(w); // joins the workers
    return hash;
}

// Every split path ends at the same sweep with the same bits: on the velocity quads (Pool 1, pairs; and
// frictionless, normal quads; a pool of 3 000), on its own schedule (the pool of 3 000 again, over 6 000
// split rows, with the own path forced as fused sweeps would take it), one row at a time (no lanes), and on
// the helper thread (3 000: over 40 000 row updates). Each case's tolerance is one at which its run has steps
// the measure ends with some λ > 0 (the frictionless pile and the big pool are still moving at the end: 0.1
// and 1 mm). Without AVX2 the lanes fall back to the scalar sweeps, so lanes against scalar compares nothing
// there: the threads are compared, and the test reports itself skipped.
static void same_stop_with_and_without_lanes_on_any_thread_count(void** state)
{
    (void)state;
    bool lanes = cs_solver_simd_available();
    const struct
    {
        int count, columns, steps;
        double tolerance;
        bool frictionless, own;
    } cases[] = {{221, 13, 400, 1e-6, false, false},
                 {221, 13, 400, 1e-4, true, false},
                 {3000, 55, 150, 1e-3, false, false},
                 {3000, 55, 150, 1e-3, false, true}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
    {
        int steps = cases[c].steps;
        int sweeps[3][400], decided[3];
        uint64_t hash[3];
        for (int v = 0; v < 3; ++v)
        {
            hash[v] = run_variant(cases[c].count, cases[c].columns, cases[c].tolerance, cases[c].frictionless,
                                  cases[c].own, v != 1, v == 2 ? 2 : 1, steps, sweeps[v], &decided[v]);
        }
        print_message("case %zu: %d of %d steps ended after one sweep with some impulse; hash %016llx\n", c,
                      decided[0], steps, (unsigned long long)hash[0]);
        assert_true(decided[0] > 0); // the measure decided, not only fixed points
        for (int v = lanes ? 1 : 2; v < 3; ++v)
        {
            assert_true(hash[v] == hash[0]);
            assert_int_equal(decided[v], decided[0]);
            assert_memory_equal(sweeps[v], sweeps[0], (size_t)steps * sizeof(int));
        }
    }
    if (!lanes)
    {
        print_message(
            "no AVX2 on this CPU: vector lanes against scalar sweeps not compared (threads were)\n");
        skip();
    }
}

// A snapshot of `w` saved to a file and loaded back, with the text `drop` (when given) cut out of it first.
static cs_world* save_and_load(const cs_world* w, const char* drop)
{
    const char* file = cs_test_temp_path(".json");
    cs_error err = {CS_OK, ""};
    assert_int_equal(cs_world_save_state(w, file, &err), CS_OK);
    static char text[1 << 20];
    cs_test_read_text(file, text, sizeof text);
    if (drop != NULL)
    {
        char* at = strstr(text, drop);
        assert_non_null(at);
        memmove(at, at + strlen(drop), strlen(at + strlen(drop)) + 1);
    }
    cs_world* resumed = cs_world_load_state_string(text, file, &err);
    if (resumed == NULL)
    {
        fail_msg("%s", err.message);
    }
    return resumed;
}

// `steps` steps of the straight run and of the one resumed from its snapshot at step `at` end their sweeps
// at the same steps (sweeps[], from step at + 1) and reach the same state.
static void assert_resumes_as_straight(cs_world* straight, cs_world* resumed, int steps, int* decided)
{
    int a[400], b[400];
    assert_true(steps <= 400);
    run_summary s = run(straight, steps, a);
    run_summary r = run(resumed, steps, b);
    assert_memory_equal(a, b, (size_t)steps * sizeof(int));
    assert_int_equal(r.decided, s.decided);
    assert_true(cs_world_hash(resumed) == cs_world_hash(straight));
    *decided = r.decided;
}

// A snapshot keeps the tolerance: saved at step 300, when a settling Pool 1 at 0.3 µm already ends some
// steps after one sweep, the resumed run ends its sweeps where the straight one does.
static void snapshot_keeps_the_tolerance(void** state)
{
    (void)state;
    cs_world* straight = pool(221, 13, 3e-7, false);
    run(straight, 300, NULL);
    cs_world* resumed = save_and_load(straight, NULL);
    assert_true(cs_world_get_def(resumed)->position_tolerance == 3e-7);
    int decided = 0;
    assert_resumes_as_straight(straight, resumed, 100, &decided);
    print_message("steps 301-400 at 3e-7 m: %d ended after one sweep with some impulse\n", decided);
    assert_true(decided > 0); // the tolerance acted in the resumed steps
    cs_world_destroy(resumed);
    cs_world_destroy(straight);
}

// A snapshot written before position_tolerance existed (version 2 without the key) ran every sweep: it
// resumes with tolerance 0, not the default, and so as the run it was saved from (which at the default would
// end steps 501-600 after one sweep).
static void snapshot_without_the_key_resumes_at_zero(void** state)
{
    (void)state;
    cs_world* straight = pool(221, 13, 0.0, false);
    run(straight, 500, NULL);
    cs_world* resumed = save_and_load(straight, "\"position_tolerance\": 0, ");
    assert_true(cs_world_get_def(resumed)->position_tolerance == 0.0);
    int decided = 0;
    assert_resumes_as_straight(straight, resumed, 100, &decided);
    assert_int_equal(decided, 0);
    cs_world_destroy(resumed);
    cs_world_destroy(straight);
}

// position_sweeps counts the split solve's sweeps: 0 where none ran. A circle in free fall has no contacts
// (no rows, so no sweep under any tolerance), and spook and soft have no split solve even on a pile.
static void no_rows_no_sweeps(void** state)
{
    (void)state;
    const cs_formulation forms[] = {CS_FORMULATION_SPLIT, CS_FORMULATION_RELAX, CS_FORMULATION_SPOOK,
                                    CS_FORMULATION_SOFT};
    const double tolerances[] = {0.0, 1e-8};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; ++f)
    {
        for (size_t t = 0; t < sizeof tolerances / sizeof tolerances[0]; ++t)
        {
            cs_world_def def = cs_world_def_default();
            def.formulation = forms[f];
            def.position_tolerance = tolerances[t];
            cs_error err = {CS_OK, ""};
            cs_world* w = cs_world_create(&def, &err);
            assert_non_null(w);
            cs_test_add(w, CS_BODY_DYNAMIC, 0.0, 5.0, 0.2, 1.0);
            assert_int_equal(cs_world_step(w), CS_OK);
            assert_int_equal(cs_world_stats(w)->contacts, 0);
            assert_int_equal(cs_world_stats(w)->position_sweeps, 0);
            cs_world_destroy(w);
            cs_world* pile = cs_test_pool_def(60, 13, &def);
            for (int s = 0; s < 60; ++s)
            {
                assert_int_equal(cs_world_step(pile), CS_OK);
            }
            const cs_step_stats* st = cs_world_stats(pile);
            assert_true(st->contacts > 0);
            bool splits = forms[f] == CS_FORMULATION_SPLIT || forms[f] == CS_FORMULATION_RELAX;
            assert_true(splits ? st->position_sweeps >= 1 : st->position_sweeps == 0);
            cs_world_destroy(pile);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(settled_pile_takes_fewer_sweeps),
        cmocka_unit_test(fixed_point_stop_keeps_the_bits),
        cmocka_unit_test_setup_teardown(same_stop_with_and_without_lanes_on_any_thread_count,
                                        cs_test_save_sweep_knobs, cs_test_restore_sweep_knobs),
        cmocka_unit_test(snapshot_keeps_the_tolerance),
        cmocka_unit_test(snapshot_without_the_key_resumes_at_zero),
        cmocka_unit_test(no_rows_no_sweeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
