// Every shipped scene (scenes/*.json) loads, and the paper's scenes match its description: the pools (§5),
// the stacks and the pile.
#include "test_support.h"
#include "scene_check.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

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
        cs_world* w = cs_test_load_shipped_scene(e->d_name, &info);
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
        cs_test_check_no_overlap(w);
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
    cs_world* w = cs_test_load_shipped_scene("pool1.json", &info);
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
    cs_world* w = cs_test_load_shipped_scene("pool2.json", &info);
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
    cs_world* w = cs_test_load_shipped_scene(file, &info);
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
    cs_world* w = cs_test_load_shipped_scene("pile.json", &info);
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
    cs_test_check_no_overlap(w);
    cs_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_shipped_scene_loads),     cmocka_unit_test(test_pool1),
        cmocka_unit_test(test_pool2_masses_rise_with_height), cmocka_unit_test(test_stacking),
        cmocka_unit_test(test_pile_is_a_valid_pile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
