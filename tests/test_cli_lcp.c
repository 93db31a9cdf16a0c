// circlesim-cli lcp: runs the real binary on files written here and checks its output against the
// library's own solve of the same file.
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLI CS_BINARY_DIR "/circlesim-cli"

// A small frictional problem: discs resting on a floor and on each other.
static const char* write_problem(void)
{
    cs_lcp p = {0};
    cs_error err = {0};
    const int bodies = 3, rows = 8;
    assert_int_equal(cs_lcp_reserve(&p, bodies, rows, &err), CS_OK);
    snprintf(p.name, sizeof p.name, "cli-test");
    p.body_count = bodies;
    p.row_count = rows;
    for (int i = 0; i < bodies; ++i)
    {
        p.inv_mass[i] = 1.0 / (1.0 + i);
        p.inv_inertia[i] = 2.0 / (1.0 + i);
        p.v[3 * i + 0] = 0.1 * i;
        p.v[3 * i + 1] = -1.0 + 0.2 * i;
        p.v[3 * i + 2] = 0.05;
    }
    // contacts: (floor, 0), (floor, 1), (0, 2), (1, 2), each normal + friction
    const int pairs[4][2] = {{-1, 0}, {-1, 1}, {0, 2}, {1, 2}};
    const double angles[4] = {1.5707963267948966, 1.5707963267948966, 1.0471975511965976, 2.0943951023931953};
    for (int c = 0; c < 4; ++c)
    {
        int a = pairs[c][0], b = pairs[c][1];
        double nx = cos(angles[c]), ny = sin(angles[c]), tx = -ny, ty = nx;
        double jn[6] = {-nx, -ny, 0, nx, ny, 0};
        double jt[6] = {-tx, -ty, -0.5, tx, ty, -0.5};
        if (a < 0)
        {
            jn[0] = jn[1] = jn[2] = jt[0] = jt[1] = jt[2] = 0.0;
        }
        for (int k = 0; k < 2; ++k)
        {
            int i = 2 * c + k;
            p.body_a[i] = a;
            p.body_b[i] = b;
            memcpy(p.jac + 6 * i, k == 0 ? jn : jt, sizeof jn);
            p.bias[i] = k == 0 ? -0.05 : 0.0;
            p.kind[i] = (uint8_t)(k == 0 ? CS_ROW_NORMAL : CS_ROW_FRICTION);
            p.link[i] = k == 0 ? -1 : 2 * c;
            p.mu[i] = k == 0 ? 0.0 : 0.4;
            p.lo[i] = 0.0;
            p.hi[i] = k == 0 ? INFINITY : 0.0;
            p.lambda0[i] = k == 0 ? 0.3 : 0.01;
        }
    }
    const char* path = cs_test_temp_path(".lcp");
    assert_int_equal(cs_lcp_write(&p, path, &err), CS_OK);
    cs_lcp_free(&p);
    return path;
}

static int run(const char* args, char* out, size_t size)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "'%s' %s", CLI, args);
    return cs_test_run(cmd, out, size);
}

static void test_solve_prints_one_line(void** state)
{
    (void)state;
    const char* path = write_problem();
    char args[4096], out[4096];
    snprintf(args, sizeof args, "lcp solve '%s' --iterations 25", path);
    assert_int_equal(run(args, out, sizeof out), 0);
    int iterations = -1;
    double res_lcp = -1, res_nat = -1, seconds = -1;
    int n = -1;
    assert_int_equal(sscanf(out, "iterations=%d res_lcp=%lf res_nat=%lf seconds=%lf%n", &iterations, &res_lcp,
                            &res_nat, &seconds, &n),
                     4);
    assert_string_equal(out + n, " status=budget\n"); // exactly one line, ending with why it stopped
    assert_int_equal(iterations, 25);
    assert_true(res_lcp >= 0.0 && res_nat >= 0.0 && seconds >= 0.0);

    // The printed residuals are the library's, formatted %.6e.
    cs_lcp p = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_read(path, &p, &err), CS_OK);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 25;
    cs_solver_work work = {0};
    double lambda[8];
    cs_solver_stats stats;
    assert_int_equal(cs_solve(&p, cs_solver_find("pgs"), &params, &work, lambda, &stats, &err), CS_OK);
    char expect[256];
    snprintf(expect, sizeof expect, "iterations=25 res_lcp=%.6e res_nat=%.6e seconds=", stats.res_lcp,
             stats.res_nat);
    assert_true(strncmp(out, expect, strlen(expect)) == 0);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

