// The viewer's pure parts, without a window: camera math, N/P scene order, script parsing, plot data
// generations, the help table covering every key the handler knows.
#include "viewer_test.h"

#include "app/scene_list.h"

static void test_view_round_trip_fit_zoom_pan(void** state)
{
    (void)state;
    render_view v;
    render_view_fit(&v, (cs_vec2){-3.0, 0.0}, (cs_vec2){3.0, 4.0}, 800, 400, 0.05);
    // Height-limited: 4 m into 90% of 400 px.
    assert_true(fabs(v.scale - 0.9 * 400.0 / 4.0) < 1e-9);
    double px, py;
    render_view_to_screen(&v, (cs_vec2){0.0, 2.0}, &px, &py);
    assert_true(fabs(px - 400.0) < 1e-9 && fabs(py - 200.0) < 1e-9);
    // y up in the world is y down on screen.
    render_view_to_screen(&v, (cs_vec2){0.0, 4.0}, &px, &py);
    assert_true(py < 200.0);
    cs_vec2 w = render_view_to_world(&v, 123.0, 321.0);
    render_view_to_screen(&v, w, &px, &py);
    assert_true(fabs(px - 123.0) < 1e-9 && fabs(py - 321.0) < 1e-9);
    // Zoom keeps the world point under the cursor.
    cs_vec2 before = render_view_to_world(&v, 700.0, 50.0);
    render_view_zoom_at(&v, 700.0, 50.0, 2.5);
    cs_vec2 after = render_view_to_world(&v, 700.0, 50.0);
    assert_true(fabs(before.x - after.x) < 1e-9 && fabs(before.y - after.y) < 1e-9);
    // Pan: content follows the drag.
    cs_vec2 p = render_view_to_world(&v, 10.0, 10.0);
    render_view_pan(&v, 30.0, -5.0);
    cs_vec2 q = render_view_to_world(&v, 40.0, 5.0);
    assert_true(fabs(p.x - q.x) < 1e-9 && fabs(p.y - q.y) < 1e-9);
}

static void test_scene_list_order_and_wrap(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && touch b.json a.json c.json notes.txt .hidden.json", dir);
    assert_int_equal(system(cmd), 0);
    char cur[8192], out[8192];
    snprintf(cur, sizeof cur, "%s/b.json", dir);
    assert_true(scene_list_neighbour(cur, "/nonexistent", +1, out, sizeof out));
    assert_non_null(strstr(out, "/c.json"));
    assert_true(scene_list_neighbour(cur, "/nonexistent", -1, out, sizeof out));
    assert_non_null(strstr(out, "/a.json"));
    snprintf(cur, sizeof cur, "%s/c.json", dir);
    assert_true(scene_list_neighbour(cur, "/nonexistent", +1, out, sizeof out));
    assert_non_null(strstr(out, "/a.json")); // wraps
    // A file no longer in the list still gets its alphabetical neighbours.
    snprintf(cur, sizeof cur, "%s/bb.json", dir);
    assert_true(scene_list_neighbour(cur, "/nonexistent", +1, out, sizeof out));
    assert_non_null(strstr(out, "/c.json"));
    assert_true(scene_list_neighbour(cur, "/nonexistent", -1, out, sizeof out));
    assert_non_null(strstr(out, "/b.json"));
    // No directory: the fallback (the real scenes/) is used.
    assert_true(
        scene_list_neighbour("/nonexistent/x.json", cs_test_source_path("scenes"), +1, out, sizeof out));
    assert_non_null(strstr(out, ".json"));
}

