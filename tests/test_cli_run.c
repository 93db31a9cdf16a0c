// circlesim-cli run, driven as a user would: files written, exit codes, and LCP dumps that reproduce the
// world's impulses bit for bit.
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLI CS_BINARY_DIR "/circlesim-cli"

static char out[1 << 16];

static int count_lines(const char* path, char* first_line, size_t size)
{
    FILE* f = fopen(path, "r");
    assert_non_null(f);
    int n = 0;
    char line[4096];
    while (fgets(line, sizeof line, f))
    {
        if (n == 0 && first_line != NULL)
        {
            snprintf(first_line, size, "%s", line);
        }
        n += 1;
    }
    fclose(f);
    return n;
}

static void csv_and_state_files(void** state)
{
    (void)state;
    const char* csv = cs_test_temp_path(".csv");
    const char* st = cs_test_temp_path(".json");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s run %s --steps 50 --csv %s --state-out %s", CLI,
             cs_test_source_path("scenes/pool1.json"), csv, st);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "bodies       221"));
    char header[4096];
    assert_int_equal(count_lines(csv, header, sizeof header), 51);
    const char* required[] = {"step",      "time",    "bodies",          "contacts",         "rows",
                              "res_lcp",   "res_nat", "max_penetration", "mean_penetration", "kinetic_energy",
                              "solver_us", "step_us"};
    for (size_t k = 0; k < sizeof required / sizeof required[0]; ++k)
    {
        assert_non_null(strstr(header, required[k]));
    }
    // --state-out is a snapshot (test_snapshot.c holds that it resumes bit for bit).
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_world_load_state(st, &err);
    assert_non_null(w);
    assert_int_equal(cs_world_body_count(w), 221);
    assert_int_equal(cs_world_stats(w)->step, 50);
    cs_world_destroy(w);
    // The engine's columns come last (issue 16): events of the step, the dynamic bodies awake, and the
    // split-impulse position sweeps taken (issue 12).
    assert_non_null(
        strstr(header, ",step_us,solve_stop,begin_events,end_events,hit_events,awake,position_sweeps\n"));
    FILE* f = fopen(csv, "r");
    assert_non_null(f);
    char line[4096], last[4096] = "";
    while (fgets(line, sizeof line, f) != NULL)
    {
        snprintf(last, sizeof last, "%s", line);
    }
    fclose(f);
    char* sweeps = strrchr(last, ',');
    assert_non_null(sweeps);
    int position_sweeps = atoi(sweeps + 1);
    assert_true(position_sweeps >= 1 && position_sweeps <= 20); // world default position_iterations
    *sweeps = '\0';
    const char* awake = strrchr(last, ',');
    assert_non_null(awake);
    assert_int_equal(atoi(awake + 1), 221); // every ball of Pool 1 is dynamic and awake
}

// The dumped problem, solved again by `lcp solve` with the same solver and iterations, gives the world's λ.
static void dump_reproduces_world_lambda(void** state)
{
    (void)state;
    const char* solvers[] = {"pgs", "amgs", "amgs-omega"};
    for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; ++k)
    {
        const char* lcp = cs_test_temp_path(".lcp");
        const char* sol = cs_test_temp_path(".sol");
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "%s run %s --steps 120 --solver %s --quiet --dump-lcp 100:%s", CLI,
                 cs_test_source_path("scenes/pool1.json"), solvers[k], lcp);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
        snprintf(cmd, sizeof cmd, "%s lcp solve %s --solver %s --iterations 10 --out %s", CLI, lcp,
                 solvers[k], sol);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);

        // The same run in-process.
        cs_error err;
        cs_scene_info info;
        cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), &info, &err);
        assert_non_null(w);
        cs_world_set_solver(w, cs_solver_find(solvers[k]));
        for (int s = 0; s < 100; ++s)
        {
            cs_world_step(w);
        }
        const cs_lcp* p = cs_world_last_problem(w);
        int rows = p->row_count;
        assert_true(rows > 500);
        double* lambda = malloc((size_t)rows * sizeof(double));
        int got = 0;
        assert_int_equal(cs_solution_read(sol, lambda, rows, &got, &err), CS_OK);
        assert_int_equal(got, rows);
        assert_memory_equal(lambda, cs_world_last_lambda(w), (size_t)rows * sizeof(double));

        // And the file holds exactly the world's problem.
        cs_lcp q = {0};
        assert_int_equal(cs_lcp_read(lcp, &q, &err), CS_OK);
        assert_int_equal(q.row_count, rows);
        assert_memory_equal(q.jac, p->jac, (size_t)(6 * rows) * sizeof(double));
        assert_memory_equal(q.bias, p->bias, (size_t)rows * sizeof(double));
        assert_memory_equal(q.lambda0, p->lambda0, (size_t)rows * sizeof(double));
        assert_memory_equal(q.v, p->v, (size_t)(3 * p->body_count) * sizeof(double));
        cs_lcp_free(&q);
        free(lambda);
        cs_world_destroy(w);
    }
}

