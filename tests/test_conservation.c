// Conservation laws of the step (docs/PHYSICS.md): linear and angular momentum of free bodies in contact.
#include "test_support.h"

#include <math.h>

static uint64_t lcg(uint64_t* s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

static double uniform(uint64_t* s)
{
    return (double)lcg(s) / 9007199254740992.0;
}

// Linear momentum, angular momentum about the origin (Σ m x × v + I ω) and Σ m|v||x| + I|ω| as the scale.
static void momenta(const cs_world* w, double* px, double* py, double* L, double* scale)
{
    *px = *py = *L = *scale = 0.0;
    for (int i = 0; i < cs_world_body_count(w); ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        double I = 0.5 * b.mass * b.radius * b.radius;
        *px += b.mass * b.velocity.x;
        *py += b.mass * b.velocity.y;
        *L += b.mass * (b.position.x * b.velocity.y - b.position.y * b.velocity.x) + I * b.angular_velocity;
        *scale += b.mass * hypot(b.velocity.x, b.velocity.y) * hypot(b.position.x, b.position.y) +
                  I * fabs(b.angular_velocity);
    }
}

// 50 discs of mixed masses, packed so that neighbours overlap and thrown together, spinning; no walls, no
// gravity. Contact impulses are equal and opposite at a point both lever arms reach (the midpoint of the
// overlap), so the velocity solve keeps P and L to rounding at every step. Approach speeds stay below the
// 1 m/s restitution threshold. The split-impulse position correction is kept out of it (a slop of 1 m):
// it moves bodies without impulses, which keeps P but changes L by h Σ p n × (v_b − v_a)
// (docs/PHYSICS.md, limits).
static void cluster(double mu)
{
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0, 0};
    def.linear_slop = 1.0;
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    uint64_t seed = 7;
    for (int i = 0; i < 50; ++i)
    {
        double r = 0.2, spacing = 0.4 - 0.0005;
        double x = 3.0 + (i % 7) * spacing, y = 1.0 + (i / 7) * spacing;
        cs_vec2 v = {-(x - 4.2) * 0.3 + 0.2 * (uniform(&seed) - 0.5),
                     -(y - 2.2) * 0.3 + 0.2 * (uniform(&seed) - 0.5)};
        cs_test_add_disc(w, (cs_vec2){x, y}, v, 4.0 * (uniform(&seed) - 0.5), r, 1.0 + 2.0 * uniform(&seed),
                         mu, 0.2);
    }
    double px0, py0, L0, scale;
    momenta(w, &px0, &py0, &L0, &scale);
    int touching = 0;
    for (int s = 0; s < 240; ++s)
    {
        double pxa, pya, La, sa;
        momenta(w, &pxa, &pya, &La, &sa);
        assert_int_equal(cs_world_step(w), CS_OK);
        double px, py, L, sb;
        momenta(w, &px, &py, &L, &sb);
        assert_near(L, La, 1e-12 * scale);
        assert_near(px, pxa, 1e-12 * scale);
        assert_near(py, pya, 1e-12 * scale);
        touching = cs_world_stats(w)->contacts > touching ? cs_world_stats(w)->contacts : touching;
    }
    assert_true(touching > 60); // it really was a colliding cluster
    cs_world_destroy(w);
}

static void cluster_frictionless_velocity_solve_keeps_momenta(void** state)
{
    (void)state;
    cluster(0.0);
}

static void cluster_with_friction_velocity_solve_keeps_momenta(void** state)
{
    (void)state;
    cluster(0.5);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cluster_frictionless_velocity_solve_keeps_momenta),
        cmocka_unit_test(cluster_with_friction_velocity_solve_keeps_momenta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
