// circlesim viewer — the plots shown, as render_plot descriptions (drawn by hud.c, exported as CSV by
// capture_actions.c, so the CSV holds exactly the plotted series). In a duel every pane's curve is
// overlaid, each labelled with its full settings.
#ifndef CS_APP_PLOTS_H
#define CS_APP_PLOTS_H

#include "app/app.h"

#define PLOTS_MAX 3 // per step and per iteration, or a frozen-step race's three

// Fills up to max plots (per step and per iteration, or, while a race is shown, its residual against
// iterations, its active-set progress and residual against time); returns how many. Pointers stay valid
// until the next step or call.
int plots_describe(app* a, render_plot_desc* out, int max);
// plot,series,x,y rows (labels quoted); msg says what was written or why not.
bool plots_write_csv(const char* path, const render_plot_desc* plots, int count, char* msg, size_t msg_size);
// The colour of pane i's curves and title.
uint32_t plots_pane_color(int pane);

#endif