static void errors_and_exit_codes(void** state)
{
    (void)state;
    char cmd[4096];
    // Missing scene file: run error.
    snprintf(cmd, sizeof cmd, "%s run /nonexistent/scene.json", CLI);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 1);
    assert_non_null(strstr(out, "/nonexistent/scene.json"));
    // Malformed scene: run error with file:line:col.
    const char* bad =
        cs_test_write_temp(".json", "{\n  \"bodies\": [ { \"position\": [0, 1], \"radius\": -1, "
                                    "\"mass\": 1 } ]\n}\n");
    snprintf(cmd, sizeof cmd, "%s run %s", CLI, bad);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 1);
    assert_non_null(strstr(out, ":2:"));
    assert_non_null(strstr(out, "radius"));
    // Usage errors.
    snprintf(cmd, sizeof cmd, "%s run %s --solver nosuch", CLI, cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "pgs"));
    snprintf(cmd, sizeof cmd, "%s run %s --steps many", CLI, cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s run %s --iterations 0", CLI, cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    // An iteration count a pivoting method would ignore (its solve is one iteration) is refused.
    snprintf(cmd, sizeof cmd, "%s run %s --solver lemke --iterations 5 --steps 1", CLI,
             cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "--iterations does nothing for the pivoting method lemke"));
    snprintf(cmd, sizeof cmd, "%s run %s --dump-lcp nocolon", CLI,
             cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s run %s --bogus", CLI, cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s nosuchcommand", CLI);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s run --help", CLI);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "--dump-lcp"));
}

// A solver option on the command line overrides what the scene sets, also when its value is the default
// (run used to compare each option with the default and kept the scene's: --iterations 10 on a scene of 40
// ran 40). The snapshot written after the run holds the world's solver settings.
static void options_override_the_scene(void** state)
{
    (void)state;
    static const char* const scene_of[] = {
        "\"solver\": {\"name\": \"amgs\", \"iterations\": 40, \"alpha\": 0.5, \"gamma\": 3}",
        "\"solver\": {\"name\": \"psor\", \"iterations\": 40, \"relaxation\": 1.5}"};
    static const char* const options_of[] = {"--iterations 10 --alpha 0.2 --gamma 2", "--relaxation 1"};
    cs_solver_params defaults = cs_solver_params_default();
    for (int k = 0; k < 2; ++k)
    {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"name\": \"override\", \"steps\": 5, %s,\n"
                 " \"walls\": [{\"type\": \"half_plane\", \"point\": [0, 0], \"normal\": [0, 1]}],\n"
                 " \"generators\": [{\"type\": \"stack\", \"base\": [0, 0], \"count\": 3, \"radius\": 0.2, "
                 "\"mass\": 1}]}\n",
                 scene_of[k]);
        const char* scene = cs_test_write_temp(".json", text);
        const char* st = cs_test_temp_path("-state.json");
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "%s run %s --steps 2 --quiet %s --state-out %s", CLI, scene, options_of[k],
                 st);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
        cs_error err = {CS_OK, ""};
        cs_world* w = cs_world_load_state(st, &err);
        assert_non_null(w);
        const cs_solver_params* p = cs_world_solver_params(w);
        if (k == 0)
        {
            assert_int_equal(p->iterations, defaults.iterations);
            assert_true(p->alpha == defaults.alpha);
            assert_true(p->gamma == defaults.gamma);
        }
        else
        {
            assert_int_equal(p->iterations, 40); // not given: the scene's
            assert_true(p->relaxation == defaults.relaxation);
        }
        cs_world_destroy(w);
    }
}

