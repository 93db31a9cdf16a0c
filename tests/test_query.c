// Point, box and ray queries (issue 16) against hand-computed answers, and against a brute-force scan on
// a moving pile (where the grid is a step old, bodies were removed and added since).
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "world/world_internal.h"

static cs_world* scene(int ids[3])
{
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0.0, 0.0};
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    ids[0] = cs_test_add(w, CS_BODY_DYNAMIC, 0.0, 0.0, 1.0, 1.0);
    ids[1] = cs_test_add(w, CS_BODY_DYNAMIC, 5.0, 0.0, 0.5, 1.0);
    ids[2] = cs_test_add(w, CS_BODY_STATIC, 5.0, 3.0, 0.5, 0.0);
    assert_int_equal(cs_world_add_segment(w, (cs_vec2){10, -5}, (cs_vec2){10, 5}, 0.1, 0.0, &err), 0);
    assert_int_equal(cs_world_add_half_plane(w, (cs_vec2){0, -10}, (cs_vec2){0, 1}, 0.1, 0.0, &err), 1);
    return w;
}

static void expect_hit(const cs_ray_hit* h, int body, int wall, double px, double py, double nx, double ny,
                       double fraction)
{
    assert_int_equal(h->body, body);
    assert_int_equal(h->wall, wall);
    assert_near(h->point.x, px, 1e-12);
    assert_near(h->point.y, py, 1e-12);
    assert_near(h->normal.x, nx, 1e-12);
    assert_near(h->normal.y, ny, 1e-12);
    assert_near(h->fraction, fraction, 1e-12);
}

static double count_all(const cs_ray_hit* hit, void* context)
{
    (void)hit;
    *(int*)context += 1;
    return 1.0;
}

static void check_rays(cs_world* w, const int* id)
{
    cs_ray_hit h;
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){-3, 0}, (cs_vec2){10, 0}, &h));
    expect_hit(&h, id[0], -1, -1.0, 0.0, -1.0, 0.0, 0.2);
    // Tangent to A's top: b² = ac exactly, one touching point.
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){-3, 1}, (cs_vec2){6, 0}, &h));
    expect_hit(&h, id[0], -1, 0.0, 1.0, 0.0, 1.0, 0.5);
    // Grazing just outside: a miss (and nothing else on the way).
    h.body = 99;
    assert_false(cs_world_ray_cast_closest(w, (cs_vec2){-3, 1 + 1e-9}, (cs_vec2){6, 0}, &h));
    assert_int_equal(h.body, 99); // untouched
    // Grazing just inside: a hit near the top.
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){-3, 1 - 1e-6}, (cs_vec2){6, 0}, &h));
    assert_int_equal(h.body, id[0]);
    assert_near(h.point.x, -sqrt(1.0 - (1 - 1e-6) * (1 - 1e-6)), 1e-9);
    // Starting inside A: fraction 0 at the origin, no normal (Box2D's initial overlap).
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){0.5, 0}, (cs_vec2){10, 0}, &h));
    expect_hit(&h, id[0], -1, 0.5, 0.0, 0.0, 0.0, 0.0);
    // Between A and B toward the segment wall: B first, then (past B, from x = 5.6) the wall at x = 10.
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){2, 0}, (cs_vec2){10, 0}, &h));
    expect_hit(&h, id[1], -1, 4.5, 0.0, -1.0, 0.0, 0.25);
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){7, 0}, (cs_vec2){10, 0}, &h));
    expect_hit(&h, -1, 0, 10.0, 0.0, -1.0, 0.0, 0.3);
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){13, 0}, (cs_vec2){-10, 0}, &h)); // other side
    expect_hit(&h, -1, 0, 10.0, 0.0, 1.0, 0.0, 0.3);
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){20, 0}, (cs_vec2){0, -20}, &h)); // the half-plane
    expect_hit(&h, -1, 1, 20.0, -10.0, 0.0, 1.0, 0.5);
    // A static circle is hit like any other; a diagonal ray into C at 45°.
    double s = sqrt(0.5);
    assert_true(cs_world_ray_cast_closest(w, (cs_vec2){4, 2}, (cs_vec2){1, 1}, &h));
    expect_hit(&h, id[2], -1, 5.0 - 0.5 * s, 3.0 - 0.5 * s, -s, -s, 1.0 - 0.5 * s);
    // Non-finite input: no hit.
    assert_false(cs_world_ray_cast_closest(w, (cs_vec2){NAN, 0}, (cs_vec2){10, 0}, &h));
    assert_false(cs_world_ray_cast_closest(w, (cs_vec2){0, 0}, (cs_vec2){INFINITY, 0}, &h));
    // All hits: A and B on [-3, 7] (the wall at x = 10 is beyond).
    int n = 0;
    assert_int_equal(
        cs_world_ray_cast(w, (cs_vec2){-3, 0}, (cs_vec2){10, 0}, cs_query_filter_default(), count_all, &n),
        2);
    assert_int_equal(n, 2);
    // A filter that leaves B's category out: the wall behind it is hit instead.
    cs_query_filter only2 = {1u, 2u};
    assert_true(cs_world_ray_cast_closest_filtered(w, (cs_vec2){2, 0}, (cs_vec2){10, 0}, only2, &h));
    assert_int_equal(h.wall, 0);
}

