#include "app/plots.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/capture.h"
#include "app/race.h"

uint32_t plots_pane_color(int pane)
{
    static const uint32_t colors[APP_MAX_PANES] = {PLOT_CURRENT_COLOR, PLOT_PREVIOUS_COLOR,
                                                   RENDER_RGBA(20, 150, 70, 255),
                                                   RENDER_RGBA(150, 60, 190, 255)};
    return colors[pane >= 0 && pane < APP_MAX_PANES ? pane : 0];
}

// The current setting's series of one plot (the one labelled with the pane's current label).
static const render_series* current_series(const render_plot_desc* d, const char* label)
{
    for (int k = d->series_count - 1; k >= 0; --k)
    {
        if (d->series[k].label != NULL && strcmp(d->series[k].label, label) == 0)
        {
            return &d->series[k];
        }
    }
    return NULL;
}

// The race's plots: residual against iterations, the share of the optimal active set found after k
// iterations (when a reference exists; its curves share the residual legend's colours), and residual
// against time; one curve per solver run.
static int describe_race(app* a, render_plot_desc* out, int max)
{
    if (race_count(a) == 0 || max < 3)
    {
        return 0;
    }
    static char titles[3][128];
    // A plot holds RENDER_PLOT_MAX_SERIES curves: should the registry outgrow it, the title says how many
    // methods are drawn rather than dropping the rest unseen (the race itself holds every method).
    char drawn[64] = "";
    if (race_count(a) > RENDER_PLOT_MAX_SERIES)
    {
        app_format(drawn, sizeof drawn, ", first %d of %d methods", RENDER_PLOT_MAX_SERIES, race_count(a));
    }
    app_format(titles[0], sizeof titles[0], "Frozen step %lld (%d rows): residual per iteration%s",
               (long long)a->race.step, a->race.rows, drawn);
    app_format(titles[1], sizeof titles[1], "Frozen step %lld: residual against solve time",
               (long long)a->race.step);
    const char* y = a->race.on_lcp ? "RES_lcp (eq. 24)" : "res_nat";
    out[0] = (render_plot_desc){.title = titles[0], .x_label = "iteration", .y_label = y, .log_y = true};
    out[1] = (render_plot_desc){.title = titles[1], .x_label = "ms", .y_label = y, .log_y = true};
    app_format(titles[2], sizeof titles[2], "Step %lld: active set (%d rows) found by k",
               (long long)a->race.step, a->race.set_active);
    render_plot_desc set = {
        .title = titles[2], .x_label = "k (iterations, log)", .y_label = "share identified", .log_x = true};
    // Sixteen distinct colours (the registry holds more methods than six): one per solver of the race.
    static const uint32_t colors[] = {
        RENDER_RGBA(30, 100, 220, 255),  RENDER_RGBA(240, 140, 0, 255),   RENDER_RGBA(20, 150, 70, 255),
        RENDER_RGBA(150, 60, 190, 255),  RENDER_RGBA(200, 40, 120, 255),  RENDER_RGBA(90, 90, 90, 255),
        RENDER_RGBA(0, 170, 190, 255),   RENDER_RGBA(190, 170, 0, 255),   RENDER_RGBA(220, 30, 30, 255),
        RENDER_RGBA(120, 80, 30, 255),   RENDER_RGBA(120, 160, 255, 255), RENDER_RGBA(255, 150, 200, 255),
        RENDER_RGBA(100, 200, 100, 255), RENDER_RGBA(40, 40, 120, 255),   RENDER_RGBA(255, 200, 120, 255),
        RENDER_RGBA(160, 160, 160, 255)};
    for (int k = 0; k < race_count(a) && out[0].series_count < RENDER_PLOT_MAX_SERIES; ++k)
    {
        const app_race_entry* e = race_entry(a, k);
        uint32_t c = colors[k % (int)(sizeof colors / sizeof colors[0])];
        // A skipped solver still gets its legend line (an empty curve), so the reader sees why.
        out[0].series[out[0].series_count++] =
            (render_series){NULL, e->history, e->history_count, c, e->label};
        out[1].series[out[1].series_count++] =
            (render_series){e->times_ms, e->history, e->history_count, c, e->timed_label};
        set.series[set.series_count++] = (render_series){e->set_k, e->set_fraction, e->set_points, c, NULL};
    }
    int n = 1;
    if (a->race.has_set)
    {
        render_plot_desc timed = out[1];
        out[n++] = set;
        out[n] = timed;
    }
    // Time is wall-clock: its plot is shown (and captured) only with the timings on (T, --hud-timings).
    return a->show_timings ? n + 1 : n;
}

