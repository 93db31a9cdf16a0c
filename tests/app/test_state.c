// Snapshots in the viewer: F5 saves and F8 loads (and the panel's buttons, and a script's save-state /
// load-state); a bad snapshot is shown and the last good world stays; `circlesim --state-in F --compare
// pgs,amgs` forks a duel whose panes are bit for bit `circlesim-cli run --state-in F --solver S`; the
// script verbs spawn and drag do what Shift+click and a left drag do.
#include "viewer_test.h"

#include "engine_world.h"

#include "app/panel.h"

static app a;

static char* slurp(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        return NULL;
    }
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

static void test_f5_saves_f8_loads(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    viewer_start(&a, "scenes/stacking.json", 160, 120, dir);
    viewer_frames(&a, 30);
    push_key(SDLK_F5, KMOD_NONE);
    viewer_frames(&a, 1); // the key is handled before the frame's step: saved at step 30
    uint64_t saved = 0;
    {
        char path[8192];
        snprintf(path, sizeof path, "%s/snapshot.json", dir);
        cs_error err = {0};
        cs_world* w = cs_world_load_state(path, &err);
        if (w == NULL)
        {
            fail_msg("%s", err.message);
        }
        assert_int_equal(cs_world_stats(w)->step, 30);
        saved = cs_world_hash(w);
        cs_world_destroy(w);
    }
    viewer_frames(&a, 20);
    uint64_t after = cs_world_hash(a.world); // step 51
    push_key(SDLK_F8, KMOD_NONE);
    app_frame(&a); // loaded (step 30), then one step
    assert_int_equal(cs_world_stats(a.world)->step, 31);
    viewer_frames(&a, 20);
    assert_int_equal(cs_world_hash(a.world), after); // the same 20 steps again, bit for bit
    assert_true(saved != 0);
    // R goes back to the snapshot, not to the scene's start.
    push_key(SDLK_r, KMOD_NONE);
    app_frame(&a);
    assert_int_equal(cs_world_stats(a.world)->step, 31);
    app_shutdown(&a);
}

// A snapshot that is not one (garbage, cut short, a scene file): the message says where, the world
// stays the last good one and keeps stepping.
static void test_bad_snapshot_keeps_the_world(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    viewer_start(&a, "scenes/stacking.json", 160, 120, dir);
    viewer_frames(&a, 10);
    push_key(SDLK_F5, KMOD_NONE);
    viewer_frames(&a, 1);
    char path[8192];
    snprintf(path, sizeof path, "%s/snapshot.json", dir);
    char* good = slurp(path);
    assert_non_null(good);
    size_t half = strlen(good) / 2;
    const char* cases[3][2] = {{"not json at all", "snapshot.json:1:1: invalid JSON"},
                               {NULL, "invalid JSON"},
                               {"{\"name\": \"a scene\", \"bodies\": []}", "name: unknown key"}};
    char* cut = strndup(good, half);
    assert_non_null(cut);
    cases[1][0] = cut;
    for (int k = 0; k < 3; ++k)
    {
        FILE* f = fopen(path, "w");
        assert_non_null(f);
        fputs(cases[k][0], f);
        fclose(f);
        cs_world* before = a.world;
        int64_t step = cs_world_stats(a.world)->step;
        push_key(SDLK_F8, KMOD_NONE);
        app_frame(&a);
        assert_ptr_equal(a.world, before);
        assert_int_equal(cs_world_stats(a.world)->step, step + 1);
        if (strstr(a.message, cases[k][1]) == NULL)
        {
            fail_msg("case %d: message '%s' lacks '%s'", k, a.message, cases[k][1]);
        }
        assert_string_equal(a.error, ""); // the world is fine: no error screen
    }
    free(cut);
    app_shutdown(&a);
    // At start-up there is no last good world: the error is the window's message and the viewer runs.
    app_config c = {0};
    c.headless = true;
    c.state_in = path;
    c.width = 160;
    c.height = 120;
    c.alpha = NAN;
    c.capture_dir = dir;
    char err[CS_ERROR_MAX] = "";
    assert_true(app_init(&a, &c, err, sizeof err));
    viewer_frames(&a, 3);
    assert_null(a.world);
    assert_non_null(strstr(a.error, "snapshot.json"));
    app_shutdown(&a);
}

static void click(const char* label)
{
    double x = 0.0, y = 0.0;
    if (!panel_find(&a, label, &x, &y, NULL))
    {
        fail_msg("no panel widget '%s'", label);
    }
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, (int)(x / a.pixel_ratio),
                      (int)(y / a.pixel_ratio));
    push_mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, (int)(x / a.pixel_ratio), (int)(y / a.pixel_ratio));
    app_frame(&a);
}

static void test_panel_buttons(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    viewer_start(&a, "scenes/stacking.json", 1100, 1100, dir);
    a.show_panel = true;
    app_request_fit(&a);
    viewer_frames(&a, 12);
    click("save state");
    int64_t saved = cs_world_stats(a.world)->step - 1;
    viewer_frames(&a, 5);
    click("load state");
    assert_int_equal(cs_world_stats(a.world)->step, saved + 1);
    app_shutdown(&a);
}

