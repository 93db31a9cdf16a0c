// The experiment commands (converge, table2) as a user runs them, and solver switching in a running world.
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLI CS_BINARY_DIR "/circlesim-cli"

static char out[1 << 16];

// Reads the iterations column of converge's CSV for (solver, alpha); alpha "" for solvers without one.
static int iterations_of(const char* csv, const char* solver, const char* alpha)
{
    FILE* f = fopen(csv, "r");
    assert_non_null(f);
    char line[1024];
    char prefix[128];
    snprintf(prefix, sizeof prefix, ",%s,%s,", solver, alpha);
    int found = -1;
    while (fgets(line, sizeof line, f))
    {
        char* p = strstr(line, prefix);
        if (p != NULL)
        {
            found = atoi(p + strlen(prefix));
        }
    }
    fclose(f);
    if (found < 0)
    {
        fail_msg("no row for %s alpha '%s' in %s", solver, alpha, csv);
    }
    return found;
}

// Asserts what converge's CSV says about pgs and amgs(α = 0.5, 0.2) and returns the counts: αγ = 1 is PGS
// (docs/amgs.md (b)); with `over_relaxed`, α = 0.2 (ω = 2/1.4) beats PGS.
static void check_counts(const char* what, const char* csv, bool over_relaxed, int counts[3])
{
    int pgs = iterations_of(csv, "pgs", "");
    int half = iterations_of(csv, "amgs", "0.5");
    int fifth = iterations_of(csv, "amgs", "0.2");
    printf("# %s: pgs %d, amgs(0.5) %d, amgs(0.2) %d iterations to RES < 1e-4\n", what, pgs, half, fifth);
    assert_true(pgs > 1);
    assert_int_equal(half, pgs);
    if (over_relaxed)
    {
        assert_true(fifth < pgs);
    }
    counts[0] = pgs, counts[1] = half, counts[2] = fifth;
}

// converge on SCENE's step 100 (or, with scene NULL, on the frozen problem `problem`): `lcp_out` receives the
// frozen problem when not NULL. Returns the pgs/amgs counts (check_counts).
static void run_converge(const char* scene, const char* problem, const char* lcp_out, bool over_relaxed,
                         int counts[3])
{
    const char* csv = cs_test_temp_path(".csv");
    const char* hist = cs_test_temp_path(".csv");
    char source[1024], cmd[4096];
    if (scene != NULL)
    {
        snprintf(source, sizeof source, "%s --at-step 100 --frictionless%s%s", cs_test_source_path(scene),
                 lcp_out != NULL ? " --lcp-out " : "", lcp_out != NULL ? lcp_out : "");
    }
    else
    {
        snprintf(source, sizeof source, "--problem %s", problem);
    }
    snprintf(cmd, sizeof cmd,
             "%s converge %s --tol 1e-4 --solvers pgs,amgs,amgs-omega --alphas 0.5,0.2 --repeat 1 --csv %s "
             "--history %s",
             CLI, source, csv, hist);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    check_counts(scene != NULL ? scene : problem, csv, over_relaxed, counts);
    assert_true(iterations_of(csv, "amgs-omega", "") > 0);
    // History: iteration 0 .. k for each variant, so at least pgs + 1 lines for pgs.
    FILE* f = fopen(hist, "r");
    assert_non_null(f);
    int lines = 0;
    char line[512];
    while (fgets(line, sizeof line, f))
    {
        lines += strstr(line, ",pgs,") != NULL;
    }
    fclose(f);
    assert_int_equal(lines, counts[0] + 1);
}

static void converge_stacking(void** state)
{
    (void)state;
    int counts[3];
    run_converge("scenes/stacking.json", NULL, NULL, true, counts);
}

// Pool 1 is chaotic: its step 100 is another problem after any change of the contact model (α = 0.2 took
// 786 vs 1941 sweeps, then 1938 vs 3975, then stagnated at 6000 vs 2993), so on the live scene only the
// theorem (αγ = 1 is PGS) is asserted. The over-relaxation claim is held on a frozen Pool 1 problem instead,
// tests/data/pool1-step100-frictionless.lcp (written by `circlesim-cli run scenes/pool1.json --steps 100
// --frictionless --dump-lcp 100:FILE` at commit 4de2634; 603 rows, 221 bodies), which no physics change
// can move: 1938 vs 3975 sweeps there. And converge on the problem it froze from the scene (--lcp-out) gives
// the scene run's counts again, so --problem is the same experiment.
static void converge_pool(void** state)
{
    (void)state;
    const char* frozen = cs_test_temp_path(".lcp");
    int live[3], again[3], fixed[3];
    run_converge("scenes/pool1.json", NULL, frozen, false, live);
    run_converge(NULL, frozen, NULL, false, again);
    assert_memory_equal(live, again, sizeof live);
    run_converge(NULL, cs_test_source_path("tests/data/pool1-step100-frictionless.lcp"), NULL, true, fixed);
}

