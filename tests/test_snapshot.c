// Snapshots resume bit for bit: 100 steps + save + load + 100 steps has the state hash of 200 steps, for
// each solver with vector sweeps on, through the library and through `run --state-out / --state-in`; and
// snapshot files are validated like scenes.
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void step_n(cs_world* w, int n)
{
    for (int s = 0; s < n; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
}

static cs_world* pool(const char* solver, bool frictionless, cs_row_order order)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), NULL, &err);
    assert_non_null(w);
    cs_world_set_solver(w, cs_solver_find(solver));
    cs_world_set_frictionless(w, frictionless);
    assert_true(cs_world_set_row_order(w, order));
    assert_true(cs_world_solver_params(w)->simd); // the default: vector sweeps where the CPU has them
    return w;
}

static void resume_matches_uninterrupted_run(void** state)
{
    (void)state;
    const char* solvers[] = {"pgs", "amgs", "amgs-omega"};
    for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; ++k)
    {
        for (int variant = 0; variant < 2; ++variant)
        {
            bool frictionless = variant == 1;
            cs_row_order order = variant == 1 ? CS_ROW_ORDER_KEY : CS_ROW_ORDER_COLOURED;
            cs_world* straight = pool(solvers[k], frictionless, order);
            step_n(straight, 200);
            cs_world* first = pool(solvers[k], frictionless, order);
            step_n(first, 100);
            assert_true(cs_world_contact_count(first) > 100);
            const char* path = cs_test_temp_path(".json");
            cs_error err = {CS_OK, ""};
            assert_int_equal(cs_world_save_state(first, path, &err), CS_OK);
            cs_world* resumed = cs_world_load_state(path, &err);
            if (resumed == NULL)
            {
                fail_msg("%s", err.message);
            }
            // The loaded world is the saved one: same bodies, contacts, step count and settings.
            assert_int_equal(cs_world_hash(resumed), cs_world_hash(first));
            assert_int_equal(cs_world_stats(resumed)->step, 100);
            assert_int_equal(cs_world_contact_count(resumed), cs_world_contact_count(first));
            assert_int_equal(cs_world_solver(resumed), cs_solver_find(solvers[k]));
            assert_int_equal(cs_world_get_def(resumed)->frictionless, frictionless);
            step_n(resumed, 100);
            assert_int_equal(cs_world_stats(resumed)->step, 200);
            if (cs_world_hash(resumed) != cs_world_hash(straight))
            {
                fail_msg("%s variant %d: resumed hash %016llx, straight %016llx", solvers[k], variant,
                         (unsigned long long)cs_world_hash(resumed),
                         (unsigned long long)cs_world_hash(straight));
            }
            // Without the contacts' impulses the warm start differs and so do the bits: the test can fail.
            cs_world_destroy(resumed);
            cs_world_destroy(first);
            cs_world_destroy(straight);
        }
    }
}

// The warm start matters: a snapshot whose contacts are dropped resumes to a different state.
static void contacts_are_what_makes_it_exact(void** state)
{
    (void)state;
    cs_world* straight = pool("pgs", false, CS_ROW_ORDER_COLOURED);
    step_n(straight, 200);
    cs_world* first = pool("pgs", false, CS_ROW_ORDER_COLOURED);
    step_n(first, 100);
    const char* path = cs_test_temp_path(".json");
    cs_error err = {CS_OK, ""};
    assert_int_equal(cs_world_save_state(first, path, &err), CS_OK);
    // Cut the contacts array out of the file.
    FILE* f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char* contacts = strstr(text, "\"contacts\": [");
    assert_non_null(contacts);
    strcpy(contacts, "\"contacts\": []\n}\n");
    cs_world* cold = cs_world_load_state_string(text, "cut.json", &err);
    assert_non_null(cold);
    step_n(cold, 100);
    assert_int_not_equal(cs_world_hash(cold), cs_world_hash(straight));
    cs_world_destroy(cold);
    cs_world_destroy(first);
    cs_world_destroy(straight);
}

static void cli_state_out_then_in(void** state)
{
    (void)state;
    const char* pool1 = cs_test_source_path("scenes/pool1.json");
    const char* snap = cs_test_temp_path(".json");
    char cmd[4096], out[8192], straight[8192];
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli run %s --steps 200 --solver amgs", CS_BINARY_DIR, pool1);
    assert_int_equal(cs_test_run(cmd, straight, sizeof straight), 0);
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli run %s --steps 100 --solver amgs --quiet --state-out %s",
             CS_BINARY_DIR, pool1, snap);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli run --state-in %s --steps 100", CS_BINARY_DIR, snap);
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    const char* hash = strstr(straight, "state hash");
    assert_non_null(hash);
    char line[64];
    snprintf(line, sizeof line, "%.29s", hash);
    assert_non_null(strstr(out, line));
    assert_non_null(strstr(out, "steps        200"));
    assert_non_null(strstr(out, "solver       amgs"));
    // Usage: --state-in replaces SCENE and needs --steps.
    snprintf(cmd, sizeof cmd, "run --state-in %s", snap);
    cs_test_cli_expect(cmd, 2, "--state-in replaces SCENE and needs --steps");
    snprintf(cmd, sizeof cmd, "run %s --state-in %s --steps 1", pool1, snap);
    cs_test_cli_expect(cmd, 2, "--state-in replaces SCENE");
}