static void check_boxes_and_points(cs_world* w, const int* id)
{
    int ids[8];
    assert_int_equal(cs_world_query_aabb(w, (cs_vec2){-0.5, -0.5}, (cs_vec2){0.5, 0.5}, ids, 8), 1);
    assert_int_equal(ids[0], id[0]);
    // Between A (right edge x = 1) and B (left edge x = 4.5): nothing; touching B's edge counts.
    assert_int_equal(cs_world_query_aabb(w, (cs_vec2){1.1, -0.1}, (cs_vec2){4.49, 0.1}, ids, 8), 0);
    assert_int_equal(cs_world_query_aabb(w, (cs_vec2){1.1, -0.1}, (cs_vec2){4.5, 0.1}, ids, 8), 1);
    assert_int_equal(ids[0], id[1]);
    // Near a corner: the box's corner (4.5, 2.5) is √(0.5²+0.5²) = 0.707 > 0.5 from C's centre.
    assert_int_equal(cs_world_query_aabb(w, (cs_vec2){3, 1}, (cs_vec2){4.5, 2.5}, ids, 8), 0);
    // The total count past the capacity.
    assert_int_equal(cs_world_query_aabb(w, (cs_vec2){-10, -10}, (cs_vec2){10, 10}, ids, 1), 3);
    assert_int_equal(cs_world_query_aabb(w, (cs_vec2){-10, -10}, (cs_vec2){10, 10}, NULL, 0), 3);
    assert_int_equal(cs_world_query_aabb(w, (cs_vec2){NAN, -10}, (cs_vec2){10, 10}, ids, 8), 0);
    assert_int_equal(cs_world_query_aabb(w, (cs_vec2){1, 1}, (cs_vec2){-1, -1}, ids, 8), 0); // inverted
    assert_int_equal(cs_world_query_point(w, (cs_vec2){0.99, 0}), id[0]);
    assert_int_equal(cs_world_query_point(w, (cs_vec2){1.01, 0}), -1);
    assert_int_equal(cs_world_query_point(w, (cs_vec2){5, 3.2}), id[2]);
    assert_int_equal(cs_world_query_point(w, (cs_vec2){NAN, 0}), -1);
}

static void hand_computed(void** state)
{
    (void)state;
    int id[3];
    cs_world* w = scene(id);
    // Before any step (every body still outside the grid), after one (in the grid), and after a removal
    // and an addition between steps.
    check_rays(w, id);
    check_boxes_and_points(w, id);
    assert_int_equal(cs_world_step(w), CS_OK);
    check_rays(w, id);
    check_boxes_and_points(w, id);
    assert_int_equal(cs_world_remove_circle(w, id[1]), CS_OK);
    id[1] = cs_test_add(w, CS_BODY_DYNAMIC, 5.0, 0.0, 0.5, 1.0);
    check_rays(w, id);
    check_boxes_and_points(w, id);
    cs_world_destroy(w);
}

// Brute force over the bodies alive, for the random comparison.
static int brute_box(const cs_world* w, cs_vec2 lo, cs_vec2 hi)
{
    int n = 0;
    for (int k = 0; k < cs_world_body_count(w); ++k)
    {
        cs_body_state b = cs_world_body(w, cs_world_body_id(w, k));
        double nx = fmin(fmax(b.position.x, lo.x), hi.x), ny = fmin(fmax(b.position.y, lo.y), hi.y);
        n += hypot(b.position.x - nx, b.position.y - ny) <= b.radius;
    }
    return n;
}

static double brute_ray(const cs_world* w, cs_vec2 o, cs_vec2 d)
{
    double best = INFINITY;
    for (int k = 0; k < cs_world_body_count(w); ++k)
    {
        cs_body_state b = cs_world_body(w, cs_world_body_id(w, k));
        double sx = o.x - b.position.x, sy = o.y - b.position.y;
        double a = d.x * d.x + d.y * d.y, bb = sx * d.x + sy * d.y,
               c = sx * sx + sy * sy - b.radius * b.radius;
        double disc = bb * bb - a * c;
        if (c < 0.0)
        {
            best = 0.0;
        }
        else if (bb < 0.0 && disc >= 0.0)
        {
            double t = (-bb - sqrt(disc)) / a;
            best = t <= 1.0 && t < best ? t : best;
        }
    }
    return best;
}

// The nearest circle hit (walls ignored), clipping the ray at each hit.
static double nearest_body(const cs_ray_hit* hit, void* context)
{
    double* best = context;
    if (hit->body < 0)
    {
        return -1.0;
    }
    *best = hit->fraction < *best ? hit->fraction : *best;
    return hit->fraction;
}