static void test_out_matches_library_solve(void** state)
{
    (void)state;
    const char* path = write_problem();
    const char* sol = cs_test_temp_path(".sol");
    char args[8192], out[4096];
    snprintf(args, sizeof args, "lcp solve '%s' --iterations 40 --no-warm-start --out '%s'", path, sol);
    assert_int_equal(run(args, out, sizeof out), 0);

    cs_lcp p = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_read(path, &p, &err), CS_OK);
    cs_solver_params params = cs_solver_params_default();
    params.iterations = 40;
    params.warm_start = false;
    cs_solver_work work = {0};
    double lambda[8], back[16];
    cs_solver_stats stats;
    assert_int_equal(cs_solve(&p, cs_solver_find("pgs"), &params, &work, lambda, &stats, &err), CS_OK);
    int rows = 0;
    assert_int_equal(cs_solution_read(sol, back, 16, &rows, &err), CS_OK);
    assert_int_equal(rows, p.row_count);
    assert_memory_equal(back, lambda, (size_t)rows * sizeof(double));
    // The solve did something: the normal impulses are not the cold start.
    assert_true(lambda[0] > 0.0);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

static void test_tolerance_and_history(void** state)
{
    (void)state;
    const char* path = write_problem();
    const char* csv = cs_test_temp_path(".csv");
    char args[8192], out[4096];
    snprintf(args, sizeof args, "lcp solve '%s' --tol 1e-10 --max-iterations 5000 --history '%s'", path, csv);
    assert_int_equal(run(args, out, sizeof out), 0);
    int iterations = -1;
    double res_lcp, res_nat, seconds;
    assert_int_equal(sscanf(out, "iterations=%d res_lcp=%lf res_nat=%lf seconds=%lf", &iterations, &res_lcp,
                            &res_nat, &seconds),
                     4);
    assert_true(iterations >= 1 && iterations < 5000);
    assert_true(res_nat <= 1e-10);
    FILE* f = fopen(csv, "r");
    assert_non_null(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "iteration,res_lcp,res_nat,seconds\n");
    int count = 0, k;
    double a, b, t, last = -1.0, last_t = -1.0;
    while (fgets(line, sizeof line, f) != NULL)
    {
        assert_int_equal(sscanf(line, "%d,%lf,%lf,%lf", &k, &a, &b, &t), 4);
        assert_int_equal(k, count);
        assert_true(t >= last_t && t >= 0.0); // time only moves forward
        last_t = t;
        last = b;
        count += 1;
    }
    fclose(f);
    assert_int_equal(count, iterations + 1);
    assert_true(last <= 1e-10);
}

static void test_unknown_solver_lists_names(void** state)
{
    (void)state;
    const char* path = write_problem();
    char args[4096], out[4096];
    snprintf(args, sizeof args, "lcp solve '%s' --solver no-such-solver", path);
    assert_int_equal(run(args, out, sizeof out), 2);
    for (int i = 0; i < cs_solver_count(); ++i)
    {
        assert_non_null(strstr(out, cs_solver_at(i)->name));
    }
    assert_non_null(strstr(out, "no-such-solver"));
}

static void test_missing_file(void** state)
{
    (void)state;
    char out[4096];
    assert_int_equal(run("lcp solve /nonexistent-dir/x.lcp", out, sizeof out), 1);
    assert_non_null(strstr(out, "/nonexistent-dir/x.lcp: cannot open"));
    assert_int_equal(run("lcp info /nonexistent-dir/x.lcp", out, sizeof out), 1);
}

