// Closed forms of the contact model at the default step (h = 1/60 s, 10 iterations): bounces at every
// phase of the step, oblique impacts, free flight, rolling, spin transfer, the resting gap and the
// documented defaults (docs/PHYSICS.md). Every expected value below is computed from the physics, not read
// from the code's output.
//
// The integrator (symplectic Euler) stores at t the mean velocity of the step that ended at t, which for a
// body in free flight is its exact velocity at t − h/2: the velocity at t itself is v − h·g/2 (for the
// vertical component, with gravity −g). Tests that start a body "at rest at t = 0" give it v = +g·h/2.
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double g = 9.80665;
static const double h = 1.0 / 60.0;

// The formulation the worlds are made with (the default unless a test says otherwise).
static cs_formulation formulation = CS_FORMULATION_RELAX;

static cs_world* make_world(cs_vec2 gravity, double threshold)
{
    cs_world_def def = cs_world_def_default();
    def.formulation = formulation;
    def.gravity = gravity;
    def.restitution_threshold = threshold;
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    return w;
}

static void add_floor(cs_world* w, double mu, double e)
{
    cs_error err;
    assert_true(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, mu, e, &err) >= 0);
}

// Bounce ---------------------------------------------------------------------------------------------------

// A disc (r 0.2) at rest with its lowest point H above the floor falls, bounces once and rises. Returns the
// rebound speed ratio and the apex of the rise (its lowest point's height), both from the free-flight
// parabola through the samples after the bounce, and the highest sample.
static void drop(double H, double e, double threshold, double* ratio, double* apex, double* top_sample)
{
    const double r = 0.2;
    cs_world* w = make_world((cs_vec2){0, -g}, threshold);
    add_floor(w, 0.3, 0.0);
    int id = cs_test_add_disc(w, (cs_vec2){0, r + H}, (cs_vec2){0, 0.5 * g * h}, 0.0, r, 1.0, 0.3, e);
    bool rising = false;
    *top_sample = 0.0;
    *apex = *ratio = NAN;
    for (int s = 0; s < 2000; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        cs_body_state b = cs_world_body(w, id);
        double y = b.position.y - r;
        double u = b.velocity.y - 0.5 * g * h; // the velocity at this instant
        if (!rising && u > 0.0)
        {
            rising = true;
            // The parabola through this sample: speed at the floor and apex.
            double rebound = sqrt(u * u + 2.0 * g * y);
            *ratio = rebound / sqrt(2.0 * g * H);
            *apex = y + u * u / (2.0 * g);
        }
        if (rising)
        {
            if (y < *top_sample)
            {
                break;
            }
            *top_sample = y;
        }
        assert_true(fabs(b.velocity.x) < 1e-12 && fabs(b.angular_velocity) < 1e-12); // a straight drop
    }
    assert_true(rising);
    cs_world_destroy(w);
}

static void bounce_apex_and_rebound_at_every_phase(void** state)
{
    (void)state;
    const double es[] = {0.3, 0.5, 0.9, 1.0};
    const double heights[] = {0.5, 0.83, 1.0, 1.6, 2.5, 3.05, 4.5, 5.0};
    bool phase_seen[4] = {false, false, false, false};
    for (size_t j = 0; j < sizeof heights / sizeof heights[0]; ++j)
    {
        // Where in its step the ball arrives: the impact time in steps, fractional part.
        double steps = sqrt(2.0 * heights[j] / g) / h;
        phase_seen[(int)(4.0 * (steps - floor(steps)))] = true;
        for (size_t k = 0; k < sizeof es / sizeof es[0]; ++k)
        {
            double e = es[k], H = heights[j];
            for (int t = 0; t < 2; ++t)
            {
                double ratio, apex, top;
                drop(H, e, t == 0 ? 0.0 : 1.0, &ratio, &apex, &top); // impact speed >= 3.1 m/s > 1 m/s
                assert_near(ratio, e, 0.01 * e);
                assert_near(apex, e * e * H, 0.01 * e * e * H);
                // The samples lie on that parabola: the highest is within g h²/8 of its apex.
                assert_true(top <= apex + 1e-9 && top >= apex - g * h * h / 8.0 - 1e-9);
            }
        }
    }
    for (int q = 0; q < 4; ++q)
    {
        assert_true(phase_seen[q]); // impacts in each quarter of the step
    }
}

