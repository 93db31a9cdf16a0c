// Static and kinematic circles (issue 16): pegs never move, kinematic circles move exactly as told and
// push dynamic circles without being pushed; their rows have one static half.
#include "test_support.h"

#include <string.h>

// A ball lands slightly right of a peg's top, rolls off and falls to the ground; the peg's state stays
// the same bits all along, and the contact rows have one static half (body -1), as walls do.
static void peg_never_moves(void** state)
{
    (void)state;
    cs_world* w = cs_test_ground_world();
    int peg = cs_test_add(w, CS_BODY_STATIC, 0.0, 1.0, 0.1, 0.0);
    int ball = cs_test_add(w, CS_BODY_DYNAMIC, 0.03, 2.0, 0.1, 1.0);
    cs_body_state p0 = cs_world_body(w, peg);
    int touching_steps = 0;
    for (int s = 0; s < 240; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        cs_body_state p = cs_world_body(w, peg);
        assert_memory_equal(&p, &p0, sizeof p);
        for (int k = 0; k < cs_world_contact_count(w); ++k)
        {
            cs_contact_info c = cs_world_contact(w, k);
            if (c.body_a == peg || c.body_b == peg)
            {
                touching_steps += c.normal_impulse > 0.0;
            }
        }
        const cs_lcp* lcp = cs_world_last_problem(w);
        for (int r = 0; r < lcp->row_count; ++r)
        {
            assert_int_equal(lcp->body_a[r], -1); // peg rows and ground rows alike
            assert_int_equal(lcp->body_b[r], ball);
        }
    }
    assert_true(touching_steps >= 2); // it landed on the peg (and slid off within a few steps)
    cs_body_state b = cs_world_body(w, ball);
    assert_true(b.position.x > 0.2);       // rolled off to the right
    assert_near(b.position.y, 0.1, 0.005); // and rests on the ground
    assert_int_equal(cs_world_body_type(w, peg), CS_BODY_STATIC);
    assert_near(cs_world_body(w, peg).mass, 0.0, 0.0); // mass is ignored for static circles
    cs_world_destroy(w);
}

// A kinematic rotor driven at 1 m/s and 2π rad/s is exactly where its velocity puts it after 3 s
// (180 steps of 1/60 s), and it pushes a resting 5 kg circle ahead of it.
static void kinematic_rotor_pushes(void** state)
{
    (void)state;
    const double pi = 3.14159265358979323846;
    cs_world* w = cs_test_ground_world();
    cs_circle_def c = cs_circle_def_default();
    c.type = CS_BODY_KINEMATIC;
    c.position = (cs_vec2){0.0, 0.5};
    c.velocity = (cs_vec2){1.0, 0.0};
    c.angular_velocity = 2.0 * pi;
    c.radius = 0.5;
    c.mass = 0.0;
    cs_error err;
    int rotor = cs_world_add_circle(w, &c, &err);
    assert_true(rotor >= 0);
    int box = cs_test_add(w, CS_BODY_DYNAMIC, 1.5, 0.5, 0.5, 5.0);
    double x = 0.0, angle = 0.0; // the same sums the integrator does
    for (int s = 0; s < 180; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        x += (1.0 / 60.0) * 1.0;
        angle += (1.0 / 60.0) * 2.0 * pi;
    }
    cs_body_state r = cs_world_body(w, rotor);
    assert_near(r.position.x, 3.0, 1e-12);
    assert_near(r.position.x, x, 0.0);
    assert_near(r.position.y, 0.5, 0.0);
    assert_near(r.angle, 6.0 * pi, 1e-12);
    assert_near(r.angle, angle, 0.0);
    assert_near(r.velocity.x, 1.0, 0.0); // never pushed back
    assert_near(r.velocity.y, 0.0, 0.0);
    assert_near(r.angular_velocity, 2.0 * pi, 0.0);
    // The 5 kg circle was pushed along: ahead of the rotor, touching it (within the linear slop and
    // what one step's speculative gap can leave), moving with it.
    cs_body_state b = cs_world_body(w, box);
    assert_true(b.position.x - r.position.x > 1.0 - 0.005);
    assert_true(b.position.x - r.position.x < 1.0 + 0.05);
    assert_true(b.velocity.x > 0.9);
    cs_world_destroy(w);
}

// A dynamic circle between two kinematic walls closing in is squeezed up, never the walls apart; two
// kinematic or static circles never make a contact with each other.
static void non_dynamic_pairs_make_no_rows(void** state)
{
    (void)state;
    cs_world* w = cs_test_ground_world();
    cs_test_add(w, CS_BODY_STATIC, 0.0, 0.5, 0.5, 0.0);
    cs_test_add(w, CS_BODY_STATIC, 0.9, 0.5, 0.5, 0.0); // overlapping pegs
    cs_circle_def c = cs_circle_def_default();
    c.type = CS_BODY_KINEMATIC;
    c.position = (cs_vec2){0.45, 1.2};
    c.radius = 0.4;
    cs_error err;
    assert_true(cs_world_add_circle(w, &c, &err) >= 0); // overlapping both pegs
    assert_int_equal(cs_world_step(w), CS_OK);
    assert_int_equal(cs_world_contact_count(w), 0);
    assert_int_equal(cs_world_last_problem(w)->row_count, 0);
    cs_world_destroy(w);
}

static void definitions_checked(void** state)
{
    (void)state;
    cs_world* w = cs_test_ground_world();
    cs_error err;
    cs_circle_def c = cs_circle_def_default();
    c.mass = 0.0;
    assert_int_equal(cs_world_add_circle(w, &c, &err), -1); // dynamic: mass > 0
    assert_int_equal(err.status, CS_ERR_VALUE);
    c.type = CS_BODY_STATIC;
    assert_true(cs_world_add_circle(w, &c, &err) >= 0);
    c.velocity.x = 1.0;
    assert_int_equal(cs_world_add_circle(w, &c, &err), -1); // a static circle cannot move
    assert_non_null(strstr(err.message, "static"));
    c.type = CS_BODY_KINEMATIC;
    c.mass = -1.0;
    assert_int_equal(cs_world_add_circle(w, &c, &err), -1);
    c.mass = 0.0;
    c.type = (cs_body_type)7;
    assert_int_equal(cs_world_add_circle(w, &c, &err), -1);
    assert_non_null(strstr(err.message, "type"));
    // A static circle keeps zero velocity whatever it is told.
    cs_world_set_body_velocity(w, 0, (cs_vec2){3.0, 0.0}, 1.0);
    assert_near(cs_world_body(w, 0).velocity.x, 0.0, 0.0);
    cs_world_destroy(w);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(peg_never_moves),
        cmocka_unit_test(kinematic_rotor_pushes),
        cmocka_unit_test(non_dynamic_pairs_make_no_rows),
        cmocka_unit_test(definitions_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
