// circlesim viewer — the clickable control panel beside the keys: solver list, α / γ / ω / iterations /
// tolerance, warm start, friction, row order, draw flags, duel and race, time, and a scene picker with
// each scene's description. Built with ui.h: one function lays it out for both clicks and drawing.
#ifndef CS_APP_PANEL_H
#define CS_APP_PANEL_H

#include "app/layout.h"

// A click at framebuffer (x, y): applies the widget under it. Returns true when the point is on any panel
// (HUD, control panel, plot column), so the click must not reach the world.
bool panel_click(app* a, double x, double y);
// True when (x, y) is on a panel (the wheel and drags there leave the world alone too).
bool panel_covers(app* a, double x, double y);
void panel_draw(app* a);
// Where the widget labelled `label` is (see ui.h's UI_FIND). With `shown`, true when the panel has it, and
// *shown says whether it is scrolled into view; without (NULL), true only when it is in view.
bool panel_find(app* a, const char* label, double* x, double* y, bool* shown);
// Scrolls the panel's content by dy pixels (positive: further down), kept within its range.
void panel_scroll_by(app* a, float dy);

#endif