int plots_describe(app* a, render_plot_desc* out, int max)
{
    if (max < 2)
    {
        return 0;
    }
    if (race_count(a) > 0 && max >= 3)
    {
        // While shown, the race has the plot column: one legend line per registered method needs the
        // height (the running plots come back when it closes; the world keeps recording them).
        return describe_race(a, out, max);
    }
    plot_data_describe(&a->plot, a->step_plot, &out[0], &out[1]);
    out[1].y_label = "RES_lcp";
    if (a->pane_count < 2)
    {
        return 2;
    }
    // A duel: each pane's current curve, in the pane's colour.
    out[0].series_count = 0;
    out[1].series_count = 0;
    static const char* const titles[PLOT_QUANTITY_COUNT] = {
        "RES after each step, all panes (eq. 24)", "kinetic energy after each step, all panes",
        "largest penetration before each solve, all panes"};
    out[0].title = titles[a->step_plot];
    out[1].title = "RES per iteration, last step, all panes";
    for (int i = 0; i < a->pane_count && i < RENDER_PLOT_MAX_SERIES; ++i)
    {
        app_plot* p = app_pane_plot(a, i);
        render_plot_desc per_step, per_iteration;
        plot_data_describe(p, a->step_plot, &per_step, &per_iteration);
        const render_series* s = current_series(&per_step, p->label);
        const render_series* it = current_series(&per_iteration, p->label);
        if (s != NULL)
        {
            out[0].series[out[0].series_count] = *s;
            out[0].series[out[0].series_count++].rgba = plots_pane_color(i);
        }
        if (it != NULL)
        {
            out[1].series[out[1].series_count] = *it;
            out[1].series[out[1].series_count++].rgba = plots_pane_color(i);
        }
    }
    return 2;
}

static void csv_text(FILE* f, const char* s)
{
    fputc('"', f);
    for (; s != NULL && *s != '\0'; ++s)
    {
        if (*s == '"')
        {
            fputc('"', f);
        }
        fputc(*s, f);
    }
    fputc('"', f);
}

bool plots_write_csv(const char* path, const render_plot_desc* plots, int count, char* msg, size_t msg_size)
{
    capture_make_dirs(path, false);
    FILE* f = fopen(path, "w");
    if (f == NULL)
    {
        app_format(msg, msg_size, "%s: cannot write CSV: %s", path, strerror(errno));
        return false;
    }
    fprintf(f, "plot,series,x,y\n");
    int rows = 0;
    for (int p = 0; p < count; ++p)
    {
        for (int k = 0; k < plots[p].series_count; ++k)
        {
            const render_series* s = &plots[p].series[k];
            for (int i = 0; i < s->count; ++i)
            {
                csv_text(f, plots[p].title);
                fputc(',', f);
                csv_text(f, s->label);
                fprintf(f, ",%.17g,%.17g\n", s->x != NULL ? s->x[i] : (double)i, s->y[i]);
                rows++;
            }
        }
    }
    bool ok = fclose(f) == 0;
    if (ok)
    {
        app_format(msg, msg_size, "saved %s (%d rows)", path, rows);
    }
    else
    {
        app_format(msg, msg_size, "%s: cannot write CSV: %s", path, strerror(errno));
    }
    return ok;
}