// The bounce is the restitution pass's under every formulation: under soft the relax solve after integration
// keeps what the pass left (it took the whole bounce back while its bound was the rebound ρ).
static void bounce_under_every_formulation(void** state)
{
    (void)state;
    const double es[] = {0.5, 0.9};
    const double heights[] = {0.83, 1.6, 3.05};
    for (int f = 0; f < CS_FORMULATION_COUNT; ++f)
    {
        formulation = (cs_formulation)f;
        for (size_t j = 0; j < sizeof heights / sizeof heights[0]; ++j)
        {
            for (size_t k = 0; k < sizeof es / sizeof es[0]; ++k)
            {
                double e = es[k], H = heights[j], ratio, apex, top;
                drop(H, e, 1.0, &ratio, &apex, &top);
                printf("# %s, H %.2f m, e %.1f: rebound ratio %.6f, apex %.6f m (e²H %.6f)\n",
                       cs_formulation_name(formulation), H, e, ratio, apex, e * e * H);
                assert_near(ratio, e, 0.01 * e);
                assert_near(apex, e * e * H, 0.01 * e * e * H);
            }
        }
    }
}

// (A failed assertion leaves the test early: the next tests must still get the default.)
static int default_formulation(void** state)
{
    (void)state;
    formulation = CS_FORMULATION_RELAX;
    return 0;
}

// A disc placed touching the floor at rest never moves.
static void disc_at_rest_stays(void** state)
{
    (void)state;
    cs_world* w = make_world((cs_vec2){0, -g}, 0.0);
    add_floor(w, 0.3, 0.9);
    int id = cs_test_add_disc(w, (cs_vec2){0.3, 0.25}, (cs_vec2){0, 0}, 0.0, 0.25, 1.0, 0.3, 0.9);
    for (int s = 0; s < 600; ++s)
    {
        cs_world_step(w);
        cs_body_state b = cs_world_body(w, id);
        assert_true(b.position.x == 0.3 && b.position.y == 0.25);
        assert_true(b.velocity.x == 0.0 && b.velocity.y == 0.0 && b.angular_velocity == 0.0);
    }
    cs_world_destroy(w);
}

// A bouncing e = 0.9 disc comes to rest (below the 1 m/s threshold the last landing is inelastic) with its
// penetration between 0 and the slop.
static void bouncing_disc_comes_to_rest_within_slop(void** state)
{
    (void)state;
    cs_world* w = make_world((cs_vec2){0, -g}, 1.0);
    add_floor(w, 0.3, 0.9);
    int id = cs_test_add_disc(w, (cs_vec2){0, 1.2}, (cs_vec2){0, 0}, 0.0, 0.2, 1.0, 0.3, 0.9);
    for (int s = 0; s < 60 * 20; ++s)
    {
        cs_world_step(w);
    }
    cs_body_state b = cs_world_body(w, id);
    double penetration = 0.2 - b.position.y;
    assert_true(fabs(b.velocity.y) < 1e-9);
    assert_true(penetration >= 0.0 && penetration <= cs_world_get_def(w)->linear_slop);
    cs_world_destroy(w);
}

// Oblique impacts ------------------------------------------------------------------------------------------