static void expect_snapshot_error(const char* text, const char* expected)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_world_load_state_string(text, "s.json", &err);
    if (w != NULL)
    {
        cs_world_destroy(w);
        fail_msg("loaded: %s", text);
    }
    if (strstr(err.message, expected) == NULL)
    {
        fail_msg("'%s' lacks '%s'", err.message, expected);
    }
}

#define HEAD                                                                                                 \
    "{\"circlesim_state\": 1, \"step\": 5, \"world\": {}, \"solver\": \"pgs\", \"walls\": [],\n"             \
    "\"body_fields\": [\"x\", \"y\", \"angle\", \"vx\", \"vy\", \"omega\", \"radius\", \"mass\", "           \
    "\"friction\", \"restitution\", \"fx\", \"fy\"],\n"                                                      \
    "\"contact_fields\": [\"a\", \"b\", \"wall\", \"nx\", \"ny\", \"px\", \"py\", \"gap\", \"ra\", \"rb\", " \
    "\"friction\", \"restitution\", \"normal_impulse\", \"friction_impulse\"],\n"
#define BODY "[0, 0, 0, 0, 0, 0, 0.5, 1, 0.1, 0.2, 0, 0]"

static void snapshots_are_validated_like_scenes(void** state)
{
    (void)state;
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_world_load_state_string(HEAD "\"bodies\": [" BODY ", " BODY "], \"contacts\": []}",
                                             "s.json", &err);
    if (w == NULL)
    {
        fail_msg("%s", err.message);
    }
    assert_int_equal(cs_world_body_count(w), 2);
    assert_int_equal(cs_world_stats(w)->step, 5);
    cs_world_destroy(w);
    expect_snapshot_error("{\"circlesim_state\": 2}",
                          "s.json:1:21: circlesim_state: must be an integer in [1, 1]");
    expect_snapshot_error(HEAD "\"bodies\": [[0, 0, 0]], \"contacts\": []}",
                          "s.json:4:12: bodies[0]: must be an array of 12 numbers");
    expect_snapshot_error(HEAD
                          "\"bodies\": [[0, 0, 0, 0, 0, 0, 1e308, 1, 0.1, 0.2, 0, 0]], \"contacts\": []}",
                          "s.json:4:12: bodies[0]: circle: radius: must be in");
    expect_snapshot_error(HEAD
                          "\"bodies\": [[0, 0, 0, 1e300, 0, 0, 0.5, 1, 0.1, 0.2, 0, 0]], \"contacts\": []}",
                          "bodies[0][3]: vx must be within 1e+08");
    expect_snapshot_error(HEAD "\"bodies\": [" BODY ", " BODY
                               "], \"contacts\": [[0, 1, -1, 0, 1, 0, 0, 0, 0, "
                               "0, 0, 0, 1, 0], [0, 1, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]]}",
                          "contacts[1]: contacts must be in key order");
    expect_snapshot_error(HEAD "\"bodies\": [" BODY
                               "], \"contacts\": [[0, 3, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]]}",
                          "contacts[0]: a contact is [a, b, wall");
    expect_snapshot_error(HEAD "\"bodies\": [" BODY "], \"contacts\": [], \"extra\": 1}",
                          "extra: unknown key");
    expect_snapshot_error(HEAD "\"bodies\": [" BODY "]}", "missing required key \"contacts\"");
    expect_snapshot_error(HEAD "\"bodies\": [" BODY, "s.json:4:54: invalid JSON");
    // The reader's size limit: /dev/zero stops at its first byte.
    assert_null(cs_world_load_state("/dev/zero", &err));
    assert_non_null(strstr(err.message, "/dev/zero: byte 1 is NUL"));
    // A path that cannot be written is an I/O error naming it.
    w = cs_world_create(NULL, &err);
    cs_circle_def c = cs_circle_def_default();
    assert_int_equal(cs_world_add_circle(w, &c, &err), 0);
    assert_int_equal(cs_world_save_state(w, "/nonexistent-dir/x.json", &err), CS_ERR_IO);
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resume_matches_uninterrupted_run),
        cmocka_unit_test(contacts_are_what_makes_it_exact),
        cmocka_unit_test(cli_state_out_then_in),
        cmocka_unit_test(snapshots_are_validated_like_scenes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
