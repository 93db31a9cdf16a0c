// A scene that cannot load: one rejection test per error kind, each checking the exact FILE:LINE:COL
// (computed from an anchor in the text, independently of the loader), that the key is named, that the
// message is one line and that nothing is returned; and the CLI prints exactly the loader's line.
#include "test_support.h"
#include "scene_check.h"

#include <stdio.h>
#include <string.h>

// Errors: one test per kind -------------------------------------------------------------------------

#define BODY "{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1}"

// A scene of one body whose section ("world" or "solver") is {settings}, on the second line: it fails at
// anchor, naming key and containing also (cs_test_expect_scene_error).
static void expect_setting_error(const char* section, const char* settings, const char* anchor,
                                 const char* key, const char* also)
{
    char text[512];
    int n = snprintf(text, sizeof text, "{\"bodies\": [" BODY "],\n \"%s\": {%s}}", section, settings);
    assert_true(n > 0 && (size_t)n < sizeof text);
    cs_test_expect_scene_error(text, anchor, key, also);
}

static void test_error_unknown_key(void** state)
{
    (void)state;
    cs_test_expect_scene_error("{\n  \"bodies\": [\n    " BODY
                               ",\n    {\"position\": [0, 3], \"raduis\": 0.5, \"mass\": 1}\n  ]\n}",
                               "\"raduis\"", "bodies[1].raduis", "did you mean \"radius\"");
    cs_test_expect_scene_error("{\"bodys\": [" BODY "]}", "\"bodys\"", "bodys", "did you mean \"bodies\"");
    expect_setting_error("world", "\"gravity\": [0, -1], \"wind\": 3", "\"wind\"", "world.wind",
                         "allowed here: gravity");
    expect_setting_error("solver", "\"name\": \"pgs\", \"iteration\": 3", "\"iteration\"", "solver.iteration",
                         "did you mean \"iterations\"");
    cs_test_expect_scene_error(
        "{\"generators\": [\n {\"type\": \"stack\", \"base\": [0, 0], \"count\": 2, \"radius\": 1,"
        " \"mass\": 1, \"spacing\": 2}]}",
        "\"spacing\"", "generators[0].spacing", "unknown key");
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "], \"materials\": {\"m\": {\"friction\": 1, \"bounce\": 1}}}",
                               "\"bounce\"", "materials.m.bounce", "unknown key");
    // A segment's keys are not a half-plane's.
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "], \"walls\": [{\"type\": \"segment\", \"point\": [0, 0], \"p0\": [0, 0],"
                               " \"p1\": [1, 0]}]}",
                               "\"point\"", "walls[0].point", "unknown key");
}

static void test_error_duplicate_key(void** state)
{
    (void)state;
    cs_test_expect_scene_error(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5,\n \"mass\": 1, \"radius\": 0.7}]}",
        "\"radius\": 0.7", "bodies[0].radius", "duplicate key (first given at line 1, column 34)");
    // Material names are free-form keys, checked for repeats too (the earliest repeat is reported).
    cs_test_expect_scene_error("{\"bodies\": [" BODY "],\n \"materials\": {\"b\": {}, \"a\": {}, \"c\": {},\n"
                               "  \"c\": {\"friction\": 1}, \"a\": {\"friction\": 2}}}",
                               "\"c\": {\"friction\"", "materials.c",
                               "duplicate key (first given at line 2, column 34)");
}

static void test_error_wrong_type(void** state)
{
    (void)state;
    cs_test_expect_scene_error("{\"bodies\": [{\"position\": [0, 1],\n \"radius\": \"big\", \"mass\": 1}]}",
                               "\"big\"", "bodies[0].radius",
                               "must be a finite number > 0, got the string \"big\"");
    cs_test_expect_scene_error("{\"bodies\": [{\"position\": 3, \"radius\": 1, \"mass\": 1}]}", "3,",
                               "bodies[0].position", "must be an array of 2 numbers, got 3");
    cs_test_expect_scene_error("{\"bodies\": [{\"position\": [0, 1, 2], \"radius\": 1, \"mass\": 1}]}",
                               "[0, 1, 2]", "bodies[0].position", "got an array of 3");
    cs_test_expect_scene_error("{\"bodies\": [{\"position\": [0, true], \"radius\": 1, \"mass\": 1}]}",
                               "true", "bodies[0].position[1]", "got true");
    cs_test_expect_scene_error("{\"bodies\": {}}", "{}", "bodies", "must be an array, got an object");
    cs_test_expect_scene_error("{\"bodies\": [" BODY "], \"world\": {\"frictionless\": 1}}", "1}}",
                               "world.frictionless", "must be true or false, got 1");
    cs_test_expect_scene_error("{\"bodies\": [" BODY "], \"steps\": 1.5}", "1.5", "steps",
                               "must be an integer in [1, ");
    cs_test_expect_scene_error("{\"bodies\": [" BODY "], \"name\": null}", "null", "name",
                               "must be a string, got null");
    cs_test_expect_scene_error("\n [\n 1\n]", "[\n", "",
                               "must be an object { ... } at the top level, got an array of 1");
    cs_test_expect_scene_error("{\"bodies\": [3]}", "3]", "bodies[0]", "must be an object, got 3");
}

