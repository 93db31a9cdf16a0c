// circlesim-cli bench as a user drives it: the CSV's columns and what a row says about the run (never how
// fast it was: speed is measured by the benchmark, not judged by tests), the settings it reports, and usage
// errors.
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLI CS_BINARY_DIR "/circlesim-cli"

static const char* const columns =
    "scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,"
    "us_per_step,broadphase_us,narrowphase_us,solver_us,position_us,"
    "bytes_per_body,ns_per_step_body,row_order,simd,"
    "max_penetration,mean_penetration,ke_drift,top_error,final_max_speed,kinetic_energy,threads";

// Splits a CSV line in place into at most max fields.
static int split_csv(char* line, char** fields, int max)
{
    int n = 0;
    char* p = line;
    while (n < max)
    {
        fields[n++] = p;
        char* comma = strchr(p, ',');
        if (comma == NULL)
        {
            break;
        }
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

static void stacking_rows_describe_the_run(void** state)
{
    (void)state;
    const char* orders[] = {"coloured", "key"};
    for (int k = 0; k < 2; ++k)
    {
        char cmd[1024], out[8192];
        snprintf(cmd, sizeof cmd,
                 "%s bench --scenes %s --solvers pgs,amgs --iterations 7 --steps 20 --repeat 1 --warmup 0 "
                 "--row-order %s%s --csv -",
                 CLI, cs_test_source_path("scenes/stacking.json"), orders[k], k == 1 ? " --no-simd" : "");
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
        char* line = strtok(out, "\n");
        assert_non_null(line);
        assert_string_equal(line, columns);
        int rows = 0;
        while ((line = strtok(NULL, "\n")) != NULL)
        {
            char* f[32];
            assert_int_equal(split_csv(line, f, 32), 25);
            assert_string_equal(f[0], "stacking");
            assert_true(strcmp(f[1], "pgs") == 0 || strcmp(f[1], "amgs") == 0);
            assert_int_equal(atoi(f[3]), 7);
            assert_int_equal(atoi(f[4]), 20);
            assert_int_equal(atoi(f[5]), 30);            // the 30-stack
            assert_near(strtod(f[6], NULL), 30.0, 1e-9); // 30 contacts from the first step
            assert_near(strtod(f[7], NULL), 60.0, 1e-9); // a normal and a friction row each
            assert_true(strtod(f[8], NULL) > 0.0);       // seconds
            assert_true(strtod(f[12], NULL) > 0.0);      // the velocity solve took some time
            assert_string_equal(f[16], orders[k]);
            int simd = atoi(f[17]);
            assert_int_equal(simd, k == 0 && cs_solver_simd_available() ? 1 : 0);
            // Quality of the same run: the stack starts exactly touching at rest, so within 20 steps it
            // overlaps by at most a few cm, its top sinks (by less than 0.5 m) rather than rises, it gains no
            // kinetic energy beyond what gravity gives the sinking (m g Δh over 30 kg), and it is nearly
            // still.
            double max_pen = strtod(f[18], NULL), mean_pen = strtod(f[19], NULL);
            double ke_drift = strtod(f[20], NULL), top = strtod(f[21], NULL), vmax = strtod(f[22], NULL);
            assert_true(max_pen >= 0.0 && max_pen < 0.05 && mean_pen >= 0.0 && mean_pen <= max_pen);
            assert_true(top >= 0.0 && top < 0.5); // (7 iterations: the first steps compress it)
            assert_true(ke_drift <= 30.0 * 9.80665 * top + 1e-9);
            assert_true(vmax >= 0.0 && vmax < 1.0);
            // The final kinetic energy: the linear part alone is at least 1/2 m vmax² of the fastest body
            // (1 kg), and all of it is no more than 30 bodies at vmax (a disc's spin adds at most half
            // again).
            double ke = strtod(f[23], NULL);
            assert_true(ke >= 0.5 * vmax * vmax - 1e-12 && ke <= 30.0 * 0.75 * vmax * vmax + 1e-12);
            assert_int_equal(atoi(f[24]), 1); // threads
            rows += 1;
        }
        assert_int_equal(rows, 2);
    }
}

static void table_names_the_settings(void** state)
{
    (void)state;
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd,
             "%s bench --scenes %s --iterations 3 --steps 5 --repeat 1 --warmup 0 --threads 2", CLI,
             cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    char expected[128];
    snprintf(expected, sizeof expected, "# coloured row order, vector sweeps %s, 2 threads",
             cs_solver_simd_available() ? "on (AVX2)" : "unavailable on this CPU");
    assert_non_null(strstr(out, expected));
    assert_non_null(strstr(out, "stacking"));
}

// --solvers all: one row per registered method, in registry order (as converge's --solvers all).
static void solvers_all_runs_every_method(void** state)
{
    (void)state;
    char cmd[1024];
    static char out[16384];
    snprintf(cmd, sizeof cmd,
             "%s bench --scenes %s --solvers all --iterations 3 --steps 5 --repeat 1 --warmup 0 --csv -", CLI,
             cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    char* line = strtok(out, "\n");
    assert_non_null(line);
    int rows = 0;
    while ((line = strtok(NULL, "\n")) != NULL)
    {
        char* f[32];
        assert_int_equal(split_csv(line, f, 32), 25);
        assert_true(rows < cs_solver_count());
        assert_string_equal(f[1], cs_solver_at(rows)->name);
        rows += 1;
    }
    assert_int_equal(rows, cs_solver_count());
}

// The churn suite: the elastic gas of scenes/gas.json and a pool under a stream of falling rows, whose
// spawned circles the bodies column counts (stream-100: 10 columns, a row before steps 0, 10, ..., 30).
static void churn_suite_runs_gas_and_stream(void** state)
{
    (void)state;
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd,
             "%s bench --suite churn --sizes 100 --steps 31 --repeat 1 --warmup 0 --scene-dir %s --csv -",
             CLI, cs_test_source_path("scenes"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    char* line = strtok(out, "\n");
    assert_non_null(line);
    assert_string_equal(line, columns);
    const char* names[] = {"gas", "stream-100"};
    const int bodies[] = {20000, 100 + 4 * 10};
    for (int k = 0; k < 2; ++k)
    {
        line = strtok(NULL, "\n");
        assert_non_null(line);
        char* f[32];
        assert_int_equal(split_csv(line, f, 32), 25);
        assert_string_equal(f[0], names[k]);
        assert_int_equal(atoi(f[3]), 10);
        assert_int_equal(atoi(f[5]), bodies[k]);
        double ke = strtod(f[23], NULL), vmax = strtod(f[22], NULL);
        if (k == 0)
        {
            // 20 000 discs of 1 kg at speeds uniform in [0.5, 3] m/s (mean square (3³ - 0.5³) / (3 · 2.5)),
            // elastic: the kinetic energy stays within a few per cent of half the sum after 31 steps.
            double expected = 20000.0 * 0.5 * (27.0 - 0.125) / 7.5;
            assert_near(ke, expected, 0.05 * expected);
            assert_true(vmax > 2.5 && vmax < 10.0); // collisions speed some discs up
        }
        else
        {
            // The last row was spawned at 3 m/s and is falling faster since.
            assert_true(vmax > 3.0 && vmax < 10.0);
        }
    }
    assert_null(strtok(NULL, "\n"));
}

static void usage_errors_exit_2(void** state)
{
    (void)state;
    const char* cases[][2] = {
        {"--row-order zigzag", "--row-order: unknown row order 'zigzag'"},
        {"--formulation baumgarte", "--formulation: unknown formulation 'baumgarte'"},
        {"--suite huge", "--suite: expected paper, scale or churn"},
        {"--threads 9", "--threads"},
        {"--solvers pgz", "unknown solver 'pgz'"},
        {"--frobnicate", "unknown option '--frobnicate'"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
    {
        char cmd[512], out[4096];
        snprintf(cmd, sizeof cmd, "%s bench %s", CLI, cases[k][0]);
        int code = cs_test_run(cmd, out, sizeof out);
        if (code != 2 || strstr(out, cases[k][1]) == NULL)
        {
            fail_msg("'bench %s' exited %d with '%s' (expected 2 and '%s')", cases[k][0], code, out,
                     cases[k][1]);
        }
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stacking_rows_describe_the_run),
        cmocka_unit_test(table_names_the_settings),
        cmocka_unit_test(solvers_all_runs_every_method),
        cmocka_unit_test(churn_suite_runs_gas_and_stream),
        cmocka_unit_test(usage_errors_exit_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
