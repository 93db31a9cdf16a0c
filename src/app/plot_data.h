// circlesim viewer — the residual plot's data: RES (the paper's eq. 24, res_lcp) after each step over
// the last PLOT_STEPS steps and per iteration in the last step. A solver-settings change starts a new
// "generation": the previous setting's curves stay and are drawn in another colour for comparison.
#ifndef CS_APP_PLOT_DATA_H
#define CS_APP_PLOT_DATA_H

#include <stdint.h>

#include "render/render.h"

#define PLOT_STEPS     600
#define PLOT_LABEL_MAX 96

#define PLOT_CURRENT_COLOR  RENDER_RGBA(30, 100, 220, 255)
#define PLOT_PREVIOUS_COLOR RENDER_RGBA(240, 140, 0, 255)
#define PLOT_OLDER_COLOR    RENDER_RGBA(175, 175, 175, 255)

typedef struct app_plot
{
    int generation;
    char label[PLOT_LABEL_MAX];
    char previous_label[PLOT_LABEL_MAX];

    // Ring of per-step samples, oldest at (head - count) mod PLOT_STEPS.
    int head;
    int count;
    double step[PLOT_STEPS];
    double res[PLOT_STEPS];
    double energy[PLOT_STEPS];      // kinetic energy after the step (J)
    double penetration[PLOT_STEPS]; // largest penetration before the solve (m)
    int gen[PLOT_STEPS];

    // Residual per iteration of the last step, and the previous setting's last such curve.
    double* iter;
    int iter_count;
    int iter_capacity;
    double* previous_iter;
    int previous_iter_count;
    int previous_iter_capacity;

    // Contiguous copies handed to the renderer: older, previous, current.
    double series_x[3][PLOT_STEPS];
    double series_y[3][PLOT_STEPS];
} app_plot;

void plot_data_free(app_plot* p);
// Forgets everything (new scene or reset); label names the current setting.
void plot_data_clear(app_plot* p, const char* label);
// A new setting: the current curves become the previous ones.
void plot_data_new_setting(app_plot* p, const char* label);
// What the per-step plot shows.
typedef enum plot_quantity
{
    PLOT_RES,
    PLOT_ENERGY,
    PLOT_PENETRATION,
    PLOT_QUANTITY_COUNT
} plot_quantity;

// One step's final residual, energy, penetration and per-iteration residual history (may be NULL/0).
void plot_data_record(app_plot* p, const cs_step_stats* stats, const double* history, int history_count);
// Fills the two plot descriptions, the per-step one for `quantity`; pointers stay valid until the next call.
void plot_data_describe(app_plot* p, plot_quantity quantity, render_plot_desc* per_step,
                        render_plot_desc* per_iteration);

#endif
