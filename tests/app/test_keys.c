// Keys injected as SDL events (no human): solver, α, iterations, warm start, pause and single step
// change the model and the world as promised, and stepping continues from the same state. A plain
// library run of the same sequence (set-ups at the same step numbers) must give the same world hash
// at every checkpoint — the viewer adds nothing to the physics (not even through its residual history).
#include "viewer_test.h"

static app a;

typedef struct reference
{
    cs_world* world;
    int solver;
    cs_solver_params params;
} reference;

static void reference_start(reference* r, const char* scene)
{
    cs_error err = {0};
    r->world = cs_scene_load(cs_test_source_path(scene), NULL, &err);
    if (r->world == NULL)
    {
        fail_msg("%s", err.message);
    }
    r->solver = cs_world_solver(r->world);
    r->params = *cs_world_solver_params(r->world);
}

static void reference_apply(reference* r)
{
    cs_world_set_solver(r->world, r->solver);
    cs_world_set_solver_params(r->world, &r->params);
}

static void reference_steps(reference* r, int n)
{
    for (int i = 0; i < n; ++i)
    {
        cs_world_step(r->world);
    }
}

// Runs n viewer frames (one step each while running) and n reference steps, then compares.
static void run_both(reference* r, int n)
{
    int64_t before = cs_world_stats(a.world)->step;
    viewer_frames(&a, n);
    reference_steps(r, n);
    assert_int_equal(cs_world_stats(a.world)->step, before + n);
    assert_int_equal(cs_world_stats(a.world)->step, cs_world_stats(r->world)->step);
    if (cs_world_hash(a.world) != cs_world_hash(r->world))
    {
        fail_msg("step %lld: viewer hash %016llx != library hash %016llx",
                 (long long)cs_world_stats(a.world)->step, (unsigned long long)cs_world_hash(a.world),
                 (unsigned long long)cs_world_hash(r->world));
    }
}

static void assert_world_matches_model(void)
{
    assert_int_equal(cs_world_solver(a.world), a.solver);
    const cs_solver_params* p = cs_world_solver_params(a.world);
    assert_int_equal(p->iterations, a.params.iterations);
    assert_true(p->alpha == a.params.alpha);
    assert_int_equal(p->warm_start, a.params.warm_start);
}

static bool hud_contains(const char* text)
{
    char lines[HUD_MAX_LINES][HUD_LINE_MAX];
    int n = hud_lines(&a, lines, HUD_MAX_LINES);
    for (int i = 0; i < n; ++i)
    {
        if (strstr(lines[i], text) != NULL)
        {
            return true;
        }
    }
    return false;
}

