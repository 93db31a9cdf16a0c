// A settled pile goes quiet (issue 12's quality target: Pool 1's kinetic energy after 1 000 steps at or below
// Box2D v3's). What kept Pool 1 moving was never the pile's contacts (the 220 resting discs were still to
// 1e-12 m/s) but a disc left rolling without slipping on free floor after the collapse — a lone body that no
// contact dissipates, since the model has no rolling resistance. Which disc, and whether one does, depends
// on the collapse: over iterations 5–30 in both row orders, 17 of 52 runs ended with a body faster than the
// bound below before the impact-shift fix for piles (docs/PHYSICS.md, "Why Pool 1 did not go quiet"), none
// after. So the test asks it of many runs, not of one lucky trajectory: the survey of docs/PERFORMANCE.md
// ("Ending the position sweeps early"), position sweeps 18–22 and 25 × velocity sweeps 5–12 × both row
// orders. Which of those runs stay rolling is chaotic — any change of rounding in the step moves it (the
// restitution pass's friction row read before its normal row turned (20, 9, coloured) rolling and (18, 9,
// coloured) quiet) — but how many do is not: 3 of 96 before that change and after, 5 after the pass left
// unmoved rows out, whose wider survey (position sweeps 14–30, even, × velocity sweeps 5–14 × both orders:
// 180 runs) left 4 rolling before and after. At the pooled rate, ~2.5 % of runs, 96 runs leave 6 or more
// rolling by chance about one time in twenty and 8 or more one time in two hundred; what the test guards
// against leaves many more (the impact shift applied ×3, the old way of pulling struck pairs together: 25).
// The test holds the rate, at most 7 of 96, and the benchmark's own run (20, 10, coloured) quiet.
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STEPS 1000

typedef struct pile_end
{
    double kinetic;     // J, translation and rotation of every body
    double max_speed;   // m/s
    double max_mass;    // kg
    double penetration; // m, the last step's deepest contact
    double slop;        // m, the world's linear slop
    double run_time;    // s, STEPS h
} pile_end;

// One run of scenes/pool1.json as the scene pins it (split, PGS), with `position` position sweeps (the
// scene's world object gains "position_iterations"), `iterations` velocity sweeps and `order`.
static pile_end run_pool1(int position, int iterations, cs_row_order order)
{
    static char scene[1 << 16], text[(1 << 16) + 64];
    size_t n = cs_test_read_text(cs_test_source_path("scenes/pool1.json"), scene, sizeof scene);
    assert_true(n > 0 && n < sizeof scene - 1);
    const char* pin = "\"formulation\": \"split\" }";
    const char* at = strstr(scene, pin);
    assert_non_null(at);
    snprintf(text, sizeof text, "%.*s\"formulation\": \"split\", \"position_iterations\": %d }%s",
             (int)(at - scene), scene, position, at + strlen(pin));
    cs_error err;
    cs_scene_info info;
    cs_world* w = cs_scene_load_string(text, "pool1", &info, &err);
    assert_non_null(w);
    assert_int_equal(cs_world_get_def(w)->position_iterations, position);
    cs_solver_params params = cs_world_get_def(w)->solver_params;
    params.iterations = iterations;
    assert_true(cs_world_set_solver_params(w, &params));
    assert_true(cs_world_set_row_order(w, order));
    for (int s = 0; s < STEPS; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    pile_end e = {0};
    for (int k = 0; k < cs_world_body_count(w); ++k)
    {
        cs_body_state b = cs_world_body(w, cs_world_body_id(w, k));
        double inertia = 0.5 * b.mass * b.radius * b.radius; // a uniform disc
        e.kinetic += 0.5 * b.mass * (b.velocity.x * b.velocity.x + b.velocity.y * b.velocity.y) +
                     0.5 * inertia * b.angular_velocity * b.angular_velocity;
        e.max_mass = fmax(e.max_mass, b.mass);
    }
    e.max_speed = cs_world_max_speed(w);
    e.penetration = cs_world_stats(w)->max_penetration;
    e.slop = cs_world_get_def(w)->linear_slop;
    e.run_time = STEPS * cs_world_get_def(w)->time_step;
    cs_world_destroy(w);
    return e;
}

// The bound is physical, not read off a run: a body that would move less than the slop (the overlap the
// model leaves uncorrected) over another run as long as this one, v_q = slop / (STEPS h); the whole pile
// may hold no more kinetic energy than one of its discs rolling at v_q (¾ m v_q²: ½ m v² plus ½ (½ m r²)
// (v/r)²). For Pool 1: v_q = 6e-5 m/s, 5.4e-9 J (Box2D v3 ends at 2.2e-9 J; the rolling disc of the
// default run held 9.5e-7 J). Quietness is not bought with overlap: the last step's deepest contact stays
// within half a slop of the slop.
static void settled_pool1_goes_quiet(void** state)
{
    (void)state;
    const int positions[] = {18, 19, 20, 21, 22, 25};
    int runs = 0, rolling = 0;
    for (size_t k = 0; k < sizeof positions / sizeof positions[0]; ++k)
    {
        for (int order = 0; order < CS_ROW_ORDER_COUNT; ++order)
        {
            for (int iterations = 5; iterations <= 12; ++iterations)
            {
                pile_end e = run_pool1(positions[k], iterations, (cs_row_order)order);
                double v_quiet = e.slop / e.run_time;
                double bound = 0.75 * e.max_mass * v_quiet * v_quiet;
                bool quiet = e.max_speed <= v_quiet && e.kinetic <= bound && e.penetration <= 1.5 * e.slop;
                print_message(
                    "# pool1, %d position sweeps, %s order, %d iterations: kinetic energy %.3g J (bound "
                    "%.3g), max speed %.3g m/s (bound %.3g), penetration %.3f mm%s\n",
                    positions[k], cs_row_order_name((cs_row_order)order), iterations, e.kinetic, bound,
                    e.max_speed, v_quiet, 1e3 * e.penetration, quiet ? "" : "  <- not quiet");
                runs += 1;
                rolling += quiet ? 0 : 1;
                if (positions[k] == 20 && iterations == 10 && order == CS_ROW_ORDER_COLOURED)
                {
                    assert_true(quiet); // the benchmark's run
                }
            }
        }
    }
    print_message("# %d of %d runs not quiet\n", rolling, runs);
    assert_int_equal(runs, 96);
    assert_true(rolling <= 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(settled_pool1_goes_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
