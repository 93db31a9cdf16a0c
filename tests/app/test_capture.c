// Capture: F12 writes a PNG of the window that decodes to exactly the rendered frame (flipped the right
// way up), F9 and --record write MP4s with one video frame per rendered frame (ffprobe counts them),
// without ffmpeg a PNG sequence; L dumps the step's LCP; a bad scene at start-up is shown, not fatal;
// a script reproduces a mid-run solver switch bit for bit.
#include <stb_image.h>
#include <unistd.h>

#include "viewer_test.h"

static app a;

#define VIEWER CS_BINARY_DIR "/circlesim"

static bool have_ffmpeg(void)
{
    char out[256];
    bool ok = cs_test_run("command -v ffmpeg && command -v ffprobe", out, sizeof out) == 0;
    if (!ok)
    {
        printf("SKIPPED: ffmpeg/ffprobe not installed, MP4 capture not tested\n");
    }
    return ok;
}

// "width,height,pix_fmt,frames" of the first video stream.
static void probe_video(const char* path, int* w, int* h, char* pix_fmt, int* frames)
{
    char cmd[8192], out[1024];
    snprintf(cmd, sizeof cmd,
             "ffprobe -v error -count_frames -select_streams v:0 "
             "-show_entries stream=width,height,pix_fmt,nb_read_frames -of csv=p=0 '%s'",
             path);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    char fmt[64] = "";
    if (sscanf(out, "%d,%d,%63[^,],%d", w, h, fmt, frames) != 4)
    {
        fail_msg("unexpected ffprobe output: %s", out);
    }
    strcpy(pix_fmt, fmt);
}

static void test_f12_screenshot_is_the_frame(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    viewer_start(&a, "scenes/stacking.json", 360, 420, dir);
    viewer_frames(&a, 40);
    push_key(SDLK_F12, KMOD_NONE);
    app_frame(&a);
    unsigned char* frame = viewer_pixels(&a);
    char path[8192];
    single_file(dir, ".png", path, sizeof path);
    assert_non_null(strstr(path, "/stacking-")); // captures/<scene>-<timestamp>.png

    int w = 0, h = 0, n = 0;
    unsigned char* png = stbi_load(path, &w, &h, &n, 4);
    assert_non_null(png);
    assert_int_equal(w, a.fb_w);
    assert_int_equal(h, a.fb_h);
    // PNG rows run top-down, GL rows bottom-up: row y of the PNG is row h-1-y of the frame.
    for (int y = 0; y < h; ++y)
    {
        assert_memory_equal(png + (size_t)y * (size_t)w * 4, frame + (size_t)(h - 1 - y) * (size_t)w * 4,
                            (size_t)w * 4);
    }
    // And it is the right way up: a contact point's screen position (y down) is red in the PNG.
    cs_contact_info c = cs_world_contact(a.world, 0);
    double px, py;
    render_view_to_screen(&a.view, c.point, &px, &py);
    bool red = false;
    for (int dy = -1; dy <= 1; ++dy)
    {
        for (int dx = -1; dx <= 1; ++dx)
        {
            int x = (int)px + dx, y = (int)py + dy;
            red = red || is_red(png + ((size_t)y * (size_t)w + (size_t)x) * 4);
        }
    }
    assert_true(red);
    stbi_image_free(png);
    free(frame);

    // L writes the LCP of the step just taken; it reads back with the same rows.
    push_key(SDLK_l, KMOD_NONE);
    app_frame(&a);
    single_file(dir, ".lcp", path, sizeof path);
    cs_lcp lcp = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_read(path, &lcp, &err), CS_OK);
    // The file is from the step before this frame's: the frame handled L, then stepped.
    assert_true(lcp.row_count > 0);
    assert_int_equal(lcp.body_count, cs_world_body_count(a.world));
    cs_lcp_free(&lcp);
    app_shutdown(&a);
}

