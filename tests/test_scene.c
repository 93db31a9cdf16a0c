// Scene files: every shipped scene loads and matches the paper's description; solver settings reach
// the world; generators are deterministic; and one rejection test per error kind, each checking the
// exact FILE:LINE:COL (computed here from an anchor in the text, independently of the loader), that
// the key is named, that the message is one line and that nothing is returned.
#include "test_support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Helpers -------------------------------------------------------------------------------------------

// Line and column (1-based, ASCII texts) of the first occurrence of anchor; the anchor must be unique.
static void anchor_position(const char* text, const char* anchor, int* line, int* column)
{
    const char* at = strstr(text, anchor);
    assert_non_null(at);
    assert_null(strstr(at + 1, anchor));
    *line = 1;
    *column = 1;
    for (const char* p = text; p < at; ++p)
    {
        if (*p == '\n')
        {
            *line += 1;
            *column = 1;
        }
        else
        {
            *column += 1;
        }
    }
}

static void check_message(const cs_error* err, const char* name, int line, int column, const char* key,
                          const char* also)
{
    char prefix[4200];
    if (column > 0)
    {
        snprintf(prefix, sizeof prefix, "%s:%d:%d: ", name, line, column);
    }
    else
    {
        snprintf(prefix, sizeof prefix, "%s:%d:", name, line);
    }
    if (strncmp(err->message, prefix, strlen(prefix)) != 0 || strstr(err->message, key) == NULL ||
        (also != NULL && strstr(err->message, also) == NULL))
    {
        print_error("expected a message starting with '%s' naming '%s'%s%s\n     got: %s\n", prefix, key,
                    also != NULL ? " and containing " : "", also != NULL ? also : "", err->message);
        fail();
    }
    assert_null(strchr(err->message, '\n'));
    assert_int_not_equal(err->status, CS_OK);
}

// Loads text from a file and from memory; both must fail with the same message at anchor.
static void expect_error_at(const char* text, const char* anchor, const char* key, const char* also)
{
    int line, column;
    anchor_position(text, anchor, &line, &column);
    const char* path = cs_test_write_temp(".json", text);
    assert_non_null(path);
    cs_error err = {CS_OK, ""};
    cs_scene_info info = {"unchanged", "", 12345, 0, {""}};
    assert_null(cs_scene_load(path, &info, &err));
    check_message(&err, path, line, column, key, also);
    assert_string_equal(info.name, "unchanged"); // nothing half-loaded, not even the info
    assert_int_equal(info.steps, 12345);

    cs_error err2 = {CS_OK, ""};
    assert_null(cs_scene_load_string(text, "memory.json", NULL, &err2));
    check_message(&err2, "memory.json", line, column, key, also);
    assert_int_equal(err.status, err2.status);
}

static cs_world* load_ok(const char* text, cs_scene_info* info)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load_string(text, "ok.json", info, &err);
    if (w == NULL)
    {
        print_error("unexpected error: %s\n", err.message);
        fail();
    }
    return w;
}

static cs_world* load_shipped(const char* name, cs_scene_info* info)
{
    char rel[256];
    snprintf(rel, sizeof rel, "scenes/%s", name);
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load(cs_test_source_path(rel), info, &err);
    if (w == NULL)
    {
        print_error("%s: %s\n", name, err.message);
        fail();
    }
    return w;
}

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

// Independent geometry check: no two circles overlap, none crosses a half-plane wall.
static void check_no_overlap(const cs_world* w)
{
    int n = cs_world_body_count(w);
    for (int i = 0; i < n; ++i)
    {
        cs_body_state a = cs_world_body(w, i);
        for (int j = i + 1; j < n; ++j)
        {
            cs_body_state b = cs_world_body(w, j);
            double d = hypot(a.position.x - b.position.x, a.position.y - b.position.y);
            assert_true(d >= a.radius + b.radius - 1e-9);
        }
        for (int k = 0; k < cs_world_wall_count(w); ++k)
        {
            cs_wall wall = cs_world_wall(w, k);
            if (wall.kind == CS_WALL_HALF_PLANE)
            {
                double gap =
                    (a.position.x - wall.p0.x) * wall.normal.x + (a.position.y - wall.p0.y) * wall.normal.y;
                assert_true(gap >= a.radius - 1e-9);
            }
        }
    }
}

// Shipped scenes ------------------------------------------------------------------------------------