static void test_keys_match_library_run(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/pool1.json", 320, 240, NULL);
    reference r;
    reference_start(&r, "scenes/pool1.json");
    assert_int_equal(a.solver, r.solver);
    int amgs = cs_solver_find("amgs");
    assert_true(amgs >= 0 && amgs < 9);
    run_both(&r, 40);

    // '1'+amgs picks AMGS; the scene keeps going (same step counter, same bodies).
    cs_vec2 p_before = cs_world_body(a.world, 7).position;
    push_key(SDLK_1 + amgs, KMOD_NONE);
    r.solver = amgs;
    reference_apply(&r);
    run_both(&r, 1);
    assert_int_equal(a.solver, amgs);
    assert_world_matches_model();
    assert_true(cs_world_stats(a.world)->step == 41);
    assert_true(fabs(cs_world_body(a.world, 7).position.y - p_before.y) < 0.1);
    assert_true(hud_contains("amgs"));
    assert_true(hud_contains("α"));
    run_both(&r, 20);

    // α: + then − − −: 0.2 → 0.3 → 0.2 → 0.1 → 0.1 (never reaches 0); '=' (unshifted '+') up to 2.
    double alpha0 = a.params.alpha;
    push_key(SDLK_PLUS, KMOD_NONE);
    assert_true(fabs(alpha0 - 0.2) < 1e-12);
    // The viewer keeps α on the 0.1 grid; the reference uses the same double once checked close.
    app_frame(&a);
    assert_true(fabs(a.params.alpha - (alpha0 + 0.1)) < 1e-12);
    r.params.alpha = a.params.alpha;
    reference_apply(&r);
    reference_steps(&r, 1);
    assert_true(cs_world_hash(a.world) == cs_world_hash(r.world));
    assert_true(hud_contains("α 0.30"));
    assert_world_matches_model();

    for (int i = 0; i < 3; ++i)
    {
        push_key(SDLK_MINUS, KMOD_NONE);
    }
    app_frame(&a);
    assert_true(fabs(a.params.alpha - 0.1) < 1e-12);
    r.params.alpha = a.params.alpha;
    reference_apply(&r);
    reference_steps(&r, 1);
    run_both(&r, 10);
    assert_world_matches_model();
    for (int i = 0; i < 25; ++i)
    {
        push_key(SDLK_EQUALS, KMOD_NONE);
    }
    r.params.alpha = APP_ALPHA_MAX;
    reference_apply(&r);
    run_both(&r, 5);
    assert_true(a.params.alpha == APP_ALPHA_MAX); // clamped at 2

    // Iterations: ] doubles, [ halves, never below 1.
    int k0 = a.params.iterations;
    push_key(SDLK_RIGHTBRACKET, KMOD_NONE);
    r.params.iterations = 2 * k0;
    reference_apply(&r);
    run_both(&r, 5);
    assert_int_equal(a.params.iterations, 2 * k0);
    for (int i = 0; i < 20; ++i)
    {
        push_key(SDLK_LEFTBRACKET, KMOD_NONE);
    }
    r.params.iterations = 1;
    reference_apply(&r);
    run_both(&r, 5);
    assert_int_equal(a.params.iterations, 1);
    assert_world_matches_model();
    assert_true(hud_contains("iterations 1/step"));
    assert_true(hud_contains("AVX2 lanes") ==
                cs_solver_simd_available()); // the vector sweeps, where they run

    // W toggles warm start in the model and the world.
    bool warm = a.params.warm_start;
    push_key(SDLK_w, KMOD_NONE);
    r.params.warm_start = !warm;
    reference_apply(&r);
    run_both(&r, 10);
    assert_int_equal(a.params.warm_start, !warm);
    assert_world_matches_model();
    assert_true(hud_contains(warm ? "warm start off" : "warm start on"));
    cs_world_destroy(r.world);
    app_shutdown(&a);
}

