// The benchmark scenes the peers build (src/cli/bench_scenes.c, compiled into the Box2D v3, Box2D 2.4 and
// Chipmunk programs) are the scenes circlesim loads: body for body, bit for bit, from the scene files'
// generators; and the stream scene spawns rows that never start overlapping anything.
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/bench_scenes.h"
#include "cli/bench_world.h"

// Every body of scenes/NAME.json equals the peers' disc of the same index (position, velocity, radius,
// mass: exactly), and every wall is the same half-plane.
static void check_file_matches(const char* name)
{
    char rel[128];
    snprintf(rel, sizeof rel, "scenes/%s.json", name);
    cs_error err = {CS_OK, ""};
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path(rel), &info, &err);
    if (w == NULL)
    {
        fail_msg("%s: %s", rel, err.message);
    }
    cs_bench_scene s;
    assert_true(cs_bench_scene_make(name, &s));
    assert_int_equal(cs_world_body_count(w), s.count);
    for (int k = 0; k < s.count; ++k)
    {
        cs_body_state b = cs_world_body(w, cs_world_body_id(w, k));
        const cs_bench_disc* d = &s.discs[k];
        if (b.position.x != d->x || b.position.y != d->y || b.velocity.x != d->vx || b.velocity.y != d->vy ||
            b.radius != d->r || b.mass != d->m)
        {
            fail_msg("%s body %d: file (%.17g, %.17g) v (%.17g, %.17g) r %g m %.17g; peers (%.17g, %.17g) v "
                     "(%.17g, %.17g) r %g m %.17g",
                     name, k, b.position.x, b.position.y, b.velocity.x, b.velocity.y, b.radius, b.mass, d->x,
                     d->y, d->vx, d->vy, d->r, d->m);
        }
    }
    assert_int_equal(cs_world_wall_count(w), s.wall_count);
    for (int k = 0; k < s.wall_count; ++k)
    {
        cs_wall wall = cs_world_wall(w, k);
        const cs_bench_wall* h = &s.walls[k];
        assert_int_equal(wall.kind, CS_WALL_HALF_PLANE);
        assert_near(wall.friction, s.friction, 0.0);
        assert_near(wall.restitution, s.restitution, 0.0);
        assert_near(wall.normal.x, h->nx, 0.0);
        assert_near(wall.normal.y, h->ny, 0.0);
        // The same line: the file's point lies on the peers' half-plane boundary.
        assert_near((wall.p0.x - h->x0) * h->nx + (wall.p0.y - h->y0) * h->ny, 0.0, 0.0);
        // The peers' segment runs along the boundary and reaches past every disc's extent along it.
        assert_near((h->x1 - h->x0) * h->nx + (h->y1 - h->y0) * h->ny, 0.0, 0.0);
    }
    cs_bench_scene_free(&s);
    cs_world_destroy(w);
}

static void paper_scenes_match_their_files(void** state)
{
    (void)state;
    check_file_matches("pool1");
    check_file_matches("pool2");
    check_file_matches("stacking");
    check_file_matches("stacking150");
}

static void jittered_pool_and_gas_match_their_files(void** state)
{
    (void)state;
    check_file_matches("pool1-jitter");
    check_file_matches("gas"); // 20 000 discs: rejection sampling and the velocity stream
    cs_bench_scene s;
    assert_true(cs_bench_scene_make("gas", &s));
    assert_true(s.gravity_y == 0.0 && s.friction == 0.0 && s.restitution == 1.0 &&
                s.restitution_threshold == 0.0);
    cs_bench_scene_free(&s);
}

// pool-N is the scale suite's pool (round(sqrt N) columns) and the world built from it is the pool the
// CLI's queries and bench use; pool-221 in 13 columns is Pool 1.
static void generated_pools(void** state)
{
    (void)state;
    cs_bench_scene a, b;
    assert_true(cs_bench_scene_make("pool-1000", &a));
    assert_int_equal(a.count, 1000);
    assert_int_equal(a.pool_columns, 32);
    assert_true(cs_bench_scene_pool(221, 13, &b));
    cs_bench_scene p1;
    assert_true(cs_bench_scene_make("pool1", &p1));
    for (int k = 0; k < 221; ++k)
    {
        assert_near(b.discs[k].x, p1.discs[k].x, 0.0);
        assert_near(b.discs[k].y, p1.discs[k].y, 0.0);
    }
    cs_bench_scene_free(&a);
    cs_bench_scene_free(&b);
    cs_bench_scene_free(&p1);
    const char* bad[] = {"pool-0", "pool-", "pool-12x", "stream--3", "gas2", "pool-99999999999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k)
    {
        if (cs_bench_scene_make(bad[k], &a))
        {
            fail_msg("'%s' made a scene", bad[k]);
        }
        assert_null(a.discs);
    }
}

static double min_gap(const cs_world* w, int first_new)
{
    double gap = INFINITY;
    int n = cs_world_body_count(w);
    for (int i = first_new; i < n; ++i)
    {
        cs_body_state a = cs_world_body(w, cs_world_body_id(w, i));
        for (int j = 0; j < n; ++j)
        {
            if (j == i)
            {
                continue;
            }
            cs_body_state b = cs_world_body(w, cs_world_body_id(w, j));
            double d = hypot(a.position.x - b.position.x, a.position.y - b.position.y) - a.radius - b.radius;
            gap = fmin(gap, d);
        }
    }
    return gap;
}

// stream-N: circlesim's world of the stream grows by one row every CS_BENCH_STREAM_EVERY steps, each row
// starting clear of every body (the pile, the walls, the rows before it) and moving down at 3 m/s; the
// bodies stay in the pool.
static void stream_rows_start_clear(void** state)
{
    (void)state;
    cs_bench_scene s;
    assert_true(cs_bench_scene_make("stream-400", &s));
    assert_int_equal(s.stream_columns, 20);
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_bench_world(&s, &err);
    assert_non_null(w);
    cs_bench_disc row[20];
    int steps = 200;
    for (int step = 0; step < steps; ++step)
    {
        assert_int_equal(cs_bench_stream_row(&s, step, row), step % CS_BENCH_STREAM_EVERY == 0 ? 20 : 0);
        int before = cs_world_body_count(w);
        if (step % CS_BENCH_STREAM_EVERY == 0)
        {
            assert_true(cs_bench_world_add(w, &s, row, 20, &err));
            for (int k = 0; k < 20; ++k)
            {
                assert_true(row[k].x - row[k].r > -s.pool_half && row[k].x + row[k].r < s.pool_half);
                assert_near(row[k].vy, -3.0, 0.0);
            }
            double gap = min_gap(w, before);
            if (!(gap > 0.0))
            {
                fail_msg("row spawned before step %d overlaps by %g m", step, -gap);
            }
        }
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    assert_int_equal(cs_world_body_count(w), 400 + 20 * (steps / CS_BENCH_STREAM_EVERY));
    for (int k = 0; k < cs_world_body_count(w); ++k)
    {
        cs_body_state b = cs_world_body(w, cs_world_body_id(w, k));
        assert_true(fabs(b.position.x) < s.pool_half && b.position.y > 0.0);
    }
    cs_world_destroy(w);
    cs_bench_scene_free(&s);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paper_scenes_match_their_files),
        cmocka_unit_test(jittered_pool_and_gas_match_their_files),
        cmocka_unit_test(generated_pools),
        cmocka_unit_test(stream_rows_start_clear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