static void test_every_shipped_scene_loads(void** state)
{
    (void)state;
    DIR* dir = opendir(cs_test_source_path("scenes"));
    assert_non_null(dir);
    int loaded = 0;
    bool paper[4] = {false, false, false, false};
    const char* paper_names[4] = {"pool1.json", "pool2.json", "stacking.json", "stacking150.json"};
    struct dirent* e;
    while ((e = readdir(dir)) != NULL)
    {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
        {
            continue;
        }
        cs_scene_info info;
        memset(&info, 0, sizeof info);
        cs_world* w = load_shipped(e->d_name, &info);
        assert_true(cs_world_body_count(w) > 0);
        assert_true(info.steps >= 1);
        assert_true(info.name[0] != '\0');
        assert_true(info.description[0] != '\0');
        for (int i = 0; i < cs_world_body_count(w); ++i)
        {
            cs_body_state b = cs_world_body(w, i);
            assert_true(isfinite(b.position.x) && isfinite(b.position.y));
            assert_true(b.radius > 0.0 && (b.mass > 0.0 || cs_world_body_type(w, i) != CS_BODY_DYNAMIC));
        }
        check_no_overlap(w);
        cs_world_step(w); // a loaded scene is runnable
        assert_true(isfinite(cs_world_stats(w)->kinetic_energy));
        cs_world_destroy(w);
        for (int k = 0; k < 4; ++k)
        {
            paper[k] = paper[k] || strcmp(e->d_name, paper_names[k]) == 0;
        }
        loaded += 1;
    }
    closedir(dir);
    assert_true(loaded >= 7);
    for (int k = 0; k < 4; ++k)
    {
        assert_true(paper[k]);
    }
}

// Common to both pools: 221 circles of r 0.21 in a 6 m pool with a floor, paper §5.
static void check_pool(const cs_world* w, const cs_scene_info* info)
{
    assert_int_equal(cs_world_body_count(w), 221);
    assert_int_equal(info->steps, 600);
    const cs_world_def* def = cs_world_get_def(w);
    assert_true(def->gravity.x == 0.0 && def->gravity.y == -9.80665);
    assert_int_equal(cs_world_solver(w), cs_solver_find("pgs"));
    assert_int_equal(cs_world_solver_params(w)->iterations, 10);
    assert_int_equal(cs_world_wall_count(w), 3);
    double lowest = INFINITY, leftmost = INFINITY, rightmost = -INFINITY;
    for (int i = 0; i < 221; ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        assert_true(b.radius == 0.21);
        lowest = fmin(lowest, b.position.y - b.radius);
        leftmost = fmin(leftmost, b.position.x - b.radius);
        rightmost = fmax(rightmost, b.position.x + b.radius);
    }
    assert_true(lowest > 0.0 && lowest < 0.05); // just above the floor
    assert_true(leftmost >= -3.0 && rightmost <= 3.0 && rightmost - leftmost > 5.5);
    int found = 0;
    for (int k = 0; k < 3; ++k)
    {
        cs_wall wall = cs_world_wall(w, k);
        assert_int_equal(wall.kind, CS_WALL_HALF_PLANE);
        assert_true(wall.friction == 0.1 && wall.restitution == 0.2);
        double offset = wall.p0.x * wall.normal.x + wall.p0.y * wall.normal.y; // n·x >= offset is free
        if (wall.normal.y == 1.0 && offset == 0.0)
        {
            found |= 1;
        }
        if (wall.normal.x == 1.0 && offset == -3.0)
        {
            found |= 2;
        }
        if (wall.normal.x == -1.0 && offset == -3.0)
        {
            found |= 4;
        }
    }
    assert_int_equal(found, 7);
    // 17 rows of 13, bottom row first, and neighbouring rows offset so the lattice collapses.
    double ys[221];
    for (int i = 0; i < 221; ++i)
    {
        ys[i] = cs_world_body(w, i).position.y;
        if (i > 0)
        {
            assert_true(ys[i] >= ys[i - 1]);
        }
    }
    qsort(ys, 221, sizeof ys[0], compare_double);
    int rows = 1;
    for (int i = 1; i < 221; ++i)
    {
        rows += ys[i] != ys[i - 1];
    }
    assert_int_equal(rows, 17);
    assert_true(cs_world_body(w, 0).position.x != cs_world_body(w, 13).position.x);
}

static void test_pool1(void** state)
{
    (void)state;
    cs_scene_info info;
    cs_world* w = load_shipped("pool1.json", &info);
    check_pool(w, &info);
    assert_string_equal(info.name, "pool1");
    for (int i = 0; i < 221; ++i)
    {
        assert_true(cs_world_body(w, i).mass == 2.0);
    }
    cs_world_destroy(w);
}

static void test_pool2_masses_rise_with_height(void** state)
{
    (void)state;
    cs_scene_info info;
    cs_world* w = load_shipped("pool2.json", &info);
    check_pool(w, &info);
    double lo = INFINITY, hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
    for (int i = 0; i < 221; ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        lo = fmin(lo, b.mass);
        hi = fmax(hi, b.mass);
        y_lo = fmin(y_lo, b.position.y);
        y_hi = fmax(y_hi, b.position.y);
    }
    assert_true(lo == 1.0 && hi == 3.0);
    for (int i = 0; i < 221; ++i)
    {
        cs_body_state a = cs_world_body(w, i);
        // Linear in initial height: 1 kg at the lowest row, 3 kg at the highest.
        assert_true(fabs(a.mass - (1.0 + 2.0 * (a.position.y - y_lo) / (y_hi - y_lo))) < 1e-12);
        for (int j = 0; j < 221; ++j)
        {
            cs_body_state b = cs_world_body(w, j);
            if (b.position.y > a.position.y)
            {
                assert_true(b.mass >= a.mass);
            }
        }
    }
    cs_world_destroy(w);
}

