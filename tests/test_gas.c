// Elastic collisions within one step and an elastic gas (issue 10): e = 1, μ = 0, restitution threshold 0,
// no gravity, at the default step (h = 1/60 s, 10 iterations). Expected values are closed forms (a chain of
// binary collisions between equal discs) or conservation laws (the kinetic energy of an elastic gas in a
// closed box), never the code's own output. docs/PHYSICS.md "Collisions within a step".
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double h = 1.0 / 60.0;
static const double pi = 3.14159265358979323846;

static cs_world* elastic_world(cs_formulation formulation)
{
    cs_world_def def = cs_world_def_default();
    def.gravity = (cs_vec2){0, 0};
    def.restitution_threshold = 0.0;
    def.frictionless = true;
    def.formulation = formulation;
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    return w;
}

// A chain inside one step ----------------------------------------------------------------------------------

// A (v = 3 m/s) hits B (at rest) 1 cm away, and B, sent off at 3 m/s, hits C (at rest) 1.5 cm further on
// within the same step. Sequential elastic collisions of equal discs: A stops at B (s₁ = 1/300 s), B stops
// at C (s₂ = s₁ + 0.015/3 = 1/120 s), C leaves at 3 m/s. After the step: A moved 1 cm, B 1.5 cm, C
// 3 (h − s₂). Before this model the solve made B–C plastic: A, B and C shared the momentum. `striker_last`
// numbers the bodies the other way round (C first), so the sweeps meet the two contacts in the other order.
static void chain(bool striker_last, cs_formulation formulation)
{
    const double r = 0.1, v0 = 3.0;
    const double xa = 0.0, xb = xa + 2 * r + 0.01, xc = xb + 2 * r + 0.015;
    cs_world* w = elastic_world(formulation);
    int a, b, c;
    if (striker_last)
    {
        c = cs_test_add_disc(w, (cs_vec2){xc, 0}, (cs_vec2){0, 0}, 0.0, r, 1.0, 0.0, 1.0);
        b = cs_test_add_disc(w, (cs_vec2){xb, 0}, (cs_vec2){0, 0}, 0.0, r, 1.0, 0.0, 1.0);
        a = cs_test_add_disc(w, (cs_vec2){xa, 0}, (cs_vec2){v0, 0}, 0.0, r, 1.0, 0.0, 1.0);
    }
    else
    {
        a = cs_test_add_disc(w, (cs_vec2){xa, 0}, (cs_vec2){v0, 0}, 0.0, r, 1.0, 0.0, 1.0);
        b = cs_test_add_disc(w, (cs_vec2){xb, 0}, (cs_vec2){0, 0}, 0.0, r, 1.0, 0.0, 1.0);
        c = cs_test_add_disc(w, (cs_vec2){xc, 0}, (cs_vec2){0, 0}, 0.0, r, 1.0, 0.0, 1.0);
    }
    assert_int_equal(cs_world_step(w), CS_OK);
    const double s2 = 1.0 / 300.0 + 0.015 / v0;
    assert_near(cs_world_body(w, a).velocity.x, 0.0, 1e-9);
    assert_near(cs_world_body(w, b).velocity.x, 0.0, 1e-9);
    assert_near(cs_world_body(w, c).velocity.x, v0, 1e-9);
    assert_near(cs_world_body(w, a).position.x, xa + 0.01, 1e-9);
    assert_near(cs_world_body(w, b).position.x, xb + 0.015, 1e-9);
    assert_near(cs_world_body(w, c).position.x, xc + v0 * (h - s2), 1e-9);
    for (int s = 0; s < 30; ++s) // and nothing happens after: A and B rest touching, C flies on
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    assert_near(cs_world_body(w, a).velocity.x, 0.0, 1e-9);
    assert_near(cs_world_body(w, b).velocity.x, 0.0, 1e-9);
    assert_near(cs_world_body(w, c).velocity.x, v0, 1e-9);
    assert_near(cs_world_body(w, c).position.x, xc + v0 * (31 * h - s2), 1e-9);
    cs_world_destroy(w);
}

static void chain_within_a_step_is_sequential(void** state)
{
    (void)state;
    for (int f = 0; f < CS_FORMULATION_COUNT;
         ++f) // soft too: its relax keeps what the pass's collisions left
    {
        chain(false, (cs_formulation)f);
        chain(true, (cs_formulation)f);
    }
}

// The gas ---------------------------------------------------------------------------------------------------

