// The frozen-step race (X): every registered solver on this step's LCP, to 1e-4, with the iteration counts
// `circlesim-cli converge` reports for the same step, tolerance, α and γ; its curves are plotted (and
// exported) against iterations and time; the simulation goes on untouched.
#include "viewer_test.h"

#include "app/plots.h"
#include "app/race.h"

static app a;

// converge's iteration count for `name` (with α when the solver uses it), parsed from its table.
static int converge_iterations(const char* table, const char* name, double alpha, bool uses_alpha)
{
    char row[128];
    if (uses_alpha)
    {
        snprintf(row, sizeof row, "\n%s(alpha=%g) ", name, alpha);
    }
    else
    {
        snprintf(row, sizeof row, "\n%s ", name);
    }
    const char* at = strstr(table, row);
    if (at == NULL)
    {
        fail_msg("converge printed no row '%s':\n%s", row + 1, table);
    }
    return atoi(at + strlen(row));
}

static void test_race_equals_converge(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/pool1.json", 800, 500, fresh_dir());
    viewer_frames(&a, 100);
    uint64_t before = cs_world_hash(a.world);
    push_key(SDLK_x, KMOD_NONE);
    a.paused = true; // look at the race without stepping
    app_frame(&a);
    assert_int_equal(cs_world_hash(a.world), before); // the race leaves the world alone
    assert_true(a.race.shown);
    assert_int_equal(a.race.step, 100);
    assert_int_equal(race_count(&a), cs_solver_count());

    char solvers[512] = "";
    for (int k = 0; k < race_count(&a); ++k)
    {
        const app_race_entry* e = race_entry(&a, k);
        if (!e->skipped)
        {
            snprintf(solvers + strlen(solvers), sizeof solvers - strlen(solvers), "%s%s",
                     solvers[0] ? "," : "", cs_solver_at(e->solver)->name);
        }
    }
    char cmd[8192], table[16384];
    snprintf(
        cmd, sizeof cmd,
        "%s/circlesim-cli converge '%s' --at-step 100 --tol %g --solvers %s --alphas %.17g --gamma %.17g "
        "--repeat 1",
        CS_BINARY_DIR, cs_test_source_path("scenes/pool1.json"), RACE_TOLERANCE, solvers, a.params.alpha,
        a.params.gamma);
    assert_int_equal(cs_test_run(cmd, table, sizeof table), 0);
    int compared = 0;
    for (int k = 0; k < race_count(&a); ++k)
    {
        const app_race_entry* e = race_entry(&a, k);
        if (e->skipped)
        {
            continue;
        }
        const cs_solver_info* info = cs_solver_at(e->solver);
        int expected =
            converge_iterations(table, info->name, a.params.alpha, (info->flags & CS_SOLVER_USES_ALPHA) != 0);
        if (e->iterations != expected)
        {
            fail_msg("%s: race %d iterations, converge %d", info->name, e->iterations, expected);
        }
        assert_int_equal(e->history_count, e->iterations + 1);
        // Converged exactly when its last residual is within the tolerance (a method that stops short, as
        // converge's table shows it, is drawn as it is, not hidden).
        assert_true(e->converged == (e->history[e->history_count - 1] <= RACE_TOLERANCE));
        compared += e->converged ? 1 : 0;
    }
    assert_true(compared >= 2);

    // Plotted: one more plot (two with the timings on), one curve and legend line per solver.
    render_plot_desc plots[PLOTS_MAX];
    assert_int_equal(plots_describe(&a, plots, PLOTS_MAX), 3);
    a.show_timings = true;
    assert_int_equal(plots_describe(&a, plots, PLOTS_MAX), 4);
    assert_true(plots[3].series[0].x[1] > 0.0); // milliseconds
    assert_int_equal(plots[2].series_count, race_count(&a));
    assert_int_equal(plots[2].series[0].count, race_entry(&a, 0)->history_count);
    // X again closes it.
    push_key(SDLK_x, KMOD_NONE);
    app_frame(&a);
    assert_false(a.race.shown);
    assert_int_equal(plots_describe(&a, plots, PLOTS_MAX), 2);
    app_shutdown(&a);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_equals_converge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
