// The coloured row order (contact_order.h, cs_row_order): a permutation of the contacts in which each
// block's colours are body-disjoint, so that consecutive rows are independent; the world sweeps in it,
// exports it, and settles the paper's scenes in it as in key order.
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact_order.h"
#include "world/world_internal.h"

#define CLI CS_BINARY_DIR "/circlesim-cli"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static int uniform_int(int n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (int)((rng_state >> 11) % (uint64_t)n);
}

static int compare_key(const void* x, const void* y)
{
    uint64_t a = ((const cs_contact*)x)->key, b = ((const cs_contact*)y)->key;
    return a < b ? -1 : (a > b ? 1 : 0);
}

// count contacts on `bodies` bodies, key-sorted as the narrow phase emits them; every eighth on a wall.
static cs_contact* random_contacts(int count, int bodies)
{
    cs_contact* c = calloc((size_t)count, sizeof *c);
    for (int k = 0; k < count; ++k)
    {
        int b = uniform_int(bodies);
        if (k % 8 == 0)
        {
            c[k].a = -1;
            c[k].wall = uniform_int(4);
            c[k].key = ((uint64_t)(CS_WALL_KEY_BIT + (uint32_t)c[k].wall) << 32) | (uint32_t)b;
        }
        else
        {
            int a = uniform_int(bodies - 1);
            b = a + 1 + uniform_int(bodies - 1 - a); // a < b
            c[k].a = a;
            c[k].wall = -1;
            c[k].key = ((uint64_t)a << 32) | (uint32_t)b;
        }
        c[k].b = b;
    }
    qsort(c, (size_t)count, sizeof *c, compare_key);
    return c;
}

static bool share_body(const cs_contact* x, const cs_contact* y)
{
    return x->b == y->b || (x->a >= 0 && (x->a == y->a || x->a == y->b)) || (y->a >= 0 && y->a == x->b);
}

// The order's contract, checked from its definition: a permutation that keeps every block in place; in a
// block the colours come in increasing order, each colour in key order, and two contacts of one colour
// (but the overflow colour 31) share no body.
static void check_order(const cs_contact_order* o, const cs_contact* c, int count, int block)
{
    char* seen = calloc((size_t)count, 1);
    int span = block > 0 ? block : count;
    for (int k = 0; k < count; ++k)
    {
        int i = o->order[k];
        assert_true(i >= 0 && i < count);
        assert_false(seen[i]);
        seen[i] = 1;
        assert_int_equal(i / span, k / span); // stays in its block
        if (k % span == 0)
        {
            continue;
        }
        int prev = o->order[k - 1];
        assert_true(o->colour[prev] <= o->colour[i]);
        if (o->colour[prev] == o->colour[i])
        {
            assert_true(prev < i); // stable: key order within a colour
        }
    }
    for (int x = 0; x < count; ++x)
    {
        for (int y = x + 1; y < count && y / span == x / span; ++y)
        {
            if (o->colour[x] == o->colour[y] && o->colour[x] != 31 && share_body(c + x, c + y))
            {
                fail_msg("contacts %d and %d share a body but both have colour %d", x, y, o->colour[x]);
            }
        }
    }
    free(seen);
}

static void random_contacts_are_coloured_in_blocks(void** state)
{
    (void)state;
    const int sizes[] = {0, 1, 63, 64, 65, 700, 3000};
    const int blocks[] = {CS_ORDER_BLOCK, 16, 0};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    {
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
        {
            int count = sizes[s], bodies = 40 + count / 4;
            cs_contact* c = random_contacts(count > 0 ? count : 1, bodies);
            cs_contact_order o = {0};
            cs_error err;
            assert_int_equal(cs_contact_order_build(&o, c, count, bodies, blocks[b], &err), CS_OK);
            check_order(&o, c, count, blocks[b]);
            // Built twice (the world's steady state: buffers reused, `used` left all zero), the same order.
            int* first = calloc((size_t)(count > 0 ? count : 1), sizeof *first);
            if (count > 0) // (no order array exists for no contacts)
            {
                memcpy(first, o.order, (size_t)count * sizeof *first);
            }
            assert_int_equal(cs_contact_order_build(&o, c, count, bodies, blocks[b], &err), CS_OK);
            if (count > 0)
            {
                assert_memory_equal(first, o.order, (size_t)count * sizeof *first);
            }
            for (int i = 0; i < bodies; ++i)
            {
                assert_int_equal(o.used[i], 0);
            }
            free(first);
            cs_contact_order_free(&o);
            free(c);
        }
    }
}

// One body touching 40 others needs 40 colours: the 32nd takes the rest, still a permutation.
static void a_star_overflows_into_the_last_colour(void** state)
{
    (void)state;
    enum
    {
        N = 40
    };
    cs_contact c[N];
    memset(c, 0, sizeof c);
    for (int k = 0; k < N; ++k)
    {
        c[k].a = 0;
        c[k].b = k + 1;
        c[k].wall = -1;
        c[k].key = (uint64_t)(k + 1);
    }
    cs_contact_order o = {0};
    cs_error err;
    assert_int_equal(cs_contact_order_build(&o, c, N, N + 1, 0, &err), CS_OK);
    for (int k = 0; k < N; ++k)
    {
        assert_int_equal(o.order[k], k); // colour k for k < 31, then colour 31 in key order
        assert_int_equal(o.colour[k], k < 31 ? k : 31);
    }
    cs_contact_order_free(&o);
}

