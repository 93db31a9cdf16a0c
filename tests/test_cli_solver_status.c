// The solver's stop reason where the CLI shows it: `lcp solve` (status=…, exit 3 when it did not solve),
// `converge` (stop column) and `run --csv` (solve_stop, the last column).
#include "test_support.h"

#include <stdio.h>
#include <string.h>

// Two discs on a floor pressed together, floor friction on the first: needs a few sweeps.
static const char* const problem = "circlesim-lcp 1\nbodies 2\n1 2 0 -1 0\n1 2 0 -1 0\nrows 4\n"
                                   "n 0 -1 0 1 0 0 0 0 0 0\n"
                                   "n 1 -1 0 1 0 0 0 0 0 0\n"
                                   "n 0 1 -1 0 0 1 0 0 -0.5 0\n"
                                   "f 0 -1 1 0 0.5 0 0 0 0.3 0 0 0.5\n";

static void test_lcp_solve_status(void** state)
{
    (void)state;
    const char* path = cs_test_write_temp(".lcp", problem);
    char args[1024];
    snprintf(args, sizeof args, "lcp solve '%s' --tol 1e-12 --max-iterations 1000", path);
    cs_test_cli_expect(args, 0, " status=converged\n");
    snprintf(args, sizeof args, "lcp solve '%s' --rtol 1e-6", path);
    cs_test_cli_expect(args, 0, " status=converged\n");
    snprintf(args, sizeof args, "lcp solve '%s' --iterations 2", path);
    cs_test_cli_expect(args, 0, "iterations=2 ");
    cs_test_cli_expect(args, 0, " status=budget\n");
    // A tolerance not met: exit 3, the reason on stderr.
    snprintf(args, sizeof args, "lcp solve '%s' --tol 1e-14 --max-iterations 2", path);
    cs_test_cli_expect(args, 3, " status=iteration-limit\n");
    cs_test_cli_expect(args, 3, "not converged: iteration-limit after 2 iterations");
    // --stagnation without a tolerance is a usage error; 0 is allowed (never).
    snprintf(args, sizeof args, "lcp solve '%s' --stagnation 5", path);
    cs_test_cli_expect(args, 2, "--stagnation needs --tol or --rtol");
    snprintf(args, sizeof args, "lcp solve '%s' --tol 1e-12 --stagnation 0", path);
    cs_test_cli_expect(args, 0, " status=converged\n");
}

// A pivoting method is not bound by --iterations (issue 11: lemke used to print iterations=10 status=budget):
// it runs to its answer, one iteration, converged, with its pivots; its own budget is --max-pivots, and
// running out of it is an error (exit 1) that says so; --iterations and --stagnation, which it would ignore,
// are usage errors. The answer is checked on the printed residual.
static void test_lcp_solve_pivoting(void** state)
{
    (void)state;
    const char* path = cs_test_write_temp(".lcp", problem);
    const char* methods[] = {"lemke", "ppm"};
    for (int k = 0; k < 2; ++k)
    {
        char cmd[1024], out[4096];
        snprintf(cmd, sizeof cmd, "%s/circlesim-cli lcp solve '%s' --solver %s", CS_BINARY_DIR, path,
                 methods[k]);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
        int iterations = -1, pivots = -1;
        double res_nat = 1.0;
        const char* at = strstr(out, "iterations=");
        assert_non_null(at);
        assert_int_equal(sscanf(at, "iterations=%d", &iterations), 1);
        assert_int_equal(iterations, 1);
        assert_non_null(strstr(out, " status=converged "));
        at = strstr(out, " res_nat=");
        assert_non_null(at);
        assert_int_equal(sscanf(at, " res_nat=%lf", &res_nat), 1);
        assert_true(res_nat <= 1e-12);
        at = strstr(out, " pivots=");
        assert_non_null(at);
        assert_int_equal(sscanf(at, " pivots=%d", &pivots), 1);
        // lemke's crash start can be the answer with no pivot (lemke_crash.c); ppm makes a block pivot at
        // least
        assert_true(pivots >= (strcmp(methods[k], "lemke") == 0 ? 0 : 1));
        // An iteration count or a stagnation window would change nothing: a usage error that says so.
        snprintf(cmd, sizeof cmd, "lcp solve '%s' --solver %s --iterations 7", path, methods[k]);
        cs_test_cli_expect(cmd, 2, "--iterations does nothing for the pivoting method");
        snprintf(cmd, sizeof cmd, "lcp solve '%s' --solver %s --tol 1e-9 --stagnation 5", path, methods[k]);
        cs_test_cli_expect(cmd, 2, "--stagnation does nothing for the pivoting method");
        // With a tolerance it still answers in its one iteration (--max-iterations is the sweeps' cap).
        snprintf(cmd, sizeof cmd, "lcp solve '%s' --solver %s --tol 1e-9 --max-iterations 7", path,
                 methods[k]);
        cs_test_cli_expect(cmd, 0, "iterations=1 ");
    }
    // Lemke needs more than one pivot here (z0 enters, then complementary pivots): a cap of 1 is an error.
    char args[1024];
    snprintf(args, sizeof args, "lcp solve '%s' --solver lemke --max-pivots 1", path);
    cs_test_cli_expect(args, 1, "lemke: pivot cap 1 reached");
    // The budget belongs to pivoting methods only.
    snprintf(args, sizeof args, "lcp solve '%s' --solver pgs --max-pivots 5", path);
    cs_test_cli_expect(args, 2, "--max-pivots is for the pivoting methods (lemke, ppm), not pgs");
}

