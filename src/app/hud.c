// The HUD, the plot column, the help overlay, the error banner and the status line.
#include <stdio.h>
#include <string.h>

#include "app/hud.h"
#include "app/hud_text.h"
#include "app/input.h"
#include "app/inspect.h"
#include "app/layout.h"
#include "app/panel.h"
#include "app/plots.h"

#define HUD_PANEL    RENDER_RGBA(255, 255, 255, 215)
#define HUD_TEXT     RENDER_RGBA(20, 20, 20, 255)
#define HUD_WARN     RENDER_RGBA(190, 90, 0, 255)
#define ERROR_BANNER RENDER_RGBA(170, 20, 20, 235)
#define ERROR_TEXT   RENDER_RGBA(255, 255, 255, 255)
#define HELP_PANEL   RENDER_RGBA(250, 250, 250, 240)
#define HELP_KEY     RENDER_RGBA(30, 100, 220, 255)

static void draw_hud(app* a)
{
    render_context* r = a->renderer;
    char lines[HUD_MAX_LINES][HUD_LINE_MAX];
    int n = hud_lines(a, lines, HUD_MAX_LINES);
    float s = a->ui_scale;
    float lh = render_ui_line_height(r);
    float pad = 8.0f * s;
    float width = 0.0f;
    for (int i = 0; i < n; ++i)
    {
        float w = render_ui_text_width(r, lines[i]);
        width = w > width ? w : width;
    }
    render_ui_rect(r, pad, pad, width + 2.0f * pad, (float)n * lh + 2.0f * pad, HUD_PANEL);
    for (int i = 0; i < n; ++i)
    {
        bool warn = strstr(lines[i], "PAUSED") != NULL || strstr(lines[i], "slower") != NULL ||
                    strstr(lines[i], "REC") != NULL;
        render_ui_text(r, 2.0f * pad, 2.0f * pad + (float)i * lh, warn ? HUD_WARN : HUD_TEXT, lines[i]);
    }
}

static void draw_plots(app* a)
{
    float s = a->ui_scale;
    float pad = 8.0f * s;
    float w = layout_plot_width(a);
    render_plot_desc plots[PLOTS_MAX];
    int count = plots_describe(a, plots, PLOTS_MAX);
    float x = (float)a->fb_w - w - pad;
    float y = pad;
    for (int k = 0; k < count; ++k)
    {
        // Room for the curves plus one legend line per series; all plots always fit the window's height.
        float h = 150.0f * s + (float)plots[k].series_count * render_ui_line_height(a->renderer);
        float most = ((float)a->fb_h - (float)(count + 1) * pad) / (float)count;
        h = h > most ? most : h;
        render_plot(a->renderer, &plots[k], x, y, w, h);
        y += h + pad;
    }
}

// Each duel pane's full settings, in the pane's colour, along its bottom edge.
static void draw_pane_titles(app* a)
{
    render_context* r = a->renderer;
    float pad = 6.0f * a->ui_scale;
    float lh = render_ui_line_height(r);
    for (int i = 0; i < a->pane_count && a->pane_count > 1; ++i)
    {
        layout_rect rect = layout_pane_rect(a, i);
        char label[PLOT_LABEL_MAX + 16], setting[PLOT_LABEL_MAX];
        app_pane_label(a, i, setting, sizeof setting);
        app_format(label, sizeof label, "%d%s %s", i + 1, i == a->focus ? "*" : "", setting);
        float ty = rect.y + rect.h - lh - 2.0f * pad;
        render_ui_rect(r, rect.x + pad, ty, render_ui_text_width(r, label) + 2.0f * pad, lh + pad, HUD_PANEL);
        render_ui_text(r, rect.x + 2.0f * pad, ty + 0.5f * pad, plots_pane_color(i), label);
        if (i > 0)
        {
            render_ui_line(r, rect.x, rect.y, rect.x, rect.y + rect.h, 1.5f * a->ui_scale, HUD_TEXT);
        }
    }
}

static void draw_help(app* a)
{
    render_context* r = a->renderer;
    int count;
    const app_key_help* keys = app_key_help_table(&count);
    float s = a->ui_scale;
    float lh = render_ui_line_height(r);
    float pad = 12.0f * s;
    float key_w = 0.0f, action_w = 0.0f;
    for (int i = 0; i < count; ++i)
    {
        float kw = render_ui_text_width(r, keys[i].keys);
        float aw = render_ui_text_width(r, keys[i].action);
        key_w = kw > key_w ? kw : key_w;
        action_w = aw > action_w ? aw : action_w;
    }
    float w = key_w + action_w + 3.0f * pad;
    float h = (float)(count + 1) * lh + 2.0f * pad;
    float x = 0.5f * ((float)a->fb_w - w);
    float y = 0.5f * ((float)a->fb_h - h);
    y = y < pad ? pad : y;
    render_ui_rect(r, x, y, w, h, HELP_PANEL);
    render_ui_text(r, x + pad, y + pad, HUD_TEXT, "circlesim — keys and mouse (H closes)");
    for (int i = 0; i < count; ++i)
    {
        float ly = y + pad + (float)(i + 1) * lh;
        render_ui_text(r, x + pad, ly, HELP_KEY, keys[i].keys);
        render_ui_text(r, x + 2.0f * pad + key_w, ly, HUD_TEXT, keys[i].action);
    }
}

// A full-width banner: errors must be seen even with the HUD off.
static void draw_banner(app* a, float y, uint32_t fill, uint32_t text_color, const char* text)
{
    render_context* r = a->renderer;
    float lh = render_ui_line_height(r);
    float pad = 6.0f * a->ui_scale;
    render_ui_rect(r, 0.0f, y, (float)a->fb_w, lh + 2.0f * pad, fill);
    render_ui_text(r, pad, y + pad, text_color, text);
}

void hud_draw(app* a)
{
    render_context* r = a->renderer;
    draw_pane_titles(a);
    if (a->show_plot)
    {
        draw_plots(a);
    }
    panel_draw(a);
    inspect_draw(a);
    if (a->show_hud)
    {
        draw_hud(a);
    }
    render_ui_flush(r);
    float lh = render_ui_line_height(r);
    float pad = 6.0f * a->ui_scale;
    if (a->error[0] != '\0')
    {
        draw_banner(a, (float)a->fb_h - 2.0f * (lh + 2.0f * pad), ERROR_BANNER, ERROR_TEXT, a->error);
    }
    // Headless runs print messages on stderr only, so demo frames show the scene, not "saved …".
    if (a->message[0] != '\0' && !a->headless && app_now(a) < a->message_until)
    {
        draw_banner(a, (float)a->fb_h - (lh + 2.0f * pad), HUD_PANEL, HUD_TEXT, a->message);
    }
    if (a->show_help)
    {
        render_ui_flush(r);
        draw_help(a);
    }
}
