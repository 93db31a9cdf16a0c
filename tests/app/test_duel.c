// Duels: --compare and the D key fork the world into panes that step in lockstep. Each pane's world is
// bit for bit what circlesim-cli run (or a library run switched at the same step) gives with that pane's
// solver; the screenshot shows both panes with their solvers' names; Q moves the keys between panes.
#include "viewer_test.h"

#include "app/duel.h"
#include "app/plots.h"

static app a;

#define VIEWER CS_BINARY_DIR "/circlesim"

static unsigned long long cli_hash(const char* scene, int steps, const char* solver)
{
    char cmd[8192], out[8192];
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli run '%s' --steps %d --solver %s | grep 'state hash'",
             CS_BINARY_DIR, cs_test_source_path(scene), steps, solver);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    const char* h = strstr(out, "state hash");
    assert_non_null(h);
    return strtoull(h + strlen("state hash"), NULL, 16);
}

static void start_duel(const char* scene, const char* list, int w, int h)
{
    viewer_start(&a, scene, w, h, fresh_dir());
    int solvers[APP_MAX_PANES], count = 0;
    char err[CS_ERROR_MAX];
    assert_true(duel_parse(list, solvers, &count, err, sizeof err));
    assert_true(duel_start(&a, solvers, count));
}

// From the scene's first step: each pane equals the CLI run with its solver.
static void test_compare_panes_equal_cli_runs(void** state)
{
    (void)state;
    start_duel("scenes/pool1.json", "pgs,amgs", 640, 400);
    assert_int_equal(a.pane_count, 2);
    viewer_frames(&a, 45);
    assert_int_equal(cs_world_stats(app_pane_world(&a, 1))->step, 45);
    assert_int_equal(cs_world_hash(app_pane_world(&a, 0)), cli_hash("scenes/pool1.json", 45, "pgs"));
    assert_int_equal(cs_world_hash(app_pane_world(&a, 1)), cli_hash("scenes/pool1.json", 45, "amgs"));
    // They did diverge, and the readout says so.
    double dx = 0.0, dv = 0.0;
    duel_difference(&a, &dx, &dv);
    assert_true(dx > 0.0 && dv > 0.0);
    app_shutdown(&a);
}

// Forked mid-run with the D key: pane 1 continues from pane 0's state and warm start, which is what a
// library run switched to that solver at the same step gives.
static void test_d_key_forks_mid_run(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/stacking.json", 400, 400, fresh_dir());
    viewer_frames(&a, 30);
    int first = a.solver;
    push_key(SDLK_d, KMOD_NONE);
    viewer_frames(&a, 25);
    assert_int_equal(a.pane_count, 2);
    int second = app_pane_solver(&a, 1);
    assert_int_equal(second, (first + 1) % cs_solver_count());

    for (int pane = 0; pane < 2; ++pane)
    {
        cs_error err = {0};
        cs_world* ref = cs_scene_load(cs_test_source_path("scenes/stacking.json"), NULL, &err);
        assert_non_null(ref);
        for (int i = 0; i < 30; ++i)
        {
            cs_world_step(ref);
        }
        cs_world_set_solver(ref, pane == 0 ? first : second);
        for (int i = 0; i < 25; ++i)
        {
            cs_world_step(ref);
        }
        assert_int_equal(cs_world_hash(app_pane_world(&a, pane)), cs_world_hash(ref));
        cs_world_destroy(ref);
    }
    // Q: the keys now change pane 2 only.
    push_key(SDLK_q, KMOD_NONE);
    push_key(SDLK_w, KMOD_NONE);
    app_frame(&a);
    assert_int_equal(a.focus, 1);
    assert_false(app_pane_params(&a, 1)->warm_start);
    assert_true(app_pane_params(&a, 0)->warm_start);
    // D again ends the duel.
    push_key(SDLK_d, KMOD_NONE);
    app_frame(&a);
    assert_int_equal(a.pane_count, 1);
    app_shutdown(&a);
}

static int count_color(const unsigned char* rgba, const app* v, layout_rect r, uint32_t color)
{
    int n = 0;
    for (int y = (int)r.y; y < (int)(r.y + r.h); ++y)
    {
        for (int x = (int)r.x; x < (int)(r.x + r.w); ++x)
        {
            const unsigned char* c = pixel_at(v, rgba, x, y);
            n += c != NULL && abs(c[0] - (int)(color >> 24)) < 12 &&
                 abs(c[1] - (int)((color >> 16) & 255)) < 12 && abs(c[2] - (int)((color >> 8) & 255)) < 40;
        }
    }
    return n;
}

// The screenshot: two panes, each with circles and contacts, each titled in its colour with its solver.
static void test_duel_screenshot_shows_both_panes(void** state)
{
    (void)state;
    start_duel("scenes/pool1.json", "pgs,amgs", 900, 500);
    viewer_frames(&a, 10);
    unsigned char* rgba = viewer_pixels(&a);
    for (int i = 0; i < 2; ++i)
    {
        layout_rect r = layout_pane_rect(&a, i);
        assert_true(r.w > 100 && r.h > 100);
        char label[PLOT_LABEL_MAX];
        app_pane_label(&a, i, label, sizeof label);
        assert_non_null(strstr(label, cs_solver_at(app_pane_solver(&a, i))->name));
        // The title text in the pane's colour along its bottom edge (the HUD and plots are elsewhere), in
        // its box (beside it hit events may flash).
        char drawn[PLOT_LABEL_MAX + 16];
        snprintf(drawn, sizeof drawn, "%d%s %s", i + 1, i == a.focus ? "*" : "", label);
        float pad = 6.0f * a.ui_scale, lh = render_ui_line_height(a.renderer);
        float box = render_ui_text_width(a.renderer, drawn) + 3.0f * pad;
        layout_rect title = {r.x, r.y + r.h - lh - 2.0f * pad, box < r.w ? box : r.w, lh + pad};
        int colored = count_color(rgba, &a, title, plots_pane_color(i));
        int other = count_color(rgba, &a, title, plots_pane_color(1 - i));
        if (colored < 8 || other > colored / 2)
        {
            fail_msg("pane %d has no title in its colour (%d pixels, %d of the other pane's)", i + 1, colored,
                     other);
        }
        // Contacts drawn inside the pane.
        int red = 0;
        for (int y = (int)r.y; y < (int)(r.y + r.h); ++y)
        {
            for (int x = (int)r.x; x < (int)(r.x + r.w); ++x)
            {
                red += is_red(pixel_at(&a, rgba, x, y));
            }
        }
        assert_true(red > 100);
    }
    free(rgba);
    app_shutdown(&a);
}

static void test_compare_option_errors(void** state)
{
    (void)state;
    char cmd[8192], out[8192];
    const char* bad[] = {"pgs", "pgs,nosuch", "pgs,amgs,pgs,amgs,pgs"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    {
        snprintf(cmd, sizeof cmd, "%s --headless --compare %s stacking", VIEWER, bad[i]);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
        assert_non_null(strstr(out, "--compare"));
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_panes_equal_cli_runs),
        cmocka_unit_test(test_d_key_forks_mid_run),
        cmocka_unit_test(test_duel_screenshot_shows_both_panes),
        cmocka_unit_test(test_compare_option_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