static void test_f9_records_every_frame(void** state)
{
    (void)state;
    if (!have_ffmpeg())
    {
        skip();
    }
    const char* dir = fresh_dir();
    viewer_start(&a, "scenes/stacking.json", 320, 240, dir);
    push_key(SDLK_F9, KMOD_NONE);
    viewer_frames(&a, 30);
    assert_true(a.capture.recording);
    push_key(SDLK_F9, KMOD_NONE);
    app_frame(&a);
    assert_false(a.capture.recording);
    assert_int_equal(a.exit_status, 0);
    char path[8192];
    single_file(dir, ".mp4", path, sizeof path);
    int w, h, frames;
    char fmt[64];
    probe_video(path, &w, &h, fmt, &frames);
    assert_int_equal(w, 320);
    assert_int_equal(h, 240);
    assert_string_equal(fmt, "yuv420p");
    assert_int_equal(frames, 30);
    app_shutdown(&a);
}

// The video runs at the simulation's rate: one video frame per step at 1/h frames per second, so paused
// frames add nothing and a frame that took three steps adds three.
static void test_video_runs_at_the_simulation_rate(void** state)
{
    (void)state;
    if (!have_ffmpeg())
    {
        skip();
    }
    const char* dir = fresh_dir();
    viewer_start(&a, "scenes/stacking.json", 320, 240, dir);
    int64_t first = cs_world_stats(a.world)->step;
    push_key(SDLK_F9, KMOD_NONE);
    viewer_frames(&a, 20);
    a.paused = true;
    viewer_frames(&a, 15);
    a.single_steps = 3;
    app_frame(&a);
    assert_int_equal(a.steps_last_frame, 3);
    push_key(SDLK_F9, KMOD_NONE);
    app_frame(&a);
    int64_t steps = cs_world_stats(a.world)->step - first;
    char path[8192], cmd[9000], rate[256];
    single_file(dir, ".mp4", path, sizeof path);
    int w, h, frames;
    char fmt[64];
    probe_video(path, &w, &h, fmt, &frames);
    assert_int_equal(frames, steps);
    assert_true(frames < 20 + 15 + 1 + 3); // fewer than the frames drawn
    snprintf(cmd, sizeof cmd,
             "ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 '%s'", path);
    assert_int_equal(cs_test_run(cmd, rate, sizeof rate), 0);
    char want[64];
    snprintf(want, sizeof want, "%d/1", (int)lround(1.0 / cs_world_get_def(a.world)->time_step));
    assert_non_null(strstr(rate, want));
    app_shutdown(&a);
}

static void test_record_option_60_frames(void** state)
{
    (void)state;
    if (!have_ffmpeg())
    {
        skip();
    }
    // An odd size on purpose: yuv420p needs even dimensions, the viewer crops one pixel.
    const char* mp4 = cs_test_temp_path(".mp4");
    char cmd[8192], out[8192];
    snprintf(cmd, sizeof cmd, "%s --headless --frames 60 --size 321x241 --record '%s' stacking", VIEWER, mp4);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    int w, h, frames;
    char fmt[64];
    probe_video(mp4, &w, &h, fmt, &frames);
    assert_int_equal(w, 320);
    assert_int_equal(h, 240);
    assert_string_equal(fmt, "yuv420p");
    assert_int_equal(frames, 60);
}

static void test_record_without_ffmpeg_writes_pngs(void** state)
{
    (void)state;
    const char* mp4 = cs_test_temp_path(".mp4");
    char cmd[8192], out[8192];
    snprintf(cmd, sizeof cmd,
             "CIRCLESIM_FFMPEG= %s --headless --frames 12 --size 160x120 --record '%s' stacking", VIEWER,
             mp4);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "ffmpeg not found"));
    char dir[8192];
    snprintf(dir, sizeof dir, "%.*s-frames", (int)(strlen(mp4) - 4), mp4);
    for (int i = 1; i <= 12; ++i)
    {
        char png[8300];
        snprintf(png, sizeof png, "%s/frame-%06d.png", dir, i);
        int w = 0, h = 0, n = 0;
        unsigned char* img = stbi_load(png, &w, &h, &n, 4);
        if (img == NULL)
        {
            fail_msg("missing or unreadable %s", png);
        }
        assert_int_equal(w, 160);
        assert_int_equal(h, 120);
        stbi_image_free(img);
    }
    char png[8300];
    snprintf(png, sizeof png, "%s/frame-%06d.png", dir, 13);
    assert_int_not_equal(access(png, F_OK), 0);
}