static uint64_t lcg(uint64_t* s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

static double uniform(uint64_t* s, double lo, double hi)
{
    return lo + (hi - lo) * (double)lcg(s) / 9007199254740992.0;
}

static double kinetic_energy(const cs_world* w)
{
    double ke = 0.0;
    for (int i = 0; i < cs_world_body_count(w); ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        ke += 0.5 * b.mass * (b.velocity.x * b.velocity.x + b.velocity.y * b.velocity.y);
        ke += 0.25 * b.mass * b.radius * b.radius * b.angular_velocity * b.angular_velocity;
    }
    return ke;
}

// `count` discs (r 0.1 m, 1 kg) covering 20 % of a square box of elastic, frictionless walls, on a jittered
// grid drawn from `seed`, with speeds 0.5–3 m/s in random directions. Runs `steps` steps, checks that the
// discs did collide with each other (most changed speed: walls alone keep every speed) and that every disc is
// still in the box, and returns the kinetic energy's worst relative drift over the steps.
static double gas(int count, int steps, uint64_t seed, cs_formulation formulation)
{
    const double r = 0.1, fraction = 0.2;
    const double side = sqrt(count * pi * r * r / fraction);
    cs_world* w = elastic_world(formulation);
    cs_error err;
    const cs_vec2 corners[2] = {{0, 0}, {side, side}};
    for (int k = 0; k < 4; ++k)
    {
        cs_vec2 normal = {k == 0 ? 1.0 : k == 2 ? -1.0 : 0.0, k == 1 ? 1.0 : k == 3 ? -1.0 : 0.0};
        assert_true(cs_world_add_half_plane(w, corners[k / 2], normal, 0.0, 1.0, &err) >= 0);
    }
    int per_row = (int)ceil(sqrt((double)count));
    double cell = side / per_row, slack = 0.5 * cell - r - 0.001;
    const uint64_t seed0 = seed;
    double* speed0 = malloc((size_t)count * sizeof *speed0);
    assert_non_null(speed0);
    for (int k = 0; k < count; ++k)
    {
        cs_vec2 x = {(k % per_row + 0.5) * cell + uniform(&seed, -slack, slack),
                     (k / per_row + 0.5) * cell + uniform(&seed, -slack, slack)};
        double angle = uniform(&seed, 0.0, 2.0 * pi);
        speed0[k] = uniform(&seed, 0.5, 3.0);
        cs_vec2 v = {speed0[k] * cos(angle), speed0[k] * sin(angle)};
        assert_int_equal(cs_test_add_disc(w, x, v, 0.0, r, 1.0, 0.0, 1.0), k);
    }
    double ke0 = kinetic_energy(w), worst = 0.0;
    for (int s = 0; s < steps; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
        worst = fmax(worst, fabs(cs_world_stats(w)->kinetic_energy / ke0 - 1.0));
    }
    int changed = 0;
    for (int k = 0; k < count; ++k)
    {
        cs_body_state b = cs_world_body(w, k);
        changed += fabs(hypot(b.velocity.x, b.velocity.y) / speed0[k] - 1.0) > 0.01 ? 1 : 0;
        assert_true(b.position.x > 0.0 && b.position.x < side && b.position.y > 0.0 && b.position.y < side);
    }
    print_message("# %d discs, %s, seed %llu, %d steps: kinetic energy within %.2g %% (worst step), %d %% "
                  "changed speed\n",
                  count, cs_formulation_name(formulation), (unsigned long long)seed0, steps, 100.0 * worst,
                  100 * changed / count);
    assert_true(changed > 0.9 * count);
    assert_near(kinetic_energy(w), cs_world_stats(w)->kinetic_energy, 1e-9 * ke0); // the stat is that energy
    free(speed0);
    cs_world_destroy(w);
    return worst;
}

// One gas's drift is one draw: the gas is chaotic, so any change to the code (or the seed) draws anew, and a
// bound that one seed meets by luck is no test. The bounds below come from a survey of 161 seeds (12345 and
// 1-160) per formulation at 200 discs and 14 at 2 000 (docs/PHYSICS.md "Collisions within a step", Limits;
// last taken on 29 Nov 2026): `every` holds on every surveyed seed with a margin, `above` and `mean` on every
// block of 8 consecutive surveyed seeds. The seeds are the first gas's and the next ones, not picked.
static const uint64_t gas_seeds[] = {12345, 1, 2, 3, 4, 5, 6, 7};
enum
{
    gas_seed_count = sizeof gas_seeds / sizeof gas_seeds[0]
};

typedef struct gas_bounds
{
    double every;   // every seed's worst step stays below this
    double typical; // the issue's bound ...
    int above;      // ... which at most this many of the seeds may exceed
    double mean;    // the mean of the seeds' worst steps stays below this
} gas_bounds;

static void gas_over_seeds(int count, int seeds, cs_formulation formulation, gas_bounds b)
{
    double sum = 0.0, worst = 0.0;
    int above = 0;
    for (int k = 0; k < seeds; ++k)
    {
        double drift = gas(count, 3600, gas_seeds[k], formulation);
        sum += drift;
        worst = fmax(worst, drift);
        above += drift > b.typical ? 1 : 0;
    }
    print_message("# %d discs, %s, %d seeds: worst %.2g %%, mean %.2g %%, %d above %.2g %%\n", count,
                  cs_formulation_name(formulation), seeds, 100.0 * worst, 100.0 * sum / seeds, above,
                  100.0 * b.typical);
    assert_true(worst < b.every);
    assert_true(above <= b.above);
    assert_true(sum / seeds < b.mean);
}

// The issue's bound, 1 % over 60 s for 200 discs, is typical but not certain under relax and split: of 161
// seeds 1 and 2 exceed it (up to 1.2 % and 1.3 %), so each may exceed it on one of the 8 seeds, within a hard
// cap. SPOOK (its overlaps are springs) has a median of 0.85 % and 44 of 161 seeds above 1 % (up to 1.8 %;
// blocks of 8 with up to 6): it holds 1.5 % on all but two of any 8, a mean of 1.25 % and a cap of 3 %.
// Under soft the 1 % fails on 117 of 161 seeds (up to 3.1 %, losing or gaining): what soft holds is the cap
// of 5 % and a mean of 2.5 %.
static void gas_of_200_keeps_its_energy_for_60_s(void** state)
{
    (void)state;
    gas_over_seeds(200, gas_seed_count, CS_FORMULATION_RELAX, (gas_bounds){0.02, 0.01, 1, 0.005});
    gas_over_seeds(200, gas_seed_count, CS_FORMULATION_SPLIT, (gas_bounds){0.02, 0.01, 1, 0.005});
    gas_over_seeds(200, gas_seed_count, CS_FORMULATION_SPOOK, (gas_bounds){0.03, 0.015, 2, 0.0125});
    gas_over_seeds(200, gas_seed_count, CS_FORMULATION_SOFT, (gas_bounds){0.05, 0.01, gas_seed_count, 0.025});
}

// 2 % for 2 000 discs holds on every surveyed seed under every formulation, with room (14 seeds each: soft
// up to 1.1 %, median 0.96 %; the others up to 0.52 %); three seeds each keep the test's time modest (a
// 2 000-disc gas ~2 s). Their mean stays below 1 %, soft's below 1.25 % (three consecutive soft seeds: up to
// 1.03 %).
static void gas_of_2000_keeps_its_energy_for_60_s(void** state)
{
    (void)state;
    const gas_bounds issue = {0.02, 0.02, 0, 0.01};
    gas_over_seeds(2000, 3, CS_FORMULATION_RELAX, issue);
    gas_over_seeds(2000, 3, CS_FORMULATION_SPLIT, issue);
    gas_over_seeds(2000, 3, CS_FORMULATION_SPOOK, issue);
    gas_over_seeds(2000, 3, CS_FORMULATION_SOFT, (gas_bounds){0.02, 0.02, 0, 0.0125});
}

// The other side of the same model: piles at restitution threshold 0 (every approach above the resting
// tolerance bounces) must still come to rest. Pool 1 and Pool 2 (e 0.2; Pool 2 heavy on light) with the
// threshold set to 0: a pile's contacts approach at the solver's residual speeds and one step of gravity,
// which must not count as impacts (a bounce leaves the solve and only pushes in the pass; bounced at those
// speeds Pool 1 kept 50 J of kinetic energy and Pool 2 up to 10 J).
static void pile_at_threshold_zero(const char* scene)
{
    FILE* f = fopen(cs_test_source_path(scene), "rb");
    assert_non_null(f);
    static char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char* key = "\"world\": {";
    char* at = strstr(text, key);
    assert_non_null(at);
    static char edited[8300];
    size_t head = (size_t)(at - text) + strlen(key);
    snprintf(edited, sizeof edited, "%.*s \"restitution_threshold\": 0,%s", (int)head, text, text + head);
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_write_temp(".json", edited), &info, &err);
    assert_non_null(w);
    assert_true(cs_world_get_def(w)->restitution_threshold == 0.0);
    for (int s = 0; s < 2400; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    // At rest, except discs rolling on the floor (the model has no rolling resistance): those neither rise
    // nor slip.
    double max_speed = 0.0;
    int rolling = 0;
    for (int i = 0; i < cs_world_body_count(w); ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        double speed = hypot(b.velocity.x, b.velocity.y);
        if (speed > 1e-6)
        {
            rolling += 1;
            assert_true(b.position.y < b.radius + 0.002 && fabs(b.velocity.y) < 1e-6);
            assert_true(fabs(b.velocity.x + b.angular_velocity * b.radius) < 1e-5);
        }
        max_speed = fmax(max_speed, speed);
    }
    print_message("# %s at threshold 0 after 40 s: max speed %.2g m/s (%d discs rolling on the floor), "
                  "kinetic energy %.2g J\n",
                  scene, max_speed, rolling, cs_world_stats(w)->kinetic_energy);
    assert_true(rolling <= 2);
    cs_world_destroy(w);
}

static void piles_at_threshold_zero_come_to_rest(void** state)
{
    (void)state;
    pile_at_threshold_zero("scenes/pool1.json");
    pile_at_threshold_zero("scenes/pool2.json");
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_within_a_step_is_sequential),
        cmocka_unit_test(gas_of_200_keeps_its_energy_for_60_s),
        cmocka_unit_test(gas_of_2000_keeps_its_energy_for_60_s),
        cmocka_unit_test(piles_at_threshold_zero_come_to_rest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
