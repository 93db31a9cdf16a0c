#include "app/plots.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/capture.h"

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

int plots_describe(app* a, render_plot_desc* out, int max)
{
    if (max < 2)
    {
        return 0;
    }
    plot_data_describe(&a->plot, &out[0], &out[1]);
    out[0].y_label = "RES_lcp";
    out[1].y_label = "RES_lcp";
    if (a->pane_count < 2)
    {
        return 2;
    }
    // A duel: each pane's current curve, in the pane's colour.
    out[0].series_count = 0;
    out[1].series_count = 0;
    out[0].title = "RES after each step, all panes (eq. 24)";
    out[1].title = "RES per iteration, last step, all panes";
    for (int i = 0; i < a->pane_count && i < RENDER_PLOT_MAX_SERIES; ++i)
    {
        app_plot* p = app_pane_plot(a, i);
        render_plot_desc per_step, per_iteration;
        plot_data_describe(p, &per_step, &per_iteration);
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
