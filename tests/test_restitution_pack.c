// The restitution pass on compact records ends after a sweep that changed nothing and leaves out rows whose
// visit would change nothing (contact/restitution_sweep.c "Quiet rows"; docs/PERFORMANCE.md "The restitution
// pass on compact records" and "Issue 12: the churning pile"): every step of an elastic gas, of a pile under
// falling discs with friction (also with quiet rows forced), of bouncing discs at rest sideways (velocities
// of exactly ±0) and of the shipped pegs scene keeps the bits of the same world with every sweep run and
// every row visited, and the exit and the quiet rows do fire; so does a hand-built pass in which a grown
// list's release moves the body of a quiet row (restitution.c release's stamp).
#include "test_support.h"

#include "contact/impact.h"
#include "contact/impact_reach.h"
#include "contact/restitution_pack.h"
#include "test_reach.h"
#include "world/world_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// A closed box of four walls (restitution e, friction mu).
static cs_world* box_world(cs_vec2 gravity, bool frictionless, double half, double mu, double e)
{
    cs_world_def def = cs_world_def_default();
    def.gravity = gravity;
    def.frictionless = frictionless;
    if (frictionless)
    {
        def.restitution_threshold = 0.0;
    }
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    assert_true(cs_world_add_half_plane(w, (cs_vec2){0, -half}, (cs_vec2){0, 1}, mu, e, &err) >= 0);
    assert_true(cs_world_add_half_plane(w, (cs_vec2){0, half}, (cs_vec2){0, -1}, mu, e, &err) >= 0);
    assert_true(cs_world_add_half_plane(w, (cs_vec2){-half, 0}, (cs_vec2){1, 0}, mu, e, &err) >= 0);
    assert_true(cs_world_add_half_plane(w, (cs_vec2){half, 0}, (cs_vec2){-1, 0}, mu, e, &err) >= 0);
    return w;
}

static double lcg(uint64_t* s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

// 200 elastic discs (r 0.1 m, 0.5–3 m/s) on a lattice in a 4 m box, no gravity, μ = 0, e = 1.
static cs_world* gas(void)
{
    cs_world* w = box_world((cs_vec2){0, 0}, true, 2.0, 0.0, 1.0);
    uint64_t s = 12;
    for (int i = 0; i < 200; ++i)
    {
        double x = -1.8 + 0.26 * (i % 14), y = -1.8 + 0.26 * (i / 14);
        double speed = 0.5 + 2.5 * lcg(&s), angle = 6.283185307179586 * lcg(&s);
        cs_vec2 v = {speed * cos(angle), speed * sin(angle)};
        cs_test_add_disc(w, (cs_vec2){x, y}, v, 0.0, 0.1, 1.0, 0.0, 1.0);
    }
    return w;
}

// A pile of 60 discs (μ 0.5, e 0.5) settling on the floor, under a disc dropped at 4 m/s every 10 steps.
static cs_world* pile(void)
{
    cs_world* w = box_world((cs_vec2){0, -9.81}, false, 1.2, 0.5, 0.5);
    for (int i = 0; i < 60; ++i)
    {
        double x = -1.0 + 0.2 * (i % 10) + (i / 10 % 2) * 0.1, y = -1.1 + 0.18 * (i / 10);
        cs_test_add_disc(w, (cs_vec2){x, y}, (cs_vec2){0, 0}, 0.0, 0.1, 1.0, 0.5, 0.5);
    }
    return w;
}

static void drop(cs_world* w, int step)
{
    if (w->def.gravity.y != 0.0 && step % 10 == 0 && step <= 100)
    {
        double x = -0.9 + 0.17 * (step / 10);
        cs_test_add_disc(w, (cs_vec2){x, 1.0}, (cs_vec2){0, -4.0}, 0.0, 0.1, 1.0, 0.5, 0.5);
    }
}

// Discs dropped side by side onto the floor (μ 0.5, e 0.8): their sideways velocities and spins stay exactly
// 0, so friction updates that change nothing add zeros to zero velocities — which changes no bit unless a
// velocity is −0 (restitution_sweep.c zero_velocity: testing any zero instead, the exit fired in 59 steps
// here, now in 61, with the same bits).
static cs_world* bouncers(void)
{
    cs_world* w = box_world((cs_vec2){0, -9.81}, false, 1.2, 0.5, 0.8);
    for (int i = 0; i < 8; ++i)
    {
        cs_test_add_disc(w, (cs_vec2){-1.0 + 0.25 * i, -0.6 + 0.05 * i}, (cs_vec2){0, 0}, 0.0, 0.1, 1.0, 0.5,
                         0.8);
    }
    return w;
}

// Row visits the passes left out as quiet (restitution_sweep.c "Quiet rows"), summed by early_exits.
static int64_t skipped_visits;

// How early_exits runs the world under test: quiet rows left out whatever the links (else where the pass
// finds few), and where each pass's quiet-rows tick starts (0 as in the app; near 2^32 to cross its wrap).
typedef struct pass_settings
{
    bool quiet_always;
    uint32_t tick_origin;
} pass_settings;

static const pass_settings as_shipped = {false, 0};

// Steps the world and its twin without the early exit (and with every row visited) side by side; returns
// the steps in which the pass ended early. Every step must leave the two with the same bits.
static int early_exits(cs_world* (*make)(void), int steps, pass_settings settings)
{
    skipped_visits = 0;
    cs_world* w = make();
    cs_world* every = make();
    every->restitution_every_sweep = true;
    w->restitution_quiet_always = settings.quiet_always;
    w->restitution_tick_origin = settings.tick_origin;
    int full = w->def.solver_params.iterations + 2, early = 0, passes = 0;
    for (int s = 1; s <= steps; ++s)
    {
        drop(w, s);
        drop(every, s);
        assert_int_equal(cs_world_step(w), CS_OK);
        assert_int_equal(cs_world_step(every), CS_OK);
        int sweeps = cs_world_stats(w)->restitution_sweeps;
        assert_int_equal(cs_world_stats(every)->restitution_sweeps, sweeps > 0 ? full : 0);
        passes += sweeps > 0 ? 1 : 0;
        skipped_visits += w->restitution_skipped;
        assert_int_equal(every->restitution_skipped, 0);
        early += sweeps > 0 && sweeps < full ? 1 : 0;
        if (cs_world_hash(w) != cs_world_hash(every))
        {
            print_message("step %d: the early exit or the quiet rows changed the state\n", s);
            fail();
        }
    }
    print_message("%d steps, %d with a pass, %d of them ended early, %lld row visits left out as quiet\n",
                  steps, passes, early, (long long)skipped_visits);
    cs_world_destroy(w);
    cs_world_destroy(every);
    return early;
}

// The shipped pegs scene: balls through static pegs onto a kinematic rotor (static halves, spin).
static cs_world* pegs(void)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/pegs.json"), NULL, &err);
    assert_non_null(w);
    return w;
}