static void write_script(const char* path, const char* text)
{
    FILE* f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

// spawn adds a circle where it says (in every pane of a duel); drag pulls the circle it starts on toward
// its end point; save-state / load-state round-trip.
static void test_script_spawn_drag_state(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    char script[4096], snap[4096], text[10000];
    snprintf(script, sizeof script, "%s/s.txt", dir);
    snprintf(snap, sizeof snap, "%s/scripted.json", dir);
    snprintf(text, sizeof text,
             "at 0 compare pgs,amgs\nat 1 spawn 6,5\nat 2 spawn 8,0.5\nat 3 drag 8,0.5,8,3,60\n"
             "at 70 save-state %s\nat 80 load-state %s\n",
             snap, snap);
    write_script(script, text);
    viewer_start_script(&a, "scenes/stacking.json", script, 160, 120, 0.0, dir);
    int bodies = cs_world_body_count(a.world);
    viewer_frames(&a, 2);
    assert_int_equal(cs_world_body_count(a.world), bodies + 1);
    assert_int_equal(cs_world_body_count(app_pane_world(&a, 1)), bodies + 1);
    int spawned = cs_world_body_id(a.world, bodies);
    cs_body_state b = cs_world_body(a.world, spawned);
    assert_near(b.position.x, 6.0, 1e-9);
    viewer_frames(&a, 2);
    int dragged = cs_world_body_id(a.world, bodies + 1);
    assert_int_equal(a.grab_body, dragged);
    viewer_frames(&a, 60);
    // Pulled up by the spring toward the moving grab point (on the ground it would rest at 0.5).
    assert_true(cs_world_body(a.world, dragged).position.y > 1.5);
    assert_int_equal(a.grab_body, -1); // let go after 60 frames
    viewer_frames(&a, 17);
    // Loaded at the start of frame 80 (the state saved at the start of frame 70, step 70), then stepped;
    // the duel goes on from it.
    assert_int_equal(cs_world_stats(a.world)->step, 71);
    assert_int_equal(a.pane_count, 2);
    assert_int_equal(cs_world_stats(app_pane_world(&a, 1))->step, 71);
    app_shutdown(&a);
    // A bad verb is a located script error.
    write_script(script, "at 5 drag 1,2,3\n");
    app_config c = {0};
    c.headless = true;
    c.script = script;
    c.alpha = NAN;
    char err[CS_ERROR_MAX] = "";
    assert_false(app_init(&a, &c, err, sizeof err));
    assert_non_null(strstr(err, "s.txt:1: drag takes X0,Y0,X1,Y1,FRAMES"));
}

// The engine world at step 100 (removed slots, a dead joint, sleeping islands, static, kinematic and
// sensor circles) saved, then forked into a pgs-vs-amgs duel by the viewer binary: each pane's hash after
// 40 frames is the CLI's from the same snapshot with that solver.
static unsigned long long hash_after(const char* text, const char* marker)
{
    const char* at = strstr(text, marker);
    if (at == NULL)
    {
        fail_msg("no '%s' in '%s'", marker, text);
    }
    const char* h = strstr(at, "hash ");
    assert_non_null(h);
    return strtoull(h + 5, NULL, 16);
}

static void test_fork_from_snapshot_equals_cli(void** state)
{
    (void)state;
    cs_world* w = cs_test_engine_world();
    for (int s = 0; s < 100; ++s)
    {
        cs_test_engine_step(w);
    }
    assert_true(cs_world_body_asleep(w, 0));
    const char* snap = cs_test_temp_path(".json");
    cs_error err = {0};
    assert_int_equal(cs_world_save_state(w, snap, &err), CS_OK);
    cs_world_destroy(w);
    char cmd[8192];
    static char out[1 << 16], cli[8192];
    snprintf(cmd, sizeof cmd,
             "SDL_VIDEODRIVER=offscreen %s/circlesim --headless --size 160x120 --frames 40 --state-in %s "
             "--compare pgs,amgs",
             CS_BINARY_DIR, snap);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    const char* solvers[2] = {"pgs", "amgs"};
    const char* markers[2] = {"circlesim: scene", "pane 2 solver amgs"};
    for (int k = 0; k < 2; ++k)
    {
        snprintf(cmd, sizeof cmd,
                 "%s/circlesim-cli run --state-in %s --steps 40 --solver %s | grep 'state hash'",
                 CS_BINARY_DIR, snap, solvers[k]);
        assert_int_equal(cs_test_run(cmd, cli, sizeof cli), 0);
        unsigned long long expected = strtoull(strstr(cli, "state hash") + strlen("state hash"), NULL, 16);
        if (hash_after(out, markers[k]) != expected)
        {
            fail_msg("pane %d (%s): viewer '%s', CLI %016llx", k + 1, solvers[k], out, expected);
        }
    }
    assert_non_null(strstr(out, "steps 140"));
    // The panes really differ (else the comparison proves little).
    assert_true(hash_after(out, markers[0]) != hash_after(out, markers[1]));
    // --state-in replaces SCENE.
    snprintf(cmd, sizeof cmd, "%s/circlesim --headless --state-in %s scenes/pool1.json", CS_BINARY_DIR, snap);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "--state-in replaces SCENE"));
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f5_saves_f8_loads),
        cmocka_unit_test(test_bad_snapshot_keeps_the_world),
        cmocka_unit_test(test_panel_buttons),
        cmocka_unit_test(test_script_spawn_drag_state),
        cmocka_unit_test(test_fork_from_snapshot_equals_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