// --problem replaces the scene: with SCENE, --at-step or a world option it is a usage error.
static void converge_problem_usage(void** state)
{
    (void)state;
    char file[1024], scene[1024]; // (cs_test_source_path returns a static buffer)
    snprintf(file, sizeof file, "%s", cs_test_source_path("tests/data/pool1-step100-frictionless.lcp"));
    snprintf(scene, sizeof scene, "%s", cs_test_source_path("scenes/stacking.json"));
    const char* extra[] = {"--at-step 3", "--frictionless", scene};
    for (size_t k = 0; k < sizeof extra / sizeof extra[0]; ++k)
    {
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "%s converge --problem %s --tol 1e-4 %s", CLI, file, extra[k]);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
        assert_non_null(strstr(out, "--problem"));
    }
}

static void table2_small_run(void** state)
{
    (void)state;
    const char* csv = cs_test_temp_path(".csv");
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s table2 %s --steps 30 --iterations 5 --solvers pgs,amgs --alphas 0.2,0.5 --csv %s", CLI,
             cs_test_source_path("scenes/stacking.json"), csv);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    FILE* f = fopen(csv, "r");
    assert_non_null(f);
    char line[1024];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "scene,solver,alpha,seconds,mean_rows"));
    int rows = 0;
    double res_pgs = -1.0, res_half = -2.0; // res_lcp_mean of pgs and of amgs α 0.5
    while (fgets(line, sizeof line, f))
    {
        char scene[64], solver[64];
        double seconds, mean_rows, solver_seconds, res_lcp;
        char* p = line;
        // scene,solver,alpha,seconds,mean_rows,...
        assert_int_equal(sscanf(p, "%63[^,],%63[^,],", scene, solver), 2);
        for (int c = 0; c < 3; ++c)
        {
            p = strchr(p, ',') + 1;
        }
        assert_int_equal(sscanf(p, "%lf,%lf,%lf,%lf", &seconds, &mean_rows, &solver_seconds, &res_lcp), 4);
        assert_true(seconds > 0.0);
        res_pgs = strcmp(solver, "pgs") == 0 ? res_lcp : res_pgs;
        res_half = strstr(line, ",amgs,0.5,") != NULL ? res_lcp : res_half;
        assert_true(mean_rows >= 59.0); // 30 contacts with friction from the first step
        rows += 1;
    }
    fclose(f);
    assert_int_equal(rows, 3); // pgs once, amgs per alpha
    // AMGS with Ω = D/γ (α 0.5) is PGS's iteration (docs/amgs.md) and the stack rounds both alike: the same
    // mean residual means both ran the asked 5 iterations (PGS's variant once ran the scene's 10: its α of 0
    // was refused and the refusal ignored).
    assert_true(res_pgs > 0.0);
    assert_true(fabs(res_pgs - res_half) <= 1e-12 * res_pgs);
}