// Issue 13's row with A_ii = 0 (Jacobian entries on two immovable bodies): refused, exit 3, row named.
static void test_lcp_solve_bad_problem(void** state)
{
    (void)state;
    const char* path = cs_test_write_temp(".lcp", "circlesim-lcp 1\nbodies 2\n0 0 0 0 0\n0 0 0 0 0\nrows 1\n"
                                                  "n 0 1 0 -1 0 0 1 0 -1 0\n");
    char args[1024];
    snprintf(args, sizeof args, "lcp solve '%s' --tol 1e-8", path);
    cs_test_cli_expect(args, 3, "iterations=0 ");
    cs_test_cli_expect(args, 3, " status=bad-problem\n");
    cs_test_cli_expect(args, 3, "bad problem: row 0: zero diagonal");
    snprintf(args, sizeof args, "lcp solve '%s' --iterations 10", path);
    cs_test_cli_expect(args, 3, " status=bad-problem\n");
}

static void test_run_csv_and_converge(void** state)
{
    (void)state;
    const char* csv = cs_test_temp_path(".csv");
    char args[2048];
    snprintf(args, sizeof args, "run '%s' --steps 3 --quiet --csv '%s'",
             cs_test_source_path("scenes/pool1.json"), csv);
    cs_test_cli_expect(args, 0, "");
    FILE* f = fopen(csv, "r");
    assert_non_null(f);
    char line[1024];
    assert_non_null(fgets(line, sizeof line, f));
    // solve_stop follows step_us (later columns, e.g. the engine's events, may come after it).
    const char* col = strstr(line, ",step_us,solve_stop");
    assert_non_null(col);
    int field = 0; // solve_stop's index: the commas before it
    for (const char* c = line; c <= col + 8; ++c)
    {
        field += *c == ',';
    }
    int rows = 0;
    while (fgets(line, sizeof line, f) != NULL)
    {
        const char* value = line;
        for (int k = 0; k < field && value != NULL; ++k)
        {
            value = strchr(value, ',');
            value = value != NULL ? value + 1 : NULL;
        }
        assert_non_null(value);
        assert_int_equal(strncmp(value, "budget", 6), 0); // the scene runs 10 sweeps, no tolerance
        assert_true(value[6] == ',' || value[6] == '\n');
        rows += 1;
    }
    fclose(f);
    assert_int_equal(rows, 3);

    snprintf(args, sizeof args,
             "converge '%s' --at-step 100 --tol 1e-6 --solvers pgs --max-iterations 100000 --csv '%s'",
             cs_test_source_path("scenes/pool1.json"), csv);
    cs_test_cli_expect(args, 0, "  converged\n");
    snprintf(args, sizeof args, "converge '%s' --at-step 100 --tol 1e-14 --solvers pgs --max-iterations 3",
             cs_test_source_path("scenes/pool1.json"));
    cs_test_cli_expect(args, 0, "  iteration-limit\n");
}

