// circlesim-siconos (bench/siconos) as a user runs it: compare puts a circlesim method and its Siconos
// counterpart on one row at the accuracy asked for; profile writes runs.csv and profiles that are shares
// (non-decreasing in tau, at most 1, reaching the solved share); random writes readable problems; bad
// arguments are usage errors.
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bench(const char* args, char* out, size_t size)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s/circlesim-siconos %s", CS_BINARY_DIR, args);
    return cs_test_run(cmd, out, size);
}

// A frozen problem of a stack scene at a step, without friction.
static const char* frozen_stack(const char* scene, int step)
{
    static char path[1024];
    const char* p = cs_test_temp_path(".lcp");
    snprintf(path, sizeof path, "%s", p);
    char args[2048];
    snprintf(args, sizeof args, "run %s --frictionless --steps %d --quiet --dump-lcp %d:%s",
             cs_test_source_path(scene), step, step, path);
    cs_test_cli_expect(args, 0, "");
    return path;
}

// A small frozen problem: Stacking 30 at step 100, without friction.
static const char* stack_problem(void)
{
    return frozen_stack("scenes/stacking.json", 100);
}

static void test_compare_row(void** state)
{
    (void)state;
    const char* lcp = stack_problem();
    char args[2048], out[16384];
    snprintf(args, sizeof args, "compare --tol 1e-8 --repeat 1 %s", lcp);
    assert_int_equal(bench(args, out, sizeof out), 0);
    // circlesim's PGS and Siconos's PGS both reach 1e-8 (no ✗ on the row), and Siconos's Lemke is exact.
    const char* row = strstr(out, "| pgs |");
    assert_non_null(row);
    const char* end = strchr(row, '\n');
    assert_non_null(end);
    assert_null(memchr(row, 0xE2, (size_t)(end - row))); // the ✗ mark is UTF-8, starting 0xE2
    const char* lemke = strstr(out, "| Lemke / fc2d Lemke |");
    assert_non_null(lemke);
    double res = 1.0;
    int iterations = 0;
    double ms = 0.0;
    assert_int_equal(sscanf(lemke, "| Lemke / fc2d Lemke | %d | %lf | %lf", &iterations, &ms, &res), 3);
    assert_true(iterations > 0 && res <= 1e-8);
}

static void test_profile_files(void** state)
{
    (void)state;
    const char* lcp = stack_problem();
    char dir[1024], args[4096], out[8192];
    snprintf(dir, sizeof dir, "%s", cs_test_temp_path("-profile"));
    const char* random_dir = cs_test_temp_path("-random");
    snprintf(args, sizeof args, "random --out %s --count 1", random_dir);
    assert_int_equal(bench(args, out, sizeof out), 0);
    snprintf(args, sizeof args,
             "profile --out %s --tol 1e-4,1e-8 --max-iterations 3000 %s %s/random-00-friction.lcp", dir, lcp,
             random_dir);
    assert_int_equal(bench(args, out, sizeof out), 0);
    char path[2048];
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    FILE* f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line,
                        "problem,rows,friction,method,tol,run,solved,iterations,ms,res_nat,info,stop,note\n");
    int runs = 0;
    while (fgets(line, sizeof line, f) != NULL)
    {
        runs += 1;
    }
    fclose(f);
    int methods = cs_solver_count() + 7; // the registry and seven Siconos methods
    assert_int_equal(runs, 2 * 2 * methods);
    for (int t = 0; t < 2; ++t)
    {
        snprintf(path, sizeof path, "%s/profile-time-%d.csv", dir, t);
        f = fopen(path, "r");
        assert_non_null(f);
        assert_non_null(fgets(line, sizeof line, f));
        double last[64] = {0};
        int rows = 0;
        while (fgets(line, sizeof line, f) != NULL)
        {
            char* s = line;
            strtod(s, &s); // tau
            for (int k = 0; k < methods; ++k)
            {
                assert_true(*s == ',');
                double share = strtod(s + 1, &s);
                assert_true(share >= last[k] && share <= 1.0); // a share, non-decreasing in tau
                last[k] = share;
            }
            rows += 1;
        }
        fclose(f);
        assert_int_equal(rows, 241);
        assert_true(last[0] > 0.0); // pgs solves at least the stack at both tolerances within 3000 sweeps
    }
    snprintf(path, sizeof path, "%s/profile.gp", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    fclose(f);
}

