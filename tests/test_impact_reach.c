// The restitution pass visits only the contacts an impact can reach (contact/impact_reach.h,
// docs/PHYSICS.md "Collisions within a step" item 7): a pile that nothing strikes keeps the velocity solve's
// answer when a ball bounces elsewhere in the world, bit for bit as in a world without the ball. Before, the
// pass swept every contact of the world whenever anything bounced, so the pile took ten more Gauss-Seidel
// sweeps in the steps the ball bounced and drifted off the ball-less pile's bits.
#include "test_support.h"

#include <math.h>
#include <stdio.h>

#define PILE_ROWS 4
#define RADIUS    0.2

// A pyramid of 4 + 3 + 2 + 1 touching discs on the floor (the only wall, so that the ball's floor contact
// sorts after every contact of the pile), restitution e for all.
static cs_world* pile_world(cs_row_order order, double e, int* pile_ids, int* pile_count)
{
    cs_world_def def = cs_world_def_default();
    def.row_order = order;
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    assert_true(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.5, e, &err) >= 0);
    int n = 0;
    for (int row = 0; row < PILE_ROWS; ++row)
    {
        for (int k = 0; k < PILE_ROWS - row; ++k)
        {
            double x = (2 * k + row) * RADIUS, y = RADIUS + row * RADIUS * sqrt(3.0);
            pile_ids[n++] = cs_test_add_disc(w, (cs_vec2){x, y}, (cs_vec2){0, 0}, 0.0, RADIUS, 1.0, 0.5, e);
        }
    }
    *pile_count = n;
    return w;
}

static bool same_state(cs_body_state a, cs_body_state b)
{
    return a.position.x == b.position.x && a.position.y == b.position.y && a.angle == b.angle &&
           a.velocity.x == b.velocity.x && a.velocity.y == b.velocity.y &&
           a.angular_velocity == b.angular_velocity;
}

// Steps the pile with a ball bouncing 20 m away and the pile alone side by side; returns the first step at
// which a disc of the two piles differs (0: none in 240 steps) and counts the ball's bounces.
static int first_difference(cs_row_order order, int* bounces)
{
    int ids[16], ids_alone[16], n, n_alone;
    cs_world* w = pile_world(order, 0.5, ids, &n);
    cs_world* alone = pile_world(order, 0.5, ids_alone, &n_alone);
    assert_int_equal(n, n_alone);
    int ball = cs_test_add_disc(w, (cs_vec2){20.0, 2.0}, (cs_vec2){0, 0}, 0.0, RADIUS, 1.0, 0.5, 0.9);
    *bounces = 0;
    double vy = 0.0;
    for (int s = 1; s <= 240; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        assert_int_equal(cs_world_step(alone), CS_OK);
        double now = cs_world_body(w, ball).velocity.y;
        *bounces += vy < -1.0 && now > 1.0 ? 1 : 0; // (faster than the threshold, 1 m/s)
        vy = now;
        for (int i = 0; i < n; ++i)
        {
            if (!same_state(cs_world_body(w, ids[i]), cs_world_body(alone, ids_alone[i])))
            {
                cs_world_destroy(w);
                cs_world_destroy(alone);
                return s;
            }
        }
    }
    cs_world_destroy(w);
    cs_world_destroy(alone);
    return 0;
}

static void a_bounce_elsewhere_leaves_a_pile_alone(void** state)
{
    (void)state;
    cs_row_order orders[] = {CS_ROW_ORDER_KEY, CS_ROW_ORDER_COLOURED};
    for (int k = 0; k < 2; ++k)
    {
        int bounces = 0;
        int step = first_difference(orders[k], &bounces);
        printf("# %s order: the ball bounced %d times; the pile %s\n", cs_row_order_name(orders[k]), bounces,
               step == 0 ? "kept the bits of the pile alone for 240 steps" : "differs");
        if (step != 0)
        {
            printf("#   first differing step: %d\n", step);
        }
        assert_int_equal(step, 0);
        assert_true(bounces >= 3); // the pass ran, in steps where the pile did not bounce
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_bounce_elsewhere_leaves_a_pile_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