// Disc 1 (r1, m1) moves at speed V along +x and hits disc 2 (r2, m2), at rest, at angle phi between its
// velocity and the line of centres at impact; no gravity, no friction. The impact falls at 0.37 of a
// step. Closed form with n the unit line of centres at impact and J = (1 + e) m1 m2/(m1 + m2) (v1·n):
// v1' = v1 − J/m1 n, v2' = J/m2 n.
static void oblique(double phi, double r1, double m1, double r2, double m2, double e)
{
    const double V = 3.0;
    cs_world* w = make_world((cs_vec2){0, 0}, 0.0);
    double R = r1 + r2;
    double nx = cos(phi), ny = -sin(phi); // from 1 to 2 at impact
    // Disc 2 at the origin; disc 1 at impact is at −R n, and 7.37 steps of travel before that.
    double travel = V * h * 7.37;
    int a = cs_test_add_disc(w, (cs_vec2){-R * nx - travel, -R * ny}, (cs_vec2){V, 0}, 0.0, r1, m1, 0.0, e);
    int b = cs_test_add_disc(w, (cs_vec2){0, 0}, (cs_vec2){0, 0}, 0.0, r2, m2, 0.0, e);
    for (int s = 0; s < 30; ++s)
    {
        cs_world_step(w);
    }
    double J = (1.0 + e) * m1 * m2 / (m1 + m2) * (V * nx);
    cs_body_state s1 = cs_world_body(w, a), s2 = cs_world_body(w, b);
    double tol = 0.01 * V;
    assert_near(s1.velocity.x, V - J / m1 * nx, tol);
    assert_near(s1.velocity.y, -J / m1 * ny, tol);
    assert_near(s2.velocity.x, J / m2 * nx, tol);
    assert_near(s2.velocity.y, J / m2 * ny, tol);
    // No spin from a frictionless contact.
    assert_true(fabs(s1.angular_velocity) < 1e-12 && fabs(s2.angular_velocity) < 1e-12);
    cs_world_destroy(w);
}

static void oblique_impacts(void** state)
{
    (void)state;
    const double pi = 3.14159265358979323846;
    // (A pair that meets without bouncing, e = 0 or below the threshold, keeps the normal of the step's
    // start, for angular momentum: docs/PHYSICS.md, limits.)
    const double es[] = {1.0, 0.5, 0.3};
    for (int deg = 15; deg <= 75; deg += 15)
    {
        for (int k = 0; k < 3; ++k)
        {
            oblique(deg * pi / 180.0, 0.3, 1.0, 0.3, 1.0, es[k]); // equal discs
            oblique(deg * pi / 180.0, 0.2, 1.0, 0.5, 3.0, es[k]); // unequal
        }
    }
}

// Free flight, rolling, spin
// ---------------------------------------------------------------------------------

// A spinning disc thrown without contacts: x(t) = x0 + vx t, y(t) = y0 + u0 t − g t²/2 with u0 the
// velocity at t = 0 (the stored v minus g h/2), θ(t) = ω t, exactly (up to rounding) at every step.
static void free_flight(void** state)
{
    (void)state;
    cs_world* w = make_world((cs_vec2){0, -g}, 1.0);
    const double vx = 1.5, vy = 7.0, omega = 3.0;
    int id = cs_test_add_disc(w, (cs_vec2){-2, 1}, (cs_vec2){vx, vy}, omega, 0.3, 2.0, 0.5, 0.5);
    double u0 = vy - 0.5 * g * h;
    for (int s = 1; s <= 120; ++s)
    {
        cs_world_step(w);
        double t = s * h;
        cs_body_state b = cs_world_body(w, id);
        assert_near(b.position.x, -2 + vx * t, 1e-12);
        assert_near(b.position.y, 1 + u0 * t - 0.5 * g * t * t, 1e-11);
        assert_near(b.angle, omega * t, 1e-12);
        assert_near(b.velocity.y, vy - g * t, 1e-12);
    }
    cs_world_destroy(w);
}

// A disc set sliding with backspin on a rough floor: friction (force F along x at the contact, below the
// centre) changes m v by F and I ω by r F, so m v − I ω/r is kept; rolling (v = −ω r) with I = m r²/2 gives
// v_roll = (2 v0 − ω0 r)/3. From then on θ = −x/r (the angle follows the distance).
static void rolling_without_slipping(void** state)
{
    (void)state;
    cs_world* w = make_world((cs_vec2){0, -g}, 1.0);
    add_floor(w, 0.5, 0.0);
    const double r = 0.25, v0 = 3.0, w0 = 2.0;
    int id = cs_test_add_disc(w, (cs_vec2){0, r}, (cs_vec2){v0, 0}, w0, r, 1.0, 0.5, 0.0);
    for (int s = 0; s < 120; ++s)
    {
        cs_world_step(w);
    }
    cs_body_state b0 = cs_world_body(w, id);
    double v_roll = (2.0 * v0 - w0 * r) / 3.0;
    assert_near(b0.velocity.x, v_roll, 0.01 * v_roll);
    assert_near(b0.angular_velocity, -b0.velocity.x / r, 0.01 * v_roll / r);
    for (int s = 0; s < 120; ++s)
    {
        cs_world_step(w);
    }
    cs_body_state b1 = cs_world_body(w, id);
    // Rolling: distance and angle advance together (to the slop's share of the arm, 0.2 %).
    double dx = b1.position.x - b0.position.x, dtheta = b1.angle - b0.angle;
    assert_near(-dtheta * r, dx, 0.003 * dx);
    assert_near(b1.velocity.x, v_roll, 0.01 * v_roll); // no rolling resistance in the model
    cs_world_destroy(w);
}