static void test_error_missing_required_key(void** state)
{
    (void)state;
    cs_test_expect_scene_error("{\"bodies\": [\n  {\"position\": [0, 1], \"mass\": 1}]}", "{\"position\"",
                               "bodies[0]", "missing required key \"radius\"");
    cs_test_expect_scene_error("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": 1}]}", "{\"position\"",
                               "bodies[0]", "missing required key \"mass\" or \"density\"");
    cs_test_expect_scene_error("{\"bodies\": [\n  {\"radius\": 1, \"mass\": 1}]}", "{\"radius\"", "bodies[0]",
                               "missing required key \"position\"");
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "],\n \"walls\": [{\"point\": [0, 0], \"normal\": [0, 1]}]}",
                               "{\"point\"", "walls[0]", "missing required key \"type\"");
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "],\n \"walls\": [{\"type\": \"half_plane\", \"point\": [0, 0]}]}",
                               "{\"type\"", "walls[0]", "missing required key \"normal\"");
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 2, \"rows\": 2,"
        " \"radius\": 0.1, \"mass\": 1}]}",
        "{\"type\"", "generators[0]", "missing required key \"spacing\"");
    // Two alternatives at once is an error at the second.
    cs_test_expect_scene_error(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 1, \"mass\": 1, \"density\": 2}]}", "\"density\"",
        "bodies[0].density", "give only one of \"mass\" and \"density\"");
}

static void test_error_bad_mass_or_radius(void** state)
{
    (void)state;
    cs_test_expect_scene_error("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": -1, \"mass\": 1}]}",
                               "-1", "bodies[0].radius", "must be a finite number > 0, got -1");
    cs_test_expect_scene_error("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": 1, \"mass\": 0}]}", "0}",
                               "bodies[0].mass", "must be a finite number > 0, got 0");
    // JSON has no NaN or Infinity literals, but 1e999 overflows to infinity in a double.
    cs_test_expect_scene_error("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": 1, \"mass\": 1e999}]}",
                               "1e999", "bodies[0].mass", "got 1e999");
    cs_test_expect_scene_error("{\"bodies\": [\n  {\"position\": [0, -1e999], \"radius\": 1, \"mass\": 1}]}",
                               "-1e999", "bodies[0].position[1]", "must be a finite number, got -1e999");
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"stack\", \"base\": [0, 0], \"count\": 3,\n \"radius\": "
        "0, \"mass\": 1}]}",
        "0, \"mass\"", "generators[0].radius", "must be a finite number > 0");
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 2, \"rows\": 2,"
        " \"spacing\": [1, 1],\n \"radius\": 0.1, \"mass_range\": [1, -3]}]}",
        "-3", "generators[0].mass_range[1]", "must be a finite number > 0, got -3");
    // A density that makes the mass overflow is caught after the arithmetic.
    cs_test_expect_scene_error(
        "{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": 1e3, \"density\": 1e200}]}", "1e200",
        "bodies[0].density", "mass of body 0");
}

static void test_error_negative_friction(void** state)
{
    (void)state;
    cs_test_expect_scene_error("{\"bodies\": [" BODY "],\n \"materials\": {\"ice\": {\"friction\": -0.1}}}",
                               "-0.1", "materials.ice.friction", "must be a finite number >= 0, got -0.1");
    cs_test_expect_scene_error(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 1, \"mass\": 1, \"friction\": -2}]}", "-2",
        "bodies[0].friction", "must be a finite number >= 0");
}