static void usage_errors_exit_2(void** state)
{
    (void)state;
    const char* stack = cs_test_source_path("scenes/stacking.json");
    const char* cases[][2] = {
        {"converge %s --at-step 10 --tol 1e-4 --solvers pgs,nosuch", "nosuch"},
        {"converge %s --at-step 10 --tol 1e-4 --alphas 0", "--alphas"},
        {"converge %s --at-step 10 --tol 1e-4 --alphas 0.2,,0.3", "--alphas"},
        {"converge %s --at-step 10 --tol 1e-4 --alphas -0.2", "--alphas"},
        {"converge %s --at-step 10", "--tol"},
        {"converge %s --tol 1e-3", "--at-step"},
        {"converge %s --at-step 10 --tol 1e-4 --gamma nan", "--gamma"},
        {"converge %s --at-step 10 --tol 1e-4 --stagnation -1", "--stagnation"},
        {"table2 %s --solvers", "needs a value"},
        {"table2 %s --solvers amgs,pgs, --steps 2", "--solvers"},
        {"table2 %s --alphas x", "--alphas"},
        {"table2 %s --iterations 0", "--iterations"},
        {"run %s --alpha 0", "--alpha"},
        {"lcp solve %s --solver nosuch", "nosuch"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
    {
        char args[2048];
        snprintf(args, sizeof args, cases[k][0], stack);
        cs_test_cli_expect(args, 2, cases[k][1]);
    }
}

// --stagnation sets the window of every method's stagnation stop, as in `lcp solve`: on Pool 2's frozen
// frictionless step PGS makes less progress over 100 sweeps than the window rule asks (stagnated near 2e-4);
// without a window it converges, and the stop column says which rule fired each time. (The pile is chaotic:
// each change to the collapse makes the frozen steps other problems. Since the circle rows' steps are taken
// from the relative velocity, step 120 stagnates at 10 900 with the window and converges at 17 406 without;
// of the steps tried (60–70, 75, 80, 85, 90, 95, 100, 103, 105, 110, 117, 125, 130, 140, 150) 100 and 140
// do the same within 700 sweeps of the limit, the others converge alike or need more than 20 000 sweeps
// without a window.)
static void converge_stagnation_window(void** state)
{
    (void)state;
    const char* pool2 = cs_test_source_path("scenes/pool2.json");
    const char* fmt = "%s converge %s --at-step 120 --tol 1e-4 --frictionless --row-order key --solvers pgs "
                      "--repeat 1 --max-iterations 20000 --stagnation %d --csv %s";
    char cmd[4096];
    int windows[2] = {100, 0};
    int iterations[2];
    for (int k = 0; k < 2; ++k)
    {
        const char* csv = cs_test_temp_path(".csv");
        snprintf(cmd, sizeof cmd, fmt, CLI, pool2, windows[k], csv);
        cs_test_run(cmd, out, sizeof out);
        iterations[k] = iterations_of(csv, "pgs", "");
        assert_non_null(strstr(out, k == 0 ? "stagnated" : "converged"));
    }
    assert_true(iterations[0] < iterations[1]);
    assert_true(iterations[1] < 20000);
}

// λ is the common currency: a solver switch keeps the warm start and the world keeps stepping from the
// same state; a switched run is as deterministic as any other.
static void switching_solver_keeps_warm_start(void** state)
{
    (void)state;
    uint64_t hashes[2];
    for (int run = 0; run < 2; ++run)
    {
        cs_error err;
        cs_scene_info info;
        cs_world* w = cs_scene_load(cs_test_source_path("scenes/stacking.json"), &info, &err);
        assert_non_null(w);
        for (int s = 0; s < 400; ++s)
        {
            cs_world_step(w);
        }
        int rows = cs_world_last_problem(w)->row_count;
        double res_before = cs_world_stats(w)->res_lcp;
        double before[128];
        assert_true(rows <= 128);
        memcpy(before, cs_world_last_lambda(w), (size_t)rows * sizeof(double));
        cs_world_set_solver(w, cs_solver_find("amgs"));
        cs_solver_params p = *cs_world_solver_params(w);
        p.alpha = 0.2;
        cs_world_set_solver_params(w, &p);
        cs_world_step(w);
        const cs_lcp* problem = cs_world_last_problem(w);
        assert_int_equal(problem->row_count, rows);
        assert_memory_equal(problem->lambda0, before, (size_t)rows * sizeof(double));
        for (int s = 0; s < 200; ++s)
        {
            cs_world_step(w);
        }
        // The stack keeps settling: the switch did not kick it. PGS alone goes from 1.8e-4 at step 400 to
        // 9.4e-5 at step 600 (a factor 0.5); AMGS α 0.2 from the same warm start, to 1.3e-6 (0.007).
        double res_after = cs_world_stats(w)->res_lcp;
        print_message("# stacking res_lcp: %.3g at the switch (step 400), %.3g at step 601\n", res_before,
                      res_after);
        assert_true(res_after < 0.1 * res_before);
        hashes[run] = cs_world_hash(w);
        cs_world_destroy(w);
    }
    assert_true(hashes[0] == hashes[1]);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(converge_stacking),
        cmocka_unit_test(converge_pool),
        cmocka_unit_test(converge_problem_usage),
        cmocka_unit_test(table2_small_run),
        cmocka_unit_test(usage_errors_exit_2),
        cmocka_unit_test(converge_stagnation_window),
        cmocka_unit_test(switching_solver_keeps_warm_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
