// `converge --active-set` (the MNS paper's Table 2 measure) and `converge --solvers all`, as a user runs
// them.
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLI CS_BINARY_DIR "/circlesim-cli"

static char out[1 << 16];

typedef struct row
{
    char solver[64];
    int k, identified, active;
} row;

// Reads scene,solver,alpha,k,identified,active lines.
static int read_rows(const char* csv, row* rows, int max)
{
    FILE* f = fopen(csv, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "scene,solver,alpha,k,identified,active\n");
    int n = 0;
    while (n < max && fgets(line, sizeof line, f))
    {
        char* fields[6];
        char* s = line;
        for (int i = 0; i < 6; ++i)
        {
            fields[i] = s;
            s = strchr(s, ',');
            if (s != NULL)
            {
                *s++ = '\0';
            }
            else
            {
                assert_int_equal(i, 5);
            }
        }
        snprintf(rows[n].solver, sizeof rows[n].solver, "%s", fields[1]);
        rows[n].k = atoi(fields[3]);
        rows[n].identified = atoi(fields[4]);
        rows[n].active = atoi(fields[5]);
        n += 1;
    }
    fclose(f);
    return n;
}

// Pool 1 at step 20 (the break: many separating contacts, so a large optimal active set): lemke's own
// answer identifies all of it at once, a converged Newton solve all of it by k = 50, PGS most of it.
static void active_set_on_the_break(void** state)
{
    (void)state;
    const char* csv = cs_test_temp_path(".csv");
    char cmd[4096];
    snprintf(
        cmd, sizeof cmd,
        "%s converge %s --at-step 20 --tol 1e-10 --frictionless --solvers pgs,newton-minmap,lemke --repeat 1 "
        "--active-csv %s",
        CLI, cs_test_source_path("scenes/pool1.json"), csv);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    // The reference is an exact method's (ppm first, lemke when ppm refuses).
    assert_true(strstr(out, "optimal active set from ppm") != NULL ||
                strstr(out, "optimal active set from lemke") != NULL);
    assert_non_null(strstr(out, "identified after k iterations (MNS Table 2)"));
    row rows[64];
    int n = read_rows(csv, rows, 64);
    assert_int_equal(n, 15); // 3 solvers × k = 1, 2, 5, 10, 50
    int active = rows[0].active;
    assert_true(active > 100);
    for (int i = 0; i < n; ++i)
    {
        assert_int_equal(rows[i].active, active);
        assert_true(rows[i].identified >= 0 && rows[i].identified <= active);
        if (strcmp(rows[i].solver, "lemke") == 0 ||
            (strcmp(rows[i].solver, "newton-minmap") == 0 && rows[i].k == 50))
        {
            assert_int_equal(rows[i].identified, active);
        }
        if (strcmp(rows[i].solver, "pgs") == 0)
        {
            assert_true(rows[i].identified > active / 2);
        }
    }
}

// --solvers all: every registered method gets a line in the table.
static void all_solvers(void** state)
{
    (void)state;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s converge %s --at-step 50 --tol 1e-6 --solvers all --repeat 1", CLI,
             cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    for (int i = 0; i < cs_solver_count(); ++i)
    {
        char name[80];
        snprintf(name, sizeof name, "\n%s", cs_solver_at(i)->name);
        assert_non_null(strstr(out, name));
    }
}

// A problem whose answer has no active row (MNS: no λ at a bound; one approaching contact, λ > 0): there is
// no fraction to measure, and the table says so instead of printing 1.000 ("all of it identified").
static void empty_active_set(void** state)
{
    (void)state;
    const char* path = cs_test_write_temp(".lcp", "circlesim-lcp 1\nbodies 2\n1 1 1 0 0\n1 1 0 0 0\nrows 1\n"
                                                  "n 0 1 -1 0 0 1 0 0 0 0\n");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s converge --problem '%s' --tol 1e-8 --solvers pgs --repeat 1 --active-set",
             CLI, path);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "fraction of the 0 active rows (of 1)"));
    assert_non_null(strstr(out, "the optimal active set is empty"));
    assert_null(strstr(out, "1.000"));
}

static void usage_errors(void** state)
{
    (void)state;
    char args[4096];
    snprintf(args, sizeof args, "converge %s --at-step 5 --tol 1e-6 --active-csv",
             cs_test_source_path("scenes/stacking.json"));
    cs_test_cli_expect(args, 2, "--active-csv");
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(active_set_on_the_break),
        cmocka_unit_test(all_solvers),
        cmocka_unit_test(empty_active_set),
        cmocka_unit_test(usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
