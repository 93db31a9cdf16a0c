// The frozen-step race (X): every registered solver on this step's LCP, to 1e-4, with the iteration counts,
// convergence and MNS Table 2 active-set fractions that `circlesim-cli converge --active-set` reports for
// the same step, tolerance, α and γ; its curves are plotted (and exported) against iterations and time, the
// active-set progress against k; the simulation goes on untouched. Stacking at step 60 (60 rows) keeps it
// quick with every method, the dense and pivoting ones included, and every method converges there.
#include "viewer_test.h"

#include "app/plots.h"
#include "app/race.h"

static app a;

#define MAX_ROWS 64

typedef struct cli_row
{
    char solver[64];
    int iterations;
    bool converged;
    int found[CS_ACTIVE_SET_KS_COUNT];
    int active;
} cli_row;

// Splits a CSV line in place into at most max fields.
static int fields(char* line, char** out, int max)
{
    int n = 0;
    line[strcspn(line, "\n")] = '\0';
    for (char* s = line; n < max && s != NULL; ++n)
    {
        out[n] = s;
        s = strchr(s, ',');
        if (s != NULL)
        {
            *s++ = '\0';
        }
    }
    return n;
}

static cli_row* row_of(cli_row* rows, int* count, const char* solver)
{
    for (int i = 0; i < *count; ++i)
    {
        if (strcmp(rows[i].solver, solver) == 0)
        {
            return &rows[i];
        }
    }
    assert_true(*count < MAX_ROWS);
    cli_row* r = &rows[(*count)++];
    memset(r, 0, sizeof *r);
    snprintf(r->solver, sizeof r->solver, "%s", solver);
    r->iterations = -1;
    for (int k = 0; k < CS_ACTIVE_SET_KS_COUNT; ++k)
    {
        r->found[k] = -1;
    }
    return r;
}

// converge's --csv (scene,solver,alpha,iterations,seconds,res_final,converged,stop) and --active-csv
// (scene,solver,alpha,k,identified,active), by solver.
static int read_converge(const char* csv, const char* active_csv, cli_row* rows)
{
    int count = 0;
    char line[512];
    char* f[8];
    FILE* in = fopen(csv, "r");
    assert_non_null(in);
    assert_non_null(fgets(line, sizeof line, in));
    while (fgets(line, sizeof line, in))
    {
        assert_int_equal(fields(line, f, 8), 8);
        cli_row* r = row_of(rows, &count, f[1]);
        r->iterations = atoi(f[3]);
        r->converged = atoi(f[6]) == 1;
    }
    fclose(in);
    in = fopen(active_csv, "r");
    assert_non_null(in);
    assert_non_null(fgets(line, sizeof line, in));
    while (fgets(line, sizeof line, in))
    {
        assert_int_equal(fields(line, f, 6), 6);
        cli_row* r = row_of(rows, &count, f[1]);
        int k = 0;
        while (k < CS_ACTIVE_SET_KS_COUNT && cs_active_set_ks[k] != atoi(f[3]))
        {
            k++;
        }
        assert_true(k < CS_ACTIVE_SET_KS_COUNT);
        r->found[k] = atoi(f[4]);
        r->active = atoi(f[5]);
    }
    fclose(in);
    return count;
}

static void test_race_equals_converge(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/stacking.json", 800, 500, fresh_dir());
    viewer_frames(&a, 60);
    uint64_t before = cs_world_hash(a.world);
    push_key(SDLK_x, KMOD_NONE);
    a.paused = true; // look at the race without stepping
    app_frame(&a);
    assert_int_equal(cs_world_hash(a.world), before); // the race leaves the world alone
    assert_true(a.race.shown);
    assert_int_equal(a.race.step, 60);
    assert_int_equal(race_count(&a), cs_solver_count());
    assert_true(a.race.has_set);

    const char* csv = cs_test_temp_path("-converge.csv");
    const char* active_csv = cs_test_temp_path("-active.csv");
    char cmd[8192], table[16384];
    snprintf(
        cmd, sizeof cmd,
        "%s/circlesim-cli converge '%s' --at-step 60 --tol %g --solvers all --alphas %.17g --gamma %.17g "
        "--repeat 1 --csv '%s' --active-set --active-csv '%s'",
        CS_BINARY_DIR, cs_test_source_path("scenes/stacking.json"), RACE_TOLERANCE, a.params.alpha,
        a.params.gamma, csv, active_csv);
    assert_int_equal(cs_test_run(cmd, table, sizeof table), 0);
    cli_row rows[MAX_ROWS];
    int count = read_converge(csv, active_csv, rows);
    assert_int_equal(count, race_count(&a));
    for (int k = 0; k < race_count(&a); ++k)
    {
        const app_race_entry* e = race_entry(&a, k);
        const char* name = cs_solver_at(e->solver)->name;
        cli_row* r = row_of(rows, &count, name);
        assert_int_equal(count, race_count(&a)); // converge ran it too
        // Nothing is skipped or refused on 60 rows, and a method converge brings to the tolerance gets
        // there in the race as well, in as many iterations.
        assert_false(e->skipped);
        assert_false(e->failed);
        if (e->iterations != r->iterations || e->converged != r->converged)
        {
            fail_msg("%s: race %d iterations (%s), converge %d (%s)", name, e->iterations,
                     e->converged ? "converged" : "not converged", r->iterations,
                     r->converged ? "converged" : "not converged");
        }
        assert_true(r->converged);
        assert_int_equal(e->history_count, e->iterations + 1);
        assert_true(e->history[e->history_count - 1] <= RACE_TOLERANCE);
        // The same optimal active set, and each method has found as much of it after k iterations.
        assert_int_equal(a.race.set_active, r->active);
        for (int i = 0; i < CS_ACTIVE_SET_KS_COUNT; ++i)
        {
            if (e->set_found[i] != r->found[i])
            {
                fail_msg("%s: race found %d of the active set after %d iterations, converge %d", name,
                         e->set_found[i], cs_active_set_ks[i], r->found[i]);
            }
        }
        assert_int_equal(e->set_points, CS_ACTIVE_SET_KS_COUNT);
        assert_true(e->set_fraction[CS_ACTIVE_SET_KS_COUNT - 1] ==
                    (double)r->found[CS_ACTIVE_SET_KS_COUNT - 1] / r->active);
        assert_true(e->set_found_end >= 0 && e->set_found_end <= a.race.set_active);
        assert_non_null(strstr(e->label, "active set"));
    }

    // Plotted, in place of the running plots: the residual per iteration and the active-set progress (and
    // residual against time with the timings on), one curve per solver, the legend on the residual plot.
    render_plot_desc plots[PLOTS_MAX];
    assert_int_equal(plots_describe(&a, plots, PLOTS_MAX), 2);
    assert_int_equal(plots[0].series_count, race_count(&a));
    assert_int_equal(plots[0].series[0].count, race_entry(&a, 0)->history_count);
    assert_true(plots[1].log_x);
    assert_int_equal(plots[1].series_count, race_count(&a));
    assert_true(plots[1].series[0].x[4] == 50.0);
    assert_true(plots[1].series[0].rgba == plots[0].series[0].rgba);
    a.show_timings = true;
    assert_int_equal(plots_describe(&a, plots, PLOTS_MAX), 3);
    assert_true(plots[2].series[0].x[1] > 0.0); // milliseconds
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