// A broken scene: the window opens, the error line is shown (white on a dark red banner), the run ends
// normally after its frames.
static void test_bad_scene_at_startup(void** state)
{
    (void)state;
    const char* bad =
        cs_test_write_temp(".json", "{\n  \"name\": \"bad\",\n  \"bodies\": [ { \"radius\": -1 } ]\n}\n");
    const char* shot = cs_test_temp_path(".png");
    char cmd[8192], out[8192];
    snprintf(cmd, sizeof cmd, "%s --headless --frames 5 --size 400x300 --screenshot '%s' '%s'", VIEWER, shot,
             bad);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, bad)); // the error line names the file
    assert_non_null(strstr(out, "(scene error)"));
    int w = 0, h = 0, n = 0;
    unsigned char* img = stbi_load(shot, &w, &h, &n, 4);
    assert_non_null(img);
    assert_int_equal(w, 400);
    int banner = 0;
    for (int i = 0; i < w * h; ++i)
    {
        const unsigned char* c = img + 4 * i;
        banner += c[0] > 140 && c[0] < 200 && c[1] < 50 && c[2] < 50;
    }
    assert_true(banner > 1000);
    stbi_image_free(img);

    // Missing file and not-JSON-at-all behave the same way.
    snprintf(cmd, sizeof cmd, "%s --headless --frames 3 --size 200x100 /nonexistent/scene.json", VIEWER);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "/nonexistent/scene.json"));
    const char* junk = cs_test_write_temp(".json", "\x01\x02 not json {{{");
    snprintf(cmd, sizeof cmd, "%s --headless --frames 3 --size 200x100 '%s'", VIEWER, junk);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
}

// N/P/R onto a broken scene keep the last good world running and show the error.
// No display and no explicit driver: SDL would fall back to a driver that draws nowhere; the viewer must say
// so and exit instead of running an invisible window forever.
static void test_no_display_is_a_clear_error(void** state)
{
    (void)state;
    char out[4096];
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "env -u SDL_VIDEODRIVER -u DISPLAY -u WAYLAND_DISPLAY timeout 20 %s %s", VIEWER,
             cs_test_source_path("scenes/stacking.json"));
    int code = cs_test_run(cmd, out, sizeof out);
    if (code != 1 || strstr(out, "no display found") == NULL)
    {
        fail_msg("exit %d, output: %s", code, out);
    }
}

static void test_bad_scene_keeps_last_good_world(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/a.json' && printf '{ \"walls\": 3 }' > '%s/b.json'",
             cs_test_source_path("scenes/stacking.json"), dir, dir);
    assert_int_equal(system(cmd), 0);
    char good[8192];
    snprintf(good, sizeof good, "%s/a.json", dir);
    viewer_start(&a, good, 200, 200, dir);
    viewer_frames(&a, 10);
    cs_world* world = a.world;
    assert_string_equal(a.error, "");
    push_key(SDLK_n, KMOD_NONE);
    app_frame(&a);
    assert_true(a.world == world);
    assert_non_null(strstr(a.error, "b.json"));
    assert_int_equal(cs_world_stats(a.world)->step, 11); // still stepping the good world
    push_key(SDLK_r, KMOD_NONE); // reset retries b.json: still an error, still the good world
    app_frame(&a);
    assert_true(a.world == world);
    push_key(SDLK_n, KMOD_NONE); // wraps around to a.json: loads, error cleared
    app_frame(&a);
    assert_string_equal(a.error, "");
    assert_int_equal(cs_world_stats(a.world)->step, 1);
    app_shutdown(&a);
}