// The lines of text, and how many of them after the first start with prefix ("": with a digit).
static int count_rows(const char* text, const char* prefix, int* lines)
{
    int n = 0;
    *lines = 0;
    for (const char* line = text; *line != '\0'; *lines += 1)
    {
        if (*lines > 0)
        {
            n +=
                *prefix != '\0' ? strncmp(line, prefix, strlen(prefix)) == 0 : (*line >= '0' && *line <= '9');
        }
        const char* end = strchr(line, '\n');
        line = end != NULL ? end + 1 : line + strlen(line);
    }
    return n;
}

// --csv - (as bench's): the CSV alone on standard output, the command's table on stderr, and no file named
// '-' — for run, table2 and converge (--csv, --history, --active-csv); the file-only outputs refuse '-'.
static void csv_to_standard_output(void** state)
{
    (void)state;
    char dir[] = "/tmp/cs_csv_stdout_XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char* pool1 = cs_test_source_path("scenes/pool1.json");
    struct
    {
        const char* args;
        const char* header; // the CSV's first line starts so
        int rows;           // lines after it
    } cases[] = {
        {"run %s --steps 7 --csv -", "step,time,", 7},
        {"table2 %s --steps 3 --iterations 10 --solvers pgs,amgs --alphas 0.2 --csv -",
         "scene,solver,alpha,seconds", 2},
        {"converge %s --at-step 5 --tol 1e-6 --solvers pgs --csv -", "scene,solver,alpha,iterations", 1},
        {"converge %s --at-step 5 --tol 1e-6 --solvers pgs --history -", "scene,solver,alpha,iteration,", -1},
        {"converge %s --at-step 5 --tol 1e-6 --solvers pgs --active-set --active-csv -",
         "scene,solver,alpha,k,", 5},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
    {
        char args[1024], cmd[4096];
        snprintf(args, sizeof args, cases[k].args, pool1);
        snprintf(cmd, sizeof cmd, "(cd %s && %s %s 2>/dev/null)", dir, CLI, args);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
        // The first line is the header, every other line a row of it: no table line in between.
        assert_int_equal(strncmp(out, cases[k].header, strlen(cases[k].header)), 0);
        int lines = 0;
        int rows = count_rows(out, k == 0 ? "" : "pool1,", &lines);
        assert_int_equal(rows, lines - 1);
        assert_true(rows >= 1);
        if (cases[k].rows >= 0)
        {
            assert_int_equal(rows, cases[k].rows);
        }
        char dash[4200];
        snprintf(dash, sizeof dash, "%s/-", dir);
        FILE* f = fopen(dash, "r");
        assert_null(f); // written to stdout, not to a file named '-'
        // The table is not lost: it is on stderr.
        snprintf(cmd, sizeof cmd, "(cd %s && %s %s 2>&1 >/dev/null)", dir, CLI, args);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
        assert_true(strlen(out) > 0);
    }
    // The outputs that are files only (a snapshot, an LCP dump) refuse '-' as a usage error naming the
    // option.
    const char* refused[][2] = {{"run %s --steps 2 --state-out -", "--state-out"},
                                {"run %s --steps 2 --csv - --dump-lcp 1:-", "--dump-lcp"},
                                {"converge %s --at-step 5 --tol 1e-6 --lcp-out -", "--lcp-out"}};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; ++k)
    {
        char args[1024], cmd[4096];
        snprintf(args, sizeof args, refused[k][0], pool1);
        snprintf(cmd, sizeof cmd, "(cd %s && %s %s)", dir, CLI, args);
        assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
        char expected[128];
        snprintf(expected, sizeof expected, "%s: '-' (standard output) is for the CSV outputs",
                 refused[k][1]);
        assert_non_null(strstr(out, expected));
    }
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_and_state_files),    cmocka_unit_test(dump_reproduces_world_lambda),
        cmocka_unit_test(errors_and_exit_codes),  cmocka_unit_test(options_override_the_scene),
        cmocka_unit_test(csv_to_standard_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