// The same kind of sequence, but every change lands between frames so the reference can follow it
// exactly, including pause and single steps.
static void test_pause_step_and_switches_are_exact(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/stacking.json", 200, 300, NULL);
    reference r;
    reference_start(&r, "scenes/stacking.json");
    run_both(&r, 30);

    // Space pauses: frames pass, the world does not move.
    push_key(SDLK_SPACE, KMOD_NONE);
    uint64_t h = cs_world_hash(a.world);
    viewer_frames(&a, 5);
    assert_true(a.paused);
    assert_true(cs_world_hash(a.world) == h);
    assert_int_equal(cs_world_stats(a.world)->step, 30);
    assert_true(hud_contains("PAUSED"));

    // '.' steps exactly once per press while paused.
    push_key(SDLK_PERIOD, KMOD_NONE);
    app_frame(&a);
    reference_steps(&r, 1);
    assert_int_equal(cs_world_stats(a.world)->step, 31);
    assert_true(cs_world_hash(a.world) == cs_world_hash(r.world));
    push_key(SDLK_PERIOD, KMOD_NONE);
    push_key(SDLK_PERIOD, KMOD_NONE);
    app_frame(&a);
    reference_steps(&r, 2);
    assert_int_equal(cs_world_stats(a.world)->step, 33);
    assert_true(cs_world_hash(a.world) == cs_world_hash(r.world));

    // Switch settings while paused, then resume: the change applies from the next step on.
    int amgs = cs_solver_find("amgs");
    push_key(SDLK_1 + amgs, KMOD_NONE);
    push_key(SDLK_MINUS, KMOD_NONE);
    push_key(SDLK_RIGHTBRACKET, KMOD_NONE);
    push_key(SDLK_w, KMOD_NONE);
    push_key(SDLK_o, KMOD_NONE);
    app_frame(&a);
    assert_int_equal(cs_world_stats(a.world)->step, 33);
    assert_int_equal(cs_world_get_def(a.world)->row_order, CS_ROW_ORDER_KEY);
    assert_true(hud_contains("row order key"));
    cs_world_set_row_order(r.world, CS_ROW_ORDER_KEY);
    r.solver = amgs;
    r.params.alpha = round((r.params.alpha - 0.1) * 10.0) / 10.0;
    r.params.iterations *= 2;
    r.params.warm_start = !r.params.warm_start;
    reference_apply(&r);
    assert_world_matches_model();
    assert_true(a.params.alpha == r.params.alpha);
    push_key(SDLK_SPACE, KMOD_NONE);
    run_both(&r, 25);
    assert_false(a.paused);

    // Every registered solver by its number key (new solvers appear without viewer changes), each
    // continuing from the same state; Tab cycles through them in order and wraps.
    for (int s = 0; s < cs_solver_count() && s < 9; ++s)
    {
        push_key(SDLK_1 + s, KMOD_NONE);
        r.solver = s;
        reference_apply(&r);
        run_both(&r, 8);
        assert_int_equal(a.solver, s);
        assert_world_matches_model();
        assert_true(hud_contains(cs_solver_at(s)->name));
    }
    for (int i = 0; i < cs_solver_count(); ++i)
    {
        int expected = (a.solver + 1) % cs_solver_count();
        push_key(SDLK_TAB, KMOD_NONE);
        r.solver = expected;
        reference_apply(&r);
        run_both(&r, 3);
        assert_int_equal(a.solver, expected);
    }
    push_key(SDLK_TAB, KMOD_LSHIFT);
    app_frame(&a);
    assert_int_equal(a.solver, (r.solver + cs_solver_count() - 1) % cs_solver_count());

    // R resets to the scene's start (the user's solver settings stay).
    int solver = a.solver;
    push_key(SDLK_r, KMOD_NONE);
    app_frame(&a);
    assert_int_equal(cs_world_stats(a.world)->step, 1);
    assert_int_equal(a.solver, solver);
    cs_world_destroy(r.world);
    app_shutdown(&a);
}

// Toggles flip exactly their flag; speed keys walk ×¼ … ×4 and stop at the ends; Esc quits.
static void test_toggles_and_speed(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/stacking.json", 200, 200, NULL);
    struct
    {
        SDL_Keycode key;
        bool* flag;
    } toggles[] = {{SDLK_c, &a.show_contacts}, {SDLK_v, &a.show_normals}, {SDLK_i, &a.show_impulses},
                   {SDLK_g, &a.show_plot},     {SDLK_h, &a.show_help},    {SDLK_u, &a.show_hud}};
    for (size_t i = 0; i < sizeof toggles / sizeof toggles[0]; ++i)
    {
        bool before = *toggles[i].flag;
        push_key(toggles[i].key, KMOD_NONE);
        app_frame(&a);
        assert_int_equal(*toggles[i].flag, !before);
    }
    // G off stops the residual history (no per-iteration data), G on brings it back.
    assert_false(a.show_plot);
    const double *hl, *hn;
    assert_int_equal(cs_world_history(a.world, &hl, &hn), 0);
    push_key(SDLK_g, KMOD_NONE);
    app_frame(&a);
    assert_true(cs_world_history(a.world, &hl, &hn) > 1);

    for (int i = 0; i < 6; ++i)
    {
        push_key(SDLK_COMMA, KMOD_NONE);
    }
    app_frame(&a);
    assert_true(app_speeds[a.speed_index] == 0.25);
    for (int i = 0; i < 9; ++i)
    {
        push_key(SDLK_SLASH, KMOD_NONE);
    }
    app_frame(&a);
    assert_true(app_speeds[a.speed_index] == 4.0);
    assert_true(hud_contains("×4"));

    assert_false(a.quit);
    push_key(SDLK_ESCAPE, KMOD_NONE);
    app_frame(&a);
    assert_true(a.quit);
    app_shutdown(&a);
}