// Boxes (sides up to size) and rays (components up to ±size) at random against the brute force, from
// points in the world's bounds.
static void check_queries(cs_world* w, int count, double size)
{
    cs_vec2 lo, hi;
    cs_world_bounds(w, &lo, &hi);
    for (int q = 0; q < count; ++q)
    {
        cs_vec2 a = {lo.x + (hi.x - lo.x) * rand() / RAND_MAX, lo.y + (hi.y - lo.y) * rand() / RAND_MAX};
        cs_vec2 e = {a.x + size * rand() / RAND_MAX, a.y + size * rand() / RAND_MAX};
        assert_int_equal(cs_world_query_aabb(w, a, e, NULL, 0), brute_box(w, a, e));
        cs_vec2 d = {2.0 * size * rand() / RAND_MAX - size, 2.0 * size * rand() / RAND_MAX - size};
        double want = brute_ray(w, a, d), got = INFINITY;
        cs_world_ray_cast(w, a, d, cs_query_filter_default(), nearest_body, &got);
        assert_true(isinf(want) ? isinf(got) : fabs(got - want) <= 1e-12);
    }
}

static void matches_brute_force(void** state)
{
    (void)state;
    cs_world* w = cs_test_pool(600, 30);
    srand(7);
    for (int round = 0; round < 12; ++round)
    {
        for (int s = 0; s < 10; ++s)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
        }
        // Churn between steps: some bodies go, some come (outside the grid until the next step).
        for (int k = 0; k < 5; ++k)
        {
            assert_int_equal(cs_world_remove_circle(w, cs_world_body_id(w, rand() % cs_world_body_count(w))),
                             CS_OK);
            cs_test_add(w, CS_BODY_DYNAMIC, 2.0 * rand() / RAND_MAX, 3.0 + 2.0 * rand() / RAND_MAX, 0.21,
                        2.0);
        }
        check_queries(w, 50, 2.0);
    }
    cs_world_destroy(w);
}

// While the broad phase's kept pair list serves (broadphase_list.c) the grid is not rebuilt: queries pad it
// by every move since. A drifting, colliding gas of 1 600 small circles (no gravity) on two threads, queried
// after every step against the brute force; the list must serve most steps, and the world must keep the bits
// of one that searches the grid at every step on one thread (no list).
static void stale_grid_and_same_bits(void** state)
{
    (void)state;
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0.0, 0.0};
    cs_error err;
    cs_world* w[2];
    for (int k = 0; k < 2; ++k)
    {
        w[k] = cs_world_create(&def, &err);
        assert_non_null(w[k]);
        srand(11);
        for (int i = 0; i < 1600; ++i)
        {
            double speed = 0.05 + 0.1 * rand() / RAND_MAX, turn = 6.283185307179586 * rand() / RAND_MAX;
            cs_vec2 x = {0.3 * (i % 40), 0.3 * (i / 40)}, v = {speed * cos(turn), speed * sin(turn)};
            assert_true(cs_test_add_disc(w[k], x, v, 0.0, 0.1 + 0.04 * rand() / RAND_MAX, 1.0, 0.1, 0.5) >=
                        0);
        }
    }
    w[1]->broadphase.list.skin_fraction = 0.0;
    assert_true(cs_world_set_threads(w[0], 2)); // (1 600 bodies: the list's search and filter in chunks)
    int served = 0, rebuilt_after_serving = 0;
    bool was_served = false;
    srand(5);
    for (int step = 0; step < 240; ++step)
    {
        for (int k = 0; k < 2; ++k)
        {
            assert_int_equal(cs_world_step(w[k]), CS_OK);
        }
        bool used = !cs_broadphase_grid_built(&w[0]->broadphase);
        served += used;
        rebuilt_after_serving += was_served && !used;
        was_served = used;
        assert_true(cs_broadphase_grid_built(&w[1]->broadphase));
        check_queries(w[0], 20, 1.0);
        size_t n = (size_t)w[0]->body_count;
        assert_memory_equal(w[0]->px, w[1]->px, n * sizeof(double));
        assert_memory_equal(w[0]->py, w[1]->py, n * sizeof(double));
        assert_memory_equal(w[0]->v, w[1]->v, 3 * n * sizeof(double));
    }
    assert_true(served >= 120);              // the list serves most steps ...
    assert_true(rebuilt_after_serving >= 4); // ... and the drift ends it now and then
    cs_world_destroy(w[0]);
    cs_world_destroy(w[1]);
}

// `circlesim-cli queries` (the Box2D v3 rays-mode workload) runs and names its figures; bad options are
// usage errors.
static void cli_queries(void** state)
{
    (void)state;
    cs_test_cli_expect("queries --bodies 100 --steps 20", 0, "ns_per_ray=");
    cs_test_cli_expect("queries --bodies 100 --steps 20 --sleep", 0, "aabb_found=");
    cs_test_cli_expect("queries --bodies 0", 2, "--bodies");
    cs_test_cli_expect("queries --frobnicate", 2, "unknown option '--frobnicate'");
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_computed),
        cmocka_unit_test(matches_brute_force),
        cmocka_unit_test(stale_grid_and_same_bits),
        cmocka_unit_test(cli_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