// An option that does nothing for the chosen solver is a usage error naming both, in every command.
static void test_option_unused_by_solver(void** state)
{
    (void)state;
    const char* path = cs_test_write_temp(".lcp", problem);
    const char* pool = cs_test_source_path("scenes/pool1.json");
    char args[2048];
    snprintf(args, sizeof args, "lcp solve '%s' --alpha 0.3", path);
    cs_test_cli_expect(args, 2, "--alpha does nothing for solver pgs (used by: amgs, amgs-dense");
    snprintf(args, sizeof args, "lcp solve '%s' --solver amgs --relaxation 1.5", path);
    cs_test_cli_expect(args, 2, "--relaxation does nothing for solver amgs (used by: psor, pssor");
    snprintf(args, sizeof args, "lcp solve '%s' --solver psor --literal", path);
    cs_test_cli_expect(args, 2, "--literal does nothing for solver psor (used by: amgs)");
    snprintf(args, sizeof args, "lcp solve '%s' --solver psor --relaxation 1.5", path);
    cs_test_cli_expect(args, 0, " status=budget\n");
    snprintf(args, sizeof args, "lcp solve '%s' --solver psor --relaxation 2", path);
    cs_test_cli_expect(args, 2, "--relaxation: expected a number in (0, 2), got '2'");
    snprintf(args, sizeof args, "lcp solve '%s' --solver amgs --alpha 1e308", path);
    cs_test_cli_expect(args, 2, "--alpha: expected a number in [1e-06, 1e+06], got '1e308'");
    snprintf(args, sizeof args, "lcp solve '%s' --solver amgs-dense --gamma 1e200 --alpha 1e200", path);
    cs_test_cli_expect(args, 2, "expected a number in [1e-06, 1e+06]");
    snprintf(args, sizeof args, "lcp solve '%s' --solver psor --relaxation 1e308", path);
    cs_test_cli_expect(args, 2, "--relaxation: expected a number in (0, 2)");
    // run: the scene's solver (pgs) when --solver is not given.
    snprintf(args, sizeof args, "run '%s' --steps 1 --gamma 3", pool);
    cs_test_cli_expect(args, 2,
                       "run: --gamma does nothing for solver pgs (used by: amgs, amgs-omega, amgs-dense");
    snprintf(args, sizeof args, "run '%s' --steps 1 --quiet --solver pssor --relaxation 0.8", pool);
    cs_test_cli_expect(args, 0, "");
    snprintf(args, sizeof args, "converge '%s' --at-step 2 --tol 1e-3 --solvers pgs,psor --alphas 0.3", pool);
    cs_test_cli_expect(args, 2, "converge: --alphas does nothing for the solvers pgs, psor");
    snprintf(args, sizeof args, "converge '%s' --at-step 2 --tol 1e-3 --solvers pgs --gamma 3", pool);
    cs_test_cli_expect(args, 2, "converge: --gamma does nothing for solver pgs");
    snprintf(args, sizeof args, "table2 '%s' --solvers pgs --alphas 0.3", pool);
    cs_test_cli_expect(args, 2, "table2: --alphas does nothing for solver pgs");
    cs_test_cli_expect("bench --solvers pgs,pssor --alphas 0.3", 2,
                       "bench: --alphas does nothing for the solvers");
}

// lcp info's dense diagnostics on problems whose answers are known in closed form.
static void test_lcp_info_diagnostics(void** state)
{
    (void)state;
    // Two discs each on the floor, frictionless: A = diag(1, 0.01), cond 100, fixed bounds, SPD.
    const char* spd =
        cs_test_write_temp(".lcp", "circlesim-lcp 1\nbodies 2\n1 2 0 -1 0\n0.01 2 0 -1 0\nrows 2\n"
                                   "n 0 -1 0 1 0 0 0 0 0 0\n"
                                   "n 1 -1 0 1 0 0 0 0 0 0\n");
    char args[1024];
    snprintf(args, sizeof args, "lcp info '%s'", spd);
    cs_test_cli_expect(args, 0, "\nrank_A=2\nsingular=no\nrank_normal=2 of 2\ncond_normal=1.000e+02\n");
    cs_test_cli_expect(args, 0, "\nbounds=fixed\n");
    cs_test_cli_expect(args, 0, "\nconverges=pgs,");
    cs_test_cli_expect(args, 0, "\nwhy_amgs=Theorem 4.2");
    // One disc in a corner with friction at both contacts: 4 rows, 3 degrees of freedom, so A is singular.
    const char* corner = cs_test_write_temp(".lcp", "circlesim-lcp 1\nbodies 1\n1 2 -1 -1 0\nrows 4\n"
                                                    "n 0 -1 0 1 0 0 0 0 0 0\n"
                                                    "f 0 -1 1 0 -0.5 0 0 0 0 0 0 0.5\n"
                                                    "n 0 -1 1 0 0 0 0 0 0 0\n"
                                                    "f 0 -1 0 -1 -0.5 0 0 0 0 0 2 0.5\n");
    snprintf(args, sizeof args, "lcp info '%s'", corner);
    cs_test_cli_expect(args, 0, "\ndof=3\nrank_A=3\nsingular=yes\nrank_normal=2 of 2\n");
    cs_test_cli_expect(args, 0, "\nbounds=moving");
    cs_test_cli_expect(args, 0, "\nconverges=none\n");
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lcp_solve_status),        cmocka_unit_test(test_lcp_solve_pivoting),
        cmocka_unit_test(test_lcp_solve_bad_problem),   cmocka_unit_test(test_run_csv_and_converge),
        cmocka_unit_test(test_option_unused_by_solver), cmocka_unit_test(test_lcp_info_diagnostics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