// A script switching PGS → AMGS α 0.3 mid-run gives the hash of the same library sequence.
static void test_script_reproduces_library_run(void** state)
{
    (void)state;
    const char* script = cs_test_write_temp(".txt", "# switch mid-run\n"
                                                    "at 50 solver amgs\n"
                                                    "at 50 alpha 0.3\n"
                                                    "at 80 iterations 20\n"
                                                    "at 90 key w\n");
    char cmd[8192], out[8192];
    snprintf(cmd, sizeof cmd, "%s --headless --frames 120 --size 160x160 --script '%s' pool1", VIEWER,
             script);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    const char* at = strstr(out, " hash ");
    assert_non_null(at);
    unsigned long long viewer_hash = strtoull(at + 6, NULL, 16);

    cs_error err = {0};
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), NULL, &err);
    assert_non_null(w);
    cs_solver_params p = *cs_world_solver_params(w);
    for (int step = 0; step < 120; ++step)
    {
        if (step == 50)
        {
            cs_world_set_solver(w, cs_solver_find("amgs"));
            p.alpha = 0.3;
        }
        if (step == 80)
        {
            p.iterations = 20;
        }
        if (step == 90)
        {
            p.warm_start = !p.warm_start;
        }
        cs_world_set_solver_params(w, &p);
        cs_world_step(w);
    }
    assert_int_equal(viewer_hash, cs_world_hash(w));
    assert_non_null(strstr(out, "solver amgs"));
    assert_non_null(strstr(out, "iterations 20"));
    cs_world_destroy(w);

    // Bad scripts are rejected before a window opens, naming FILE:LINE.
    const char* bad = cs_test_write_temp(".txt", "at 5 solver amgs\nat x key c\n");
    snprintf(cmd, sizeof cmd, "%s --headless --frames 10 --script '%s' stacking", VIEWER, bad);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 1);
    char expect[8192];
    snprintf(expect, sizeof expect, "%s:2:", bad);
    assert_non_null(strstr(out, expect));
}

// The viewer's --solver/--alpha/--iterations runs the same physics as circlesim-cli run with the same
// options: same final state hash, whatever the viewer draws on the way.
static void test_options_match_cli_run(void** state)
{
    (void)state;
    char cmd[8192], out[8192], cli[8192];
    snprintf(cmd, sizeof cmd,
             "%s --headless --frames 90 --size 120x120 --solver amgs --alpha 0.3 --iterations 15 stacking",
             VIEWER);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    snprintf(
        cmd, sizeof cmd,
        "%s/circlesim-cli run '%s' --steps 90 --solver amgs --alpha 0.3 --iterations 15 | grep 'state hash'",
        CS_BINARY_DIR, cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, cli, sizeof cli), 0);
    const char* vh = strstr(out, " hash ");
    const char* ch = strstr(cli, "state hash");
    assert_non_null(vh);
    assert_non_null(ch);
    unsigned long long viewer_hash = strtoull(vh + 6, NULL, 16);
    unsigned long long cli_hash = strtoull(ch + strlen("state hash"), NULL, 16);
    assert_true(viewer_hash != 0);
    assert_int_equal(viewer_hash, cli_hash);

    // Bad options are usage errors (exit 2) naming the option.
    const char* bad[] = {"--solver nosuch", "--alpha 0",   "--alpha 3", "--iterations 0",
                         "--size 10x",      "--frames -1", "--bogus",   "--ui-scale 9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    {
        snprintf(cmd, sizeof cmd, "%s --headless %s stacking", VIEWER, bad[i]);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
        char opt[64];
        sscanf(bad[i], "%63s", opt);
        if (strstr(out, opt) == NULL)
        {
            fail_msg("'%s': message does not name the option: %s", bad[i], out);
        }
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f12_screenshot_is_the_frame),
        cmocka_unit_test(test_f9_records_every_frame),
        cmocka_unit_test(test_video_runs_at_the_simulation_rate),
        cmocka_unit_test(test_record_option_60_frames),
        cmocka_unit_test(test_record_without_ffmpeg_writes_pngs),
        cmocka_unit_test(test_bad_scene_at_startup),
        cmocka_unit_test(test_no_display_is_a_clear_error),
        cmocka_unit_test(test_bad_scene_keeps_last_good_world),
        cmocka_unit_test(test_script_reproduces_library_run),
        cmocka_unit_test(test_options_match_cli_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
