// circlesim viewer — a compact immediate-mode UI (no C immediate-mode library is packaged in Debian):
// widgets are function calls laid out top to bottom in a column. The same calls run in two passes:
// UI_HIT finds the widget under a click and returns true from it (the caller applies the change),
// UI_DRAW draws every widget (hovered one highlighted). So hit testing and drawing can never disagree.
#ifndef CS_APP_UI_H
#define CS_APP_UI_H

#include <stdbool.h>

#include "render/render.h"

typedef enum ui_pass
{
    UI_HIT,
    UI_DRAW,
    UI_FIND, // locates the widget labelled `find` (tests and scripts click it where a user would)
} ui_pass;

typedef struct ui
{
    render_context* r;
    ui_pass pass;
    float x, y, w; // column left, cursor, column width
    float row;     // row height
    float pad;
    float px, py;     // click (UI_HIT) or mouse (UI_DRAW) position
    bool hit;         // a widget took the click
    const char* tip;  // UI_DRAW: the hovered widget's tooltip
    const char* find; // UI_FIND: a button's label, a check box's name, or "NAME +" / "NAME −" of a stepper
    bool found;
    bool found_shown; // UI_FIND: inside the clip band (it can be clicked)
    float fx, fy;     // UI_FIND: the centre of the widget found
    // A scrolled column: rows not wholly inside [clip_top, clip_bottom) are neither drawn nor hit
    // (clip_bottom 0: no clipping).
    float clip_top, clip_bottom;
} ui;

void ui_begin(ui* u, render_context* r, ui_pass pass, float x, float y, float w, float px, float py);
// Rows from here on are shown only inside [top, bottom).
void ui_clip(ui* u, float top, float bottom);
// A caption row.
void ui_label(ui* u, const char* text);
// A row of n equal buttons; returns the index clicked (-1: none). selected marks one as on (-1: none).
int ui_buttons(ui* u, const char* const* labels, int n, int selected, const char* tip);
// "name  [−] value [+]": returns −1 or +1 when a side is clicked, 0 otherwise.
int ui_stepper(ui* u, const char* name, const char* value, const char* tip);
// A check box row; returns true when clicked (the caller flips the value).
bool ui_check(ui* u, const char* name, bool on, const char* tip);
// Wrapped text in a paler colour, as many rows as it needs.
void ui_text(ui* u, const char* text);
// Height used so far.
float ui_height(const ui* u, float top);

#endif
