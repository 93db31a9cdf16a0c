// circlesim viewer — where things go: the HUD panel, the plot column, the side panel and the world view
// in the space they leave free. Everything in framebuffer pixels, scaled with the UI.
#ifndef CS_APP_LAYOUT_H
#define CS_APP_LAYOUT_H

#include "app/app.h"

typedef struct layout_rect
{
    float x, y, w, h;
} layout_rect;

// Width of the plot column on the right (0 when hidden) and right edge of the HUD panel.
float layout_plot_width(const app* a);
float layout_hud_right(app* a);
float layout_hud_bottom(app* a);
// The control panel's column under the HUD (w 0 when hidden) and the right edge of everything on the left.
layout_rect layout_panel_rect(app* a);
float layout_left_width(app* a);
// The part of the window the world is drawn in (the window minus the panels beside it).
layout_rect layout_world_area(app* a);
bool layout_contains(layout_rect r, double x, double y);
// Pane i's rectangle: the whole window without a duel (the world is drawn under the panels, fitted
// beside them), else a share of the world area, side by side or stacked, whichever is larger.
layout_rect layout_pane_rect(app* a, int pane);
// The pane under a framebuffer point (0 outside every pane) and the world point there.
int layout_pane_at(app* a, double x, double y);
cs_vec2 layout_to_world(app* a, double x, double y);
// Fits the world into the free area now (Z).
void app_fit_view(app* a);
// Fits when a fit was requested and the user has not moved the view; call before the view is used.
void layout_update(app* a);

#endif