static void test_error_restitution_outside_unit_interval(void** state)
{
    (void)state;
    cs_test_expect_scene_error(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 1, \"mass\": 1,\n \"restitution\": 1.5}]}", "1.5",
        "bodies[0].restitution", "must be a number in [0, 1], got 1.5");
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "],\n \"walls\": [{\"type\": \"segment\", \"p0\": [0, 0], \"p1\": [1, 0],"
                               " \"restitution\": -0.5}]}",
                               "-0.5", "walls[0].restitution", "must be a number in [0, 1]");
}

static void test_error_degenerate_wall(void** state)
{
    (void)state;
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "],\n \"walls\": [{\"type\": \"segment\", \"p0\": [1, 2], \"p1\": [1, 2]}]}",
                               "[1, 2]}", "walls[0].p1", "length > 1e-9 m, got 0");
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "],\n \"walls\": [{\"type\": \"half_plane\", \"point\": [1, 2],"
                               " \"normal\": [0, 0]}]}",
                               "[0, 0]}", "walls[0].normal", "must be a non-zero vector");
    cs_test_expect_scene_error("{\"bodies\": [" BODY
                               "],\n \"walls\": [{\"type\": \"plane\", \"point\": [1, 2]}]}",
                               "\"plane\"", "walls[0].type", "unknown wall type \"plane\"");
}

static void test_error_unknown_material(void** state)
{
    (void)state;
    cs_test_expect_scene_error(
        "{\"materials\": {\"ball\": {}, \"wall\": {}},\n \"bodies\": [{\"position\": [0, 1], \"radius\": 1,"
        " \"mass\": 1, \"material\": \"bal\"}]}",
        "\"bal\"", "bodies[0].material", "unknown material \"bal\" (defined: \"ball\", \"wall\")");
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"stack\", \"base\": [0, 0], \"count\": 1, \"radius\": 1,"
        " \"mass\": 1, \"material\": \"x\"}]}",
        "\"x\"", "generators[0].material", "the scene defines no \"materials\"");
}

static void test_error_unknown_solver(void** state)
{
    (void)state;
    char also[600];
    snprintf(also, sizeof also, "unknown solver \"pgz\" (registered: %s)", cs_solver_names());
    expect_setting_error("solver", "\"name\": \"pgz\"", "\"pgz\"", "solver.name", also);
    cs_test_expect_scene_error("{\"bodies\": [" BODY "],\n \"solver\": \"pgz\"}", "\"pgz\"", "solver", also);
    expect_setting_error("solver", "\"tolerance_on\": \"res\"", "\"res\"", "solver.tolerance_on",
                         "must be \"lcp\" or \"nat\"");
}

static void test_error_unknown_row_order(void** state)
{
    (void)state;
    expect_setting_error("world", "\"row_order\": \"zigzag\"", "\"zigzag\"", "world.row_order",
                         "unknown row order \"zigzag\" (coloured, key)");
    expect_setting_error("world", "\"row_order\": true", "true}", "world.row_order", "a row order");
}

static void test_error_iterations_below_one(void** state)
{
    (void)state;
    expect_setting_error("solver", "\"name\": \"pgs\", \"iterations\": 0", "0}", "solver.iterations",
                         "must be an integer in [1, ");
}

static void test_error_position_tolerance(void** state)
{
    (void)state;
    expect_setting_error("world", "\"position_tolerance\": -1e-7", "-1e-7", "world.position_tolerance",
                         "must be a finite number >= 0, got -1e-7");
    expect_setting_error("world", "\"position_tolerance\": 2e6", "2e6", "world.position_tolerance",
                         "got 2e+06");
}

static void test_error_time_step_not_positive(void** state)
{
    (void)state;
    expect_setting_error("world", "\"time_step\": 0", "0}", "world.time_step",
                         "must be a finite number > 0, got 0");
    expect_setting_error("world", "\"time_step\": -0.01", "-0.01", "world.time_step", "got -0.01");
}