// Consecutive contacts (in row order) that share a body, over the last step's frozen problem.
static double shared_neighbour_fraction(const cs_lcp* p)
{
    int per = 2, shared = 0, pairs = 0;
    for (int r = per; r < p->row_count; r += per)
    {
        int a0 = p->body_a[r - per], b0 = p->body_b[r - per], a1 = p->body_a[r], b1 = p->body_b[r];
        bool share = b0 == b1 || (a0 >= 0 && (a0 == a1 || a0 == b1)) || (a1 >= 0 && a1 == b0);
        shared += share ? 1 : 0;
        pairs += 1;
    }
    return pairs > 0 ? (double)shared / pairs : 0.0;
}

// Relative velocity of the two surfaces at a touching contact's point (0 for a contact not touching).
static double contact_point_speed(const cs_world* w, cs_contact_info c)
{
    if (c.gap > 0.0)
    {
        return 0.0;
    }
    double vx = 0.0, vy = 0.0;
    for (int side = 0; side < 2; ++side)
    {
        int id = side == 0 ? c.body_b : c.body_a;
        if (id < 0)
        {
            continue;
        }
        cs_body_state b = cs_world_body(w, id);
        double rx = c.point.x - b.position.x, ry = c.point.y - b.position.y;
        double sign = side == 0 ? 1.0 : -1.0;
        vx += sign * (b.velocity.x - b.angular_velocity * ry);
        vy += sign * (b.velocity.y + b.angular_velocity * rx);
    }
    return hypot(vx, vy);
}

static cs_world* load(const char* scene, cs_row_order order)
{
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path(scene), &info, &err);
    assert_non_null(w);
    assert_true(cs_world_set_row_order(w, order));
    return w;
}

// The point of the order, measured on Pool 1: in key order most consecutive contacts share a body (a
// dependency chain for the sweep), in the coloured order few do. Both orders settle the pool.
static void pool1_rows_are_independent_and_settle_in_both_orders(void** state)
{
    (void)state;
    double fraction[CS_ROW_ORDER_COUNT];
    for (int order = 0; order < CS_ROW_ORDER_COUNT; ++order)
    {
        cs_world* w = load("scenes/pool1.json", (cs_row_order)order);
        double max_speed = 0.0;
        // 720 steps: a disc the collapse leaves rolling on free floor (no rolling resistance) may run into
        // the pile late (before the impact-shift fix for piles, the coloured order's corner disc at step
        // ~575), and the pile then takes a few dozen steps to be still again.
        for (int s = 0; s < 720; ++s)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
        }
        for (int i = 0; i < cs_world_body_count(w); ++i)
        {
            cs_body_state b = cs_world_body(w, i);
            max_speed = fmax(max_speed, hypot(b.velocity.x, b.velocity.y));
        }
        // Settled: no touching contact slides, approaches or separates. (A disc may still roll: the model
        // has no rolling resistance; tests/test_quiet_pile.c asks that none does in Pool 1.)
        double max_slip = 0.0;
        int moving = 0, rolling = 0;
        for (int i = 0; i < cs_world_body_count(w); ++i)
        {
            cs_body_state b = cs_world_body(w, i);
            moving += hypot(b.velocity.x, b.velocity.y) > 1e-6 ? 1 : 0;
        }
        for (int k = 0; k < cs_world_contact_count(w); ++k)
        {
            cs_contact_info c = cs_world_contact(w, k);
            max_slip = fmax(max_slip, contact_point_speed(w, c));
            // A moving disc on the floor: it rolls there (no slip, checked above).
            bool moves =
                hypot(cs_world_body(w, c.body_b).velocity.x, cs_world_body(w, c.body_b).velocity.y) > 1e-6;
            rolling += c.gap <= 0.0 && c.body_a < 0 && c.wall == 0 && moves ? 1 : 0;
        }
        fraction[order] = shared_neighbour_fraction(cs_world_last_problem(w));
        print_message("# pool1 %s order: %.1f %% of consecutive contacts share a body, max speed %.2g m/s, "
                      "penetration %.2f mm\n",
                      cs_row_order_name((cs_row_order)order), 100.0 * fraction[order], max_speed,
                      1e3 * cs_world_stats(w)->max_penetration);
        assert_true(max_slip < 1e-6);
        assert_true(moving <= rolling); // every disc still moving rolls on the floor
        assert_true(cs_world_stats(w)->max_penetration < 1.5e-3);
        cs_world_destroy(w);
    }
    assert_true(fraction[CS_ROW_ORDER_KEY] > 0.5);
    assert_true(fraction[CS_ROW_ORDER_COLOURED] < 0.1);
}