// Spin transfer: two equal discs (I = m r²/2) pressed together along x by steady forces (no gravity);
// disc a spins at w0, b does not. Friction impulses Λ (on b along +y, on a along −y) at arms r act on both
// spins the same way, ω_a = w0 − 2Λ/(m r), ω_b = −2Λ/(m r), and move them apart tangentially. Given
// v_a = +Λ/m and v_b = −Λ/m beforehand, the linear ones end at 0; the contact stops slipping when
// (v_b − v_a) − r ω_a − r ω_b = 0, i.e. Λ = m r w0/4: ω_a = w0/2, ω_b = −w0/2, both at rest.
static void spin_transfer(void** state)
{
    (void)state;
    cs_world* w = make_world((cs_vec2){0, 0}, 1.0);
    const double r = 0.3, m = 1.0, w0 = 10.0;
    double v = r * w0 / 4.0; // Λ/m
    int a = cs_test_add_disc(w, (cs_vec2){0, 0}, (cs_vec2){0, v}, w0, r, m, 5.0, 0.0);
    int b = cs_test_add_disc(w, (cs_vec2){2 * r, 0}, (cs_vec2){0, -v}, 0.0, r, m, 5.0, 0.0);
    cs_world_set_body_force(w, a, (cs_vec2){20.0, 0});
    cs_world_set_body_force(w, b, (cs_vec2){-20.0, 0});
    for (int s = 0; s < 60; ++s)
    {
        cs_world_step(w);
    }
    cs_body_state sa = cs_world_body(w, a), sb = cs_world_body(w, b);
    assert_near(sa.angular_velocity, 0.5 * w0, 0.01 * w0);
    assert_near(sb.angular_velocity, -0.5 * w0, 0.01 * w0);
    assert_near(sa.velocity.y, 0.0, 0.01 * v);
    assert_near(sb.velocity.y, 0.0, 0.01 * v);
    cs_world_destroy(w);
}

// The resting gap: a disc set down on the floor with a small overlap larger than the slop is pushed out
// until the penetration equals the slop, and stays there.
static void resting_gap_is_the_slop(void** state)
{
    (void)state;
    cs_world* w = make_world((cs_vec2){0, -g}, 1.0);
    add_floor(w, 0.3, 0.0);
    int id = cs_test_add_disc(w, (cs_vec2){0, 0.25 - 0.02}, (cs_vec2){0, 0}, 0.0, 0.25, 1.0, 0.3, 0.0);
    for (int s = 0; s < 600; ++s)
    {
        cs_world_step(w);
    }
    double slop = cs_world_get_def(w)->linear_slop;
    double penetration = 0.25 - cs_world_body(w, id).position.y;
    assert_near(penetration, slop, 1e-3 * slop);
    cs_world_destroy(w);
}