static void check_stack(const char* file, int count, int iterations, double top)
{
    cs_scene_info info;
    cs_world* w = load_shipped(file, &info);
    assert_int_equal(cs_world_body_count(w), count);
    assert_int_equal(info.steps, 3600);
    assert_int_equal(cs_world_solver_params(w)->iterations, iterations);
    for (int k = 0; k < count; ++k)
    {
        cs_body_state b = cs_world_body(w, k);
        assert_true(b.position.x == 0.0);
        assert_true(fabs(b.position.y - (0.18 + 0.36 * k)) < 1e-12);
        assert_true(b.radius == 0.18 && b.mass == 1.0);
    }
    assert_true(fabs(cs_world_body(w, count - 1).position.y - top) < 1e-12);
    assert_int_equal(cs_world_wall_count(w), 1);
    cs_world_destroy(w);
}

static void test_stacking(void** state)
{
    (void)state;
    check_stack("stacking.json", 30, 10, 10.62);
    check_stack("stacking150.json", 150, 20, 53.82);
}

static void test_pile_is_a_valid_pile(void** state)
{
    (void)state;
    cs_scene_info info;
    cs_world* w = load_shipped("pile.json", &info);
    assert_int_equal(cs_world_body_count(w), 400);
    double rmin = INFINITY, rmax = 0.0;
    for (int i = 0; i < 400; ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        assert_true(b.radius >= 0.1 && b.radius <= 0.25);
        assert_true(fabs(b.mass - 40.0 * 3.14159265358979323846 * b.radius * b.radius) <= 1e-12 * b.mass);
        assert_true(b.position.x - b.radius >= -3.9 && b.position.x + b.radius <= 3.9);
        assert_true(b.position.y - b.radius >= 0.05 && b.position.y + b.radius <= 14.05);
        rmin = fmin(rmin, b.radius);
        rmax = fmax(rmax, b.radius);
    }
    assert_true(rmax - rmin > 0.1); // mixed radii
    check_no_overlap(w);
    cs_world_destroy(w);
}

// Settings reach the world ---------------------------------------------------------------------------

static void test_solver_and_world_settings_reach_the_world(void** state)
{
    (void)state;
    // amgs: the solver that reads alpha, gamma and amgs_literal (a key the solver does not read is an error).
    const char* last = "amgs";
    char text[2048];
    snprintf(
        text, sizeof text,
        "{\"world\": {\"gravity\": [1.5, -2], \"time_step\": 0.01, \"speculative_margin\": 0.03,\n"
        " \"linear_slop\": 0.002, \"baumgarte\": 0.3, \"max_correction\": 0.1, \"position_iterations\": 7,\n "
        "\"position_tolerance\": 2e-7, \"restitution_threshold\": 0.5,\n"
        " \"frictionless\": true, \"row_order\": \"key\"},\n"
        " \"solver\": {\"name\": \"%s\", \"iterations\": 37, \"tolerance\": 1e-5, \"tolerance_on\": "
        "\"nat\",\n"
        "  \"warm_start\": false, \"alpha\": 0.3, \"gamma\": 1.5, "
        "\"amgs_literal\": true, \"simd\": false},\n"
        " \"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 2}]}",
        last);
    cs_scene_info info;
    cs_world* w = load_ok(text, &info);
    assert_int_equal(cs_world_solver(w), cs_solver_find("amgs"));
    const cs_solver_params* p = cs_world_solver_params(w);
    assert_int_equal(p->iterations, 37);
    assert_true(p->tolerance == 1e-5 && p->tolerance_on == CS_RES_NAT && !p->warm_start);
    assert_true(p->alpha == 0.3 && p->gamma == 1.5 && p->amgs_literal && !p->simd);
    const cs_world_def* d = cs_world_get_def(w);
    assert_int_equal(d->row_order, CS_ROW_ORDER_KEY);
    assert_true(d->gravity.x == 1.5 && d->gravity.y == -2.0 && d->time_step == 0.01);
    assert_true(d->speculative_margin == 0.03 && d->linear_slop == 0.002 && d->baumgarte == 0.3);
    assert_true(d->max_correction == 0.1 && d->restitution_threshold == 0.5 && d->frictionless);
    assert_int_equal(d->position_iterations, 7);
    assert_true(d->position_tolerance == 2e-7);
    // Defaults: the file name without .json, no description, 600 steps.
    assert_string_equal(info.name, "ok");
    assert_string_equal(info.description, "");
    assert_int_equal(info.steps, 600);
    cs_world_destroy(w);

    // Absent sections give exactly cs_world_def_default(); "solver": "NAME" is a shorthand.
    w = load_ok(
        "{\"solver\": \"pgs\", \"bodies\": [{\"position\": [0, 1], \"radius\": 0.5, \"density\": 2}]}", NULL);
    cs_world_def def = cs_world_def_default();
    d = cs_world_get_def(w);
    assert_true(d->time_step == def.time_step && d->gravity.y == def.gravity.y && !d->frictionless);
    assert_true(d->row_order == CS_ROW_ORDER_COLOURED && cs_world_solver_params(w)->simd);
    assert_int_equal(cs_world_solver(w), cs_solver_find("pgs"));
    assert_int_equal(cs_world_solver_params(w)->iterations, def.solver_params.iterations);
    assert_true(fabs(cs_world_body(w, 0).mass - 2.0 * 3.14159265358979323846 * 0.25) < 1e-12);
    cs_world_destroy(w);
}