// A method parameter the solver does not read is an error at its key, naming the solvers that read it.
static void test_error_key_unused_by_solver(void** state)
{
    (void)state;
    expect_setting_error("solver", "\"alpha\": 0.3", "0.3", "solver.alpha",
                         "does nothing for solver \"pgs\" (used by: amgs");
    expect_setting_error("solver", "\"name\": \"amgs\", \"relaxation\": 1.5", "1.5", "solver.relaxation",
                         "does nothing for solver \"amgs\" (used by: psor");
    expect_setting_error("solver", "\"name\": \"psor\", \"gamma\": 1.25", "1.25", "solver.gamma",
                         "does nothing for solver \"psor\"");
    expect_setting_error("solver", "\"amgs_literal\": true", "true", "solver.amgs_literal",
                         "does nothing for solver \"pgs\" (used by: amgs)");
}

static void test_error_alpha_not_positive(void** state)
{
    (void)state;
    expect_setting_error("solver", "\"alpha\": -0.2", "-0.2", "solver.alpha",
                         "must be a finite number > 0, got -0.2");
    expect_setting_error("solver", "\"relaxation\": 2", "2}", "solver.relaxation",
                         "must be a number in (0, 2)");
}

static void test_error_generator_places_no_bodies(void** state)
{
    (void)state;
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"stack\", \"base\": [0, 0],\n \"count\": 0, \"radius\": "
        "1, \"mass\": 1}]}",
        "0, \"radius\"", "generators[0].count", "would place no bodies");
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 3,\n \"rows\": 0,"
        " \"spacing\": [1, 1], \"radius\": 0.1, \"mass\": 1}]}",
        "0, \"spacing\"", "generators[0].rows", "would place no bodies");
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"pile\", \"count\": 5,\n \"region\": [0, 0, 1, 0.3], \"radius\": 0.2,"
        " \"mass\": 1}]}",
        "[0, 0, 1, 0.3]", "generators[0].region", "too small to place any circle");
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"pile\", \"count\": 5,\n \"region\": [0, 0, -1, 1], \"radius\": 0.2,"
        " \"mass\": 1}]}",
        "[0, 0, -1, 1]", "generators[0].region", "x0 < x1");
    // A region that holds some but not all: an error too, never a silently smaller pile.
    cs_test_expect_scene_error(
        "{\"generators\": [\n {\"type\": \"pile\", \"count\": 50, \"region\": [0, 0, 1, 1], \"radius\": 0.2,"
        " \"mass\": 1}]}",
        "{\"type\"", "generators[0]", "placed only");
    cs_test_expect_scene_error("{\"generators\": [{\"type\": \"spiral\", \"count\": 5}]}", "\"spiral\"",
                               "generators[0].type", "unknown generator type");
    cs_test_expect_scene_error(
        "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 1000000, \"rows\": 1000000,"
        " \"spacing\": [1, 1], \"radius\": 0.1, \"mass\": 1}]}",
        "{\"type\"", "generators[0]", "exceed");
}

static void test_error_scene_without_bodies(void** state)
{
    (void)state;
    cs_test_expect_scene_error(
        "{\n  \"walls\": [{\"type\": \"half_plane\", \"point\": [0, 0], \"normal\": [0, 1]}],\n"
        "  \"bodies\": []\n}",
        "{\n", "", "the scene has no bodies");
    cs_test_expect_scene_error("  {}", "{}", "", "the scene has no bodies");
}

static void test_error_missing_file(void** state)
{
    (void)state;
    const char* path = cs_test_temp_path("-does-not-exist.json");
    cs_error err = {CS_OK, ""};
    assert_null(cs_scene_load(path, NULL, &err));
    assert_int_equal(err.status, CS_ERR_IO);
    char expected[4300];
    snprintf(expected, sizeof expected, "%s: cannot open: No such file or directory", path);
    assert_string_equal(err.message, expected);
    // A directory is not a scene either.
    assert_null(cs_scene_load(cs_test_source_path("scenes"), NULL, &err));
    assert_int_equal(err.status, CS_ERR_IO);
    assert_non_null(strstr(err.message, "cannot read"));
}

static void expect_syntax_error(const char* text, int line, const char* hint)
{
    const char* path = cs_test_write_temp(".json", text);
    cs_error err = {CS_OK, ""};
    assert_null(cs_scene_load(path, NULL, &err));
    assert_int_equal(err.status, CS_ERR_PARSE);
    char near[64];
    snprintf(near, sizeof near, "invalid JSON near line %d, column", line);
    cs_test_check_scene_message(&err, path, line, 0, near, hint);
}