static void gas_keeps_its_bits(void** state)
{
    (void)state;
    assert_true(early_exits(gas, 300, as_shipped) > 0);
    assert_true(skipped_visits > 0); // (no resting links: the pass leaves quiet rows out)
}

static void pile_keeps_its_bits(void** state)
{
    (void)state;
    assert_true(early_exits(pile, 300, as_shipped) > 0);
}

// The pile with quiet rows left out although resting links carry most of its load (friction, bounces'
// budget, growing lists): every step the same bits as every row visited.
static void pile_with_quiet_rows_forced_keeps_its_bits(void** state)
{
    (void)state;
    early_exits(pile, 300, (pass_settings){.quiet_always = true});
    assert_true(skipped_visits > 0);
}

// The gas, the pile and pegs with quiet rows forced and their tick started 200 touches below its wrap each
// pass (a pass with 1e8 iterations can count past 2^32): stamps from before the wrap must not leave rows out
// after it (restitution_sweep.c restart_tick). Without the restart the gas differed from every row visited at
// step 5, the pile at 21, pegs at 48.
static void worlds_keep_their_bits_across_the_tick_wrap(void** state)
{
    (void)state;
    const pass_settings near_wrap = {true, UINT32_MAX - 200u};
    cs_world* (*const make[])(void) = {gas, pile, pegs};
    const int steps[] = {100, 100, 150};
    for (int i = 0; i < 3; ++i)
    {
        early_exits(make[i], steps[i], near_wrap);
        assert_true(skipped_visits > 0);
    }
}

static void bouncers_keep_their_bits(void** state)
{
    (void)state;
    assert_true(early_exits(bouncers, 200, as_shipped) > 0);
}

static void pegs_keep_their_bits(void** state)
{
    (void)state;
    assert_true(early_exits(pegs, 400, as_shipped) > 0);
}

// A grown list's release moves a body outside the list's quiet rows (restitution.c release: it stamps the
// bodies it touches). Hand-built, frictionless, unit masses, 4 bodies: A (0), Y (1), W (2), X (3).
// k0, k1: A and Y bounce off walls (the seeds: components {A} and {Y}). k2: A–W, open, A approaching: acts
// in sweep 1 and brings in W's component {W, X}. k3: Y–X, open, separating at +0.1 m/s: a quiet visit in
// sweep 1, after k2's. k4: W–X, pending, opening, λ 0.125 (no load: 2 × 0.125 < slop/h = 0.3): joins after
// sweep 1, and its release takes its λ back, X's velocity along x from +0.1 to −0.025, so k3 approaches and
// must act in sweep 2. Nothing else touches Y or X after (k4 stays quiet: its gap never closes), so without
// the release's stamp k3 stays left out as quiet in every later sweep and its impulse stays 0.
enum
{
    STAMP_BODIES = 4,
    STAMP_CONTACTS = 5
};

