// Snapshots resume bit for bit: 100 steps + save + load + 100 steps has the state hash of 200 steps, for
// each solver with vector sweeps on, through the library and through `run --state-out / --state-in`; and
// snapshot files are validated like scenes.
#include "engine_world.h"
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

// `w` saved to a temporary file (its path into *path when asked) and loaded back; fails the test on error.
static cs_world* save_and_load(const cs_world* w, const char** path)
{
    const char* file = cs_test_temp_path(".json");
    cs_error err = {CS_OK, ""};
    assert_int_equal(cs_world_save_state(w, file, &err), CS_OK);
    cs_world* loaded = cs_world_load_state(file, &err);
    if (loaded == NULL)
    {
        fail_msg("%s", err.message);
    }
    if (path != NULL)
    {
        *path = file;
    }
    return loaded;
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
            cs_world* resumed = save_and_load(first, NULL);
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
    static char text[1 << 20];
    cs_test_read_text(path, text, sizeof text);
    char* contacts = strstr(text, "\"contacts\": [");
    char* joints = strstr(text, "\n  \"joints\": [");
    assert_non_null(contacts);
    assert_non_null(joints);
    strcpy(contacts, "\"contacts\": [],");
    memmove(contacts + strlen(contacts), joints, strlen(joints) + 1);
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

#define HEAD HEAD_WORLD("{}")
#define HEAD_WORLD(world)                                                                                    \
    "{\"circlesim_state\": 2, \"step\": 5, \"world\": " world                                                \
    ", \"contact_events\": true, \"solver\": \"pgs\",\n"                                                     \
    "\"walls\": [],\n"                                                                                       \
    "\"body_fields\": [\"x\", \"y\", \"angle\", \"vx\", \"vy\", \"omega\", \"radius\", \"mass\", "           \
    "\"friction\", \"restitution\", \"fx\", \"fy\", \"type\", \"alive\", \"generation\", \"sensor\", "       \
    "\"bullet\", \"category\", \"mask\", \"group\", \"asleep\", \"sleep_time\", \"island_next\"],\n"         \
    "\"contact_fields\": [\"a\", \"b\", \"wall\", \"nx\", \"ny\", \"px\", \"py\", \"gap\", \"ra\", \"rb\", " \
    "\"friction\", \"restitution\", \"normal_impulse\", \"friction_impulse\"],\n"                            \
    "\"touch_fields\": [\"key_high\", \"key_low\", \"body_a\", \"body_b\", \"wall\", \"x\", \"y\"],\n"
// A body row: 12 motion and material numbers, then type, alive, generation, sensor, bullet, category,
// mask, group, asleep, sleep_time, island_next.
#define ROW(motion, codes)           "[" motion ", " codes "]"
#define MOTION                       "0, 0, 0, 0, 0, 0, 0.5, 1, 0.1, 0.2, 0, 0"
#define AWAKE                        "0, 1, 0, 0, 0, 1, 4294967295, 0, 0, 0, -1"
#define BODY                         ROW(MOTION, AWAKE)
#define REMOVED                      ROW("0, 0, 0, 0, 0, 0, 0.5, 0, 0.1, 0.2, 0, 0", "1, 0, 1, 0, 0, 1, 4294967295, 0, 0, 0, -1")
#define EMPTY_LISTS                  "\"contacts\": [], \"joints\": [], \"touching\": [], \"overlaps\": []"
#define TWO_BODIES                   "\"bodies\": [" BODY ", " BODY "], \"alive_order\": [0, 1], \"free_slots\": [], "
#define SNAP(bodies_and_lists, rest) HEAD bodies_and_lists rest "}"

static void snapshots_are_validated_like_scenes(void** state)
{
    (void)state;
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_world_load_state_string(SNAP(TWO_BODIES, EMPTY_LISTS), "s.json", &err);
    if (w == NULL)
    {
        fail_msg("%s", err.message);
    }
    assert_int_equal(cs_world_body_count(w), 2);
    assert_int_equal(cs_world_stats(w)->step, 5);
    cs_world_destroy(w);
    // A removed slot is listed free, keeps its generation, and the next body takes it with the next id.
    w = cs_world_load_state_string(
        SNAP("\"bodies\": [" BODY ", " REMOVED "], \"alive_order\": [0], \"free_slots\": [1], ", EMPTY_LISTS),
        "s.json", &err);
    if (w == NULL)
    {
        fail_msg("%s", err.message);
    }
    assert_int_equal(cs_world_body_count(w), 1);
    assert_false(cs_world_body_alive(w, 1));
    cs_circle_def c = cs_circle_def_default();
    assert_int_equal(cs_world_add_circle(w, &c, &err), 1 | (1 << 23));
    cs_world_destroy(w);

    expect_snapshot_error("{\"circlesim_state\": 1}",
                          "s.json:1:21: circlesim_state: must be an integer in [2, 2]");
    expect_snapshot_error(
        SNAP("\"bodies\": [[0, 0, 0]], \"alive_order\": [0], \"free_slots\": [], ", EMPTY_LISTS),
        "s.json:6:12: bodies[0]: must be an array of 23 numbers");
    expect_snapshot_error(SNAP("\"bodies\": [" ROW("0, 0, 0, 0, 0, 0, 1e308, 1, 0.1, 0.2, 0, 0",
                                                   AWAKE) "], \"alive_order\": [0], \"free_slots\": [], ",
                               EMPTY_LISTS),
                          "s.json:6:12: bodies[0]: circle: radius: must be in");
    expect_snapshot_error(SNAP("\"bodies\": [" ROW("0, 0, 0, 1e300, 0, 0, 0.5, 1, 0.1, 0.2, 0, 0",
                                                   AWAKE) "], \"alive_order\": [0], \"free_slots\": [], ",
                               EMPTY_LISTS),
                          "bodies[0][3]: vx must be within 1e+08");
    expect_snapshot_error(
        SNAP("\"bodies\": [" ROW(
                 MOTION,
                 "3, 1, 0, 0, 0, 1, 4294967295, 0, 0, 0, -1") "], \"alive_order\": [0], \"free_slots\": [], ",
             EMPTY_LISTS),
        "bodies[0][12]: type must be an integer in [0, 2], got 3");
    expect_snapshot_error(
        SNAP("\"bodies\": [" ROW(MOTION,
                                 "0, 1, 256, 0, 0, 1, 4294967295, 0, 0, 0, -1") "], \"alive_order\": [0], "
                                                                                "\"free_slots\": [], ",
             EMPTY_LISTS),
        "bodies[0][14]: generation must be an integer in [0, 255]");
    expect_snapshot_error(
        SNAP("\"bodies\": [" ROW(
                 MOTION, "0, 1, 0, 0, 0, 4294967296, 4294967295, 0, 0, 0, -1") "], \"alive_order\": [0], "
                                                                               "\"free_slots\": [], ",
             EMPTY_LISTS),
        "bodies[0][17]: category must be an integer in [0, 4294967295]");
    // A removed slot that still has mass, a sleeping body that moves, a broken island ring.
    expect_snapshot_error(
        SNAP("\"bodies\": [" ROW(
                 MOTION,
                 "0, 0, 0, 0, 0, 1, 4294967295, 0, 0, 0, -1") "], \"alive_order\": [], \"free_slots\": [0], ",
             EMPTY_LISTS),
        "bodies[0][13]: a removed slot (alive 0) is static");
    expect_snapshot_error(
        SNAP(
            "\"bodies\": [" ROW(
                "0, 0, 0, 1, 0, 0, 0.5, 1, 0.1, 0.2, 0, 0",
                "0, 1, 0, 0, 0, 1, 4294967295, 0, 1, 0.6, 0") "], \"alive_order\": [0], \"free_slots\": [], ",
            EMPTY_LISTS),
        "bodies[0][20]: only an alive dynamic body sleeps, and it has zero velocity");
    expect_snapshot_error(
        HEAD_WORLD("{\"sleep\": true}") "\"bodies\": [" ROW(
            MOTION,
            "0, 1, 0, 0, 0, 1, 4294967295, 0, 1, "
            "0.6, 0") ", " ROW(MOTION,
                               "0, 1, 0, 0, 0, 1, 4294967295, 0, 1, 0.6, 0") "], \"alive_order\": [0, 1], "
                                                                             "\"free_slots\": "
                                                                             "[], " EMPTY_LISTS "}",
        "bodies[1][22]: island_next of a sleeping body is another sleeping slot");
    expect_snapshot_error(
        SNAP(
            "\"bodies\": [" ROW(
                MOTION,
                "0, 1, 0, 0, 0, 1, 4294967295, 0, 1, 0.6, 0") "], \"alive_order\": [0], \"free_slots\": [], ",
            EMPTY_LISTS),
        "bodies[0][20]: a body sleeps only in a world with \"sleep\": true");
    expect_snapshot_error(
        SNAP("\"bodies\": [" BODY ", " BODY "], \"alive_order\": [0], \"free_slots\": [], ", EMPTY_LISTS),
        "alive_order: lists 1 slots; the bodies have 2 alive ones");
    expect_snapshot_error(
        SNAP("\"bodies\": [" BODY ", " REMOVED "], \"alive_order\": [1], \"free_slots\": [0], ", EMPTY_LISTS),
        "alive_order[0]: slot 1 is removed (alive 0)");
    expect_snapshot_error(
        SNAP("\"bodies\": [" BODY ", " BODY "], \"alive_order\": [0, 0], \"free_slots\": [], ", EMPTY_LISTS),
        "alive_order[1]: slot 0 is listed twice");
    // Contacts, joints and touching lists name alive slots, in order.
    expect_snapshot_error(SNAP(TWO_BODIES,
                               "\"contacts\": [[0, 1, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0], [0, 1, "
                               "-1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]], \"joints\": [], \"touching\": "
                               "[], \"overlaps\": []"),
                          "contacts[1]: contacts must be in key order");
    expect_snapshot_error(SNAP(TWO_BODIES, "\"contacts\": [[0, 3, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]], "
                                           "\"joints\": [], \"touching\": [], \"overlaps\": []"),
                          "contacts[0]: a contact is [a, b, wall");
    // Numbers no int holds, and fractions, in each index field (fuzz_scene found −1e104 cast to int).
    static const char* const beyond[] = {
        "[-1e104, 1, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]", "[0, 1e104, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]",
        "[-1, 1, 3e9, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]",    "[0.5, 1, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]",
        "[0, 1, -1.5, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]",    "[-2, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]"};
    for (size_t k = 0; k < sizeof beyond / sizeof beyond[0]; ++k)
    {
        char contacts[256];
        snprintf(contacts, sizeof contacts,
                 "\"contacts\": [%s], \"joints\": [], \"touching\": [], \"overlaps\": []", beyond[k]);
        char text[8192];
        int n = snprintf(text, sizeof text, "%s%s}", HEAD TWO_BODIES, contacts);
        assert_true(n > 0 && (size_t)n < sizeof text);
        expect_snapshot_error(text, "contacts[0]: a contact is [a, b, wall");
    }
    expect_snapshot_error(
        SNAP("\"bodies\": [" BODY ", " REMOVED "], \"alive_order\": [0], \"free_slots\": [1], ",
             "\"contacts\": [[0, 1, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]], \"joints\": [], \"touching\": [], "
             "\"overlaps\": []"),
        "contacts[0]: a contact is between alive bodies (slot 1 is removed)");
#define JOINT(a, b, len, alive)                                                                              \
    "{\"a\": " a ", \"b\": " b ", \"anchor_a\": [0, 0], \"anchor_b\": [0, 0], \"length\": " len              \
    ", \"rope\": false, \"collide\": false, \"alive\": " alive ", \"impulse\": 0, \"stretch\": 0}"
    expect_snapshot_error(
        SNAP(TWO_BODIES, "\"contacts\": [], \"joints\": [" JOINT(
                             "1", "1", "1", "true") "], \"touching\": [], \"overlaps\": []"),
        "joints[0]: a joint joins two different slots");
    expect_snapshot_error(
        SNAP(TWO_BODIES, "\"contacts\": [], \"joints\": [" JOINT(
                             "0", "1", "0", "true") "], \"touching\": [], \"overlaps\": []"),
        "joints[0].length: must be");
    expect_snapshot_error(
        SNAP(TWO_BODIES, "\"contacts\": [], \"joints\": [" JOINT(
                             "-1", "2", "1", "true") "], \"touching\": [], \"overlaps\": []"),
        "joints[0].b: must be an integer in [0, 1]");
    expect_snapshot_error(
        SNAP("\"bodies\": [" BODY ", " REMOVED "], \"alive_order\": [0], \"free_slots\": [1], ",
             "\"contacts\": [], \"joints\": [" JOINT("0", "1", "1",
                                                     "true") "], \"touching\": [], \"overlaps\": []"),
        "joints[0]: an alive joint joins alive bodies (slot 1 is removed)");
    expect_snapshot_error(SNAP(TWO_BODIES,
                               "\"contacts\": [], \"joints\": [], \"touching\": [[0, 1, 0, 1, -1, 0, 0], "
                               "[0, 1, 0, 1, -1, 0, 0]], \"overlaps\": []"),
                          "touching[1]: entries must be in strictly increasing key order");
    expect_snapshot_error(SNAP(TWO_BODIES,
                               "\"contacts\": [], \"joints\": [], \"touching\": [], \"overlaps\": "
                               "[[0, 1.5, 0, 1, -1, 0, 0]]"),
                          "overlaps[0][1]: key_low must be an integer");
    expect_snapshot_error(SNAP(TWO_BODIES, EMPTY_LISTS ", \"extra\": 1"), "extra: unknown key");
    expect_snapshot_error(SNAP(TWO_BODIES, "\"contacts\": [], \"joints\": [], \"touching\": []"),
                          "missing required key \"overlaps\"");
    expect_snapshot_error(HEAD "\"bodies\": [" BODY, "s.json:6:97: invalid JSON");
    // The reader's size limit: /dev/zero stops at its first byte.
    assert_null(cs_world_load_state("/dev/zero", &err));
    assert_non_null(strstr(err.message, "/dev/zero: byte 1 is NUL"));
    // A path that cannot be written is an I/O error naming it.
    w = cs_world_create(NULL, &err);
    assert_int_equal(cs_world_add_circle(w, &c, &err), 0);
    assert_int_equal(cs_world_save_state(w, "/nonexistent-dir/x.json", &err), CS_ERR_IO);
    cs_world_destroy(w);
}

static char* read_all(const char* path)
{
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

// The engine world (tests/support/engine_world.h) at step 100 has removed slots, a dead joint, a rod to
// the world, static, kinematic, sensor, filtered and sleeping bodies and contact events; after 100 more
// steps (with removals and additions that reuse freed slots) a resumed world has the state hash, the ids
// and the events of the uninterrupted run, step by step.
static void engine_state_resumes(void** state)
{
    (void)state;
    cs_world* straight = cs_test_engine_world();
    uint64_t digest[100];
    bool woke = false;
    for (int s = 1; s <= 200; ++s)
    {
        uint64_t d = cs_test_engine_step(straight);
        if (s > 100)
        {
            digest[s - 101] = d;
            woke = woke || (s > 120 && !cs_world_body_asleep(straight, 0));
        }
    }
    assert_true(woke); // the ball dropped at step 120 wakes the stack that slept at step 100
    cs_world* first = cs_test_engine_world();
    for (int s = 1; s <= 100; ++s)
    {
        cs_test_engine_step(first);
    }
    // What step 100 holds: a sleeping stack, an awake pendulum, two removed slots, a dead rope.
    assert_true(cs_world_body_asleep(first, 0));
    assert_true(cs_world_awake_count(first) > 0);
    assert_int_equal(cs_world_body_count(first), 11);
    assert_false(cs_world_joint(first, 1).alive);
    assert_true(cs_world_joint(first, 0).alive && cs_world_joint(first, 0).impulse != 0.0);
    const char* path = NULL;
    cs_world* resumed = save_and_load(first, &path);
    cs_error err = {CS_OK, ""};
    // Saved again, the loaded world writes the same file: the reader keeps all the writer wrote.
    const char* again = cs_test_temp_path(".json");
    assert_int_equal(cs_world_save_state(resumed, again, &err), CS_OK);
    char* a = read_all(path);
    char* b = read_all(again);
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_int_equal(cs_world_hash(resumed), cs_world_hash(first));
    assert_int_equal(cs_world_awake_count(resumed), cs_world_awake_count(first));
    assert_true(cs_world_sleeping_enabled(resumed));
    assert_true(cs_world_get_def(resumed)->hit_event_threshold == 0.5);
    for (int s = 101; s <= 200; ++s)
    {
        uint64_t d = cs_test_engine_step(resumed);
        if (d != digest[s - 101])
        {
            fail_msg("step %d: the resumed run's events, new ids or awake count differ", s);
        }
    }
    assert_int_equal(cs_world_hash(resumed), cs_world_hash(straight));
    // The sleep state is part of what makes it exact: woken at the fork, the same world runs differently (its
    // awake counts; its end state too, unless the woken bodies were as still as the sleepers: relax's
    // support pass, world/shock.c, holds a resting pile exactly still).
    cs_world* woken = cs_world_load_state(path, &err);
    assert_non_null(woken);
    cs_world_enable_sleeping(woken, false);
    cs_world_enable_sleeping(woken, true);
    bool differs = false;
    for (int s = 101; s <= 200; ++s)
    {
        differs = cs_test_engine_step(woken) != digest[s - 101] || differs;
    }
    assert_true(differs || cs_world_hash(woken) != cs_world_hash(straight));
    cs_world_destroy(woken);
    cs_world_destroy(resumed);
    cs_world_destroy(first);
    cs_world_destroy(straight);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resume_matches_uninterrupted_run),
        cmocka_unit_test(contacts_are_what_makes_it_exact),
        cmocka_unit_test(cli_state_out_then_in),
        cmocka_unit_test(snapshots_are_validated_like_scenes),
        cmocka_unit_test(engine_state_resumes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