static void test_error_syntax(void** state)
{
    (void)state;
    expect_syntax_error("{\n  \"bodies\": [\n    {\"position\": [0, 1] \"radius\": 1}\n  ]\n}", 3,
                        "missing comma");
    expect_syntax_error("{\n  \"steps\": 10,\n  \"bodies\": [1, 2,]\n}", 3, "trailing comma");
    expect_syntax_error("{\n  \"steps\": NaN\n}", 2, "no NaN or Infinity");
    expect_syntax_error("{\n  // a comment\n  \"steps\": 3\n}", 2, "no comments");
    expect_syntax_error("{\n  \"steps\": 3\n", 3, "unexpected end");
    expect_syntax_error("", 1, "empty");
    expect_syntax_error("{\"steps\": 3} extra", 1, NULL);
    // A NUL byte would hide the rest of the file from the parser.
    const char* path = cs_test_temp_path(".json");
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    fwrite("{\"steps\": 3}\n\0{", 1, 15, f);
    fclose(f);
    cs_error err = {CS_OK, ""};
    assert_null(cs_scene_load(path, NULL, &err));
    cs_test_check_scene_message(&err, path, 2, 1, "NUL byte", NULL);
}

static void test_error_columns_count_characters(void** state)
{
    (void)state;
    // "μ" is two bytes but one column, as an editor shows it: the 0 is in column 31.
    cs_error err = {CS_OK, ""};
    assert_null(cs_scene_load_string("{\"description\": \"\xce\xbc\", \"steps\": 0}", "u.json", NULL, &err));
    cs_test_check_scene_message(&err, "u.json", 1, 31, "steps", "must be an integer");
}

// The CLI prints exactly the loader's one line and exits 1 ----------------------------------------------

static void test_cli_reports_scene_errors(void** state)
{
    (void)state;
    const char* bad =
        cs_test_write_temp(".json", "{\"bodies\": [\n {\"position\": [0, 1], \"radius\": -1, \"mass\": 1}]}");
    cs_error err = {CS_OK, ""};
    assert_null(cs_scene_load(bad, NULL, &err));
    char command[8400], out[4096];
    snprintf(command, sizeof command, "'%s/circlesim-cli' run '%s' --steps 1", CS_BINARY_DIR, bad);
    assert_int_equal(cs_test_run(command, out, sizeof out), 1);
    char expected[CS_ERROR_MAX + 2];
    snprintf(expected, sizeof expected, "%s\n", err.message);
    assert_string_equal(out, expected);

    snprintf(command, sizeof command, "'%s/circlesim-cli' run '%s' --steps 1", CS_BINARY_DIR,
             cs_test_temp_path("-missing.json"));
    assert_int_equal(cs_test_run(command, out, sizeof out), 1);
    assert_non_null(strstr(out, "-missing.json: cannot open: No such file or directory\n"));
    assert_true(strchr(out, '\n') == out + strlen(out) - 1); // one line

    snprintf(command, sizeof command, "'%s/circlesim-cli' run '%s' --steps 2 --quiet", CS_BINARY_DIR,
             cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(command, out, sizeof out), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_unknown_key),
        cmocka_unit_test(test_error_duplicate_key),
        cmocka_unit_test(test_error_wrong_type),
        cmocka_unit_test(test_error_missing_required_key),
        cmocka_unit_test(test_error_bad_mass_or_radius),
        cmocka_unit_test(test_error_negative_friction),
        cmocka_unit_test(test_error_restitution_outside_unit_interval),
        cmocka_unit_test(test_error_degenerate_wall),
        cmocka_unit_test(test_error_unknown_material),
        cmocka_unit_test(test_error_unknown_solver),
        cmocka_unit_test(test_error_unknown_row_order),
        cmocka_unit_test(test_error_iterations_below_one),
        cmocka_unit_test(test_error_time_step_not_positive),
        cmocka_unit_test(test_error_position_tolerance),
        cmocka_unit_test(test_error_alpha_not_positive),
        cmocka_unit_test(test_error_key_unused_by_solver),
        cmocka_unit_test(test_error_generator_places_no_bodies),
        cmocka_unit_test(test_error_scene_without_bodies),
        cmocka_unit_test(test_error_missing_file),
        cmocka_unit_test(test_error_syntax),
        cmocka_unit_test(test_error_columns_count_characters),
        cmocka_unit_test(test_cli_reports_scene_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