static void stamp_case(cs_contact* c, double* v)
{
    memset(c, 0, STAMP_CONTACTS * sizeof c[0]);
    const int a[STAMP_CONTACTS] = {-1, -1, 0, 1, 2}, b[STAMP_CONTACTS] = {0, 1, 2, 3, 3};
    for (int k = 0; k < STAMP_CONTACTS; ++k)
    {
        c[k].key = (uint64_t)(a[k] + 1) << 32 | (uint64_t)b[k];
        c[k].a = a[k];
        c[k].b = b[k];
        c[k].wall = a[k] < 0 ? k : -1;
        c[k].nx = k < 2 ? 0.0 : 1.0;
        c[k].ny = k < 2 ? 1.0 : 0.0;
        c[k].gap = k < 2 ? 0.0 : 0.01;
        c[k].restitution = 1.0;
    }
    c[0].bounce = c[1].bounce = true;
    c[4].pending = true;
    c[4].closing = 1.0; // (its bodies never close 1 m in the step)
    c[4].normal_impulse = 0.125;
    c[4].impact_time = -1.0;
    c[2].impact_time = c[3].impact_time = -1.0;
    const double v0[3 * STAMP_BODIES] = {1.0, -2.0, 0.0, 0.0, -2.0, 0.0, 0.0, 0.0, 0.0, 0.1, 0.0, 0.0};
    memcpy(v, v0, sizeof v0);
}

// Runs the pass on the case; returns the row visits it left out as quiet.
static int64_t stamp_pass(cs_contact* c, double* v, bool every_sweep)
{
    static int claimed[STAMP_BODIES];
    static cs_pass_row rows[STAMP_CONTACTS];
    static cs_pass_body records[STAMP_BODIES];
    const double inv_mass[STAMP_BODIES] = {1.0, 1.0, 1.0, 1.0},
                 inv_inertia[STAMP_BODIES] = {1.0, 1.0, 1.0, 1.0};
    double offset[3 * STAMP_BODIES] = {0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0};
    cs_impact_bodies bodies = {.inv_mass = inv_mass, .inv_inertia = inv_inertia, .offset = offset};
    cs_restitution_params params = {.time_step = 1.0 / 60.0,
                                    .threshold = 0.5,
                                    .linear_slop = 0.005,
                                    .iterations = 4,
                                    .frictionless = true,
                                    .every_sweep = every_sweep,
                                    .quiet_always = !every_sweep};
    cs_impact_reach reach = cs_test_reach(STAMP_BODIES, STAMP_CONTACTS);
    cs_pass_pack pack = {.rows = rows, .bodies = records, .claimed = claimed};
    assert_int_equal(cs_contact_restitution(c, STAMP_CONTACTS, &bodies, &params, &reach, &pack, v), 2);
    assert_int_equal(reach.count, STAMP_CONTACTS); // (k4 joined: the list grew)
    cs_test_reach_free(&reach);
    return pack.skipped;
}

// The case with quiet rows forced keeps the bits of every row visited, and k3 acted. Without the release's
// stamp k3's impulse stays 0 (every row visited: 0.0125 after sweep 2) and Y's and X's velocities differ.
static void a_grown_lists_release_wakes_quiet_rows(void** state)
{
    (void)state;
    cs_contact quiet[STAMP_CONTACTS], every[STAMP_CONTACTS];
    double vq[3 * STAMP_BODIES], ve[3 * STAMP_BODIES];
    stamp_case(quiet, vq);
    stamp_case(every, ve);
    int64_t skipped = stamp_pass(quiet, vq, false);
    assert_int_equal(stamp_pass(every, ve, true), 0);
    print_message("k3: %.17g every row visited, %.17g with quiet rows (%lld visits left out)\n",
                  every[3].normal_impulse, quiet[3].normal_impulse, (long long)skipped);
    assert_true(skipped > 0);
    assert_true(every[3].normal_impulse > 0.0);
    assert_memory_equal(vq, ve, sizeof vq);
    for (int k = 0; k < STAMP_CONTACTS; ++k)
    {
        assert_memory_equal(&quiet[k].normal_impulse, &every[k].normal_impulse, sizeof(double));
        assert_int_equal(quiet[k].bounce, every[k].bounce);
        assert_int_equal(quiet[k].pending, every[k].pending);
    }
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gas_keeps_its_bits),
        cmocka_unit_test(pile_keeps_its_bits),
        cmocka_unit_test(pile_with_quiet_rows_forced_keeps_its_bits),
        cmocka_unit_test(worlds_keep_their_bits_across_the_tick_wrap),
        cmocka_unit_test(bouncers_keep_their_bits),
        cmocka_unit_test(pegs_keep_their_bits),
        cmocka_unit_test(a_grown_lists_release_wakes_quiet_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