// The order is a function of the contacts' bodies: a step whose contacts have the same bodies in the same
// order keeps last step's (cs_contact_order_holds). Any other list, block or count is not held; and in
// Pool 1's collapse and rest the world's order is, after every step, the one built afresh.
static void a_kept_order_is_the_order_built(void** state)
{
    (void)state;
    int count = 700, bodies = 40 + count / 4;
    cs_contact* c = random_contacts(count, bodies);
    cs_contact_order o = {0};
    cs_error err;
    assert_false(cs_contact_order_holds(&o, c, count, CS_ORDER_BLOCK)); // (none built)
    assert_int_equal(cs_contact_order_build(&o, c, count, bodies, CS_ORDER_BLOCK, &err), CS_OK);
    assert_true(cs_contact_order_holds(&o, c, count, CS_ORDER_BLOCK));
    assert_false(cs_contact_order_holds(&o, c, count, 16));
    assert_false(cs_contact_order_holds(&o, c, count - 1, CS_ORDER_BLOCK));
    c[count / 2].key += 1; // one contact's key (its body b)
    assert_false(cs_contact_order_holds(&o, c, count, CS_ORDER_BLOCK));
    c[count / 2].key -= 1;
    c[count - 1].key += UINT64_C(1) << 32; // the last contact's (its body a or wall)
    assert_false(cs_contact_order_holds(&o, c, count, CS_ORDER_BLOCK));
    cs_contact_order_free(&o);
    free(c);

    cs_world* w = load("scenes/pool1.json", CS_ROW_ORDER_COLOURED);
    int kept = 0;
    for (int s = 0; s < 400; ++s)
    {
        bool same = cs_contact_order_holds(&w->order, w->contacts.items, w->contacts.count, CS_ORDER_BLOCK);
        assert_int_equal(cs_world_step(w), CS_OK);
        kept +=
            same && cs_contact_order_holds(&w->order, w->contacts.items, w->contacts.count, CS_ORDER_BLOCK);
        cs_contact_order fresh = {0};
        int n = w->contacts.count;
        assert_int_equal(
            cs_contact_order_build(&fresh, w->contacts.items, n, w->body_count, CS_ORDER_BLOCK, &err), CS_OK);
        assert_memory_equal(fresh.order, w->order.order, (size_t)n * sizeof(int));
        assert_memory_equal(fresh.colour, w->order.colour, (size_t)n);
        cs_contact_order_free(&fresh);
    }
    assert_true(kept >= 100); // the settled pile keeps its order most steps
    cs_world_destroy(w);
}

// The row order is part of the method: the two orders give different iterates (so a test of one says
// nothing of the other), each deterministic.
static void orders_differ_and_each_is_deterministic(void** state)
{
    (void)state;
    uint64_t hash[CS_ROW_ORDER_COUNT][2];
    for (int order = 0; order < CS_ROW_ORDER_COUNT; ++order)
    {
        for (int run = 0; run < 2; ++run)
        {
            cs_world* w = load("scenes/pool2.json", (cs_row_order)order);
            for (int s = 0; s < 120; ++s)
            {
                assert_int_equal(cs_world_step(w), CS_OK);
            }
            hash[order][run] = cs_world_hash(w);
            cs_world_destroy(w);
        }
        assert_true(hash[order][0] == hash[order][1]);
    }
    assert_true(hash[CS_ROW_ORDER_KEY][0] != hash[CS_ROW_ORDER_COLOURED][0]);
}

static void names_round_trip(void** state)
{
    (void)state;
    for (int order = 0; order < CS_ROW_ORDER_COUNT; ++order)
    {
        assert_int_equal(cs_row_order_find(cs_row_order_name((cs_row_order)order)), order);
    }
    assert_int_equal(cs_row_order_find("zigzag"), -1);
    assert_int_equal(cs_row_order_find(NULL), -1);
    assert_null(cs_row_order_name(CS_ROW_ORDER_COUNT));
    cs_world* w = cs_world_create(NULL, NULL);
    assert_false(cs_world_set_row_order(w, CS_ROW_ORDER_COUNT));
    assert_int_equal(cs_world_get_def(w)->row_order, CS_ROW_ORDER_COLOURED);
    cs_world_destroy(w);
    cs_world_def def = cs_world_def_default();
    def.row_order = (cs_row_order)7;
    cs_error err;
    assert_null(cs_world_create(&def, &err));
    assert_non_null(strstr(err.message, "row order"));
}

static void cli_rejects_an_unknown_order(void** state)
{
    (void)state;
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "%s run %s --steps 1 --row-order zigzag", CLI,
             cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "--row-order: unknown row order 'zigzag' (coloured, key)"));
    snprintf(cmd, sizeof cmd, "%s run %s --steps 5 --row-order key", CLI,
             cs_test_source_path("scenes/stacking.json"));
    assert_int_equal(cs_test_run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "key row order"));
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_contacts_are_coloured_in_blocks),
        cmocka_unit_test(a_star_overflows_into_the_last_colour),
        cmocka_unit_test(pool1_rows_are_independent_and_settle_in_both_orders),
        cmocka_unit_test(a_kept_order_is_the_order_built),
        cmocka_unit_test(orders_differ_and_each_is_deterministic),
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(cli_rejects_an_unknown_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