static void test_materials_walls_and_bodies(void** state)
{
    (void)state;
    cs_world* w = load_ok(
        "{\"materials\": {\"rubber\": {\"friction\": 0.9, \"restitution\": 0.6}},\n"
        " \"walls\": [{\"type\": \"half_plane\", \"point\": [0, -1], \"normal\": [0, 2.5],\n"
        "             \"material\": \"rubber\", \"restitution\": 0.1},\n"
        "            {\"type\": \"segment\", \"p0\": [-1, 0], \"p1\": [1, 0]}],\n"
        " \"bodies\": [{\"position\": [0.5, 2], \"radius\": 0.25, \"mass\": 3, \"velocity\": [1, -2],\n"
        "             \"angle\": 0.5, \"angular_velocity\": -4, \"material\": \"rubber\"}]}",
        NULL);
    assert_int_equal(cs_world_wall_count(w), 2);
    cs_wall plane = cs_world_wall(w, 0);
    assert_true(plane.normal.x == 0.0 && plane.normal.y == 1.0);    // normalised
    assert_true(plane.friction == 0.9 && plane.restitution == 0.1); // inline overrides the material
    cs_wall segment = cs_world_wall(w, 1);
    cs_circle_def defaults = cs_circle_def_default();
    assert_true(segment.friction == defaults.friction && segment.restitution == defaults.restitution);
    assert_int_equal(segment.kind, CS_WALL_SEGMENT);
    cs_body_state b = cs_world_body(w, 0);
    assert_true(b.position.x == 0.5 && b.position.y == 2.0 && b.radius == 0.25 && b.mass == 3.0);
    assert_true(b.velocity.x == 1.0 && b.velocity.y == -2.0 && b.angle == 0.5 && b.angular_velocity == -4.0);
    cs_world_destroy(w);
}

// Generators ------------------------------------------------------------------------------------------

static void assert_same_bodies(const cs_world* a, const cs_world* b)
{
    assert_int_equal(cs_world_body_count(a), cs_world_body_count(b));
    for (int i = 0; i < cs_world_body_count(a); ++i)
    {
        cs_body_state x = cs_world_body(a, i), y = cs_world_body(b, i);
        assert_memory_equal(&x, &y, sizeof x);
    }
    assert_true(cs_world_hash(a) == cs_world_hash(b));
}

static const char* jitter_grid(int seed)
{
    static char text[512];
    snprintf(text, sizeof text,
             "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 1], \"columns\": 7, \"rows\": 5,\n"
             " \"spacing\": [1, 1], \"row_offset\": 0.5, \"radius\": 0.2, \"mass\": 1, \"jitter\": 0.1, "
             "\"seed\": %d}]}",
             seed);
    return text;
}

static void test_generators_are_deterministic(void** state)
{
    (void)state;
    cs_scene_info info;
    cs_world* a = load_shipped("pile.json", &info);
    cs_world* b = load_shipped("pile.json", &info);
    assert_same_bodies(a, b);
    cs_world_destroy(a);
    cs_world_destroy(b);

    a = load_ok(jitter_grid(7), NULL);
    b = load_ok(jitter_grid(7), NULL);
    assert_same_bodies(a, b);
    cs_world* c = load_ok(jitter_grid(8), NULL);
    assert_true(cs_world_hash(a) != cs_world_hash(c));
    for (int i = 0; i < 35; ++i)
    {
        // Jitter stays within ±0.1 of the lattice point (row i/7, column i%7, odd rows shifted).
        int row = i / 7, col = i % 7;
        cs_body_state s = cs_world_body(a, i);
        assert_true(fabs(s.position.x - (col + (row % 2 ? 0.5 : 0.0))) <= 0.1);
        assert_true(fabs(s.position.y - (1.0 + row)) <= 0.1);
    }
    cs_world_destroy(a);
    cs_world_destroy(b);
    cs_world_destroy(c);

    // Pile seeds matter too.
    const char* pile =
        "{\"generators\": [{\"type\": \"pile\", \"seed\": %d, \"count\": 50, \"region\": [0, 0, 5, 5],"
        " \"radius\": 0.2, \"mass\": 1}]}";
    char t1[512], t2[512];
    snprintf(t1, sizeof t1, pile, 1);
    snprintf(t2, sizeof t2, pile, 2);
    a = load_ok(t1, NULL);
    b = load_ok(t2, NULL);
    assert_true(cs_world_hash(a) != cs_world_hash(b));
    check_no_overlap(a);
    cs_world_destroy(a);
    cs_world_destroy(b);
}