static void test_bad_file_prints_reader_message(void** state)
{
    (void)state;
    const char* path = cs_test_write_temp(".lcp", "circlesim-lcp 1\nbodies 1\n1 1 0 0 0\nrows 1\n"
                                                  "n 0 -1 1 0 0 0 0 0 0 0 extra\n");
    char args[4096], out[4096], expect[4200];
    snprintf(args, sizeof args, "lcp solve '%s'", path);
    assert_int_equal(run(args, out, sizeof out), 1);
    snprintf(expect, sizeof expect, "%s:5: ", path);
    assert_non_null(strstr(out, expect));
    assert_non_null(strstr(out, "trailing garbage"));
}

static void test_usage_errors(void** state)
{
    (void)state;
    const char* path = write_problem();
    const char* bad[] = {"--alpha 0",
                         "--alpha -1",
                         "--alpha x",
                         "--iterations 0",
                         "--iterations 1.5",
                         "--tol 0",
                         "--gamma 0",
                         "--bogus",
                         "--iterations 3 --tol 1e-3",
                         "--max-iterations 9",
                         "--out"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    {
        char args[4096], out[4096];
        snprintf(args, sizeof args, "lcp solve '%s' %s", path, bad[i]);
        int code = run(args, out, sizeof out);
        if (code != 2)
        {
            print_error("'%s' → exit %d: %s\n", bad[i], code, out);
            fail();
        }
    }
    char out[4096];
    assert_int_equal(run("lcp", out, sizeof out), 2);
    assert_int_equal(run("lcp frobnicate", out, sizeof out), 2);
    assert_int_equal(run("lcp solve", out, sizeof out), 2);
    assert_int_equal(run("lcp solve --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "--history"));
    assert_int_equal(run("lcp info --help", out, sizeof out), 0);
    assert_int_equal(run("lcp --help", out, sizeof out), 0);
}

static void test_info(void** state)
{
    (void)state;
    const char* path = write_problem();
    char args[4096], out[8192];
    snprintf(args, sizeof args, "lcp info '%s'", path);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "bodies=3\n"));
    assert_non_null(strstr(out, "rows=8\n"));
    assert_non_null(strstr(out, "rows_normal=4\n"));
    assert_non_null(strstr(out, "rows_friction=4\n"));
    assert_non_null(strstr(out, "static_rows=4\n"));
    assert_non_null(strstr(out, "rows_regularised=0\n"));
    // nnz(J): floor rows have 2 (normal) and 3 (friction) numbers, disc-disc rows 4 and 6.
    assert_non_null(strstr(out, "nnz_j=30\n"));
    // The warm-start residuals are the library's.
    cs_lcp p = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_read(path, &p, &err), CS_OK);
    double v[9];
    cs_lcp_velocity(&p, p.lambda0, v);
    char expect[128];
    snprintf(expect, sizeof expect, "res_nat_lambda0=%.6e\n", cs_residual_nat(&p, v, p.lambda0));
    assert_non_null(strstr(out, expect));
    cs_lcp_free(&p);
    // A version-2 file (SPOOK's regularised rows): info says how many rows carry a reg, and A_ii includes it.
    path =
        cs_test_write_temp(".lcp", "circlesim-lcp 2\nbodies 1\n1 1 0 -1 0\nrows 2\n"
                                   "n 0 -1 0 1 0 0 0 0 0 0\nf 0 -1 1 0 0 0 0 0 0 0 0 0.5\nreg 1\n0 0.25\n");
    snprintf(args, sizeof args, "lcp info '%s'", path);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "rows_regularised=1\n"));
    assert_non_null(strstr(out, "diag_max=1.250000e+00\n"));
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_prints_one_line), cmocka_unit_test(test_out_matches_library_solve),
        cmocka_unit_test(test_tolerance_and_history), cmocka_unit_test(test_unknown_solver_lists_names),
        cmocka_unit_test(test_missing_file),          cmocka_unit_test(test_bad_file_prints_reader_message),
        cmocka_unit_test(test_usage_errors),          cmocka_unit_test(test_info),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