static void test_script_parsing(void** state)
{
    (void)state;
    const char* path = cs_test_write_temp(".txt", "# demo\n"
                                                  "at 200 key c   # contacts off\n"
                                                  "\n"
                                                  "at 120 solver amgs\n"
                                                  "at 120 alpha 0.2\n"
                                                  "at 10 key shift+tab\n"
                                                  "at 300 screenshot x.png\n"
                                                  "at 5 warmstart off\n"
                                                  "at 7 iterations 40\n");
    app_script s;
    char err[512] = "";
    assert_true(script_load(&s, path, err, sizeof err));
    assert_int_equal(s.count, 7);
    // Sorted by frame, file order within a frame.
    for (int i = 1; i < s.count; ++i)
    {
        assert_true(s.actions[i - 1].frame <= s.actions[i].frame);
    }
    assert_int_equal(s.actions[0].kind, SCRIPT_WARM_START);
    assert_true(s.actions[0].value == 0.0);
    assert_int_equal(s.actions[1].kind, SCRIPT_ITERATIONS);
    assert_int_equal(s.actions[2].kind, SCRIPT_KEY);
    assert_int_equal(s.actions[2].key, SDLK_TAB);
    assert_true((s.actions[2].mod & KMOD_SHIFT) != 0);
    assert_int_equal(s.actions[3].kind, SCRIPT_SOLVER);
    assert_int_equal(s.actions[4].kind, SCRIPT_ALPHA);
    assert_true(s.actions[4].value == 0.2);
    assert_int_equal(s.actions[5].key, SDLK_c);
    assert_string_equal(s.actions[6].text, "x.png");
    script_free(&s);

    path =
        cs_test_write_temp(".txt", "at 3 drag -1.5,2e-1,4,5,60\nat 2 spawn 1,-2.5\nat 4 load-state s.json\n");
    assert_true(script_load(&s, path, err, sizeof err));
    assert_int_equal(s.actions[0].kind, SCRIPT_SPAWN);
    assert_true(s.actions[0].values[0] == 1.0 && s.actions[0].values[1] == -2.5);
    assert_int_equal(s.actions[1].kind, SCRIPT_DRAG);
    double drag[5] = {-1.5, 0.2, 4.0, 5.0, 60.0};
    for (int k = 0; k < 5; ++k)
    {
        assert_true(s.actions[1].values[k] == drag[k]);
    }
    assert_int_equal(s.actions[2].kind, SCRIPT_LOAD_STATE);
    assert_string_equal(s.actions[2].text, "s.json");
    script_free(&s);

    struct
    {
        const char* text;
        const char* expect;
    } bad[] = {
        {"at 1 solver nosuch\n", ":1: unknown solver 'nosuch'"},
        {"\nat -3 key c\n", ":2: frame '-3'"},
        {"at 1 alpha 0\n", ":1: bad alpha"},
        {"at 1 alpha 2.5\n", ":1: bad alpha"},
        {"at 1 iterations 1.5\n", ":1: bad iterations"},
        {"at 1 key nosuchkey\n", ":1: unknown key name"},
        {"at 1 jump\n", ":1: unknown action 'jump'"},
        {"at 1 pause now\n", ":1: 'pause' takes no argument"},
        {"at 1 screenshot\n", ":1: 'screenshot' needs an argument"},
        {"key c\n", ":1: expected 'at FRAME"},
        {"at 1 warmstart maybe\n", ":1: warmstart takes on or off"},
        {"at 1 spawn 1\n", ":1: spawn takes X,Y"},
        {"at 1 spawn 1,nan\n", ":1: spawn takes X,Y"},
        {"at 1 spawn 1,2,3\n", ":1: spawn takes X,Y"},
        {"at 1 drag 0,0,1,1,0\n",
         ":1: drag takes X0,Y0,X1,Y1,FRAMES (finite numbers; FRAMES an integer >= 1)"},
        {"at 1 drag 0,0,1,1,2.5\n", ":1: drag takes X0,Y0,X1,Y1,FRAMES"},
        {"at 1 save-state\n", ":1: 'save-state' needs an argument"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    {
        const char* p = cs_test_write_temp(".txt", bad[i].text);
        err[0] = '\0';
        assert_false(script_load(&s, p, err, sizeof err));
        if (strstr(err, bad[i].expect) == NULL || strstr(err, p) == NULL)
        {
            fail_msg("script '%s': got '%s', expected '%s'", bad[i].text, err, bad[i].expect);
        }
    }
    assert_false(script_load(&s, "/nonexistent/script.txt", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/script.txt"));
}

// A step's numbers as the plot records them.
static void record(app_plot* p, int64_t step, double res, const double* hist, int n)
{
    cs_step_stats s = {
        .step = step, .res_lcp = res, .kinetic_energy = 2.0 * res, .max_penetration = 3.0 * res};
    plot_data_record(p, &s, hist, n);
}

static void test_plot_generations(void** state)
{
    (void)state;
    static app_plot p;
    plot_data_clear(&p, "pgs k=10");
    double hist[11];
    for (int i = 0; i < 11; ++i)
    {
        hist[i] = pow(10.0, -i * 0.1);
    }
    for (int s = 1; s <= 5; ++s)
    {
        record(&p, s, 1.0 / s, hist, 11);
    }
    render_plot_desc per_step, per_iter;
    plot_data_describe(&p, PLOT_RES, &per_step, &per_iter);
    assert_int_equal(per_step.series_count, 1);
    assert_int_equal(per_step.series[0].count, 5);
    assert_int_equal(per_iter.series_count, 1);
    assert_int_equal(per_iter.series[0].count, 11);
    assert_true(per_step.log_y && per_iter.log_y);

    // A switch keeps the previous setting's curves, labelled and coloured differently.
    plot_data_new_setting(&p, "amgs α=0.2 k=10");
    for (int s = 6; s <= 8; ++s)
    {
        record(&p, s, 0.1 / s, hist, 6);
    }
    plot_data_describe(&p, PLOT_RES, &per_step, &per_iter);
    assert_int_equal(per_step.series_count, 2);
    assert_int_equal(per_step.series[0].count, 5);
    assert_int_equal(per_step.series[1].count, 3);
    assert_true(per_step.series[0].rgba != per_step.series[1].rgba);
    assert_string_equal(per_step.series[0].label, "pgs k=10");
    assert_string_equal(per_step.series[1].label, "amgs α=0.2 k=10");
    assert_int_equal(per_iter.series_count, 2);
    assert_int_equal(per_iter.series[0].count, 11); // previous: pgs's last step
    assert_int_equal(per_iter.series[1].count, 6);
    assert_true(per_step.series[1].x[0] == 6.0);

    // The ring keeps the last PLOT_STEPS steps.
    for (int s = 9; s < 9 + 2 * PLOT_STEPS; ++s)
    {
        record(&p, s, 1.0, NULL, 0);
    }
    plot_data_describe(&p, PLOT_RES, &per_step, &per_iter);
    assert_int_equal(per_step.series_count, 1);
    assert_int_equal(per_step.series[0].count, PLOT_STEPS);
    assert_true(per_step.series[0].x[PLOT_STEPS - 1] == 8 + 2 * PLOT_STEPS);
    // Energy and penetration are the same steps' other numbers, on linear axes.
    plot_data_describe(&p, PLOT_ENERGY, &per_step, &per_iter);
    assert_false(per_step.log_y);
    assert_true(per_step.series[0].y[0] == 2.0);
    plot_data_describe(&p, PLOT_PENETRATION, &per_step, &per_iter);
    assert_true(per_step.series[0].y[0] == 3.0);
    plot_data_free(&p);
}

// Every key in the help table does something: pressing it changes the model (or the world/view).
static void test_help_lists_keys(void** state)
{
    (void)state;
    int count;
    const app_key_help* keys = app_key_help_table(&count);
    assert_true(count >= 20);
    const char* required[] = {"Tab", "+",     "[",          "W",         "Space",       ".",  "R", "N",
                              "C",   "V",     "I",          "G",         "F12",         "F9", "L", "Esc",
                              "H",   "wheel", "right drag", "left drag", "Shift+click", ",",  "F5"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; ++i)
    {
        bool found = false;
        for (int k = 0; k < count && !found; ++k)
        {
            found = strstr(keys[k].keys, required[i]) != NULL;
        }
        if (!found)
        {
            fail_msg("help table lacks '%s'", required[i]);
        }
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_round_trip_fit_zoom_pan),
        cmocka_unit_test(test_scene_list_order_and_wrap),
        cmocka_unit_test(test_script_parsing),
        cmocka_unit_test(test_plot_generations),
        cmocka_unit_test(test_help_lists_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