static void test_generator_shapes(void** state)
{
    (void)state;
    // Bodies first, then generators in order; a stack stands on its base with gaps; a one-row
    // mass_range uses its first value.
    cs_world* w =
        load_ok("{\"bodies\": [{\"position\": [9, 9], \"radius\": 1, \"mass\": 5}],\n"
                " \"generators\": [{\"type\": \"stack\", \"base\": [2, 1], \"count\": 3, \"radius\": 0.5,"
                " \"mass\": 1, \"gap\": 0.1},\n"
                "  {\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 2, \"rows\": 1, \"spacing\": [1, 1],"
                " \"radius\": 0.1, \"mass_range\": [4, 6]}]}",
                NULL);
    assert_int_equal(cs_world_body_count(w), 6);
    assert_true(cs_world_body(w, 0).mass == 5.0);
    for (int k = 0; k < 3; ++k)
    {
        cs_body_state b = cs_world_body(w, 1 + k);
        assert_true(b.position.x == 2.0 && fabs(b.position.y - (1.5 + 1.1 * k)) < 1e-12);
    }
    assert_true(cs_world_body(w, 4).mass == 4.0 && cs_world_body(w, 5).mass == 4.0);
    assert_true(cs_world_body(w, 5).position.x == 1.0);
    cs_world_destroy(w);
}

// Errors: one test per kind -------------------------------------------------------------------------

#define BODY "{\"position\": [0, 1], \"radius\": 0.5, \"mass\": 1}"

static void test_error_unknown_key(void** state)
{
    (void)state;
    expect_error_at("{\n  \"bodies\": [\n    " BODY
                    ",\n    {\"position\": [0, 3], \"raduis\": 0.5, \"mass\": 1}\n  ]\n}",
                    "\"raduis\"", "bodies[1].raduis", "did you mean \"radius\"");
    expect_error_at("{\"bodys\": [" BODY "]}", "\"bodys\"", "bodys", "did you mean \"bodies\"");
    expect_error_at("{\"bodies\": [" BODY "],\n \"world\": {\"gravity\": [0, -1], \"wind\": 3}}", "\"wind\"",
                    "world.wind", "allowed here: gravity");
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"pgs\", \"iteration\": 3}}",
                    "\"iteration\"", "solver.iteration", "did you mean \"iterations\"");
    expect_error_at(
        "{\"generators\": [\n {\"type\": \"stack\", \"base\": [0, 0], \"count\": 2, \"radius\": 1,"
        " \"mass\": 1, \"spacing\": 2}]}",
        "\"spacing\"", "generators[0].spacing", "unknown key");
    expect_error_at("{\"bodies\": [" BODY "], \"materials\": {\"m\": {\"friction\": 1, \"bounce\": 1}}}",
                    "\"bounce\"", "materials.m.bounce", "unknown key");
    // A segment's keys are not a half-plane's.
    expect_error_at("{\"bodies\": [" BODY
                    "], \"walls\": [{\"type\": \"segment\", \"point\": [0, 0], \"p0\": [0, 0],"
                    " \"p1\": [1, 0]}]}",
                    "\"point\"", "walls[0].point", "unknown key");
}

