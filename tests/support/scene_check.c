// Helpers of the scene tests (test_scene_*.c): loading a scene that must load, and checking a rejection's
// message at the place an anchor in the text gives.
#include "scene_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

void cs_test_check_scene_message(const cs_error* err, const char* name, int line, int column, const char* key,
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
void cs_test_expect_scene_error(const char* text, const char* anchor, const char* key, const char* also)
{
    int line, column;
    anchor_position(text, anchor, &line, &column);
    const char* path = cs_test_write_temp(".json", text);
    assert_non_null(path);
    cs_error err = {CS_OK, ""};
    cs_scene_info info = {"unchanged", "", 12345, 0, {""}};
    assert_null(cs_scene_load(path, &info, &err));
    cs_test_check_scene_message(&err, path, line, column, key, also);
    assert_string_equal(info.name, "unchanged"); // nothing half-loaded, not even the info
    assert_int_equal(info.steps, 12345);

    cs_error err2 = {CS_OK, ""};
    assert_null(cs_scene_load_string(text, "memory.json", NULL, &err2));
    cs_test_check_scene_message(&err2, "memory.json", line, column, key, also);
    assert_int_equal(err.status, err2.status);
}

cs_world* cs_test_load_scene_text(const char* text, cs_scene_info* info)
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

cs_world* cs_test_load_shipped_scene(const char* name, cs_scene_info* info)
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

// Independent geometry check: no two circles overlap, none crosses a half-plane wall.
void cs_test_check_no_overlap(const cs_world* w)
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
