// Captures that tell the truth: the same script gives byte-identical PNGs twice (no wall-clock numbers
// unless --hud-timings), and the CSV export holds every plotted series, one row per plotted point.
#include "viewer_test.h"

#define VIEWER CS_BINARY_DIR "/circlesim"

static void run_script(const char* script, const char* extra, const char* dir)
{
    char cmd[16384], out[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s --headless --frames 40 --size 640x400 %s --script '%s' %s", dir,
             VIEWER, extra, script, cs_test_source_path("scenes/pool1.json"));
    if (cs_test_run(cmd, out, sizeof out) != 0)
    {
        fail_msg("%s\n%s", cmd, out);
    }
}

static bool same_file(const char* a, const char* b)
{
    char cmd[20000], out[256];
    snprintf(cmd, sizeof cmd, "cmp '%s' '%s'", a, b);
    return cs_test_run(cmd, out, sizeof out) == 0;
}

static void test_same_script_same_pixels(void** state)
{
    (void)state;
    const char* script = cs_test_write_temp(".txt", "at 0 compare pgs,amgs\n"
                                                    "at 10 key m\n"
                                                    "at 12 key m\n"
                                                    "at 39 screenshot shot.png\n");
    const char* dirs[2];
    char paths[2][8192];
    for (int i = 0; i < 2; ++i)
    {
        dirs[i] = fresh_dir();
        run_script(script, "", dirs[i]);
        snprintf(paths[i], sizeof paths[i], "%s/shot.png", dirs[i]);
    }
    if (!same_file(paths[0], paths[1]))
    {
        fail_msg("two runs of one script gave different PNGs: %s %s", paths[0], paths[1]);
    }
    // With the timings asked for, the frames carry wall-clock numbers (and so differ from the above).
    const char* timed = fresh_dir();
    run_script(script, "--hud-timings", timed);
    char timed_path[8192];
    snprintf(timed_path, sizeof timed_path, "%s/shot.png", timed);
    assert_false(same_file(paths[0], timed_path));
}

// Rows of the CSV whose plot title contains `plot` and whose series is `series`.
static int csv_rows(const char* path, const char* plot, const char* series)
{
    FILE* f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int rows = 0;
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "plot,series,x,y\n");
    char quoted[256];
    snprintf(quoted, sizeof quoted, ",\"%s\",", series);
    while (fgets(line, sizeof line, f) != NULL)
    {
        rows += strstr(line, plot) != NULL && strstr(line, quoted) != NULL;
    }
    fclose(f);
    return rows;
}

static void test_csv_holds_every_plotted_series(void** state)
{
    (void)state;
    const char* dir = fresh_dir();
    // 30 steps of a PGS/AMGS duel, then the export before frame 30's step.
    const char* script = cs_test_write_temp(".txt", "at 0 compare pgs,amgs\nat 30 csv plots.csv\n");
    run_script(script, "--iterations 12", dir);
    char path[8192];
    snprintf(path, sizeof path, "%s/plots.csv", dir);
    const char* names[2] = {"pgs k=12", "amgs α=0.2 γ=2 k=12"};
    for (int i = 0; i < 2; ++i)
    {
        // One point per step taken, and iterations + 1 residuals (the start point and each sweep).
        int per_step = csv_rows(path, "after each step", names[i]);
        int per_iteration = csv_rows(path, "per iteration", names[i]);
        if (per_step != 30 || per_iteration != 13)
        {
            fail_msg("%s: %d per-step rows (want 30), %d per-iteration rows (want 13)", names[i], per_step,
                     per_iteration);
        }
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_script_same_pixels),
        cmocka_unit_test(test_csv_holds_every_plotted_series),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