static void test_error_duplicate_key(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [{\"position\": [0, 1], \"radius\": 0.5,\n \"mass\": 1, \"radius\": 0.7}]}",
                    "\"radius\": 0.7", "bodies[0].radius",
                    "duplicate key (first given at line 1, column 34)");
    // Material names are free-form keys, checked for repeats too (the earliest repeat is reported).
    expect_error_at("{\"bodies\": [" BODY "],\n \"materials\": {\"b\": {}, \"a\": {}, \"c\": {},\n"
                    "  \"c\": {\"friction\": 1}, \"a\": {\"friction\": 2}}}",
                    "\"c\": {\"friction\"", "materials.c",
                    "duplicate key (first given at line 2, column 34)");
}

static void test_error_wrong_type(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [{\"position\": [0, 1],\n \"radius\": \"big\", \"mass\": 1}]}", "\"big\"",
                    "bodies[0].radius", "must be a finite number > 0, got the string \"big\"");
    expect_error_at("{\"bodies\": [{\"position\": 3, \"radius\": 1, \"mass\": 1}]}", "3,",
                    "bodies[0].position", "must be an array of 2 numbers, got 3");
    expect_error_at("{\"bodies\": [{\"position\": [0, 1, 2], \"radius\": 1, \"mass\": 1}]}", "[0, 1, 2]",
                    "bodies[0].position", "got an array of 3");
    expect_error_at("{\"bodies\": [{\"position\": [0, true], \"radius\": 1, \"mass\": 1}]}", "true",
                    "bodies[0].position[1]", "got true");
    expect_error_at("{\"bodies\": {}}", "{}", "bodies", "must be an array, got an object");
    expect_error_at("{\"bodies\": [" BODY "], \"world\": {\"frictionless\": 1}}", "1}}", "world.frictionless",
                    "must be true or false, got 1");
    expect_error_at("{\"bodies\": [" BODY "], \"steps\": 1.5}", "1.5", "steps", "must be an integer in [1, ");
    expect_error_at("{\"bodies\": [" BODY "], \"name\": null}", "null", "name", "must be a string, got null");
    expect_error_at("\n [\n 1\n]", "[\n", "",
                    "must be an object { ... } at the top level, got an array of 1");
    expect_error_at("{\"bodies\": [3]}", "3]", "bodies[0]", "must be an object, got 3");
}

static void test_error_missing_required_key(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [\n  {\"position\": [0, 1], \"mass\": 1}]}", "{\"position\"", "bodies[0]",
                    "missing required key \"radius\"");
    expect_error_at("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": 1}]}", "{\"position\"", "bodies[0]",
                    "missing required key \"mass\" or \"density\"");
    expect_error_at("{\"bodies\": [\n  {\"radius\": 1, \"mass\": 1}]}", "{\"radius\"", "bodies[0]",
                    "missing required key \"position\"");
    expect_error_at("{\"bodies\": [" BODY "],\n \"walls\": [{\"point\": [0, 0], \"normal\": [0, 1]}]}",
                    "{\"point\"", "walls[0]", "missing required key \"type\"");
    expect_error_at("{\"bodies\": [" BODY "],\n \"walls\": [{\"type\": \"half_plane\", \"point\": [0, 0]}]}",
                    "{\"type\"", "walls[0]", "missing required key \"normal\"");
    expect_error_at("{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 2, \"rows\": 2,"
                    " \"radius\": 0.1, \"mass\": 1}]}",
                    "{\"type\"", "generators[0]", "missing required key \"spacing\"");
    // Two alternatives at once is an error at the second.
    expect_error_at("{\"bodies\": [{\"position\": [0, 1], \"radius\": 1, \"mass\": 1, \"density\": 2}]}",
                    "\"density\"", "bodies[0].density", "give only one of \"mass\" and \"density\"");
}

static void test_error_bad_mass_or_radius(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": -1, \"mass\": 1}]}", "-1",
                    "bodies[0].radius", "must be a finite number > 0, got -1");
    expect_error_at("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": 1, \"mass\": 0}]}", "0}",
                    "bodies[0].mass", "must be a finite number > 0, got 0");
    // JSON has no NaN or Infinity literals, but 1e999 overflows to infinity in a double.
    expect_error_at("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": 1, \"mass\": 1e999}]}", "1e999",
                    "bodies[0].mass", "got 1e999");
    expect_error_at("{\"bodies\": [\n  {\"position\": [0, -1e999], \"radius\": 1, \"mass\": 1}]}", "-1e999",
                    "bodies[0].position[1]", "must be a finite number, got -1e999");
    expect_error_at("{\"generators\": [{\"type\": \"stack\", \"base\": [0, 0], \"count\": 3,\n \"radius\": "
                    "0, \"mass\": 1}]}",
                    "0, \"mass\"", "generators[0].radius", "must be a finite number > 0");
    expect_error_at("{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 2, \"rows\": 2,"
                    " \"spacing\": [1, 1],\n \"radius\": 0.1, \"mass_range\": [1, -3]}]}",
                    "-3", "generators[0].mass_range[1]", "must be a finite number > 0, got -3");
    // A density that makes the mass overflow is caught after the arithmetic.
    expect_error_at("{\"bodies\": [\n  {\"position\": [0, 1], \"radius\": 1e3, \"density\": 1e200}]}",
                    "1e200", "bodies[0].density", "mass of body 0");
}

static void test_error_negative_friction(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [" BODY "],\n \"materials\": {\"ice\": {\"friction\": -0.1}}}", "-0.1",
                    "materials.ice.friction", "must be a finite number >= 0, got -0.1");
    expect_error_at("{\"bodies\": [{\"position\": [0, 1], \"radius\": 1, \"mass\": 1, \"friction\": -2}]}",
                    "-2", "bodies[0].friction", "must be a finite number >= 0");
}

static void test_error_restitution_outside_unit_interval(void** state)
{
    (void)state;
    expect_error_at(
        "{\"bodies\": [{\"position\": [0, 1], \"radius\": 1, \"mass\": 1,\n \"restitution\": 1.5}]}", "1.5",
        "bodies[0].restitution", "must be a number in [0, 1], got 1.5");
    expect_error_at("{\"bodies\": [" BODY
                    "],\n \"walls\": [{\"type\": \"segment\", \"p0\": [0, 0], \"p1\": [1, 0],"
                    " \"restitution\": -0.5}]}",
                    "-0.5", "walls[0].restitution", "must be a number in [0, 1]");
}

