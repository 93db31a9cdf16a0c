// The restitution pass leaves out unmoved rows (contact/restitution_sweep.c "Unmoved rows"; docs/PHYSICS.md
// "Collisions within a step", item 7): under relax and split an ordinary row is visited only when a body of
// it was moved by at least slop/h in this pass, or its row is violated by more than slop/h. Hand-built,
// frictionless, unit masses, one component of five bodies:
//
//         k4 (violated)   k3         k1         k2 (approaching within slop/h)
//     4 ───────────── 3 ──── 0 ──── 1 ───────── 2
//                            │ k0: bounces off the floor (the seed)
//
// k0: A (0) falls onto a wall at 2 m/s and bounces (e = 1): it moves A by 4 m/s, marking it. k1 (0–1) and
// k3 (0–3) touch A, so they are visited: k1 approaches at 0.1 m/s and takes 0.05 N·s (its velocity change
// 0.1 < slop/h = 0.3: body 1 is not marked), k3 is at rest. k2 (1–2) carries 0.5 N·s and approaches at
// 0.1 m/s (after k1's visit 0.05): within slop/h, and neither body marked, so it keeps the solve's answer
// (a visit would take 0.525). k4 (3–4) approaches at 0.5 m/s, more than slop/h: visited although neither body
// is marked. Every row visited (moved_only off, what SPOOK and soft get) k2 changes.
#include "test_support.h"

#include "contact/impact.h"
#include "contact/impact_reach.h"
#include "contact/restitution_pack.h"
#include "test_reach.h"

#include <string.h>

enum
{
    BODIES = 5,
    CONTACTS = 5
};

static void unmoved_case(cs_contact* c, double* v)
{
    memset(c, 0, CONTACTS * sizeof c[0]);
    const int a[CONTACTS] = {-1, 0, 1, 3, 4}, b[CONTACTS] = {0, 1, 2, 0, 3};
    for (int k = 0; k < CONTACTS; ++k)
    {
        c[k].key = (uint64_t)(a[k] + 1) << 32 | (uint64_t)b[k];
        c[k].a = a[k];
        c[k].b = b[k];
        c[k].wall = a[k] < 0 ? 0 : -1;
        c[k].nx = k == 0 ? 0.0 : 1.0; // (b is to the right of a: 1 right of 0, 2 of 1, 0 of 3, 3 of 4)
        c[k].ny = k == 0 ? 1.0 : 0.0;
        c[k].gap = 0.0; // all touching: one component
        c[k].restitution = 1.0;
    }
    c[0].bounce = true;
    c[2].normal_impulse = 0.5;
    // vx, vy, ω of 0 (A), 1, 2, 3, 4: k1's vn = v1 − v0 = −0.1, k2's = v2 − v1 = −0.1, k3's = v0 − v3 = 0,
    // k4's = v3 − v4 = −0.5.
    const double v0[3 * BODIES] = {0.0, -2.0, 0.0, -0.1, 0.0, 0.0, -0.2, 0.0,
                                   0.0, 0.0,  0.0, 0.0,  0.5, 0.0, 0.0};
    memcpy(v, v0, sizeof v0);
}

static void run_pass(cs_contact* c, double* v, bool moved_only)
{
    static int claimed[BODIES];
    static cs_pass_row rows[CONTACTS];
    static cs_pass_body records[BODIES];
    const double inv_mass[BODIES] = {1.0, 1.0, 1.0, 1.0, 1.0},
                 inv_inertia[BODIES] = {1.0, 1.0, 1.0, 1.0, 1.0};
    double offset[3 * BODIES] = {0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0};
    cs_impact_bodies bodies = {.inv_mass = inv_mass, .inv_inertia = inv_inertia, .offset = offset};
    cs_restitution_params params = {.time_step = 1.0 / 60.0,
                                    .threshold = 0.5,
                                    .linear_slop = 0.005,
                                    .iterations = 10,
                                    .frictionless = true,
                                    .moved_only = moved_only};
    cs_impact_reach reach = cs_test_reach(BODIES, CONTACTS);
    cs_pass_pack pack = {.rows = rows, .bodies = records, .claimed = claimed};
    assert_int_equal(cs_contact_restitution(c, CONTACTS, &bodies, &params, &reach, &pack, v), 1);
    assert_int_equal(reach.count, CONTACTS); // (one component: every contact listed)
    if (moved_only)
    {
        assert_true(pack.unmoved > 0);
    }
    else
    {
        assert_int_equal(pack.unmoved, 0);
    }
    cs_test_reach_free(&reach);
}

static void unmoved_row_keeps_the_solves_answer(void** state)
{
    (void)state;
    cs_contact c[CONTACTS];
    double v[3 * BODIES];
    unmoved_case(c, v);
    run_pass(c, v, true);
    print_message("moved only: k1 %.17g, k2 %.17g, k4 %.17g; A's vy %.17g\n", c[1].normal_impulse,
                  c[2].normal_impulse, c[4].normal_impulse, v[1]);
    assert_near(v[1], 2.0, 1e-12);           // A bounced
    assert_true(c[1].normal_impulse > 0.0);  // visited: A moved
    assert_true(c[2].normal_impulse == 0.5); // left out: neither body moved, violated by less than slop/h
    assert_true(v[3 * 2] == -0.2);           // body 2 untouched by the pass
    assert_true(c[4].normal_impulse > 0.0);  // violated by more than slop/h: visited
}

static void every_row_visited_without_the_rule(void** state)
{
    (void)state;
    cs_contact c[CONTACTS];
    double v[3 * BODIES];
    unmoved_case(c, v);
    run_pass(c, v, false);
    print_message("every row: k1 %.17g, k2 %.17g, k4 %.17g\n", c[1].normal_impulse, c[2].normal_impulse,
                  c[4].normal_impulse);
    assert_true(c[2].normal_impulse > 0.5); // k2 visited: its approach taken up
    assert_true(v[3 * 2] > -0.2);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unmoved_row_keeps_the_solves_answer),
        cmocka_unit_test(every_row_visited_without_the_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
