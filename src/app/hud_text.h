// circlesim viewer — the HUD's text, one line per entry, from the model (no drawing).
#ifndef CS_APP_HUD_TEXT_H
#define CS_APP_HUD_TEXT_H

#include "app/app.h"

#define HUD_LINE_MAX  160
#define HUD_MAX_LINES 16

// Fills lines; returns the line count. Wall-clock numbers (step and solver ms, FPS, "slower than real
// time") appear only with a->show_timings, so captures of the same run are the same pixels.
int hud_lines(const app* a, char lines[][HUD_LINE_MAX], int max_lines);
#endif