static void test_error_degenerate_wall(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [" BODY
                    "],\n \"walls\": [{\"type\": \"segment\", \"p0\": [1, 2], \"p1\": [1, 2]}]}",
                    "[1, 2]}", "walls[0].p1", "length > 1e-9 m, got 0");
    expect_error_at("{\"bodies\": [" BODY "],\n \"walls\": [{\"type\": \"half_plane\", \"point\": [1, 2],"
                    " \"normal\": [0, 0]}]}",
                    "[0, 0]}", "walls[0].normal", "must be a non-zero vector");
    expect_error_at("{\"bodies\": [" BODY "],\n \"walls\": [{\"type\": \"plane\", \"point\": [1, 2]}]}",
                    "\"plane\"", "walls[0].type", "unknown wall type \"plane\"");
}

static void test_error_unknown_material(void** state)
{
    (void)state;
    expect_error_at(
        "{\"materials\": {\"ball\": {}, \"wall\": {}},\n \"bodies\": [{\"position\": [0, 1], \"radius\": 1,"
        " \"mass\": 1, \"material\": \"bal\"}]}",
        "\"bal\"", "bodies[0].material", "unknown material \"bal\" (defined: \"ball\", \"wall\")");
    expect_error_at("{\"generators\": [{\"type\": \"stack\", \"base\": [0, 0], \"count\": 1, \"radius\": 1,"
                    " \"mass\": 1, \"material\": \"x\"}]}",
                    "\"x\"", "generators[0].material", "the scene defines no \"materials\"");
}

static void test_error_unknown_solver(void** state)
{
    (void)state;
    char also[600];
    snprintf(also, sizeof also, "unknown solver \"pgz\" (registered: %s)", cs_solver_names());
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"pgz\"}}", "\"pgz\"", "solver.name",
                    also);
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": \"pgz\"}", "\"pgz\"", "solver", also);
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"tolerance_on\": \"res\"}}", "\"res\"",
                    "solver.tolerance_on", "must be \"lcp\" or \"nat\"");
}

static void test_error_unknown_row_order(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [" BODY "],\n \"world\": {\"row_order\": \"zigzag\"}}", "\"zigzag\"",
                    "world.row_order", "unknown row order \"zigzag\" (coloured, key)");
    expect_error_at("{\"bodies\": [" BODY "],\n \"world\": {\"row_order\": true}}", "true}",
                    "world.row_order", "a row order");
}

static void test_error_iterations_below_one(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"pgs\", \"iterations\": 0}}", "0}",
                    "solver.iterations", "must be an integer in [1, ");
}

static void test_error_position_tolerance(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [" BODY "],\n \"world\": {\"position_tolerance\": -1e-7}}", "-1e-7",
                    "world.position_tolerance", "must be a finite number >= 0, got -1e-7");
    expect_error_at("{\"bodies\": [" BODY "],\n \"world\": {\"position_tolerance\": 2e6}}", "2e6",
                    "world.position_tolerance", "got 2e+06");
}

static void test_error_time_step_not_positive(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [" BODY "],\n \"world\": {\"time_step\": 0}}", "0}", "world.time_step",
                    "must be a finite number > 0, got 0");
    expect_error_at("{\"bodies\": [" BODY "],\n \"world\": {\"time_step\": -0.01}}", "-0.01",
                    "world.time_step", "got -0.01");
}

// The last registered solver loads by name, and psor's relaxation reaches the world.
static void test_last_solver_and_relaxation(void** state)
{
    (void)state;
    char text[512];
    snprintf(text, sizeof text, "{\"solver\": \"%s\", \"bodies\": [" BODY "]}",
             cs_solver_at(cs_solver_count() - 1)->name);
    cs_scene_info info;
    cs_world* w = load_ok(text, &info);
    assert_int_equal(cs_world_solver(w), cs_solver_count() - 1);
    cs_world_destroy(w);
    w = load_ok("{\"solver\": {\"name\": \"psor\", \"relaxation\": 1.2}, \"bodies\": [" BODY "]}", &info);
    assert_true(cs_world_solver_params(w)->relaxation == 1.2);
    cs_world_destroy(w);
}

// A method parameter the solver does not read is an error at its key, naming the solvers that read it.
static void test_error_key_unused_by_solver(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"alpha\": 0.3}}", "0.3", "solver.alpha",
                    "does nothing for solver \"pgs\" (used by: amgs");
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"amgs\", \"relaxation\": 1.5}}",
                    "1.5", "solver.relaxation", "does nothing for solver \"amgs\" (used by: psor");
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"psor\", \"gamma\": 1.25}}", "1.25",
                    "solver.gamma", "does nothing for solver \"psor\"");
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"amgs_literal\": true}}", "true",
                    "solver.amgs_literal", "does nothing for solver \"pgs\" (used by: amgs)");
}

static void test_error_alpha_not_positive(void** state)
{
    (void)state;
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"alpha\": -0.2}}", "-0.2", "solver.alpha",
                    "must be a finite number > 0, got -0.2");
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"relaxation\": 2}}", "2}", "solver.relaxation",
                    "must be a number in (0, 2)");
}