// With a solver that reads ω and not α (psor), + and − step ω on the 0.1 grid inside (0, 2), and the world
// gets it; α is left alone.
static void test_relaxation_keys(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/stacking.json", 200, 200, NULL);
    int psor = cs_solver_find("psor");
    assert_true(psor >= 0 && psor < 9);
    push_key(SDLK_1 + psor, KMOD_NONE);
    app_frame(&a);
    assert_int_equal(cs_world_solver(a.world), psor);
    double alpha0 = a.params.alpha;
    push_key(SDLK_PLUS, KMOD_NONE);
    app_frame(&a);
    assert_true(fabs(a.params.relaxation - 1.1) < 1e-12 && a.params.alpha == alpha0);
    assert_true(cs_world_solver_params(a.world)->relaxation == a.params.relaxation);
    assert_true(hud_contains("ω 1.10"));
    for (int i = 0; i < 15; ++i)
    {
        push_key(SDLK_EQUALS, KMOD_NONE);
    }
    app_frame(&a);
    assert_true(fabs(a.params.relaxation - 1.9) < 1e-12); // never 2
    for (int i = 0; i < 30; ++i)
    {
        push_key(SDLK_MINUS, KMOD_NONE);
    }
    app_frame(&a);
    assert_true(fabs(a.params.relaxation - 0.1) < 1e-12); // never 0
    assert_true(cs_world_solver_params(a.world)->relaxation == a.params.relaxation);
    assert_true(cs_world_stats(a.world)->step > 0 && isfinite(cs_world_stats(a.world)->res_nat));
    app_shutdown(&a);
}

// Interactive stepping: a fixed-step accumulator fed by wall time × speed, capped per frame so a slow
// setting never freezes the window (and the HUD says so).
static void test_accumulator_speed_and_cap(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/stacking.json", 200, 200, NULL);
    a.headless = false; // drive app_advance as the interactive loop does
    double h = cs_world_get_def(a.world)->time_step;
    int64_t s0 = cs_world_stats(a.world)->step;
    app_advance(&a, 10.5 * h);
    assert_int_equal(a.steps_last_frame, 8); // capped (APP_MAX_STEPS_PER_FRAME)…
    assert_true(a.behind);                   // …and reported, but only with the timings shown (T): not
    assert_false(hud_contains("slower than real time")); // knowing the machine, captures leave it out
    push_key(SDLK_t, KMOD_NONE);
    SDL_Event e;
    while (SDL_PollEvent(&e))
    {
        app_handle_event(&a, &e);
    }
    assert_true(hud_contains("slower than real time"));
    assert_true(hud_contains("FPS"));
    assert_true(a.accumulator == 0.0); // the backlog is dropped, not carried
    a.behind_until = 0.0;
    // ×1: half a step per call → one step every other call.
    int steps = 0;
    for (int i = 0; i < 10; ++i)
    {
        app_advance(&a, 0.5 * h);
        steps += a.steps_last_frame;
    }
    assert_int_equal(steps, 5);
    assert_false(a.behind);
    // ×4 and ×¼ scale simulated time against wall time.
    a.speed_index = APP_SPEED_COUNT - 1;
    app_advance(&a, 1.0001 * h);
    assert_int_equal(a.steps_last_frame, 4);
    a.speed_index = 0;
    a.accumulator = 0.0;
    steps = 0;
    for (int i = 0; i < 8; ++i)
    {
        app_advance(&a, 1.0001 * h);
        steps += a.steps_last_frame;
    }
    assert_int_equal(steps, 2);
    // Paused: wall time passes, the world does not.
    a.paused = true;
    int64_t s1 = cs_world_stats(a.world)->step;
    app_advance(&a, 5.0 * h);
    assert_int_equal(cs_world_stats(a.world)->step, s1);
    assert_true(s1 > s0);
    app_shutdown(&a);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_match_library_run),
        cmocka_unit_test(test_pause_step_and_switches_are_exact),
        cmocka_unit_test(test_toggles_and_speed),
        cmocka_unit_test(test_accumulator_speed_and_cap),
        cmocka_unit_test(test_relaxation_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