// A problem without rows is left out, saying so (Siconos's Newton min asserts n > 0 on it); a step of the
// heavy chain (rods only) goes to Siconos as an MLCP, whose Lemke solves it (the rods' linear system).
static void test_empty_and_joint_problems(void** state)
{
    (void)state;
    const char* empty = cs_test_write_temp(".lcp", "circlesim-lcp 1\nbodies 1\n1 1 0 0 0\nrows 0\n");
    const char* chain = cs_test_temp_path(".lcp");
    char args[4096], out[16384];
    snprintf(args, sizeof args, "run %s --steps 10 --quiet --dump-lcp 10:%s",
             cs_test_source_path("scenes/chain.json"), chain);
    cs_test_cli_expect(args, 0, "");
    snprintf(args, sizeof args, "compare --tol 1e-8 --repeat 1 --max-iterations 100 %s %s", empty, chain);
    assert_int_equal(bench(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "has no rows: left out"));
    const char* lemke = strstr(out, "| Lemke / fc2d Lemke (MLCP) |");
    assert_non_null(lemke);
    int pivots = -1;
    double ms = 0.0, res = 1.0;
    assert_int_equal(sscanf(lemke, "| Lemke / fc2d Lemke (MLCP) | %d | %lf | %lf", &pivots, &ms, &res), 3);
    assert_true(res <= 1e-8);
    const char* dir = cs_test_temp_path("-profile");
    snprintf(args, sizeof args, "profile --out %s --max-iterations 100 %s", dir, empty);
    assert_int_equal(bench(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "has no rows: left out"));
}

// A run past its CPU-time budget has failed (Dolan-Moré's ratio ∞), said in runs.csv, and the profile goes
// on: on Stacking 150 at step 10 Jacobi asked for 1e-14 with no sweep cap crawls (more than 100 000
// sweeps) and is ended after 50 ms, while PGS-SM's subspace step solves it in 2 iterations (0.03 ms).
static void test_budget_ends_a_run(void** state)
{
    (void)state;
    const char* lcp = frozen_stack("scenes/stacking150.json", 10);
    const char* dir = cs_test_temp_path("-budget");
    char args[4096], out[8192], path[2048], line[1024];
    snprintf(args, sizeof args, "profile --out %s --tol 1e-14 --max-iterations 100000000 --budget 0.05 %s",
             dir, lcp);
    assert_int_equal(bench(args, out, sizeof out), 0);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    FILE* f = fopen(path, "r");
    assert_non_null(f);
    int seen = 0;
    while (fgets(line, sizeof line, f) != NULL)
    {
        if (strstr(line, ",jacobi,") != NULL)
        {
            assert_non_null(strstr(line, ",1,0,")); // run, not solved
            assert_non_null(strstr(line, ",time,failed within budget: 0.05 s CPU"));
            seen += 1;
        }
        if (strstr(line, ",pgs-sm,") != NULL)
        {
            assert_non_null(strstr(line, ",1,1,"));
            assert_non_null(strstr(line, ",solved,"));
            seen += 1;
        }
    }
    fclose(f);
    assert_int_equal(seen, 2);
}

static void test_usage_errors(void** state)
{
    (void)state;
    char out[4096];
    assert_int_equal(bench("frobnicate", out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown command 'frobnicate'"));
    assert_int_equal(bench("compare --tol 0 x.lcp", out, sizeof out), 2);
    assert_non_null(strstr(out, "--tol: expected T > 0"));
    assert_int_equal(bench("profile x.lcp", out, sizeof out), 2);
    assert_non_null(strstr(out, "--out DIR is required"));
    assert_int_equal(bench("compare --max-iterations -3 x.lcp", out, sizeof out), 2);
    assert_int_equal(bench("compare --budget -1 x.lcp", out, sizeof out), 2);
    assert_int_equal(bench("compare --max-dense-rows 0 x.lcp", out, sizeof out), 2);
    assert_int_equal(bench("compare", out, sizeof out), 2);
    assert_int_equal(bench("compare /nonexistent/x.lcp", out, sizeof out), 1);
    assert_non_null(strstr(out, "/nonexistent/x.lcp"));
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_row),       cmocka_unit_test(test_profile_files),
        cmocka_unit_test(test_budget_ends_a_run), cmocka_unit_test(test_empty_and_joint_problems),
        cmocka_unit_test(test_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
