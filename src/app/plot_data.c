#include "app/plot_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plot_data_free(app_plot* p)
{
    free(p->iter);
    free(p->previous_iter);
    p->iter = NULL;
    p->previous_iter = NULL;
    p->iter_capacity = 0;
    p->previous_iter_capacity = 0;
    p->iter_count = 0;
    p->previous_iter_count = 0;
}

void plot_data_clear(app_plot* p, const char* label)
{
    p->generation = 0;
    p->head = 0;
    p->count = 0;
    p->iter_count = 0;
    p->previous_iter_count = 0;
    p->previous_label[0] = '\0';
    snprintf(p->label, sizeof p->label, "%s", label);
}

static bool copy_curve(double** dst, int* capacity, int* count, const double* src, int n)
{
    if (n > *capacity)
    {
        double* grown = realloc(*dst, (size_t)n * sizeof(double));
        if (grown == NULL)
        {
            *count = 0;
            return false;
        }
        *dst = grown;
        *capacity = n;
    }
    if (n > 0)
    {
        memcpy(*dst, src, (size_t)n * sizeof(double));
    }
    *count = n;
    return true;
}

void plot_data_new_setting(app_plot* p, const char* label)
{
    if (strcmp(label, p->label) == 0)
    {
        return;
    }
    // Only a setting that produced data is worth keeping as "previous".
    bool has_data = p->iter_count > 0 ||
                    (p->count > 0 && p->gen[(p->head + PLOT_STEPS - 1) % PLOT_STEPS] == p->generation);
    if (has_data)
    {
        copy_curve(&p->previous_iter, &p->previous_iter_capacity, &p->previous_iter_count, p->iter,
                   p->iter_count);
        snprintf(p->previous_label, sizeof p->previous_label, "%s", p->label);
        p->generation++;
    }
    p->iter_count = 0;
    snprintf(p->label, sizeof p->label, "%s", label);
}

void plot_data_record(app_plot* p, const cs_step_stats* stats, const double* history, int history_count)
{
    p->step[p->head] = (double)stats->step;
    p->res[p->head] = stats->res_lcp;
    p->energy[p->head] = stats->kinetic_energy;
    p->penetration[p->head] = stats->max_penetration;
    p->gen[p->head] = p->generation;
    p->head = (p->head + 1) % PLOT_STEPS;
    if (p->count < PLOT_STEPS)
    {
        p->count++;
    }
    if (history != NULL && history_count > 0)
    {
        copy_curve(&p->iter, &p->iter_capacity, &p->iter_count, history, history_count);
    }
}

void plot_data_describe(app_plot* p, plot_quantity quantity, render_plot_desc* per_step,
                        render_plot_desc* per_iteration)
{
    const double* values =
        quantity == PLOT_ENERGY ? p->energy : (quantity == PLOT_PENETRATION ? p->penetration : p->res);
    int counts[3] = {0, 0, 0};
    int start = (p->head - p->count + PLOT_STEPS) % PLOT_STEPS;
    for (int i = 0; i < p->count; ++i)
    {
        int k = (start + i) % PLOT_STEPS;
        int g = p->gen[k];
        int which = g == p->generation ? 2 : (g == p->generation - 1 ? 1 : 0);
        p->series_x[which][counts[which]] = p->step[k];
        p->series_y[which][counts[which]] = values[k];
        counts[which]++;
    }
    static const char* const titles[PLOT_QUANTITY_COUNT] = {"RES after each step (eq. 24)",
                                                            "kinetic energy after each step",
                                                            "largest penetration before each solve"};
    static const char* const names[PLOT_QUANTITY_COUNT] = {"RES_lcp", "J", "m"};
    *per_step = (render_plot_desc){.title = titles[quantity],
                                   .x_label = "step",
                                   .y_label = names[quantity],
                                   .log_y = quantity == PLOT_RES};
    uint32_t colors[3] = {PLOT_OLDER_COLOR, PLOT_PREVIOUS_COLOR, PLOT_CURRENT_COLOR};
    const char* labels[3] = {NULL, p->previous_label, p->label};
    for (int which = 0; which < 3; ++which)
    {
        if (counts[which] == 0)
        {
            continue;
        }
        render_series* s = &per_step->series[per_step->series_count++];
        *s = (render_series){p->series_x[which], p->series_y[which], counts[which], colors[which],
                             labels[which]};
    }

    *per_iteration =
        (render_plot_desc){.title = "RES per iteration, last step", .x_label = "iteration", .log_y = true};
    if (p->previous_iter_count > 0)
    {
        per_iteration->series[per_iteration->series_count++] = (render_series){
            NULL, p->previous_iter, p->previous_iter_count, PLOT_PREVIOUS_COLOR, p->previous_label};
    }
    if (p->iter_count > 0)
    {
        per_iteration->series[per_iteration->series_count++] =
            (render_series){NULL, p->iter, p->iter_count, PLOT_CURRENT_COLOR, p->label};
    }
}