// pgs-sm's keys: read into the solver params, and rejected at their value when out of range.
static void test_subspace_keys(void** state)
{
    (void)state;
    cs_world* w =
        load_ok("{\"solver\": {\"name\": \"pgs-sm\", \"kgs\": 2, \"ksm\": 4, \"subspace_solver\": \"pcg\"},"
                " \"bodies\": [" BODY "]}",
                NULL);
    const cs_solver_params* p = cs_world_solver_params(w);
    assert_int_equal(cs_world_solver(w), cs_solver_find("pgs-sm"));
    assert_true(p->kgs == 2 && p->ksm == 4 && p->subspace_solver == CS_SUBSPACE_PCG);
    cs_world_destroy(w);
    expect_error_at("{\"bodies\": [" BODY
                    "],\n \"solver\": {\"name\": \"pgs-sm\", \"subspace_solver\": \"lu\"}}",
                    "\"lu\"", "solver.subspace_solver", "must be \"cholmod\" or \"pcg\"");
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"pgs-sm\", \"kgs\": 0}}", "0}",
                    "solver.kgs", "must be an integer in [1, ");
    expect_error_at("{\"bodies\": [" BODY "],\n \"solver\": {\"name\": \"pgs-sm\", \"ksm\": -1}}", "-1}",
                    "solver.ksm", "must be an integer in [0, ");
}

static void test_error_generator_places_no_bodies(void** state)
{
    (void)state;
    expect_error_at("{\"generators\": [{\"type\": \"stack\", \"base\": [0, 0],\n \"count\": 0, \"radius\": "
                    "1, \"mass\": 1}]}",
                    "0, \"radius\"", "generators[0].count", "would place no bodies");
    expect_error_at(
        "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 3,\n \"rows\": 0,"
        " \"spacing\": [1, 1], \"radius\": 0.1, \"mass\": 1}]}",
        "0, \"spacing\"", "generators[0].rows", "would place no bodies");
    expect_error_at(
        "{\"generators\": [{\"type\": \"pile\", \"count\": 5,\n \"region\": [0, 0, 1, 0.3], \"radius\": 0.2,"
        " \"mass\": 1}]}",
        "[0, 0, 1, 0.3]", "generators[0].region", "too small to place any circle");
    expect_error_at(
        "{\"generators\": [{\"type\": \"pile\", \"count\": 5,\n \"region\": [0, 0, -1, 1], \"radius\": 0.2,"
        " \"mass\": 1}]}",
        "[0, 0, -1, 1]", "generators[0].region", "x0 < x1");
    // A region that holds some but not all: an error too, never a silently smaller pile.
    expect_error_at(
        "{\"generators\": [\n {\"type\": \"pile\", \"count\": 50, \"region\": [0, 0, 1, 1], \"radius\": 0.2,"
        " \"mass\": 1}]}",
        "{\"type\"", "generators[0]", "placed only");
    expect_error_at("{\"generators\": [{\"type\": \"spiral\", \"count\": 5}]}", "\"spiral\"",
                    "generators[0].type", "unknown generator type");
    expect_error_at(
        "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"columns\": 1000000, \"rows\": 1000000,"
        " \"spacing\": [1, 1], \"radius\": 0.1, \"mass\": 1}]}",
        "{\"type\"", "generators[0]", "exceed");
}

static void test_error_scene_without_bodies(void** state)
{
    (void)state;
    expect_error_at("{\n  \"walls\": [{\"type\": \"half_plane\", \"point\": [0, 0], \"normal\": [0, 1]}],\n"
                    "  \"bodies\": []\n}",
                    "{\n", "", "the scene has no bodies");
    expect_error_at("  {}", "{}", "", "the scene has no bodies");
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
    check_message(&err, path, line, 0, near, hint);
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
    check_message(&err, path, 2, 1, "NUL byte", NULL);
}

static void test_error_columns_count_characters(void** state)
{
    (void)state;
    // "μ" is two bytes but one column, as an editor shows it: the 0 is in column 31.
    cs_error err = {CS_OK, ""};
    assert_null(cs_scene_load_string("{\"description\": \"\xce\xbc\", \"steps\": 0}", "u.json", NULL, &err));
    check_message(&err, "u.json", 1, 31, "steps", "must be an integer");
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
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_shipped_scene_loads),
        cmocka_unit_test(test_pool1),
        cmocka_unit_test(test_pool2_masses_rise_with_height),
        cmocka_unit_test(test_stacking),
        cmocka_unit_test(test_pile_is_a_valid_pile),
        cmocka_unit_test(test_solver_and_world_settings_reach_the_world),
        cmocka_unit_test(test_materials_walls_and_bodies),
        cmocka_unit_test(test_generators_are_deterministic),
        cmocka_unit_test(test_generator_shapes),
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
        cmocka_unit_test(test_last_solver_and_relaxation),
        cmocka_unit_test(test_error_key_unused_by_solver),
        cmocka_unit_test(test_error_generator_places_no_bodies),
        cmocka_unit_test(test_error_scene_without_bodies),
        cmocka_unit_test(test_error_missing_file),
        cmocka_unit_test(test_error_syntax),
        cmocka_unit_test(test_error_columns_count_characters),
        cmocka_unit_test(test_cli_reports_scene_errors),
        cmocka_unit_test(test_subspace_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