// How fast an overlap goes (split impulses, docs/PHYSICS.md step 7): a disc at rest overlapping the floor by
// 10 mm, no gravity, gets the pseudo-velocity max(β (gap + slop), −max_correction)/h for one step, so the
// excess over the slop shrinks by (1 − β) per step with β the documented 0.2 — the same under relax, which
// moves the positions by the same λ_p and takes its impulse back. Nothing else pins β where it is used.
static void overlap_shrinks_at_the_baumgarte_rate(void** state)
{
    (void)state;
    const cs_formulation forms[] = {CS_FORMULATION_SPLIT, CS_FORMULATION_RELAX};
    for (int f = 0; f < 2; ++f)
    {
        formulation = forms[f];
        cs_world* w = make_world((cs_vec2){0, 0}, 1.0);
        add_floor(w, 0.3, 0.0);
        const double r = 0.25, slop = 0.001, beta = 0.2;
        int id = cs_test_add_disc(w, (cs_vec2){0, r - 0.01}, (cs_vec2){0, 0}, 0.0, r, 1.0, 0.3, 0.0);
        double excess = 0.01 - slop;
        for (int s = 1; s <= 5; ++s)
        {
            assert_int_equal(cs_world_step(w), CS_OK);
            excess *= 1.0 - beta;
            cs_body_state b = cs_world_body(w, id);
            assert_near(r - b.position.y - slop, excess, 1e-12);
            assert_true(fabs(b.velocity.y) < 1e-12); // the correction leaves no velocity behind
        }
        cs_world_destroy(w);
    }
    formulation = CS_FORMULATION_RELAX;
}

// Newton's cradle (scenes/newton.json: a striker at 4 m/s into five touching discs, e = 1, no gravity or
// friction): the simultaneous-impulse model's converged answer is the collision of the striker with a rigid
// block of five — the striker rebounds at (1 − 5)/6·v0 and the row moves at 2/6·v0 — not the sequential
// one (striker stops, the last disc leaves at v0). The model limit docs/PHYSICS.md writes down.
static void newtons_cradle_is_simultaneous(void** state)
{
    (void)state;
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/newton.json"), &info, &err);
    assert_non_null(w);
    cs_solver_params params = *cs_world_solver_params(w);
    params.iterations = 200;
    cs_world_set_solver_params(w, &params);
    for (int s = 0; s < 30; ++s) // the striker arrives in step 23
    {
        cs_world_step(w);
    }
    const double v0 = 4.0;
    assert_near(cs_world_body(w, 0).velocity.x, -4.0 / 6.0 * v0, 1e-6);
    for (int i = 1; i <= 5; ++i)
    {
        assert_near(cs_world_body(w, i).velocity.x, v0 / 3.0, 1e-6);
    }
    cs_world_destroy(w);
}

// The documented defaults (docs/PHYSICS.md, README, circlesim/world.h).
static void documented_defaults(void** state)
{
    (void)state;
    cs_world_def d = cs_world_def_default();
    assert_true(d.gravity.x == 0.0 && d.gravity.y == -9.80665);
    assert_true(d.time_step == 1.0 / 60.0);
    assert_true(d.speculative_margin == 0.02);
    assert_true(d.linear_slop == 0.001);
    assert_true(d.baumgarte == 0.2);
    assert_true(d.max_correction == 0.2);
    assert_int_equal(d.position_iterations, 20);
    assert_true(d.restitution_threshold == 1.0);
    assert_false(d.frictionless);
    assert_int_equal(d.row_order, CS_ROW_ORDER_COLOURED);
    assert_int_equal(d.solver, cs_solver_find("pgs"));
    assert_int_equal(d.solver_params.iterations, 10);
    assert_int_equal(d.formulation, CS_FORMULATION_RELAX);
    assert_true(d.spook_stiffness == 3e4 && d.spook_damping_time == 0.05);
    cs_circle_def c = cs_circle_def_default();
    assert_true(c.radius == 0.5 && c.mass == 1.0 && c.friction == 0.1 && c.restitution == 0.2);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bounce_apex_and_rebound_at_every_phase),
        cmocka_unit_test_teardown(bounce_under_every_formulation, default_formulation),
        cmocka_unit_test(disc_at_rest_stays),
        cmocka_unit_test(bouncing_disc_comes_to_rest_within_slop),
        cmocka_unit_test(oblique_impacts),
        cmocka_unit_test(free_flight),
        cmocka_unit_test(rolling_without_slipping),
        cmocka_unit_test(spin_transfer),
        cmocka_unit_test(resting_gap_is_the_slop),
        cmocka_unit_test(overlap_shrinks_at_the_baumgarte_rate),
        cmocka_unit_test(newtons_cradle_is_simultaneous),
        cmocka_unit_test(documented_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
