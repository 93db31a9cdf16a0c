// Where the panels go and the world view in the space they leave.
#include <math.h>
#include <string.h>

#include "app/hud_text.h"
#include "app/layout.h"

float layout_plot_width(const app* a)
{
    float w = 420.0f * a->ui_scale;
    // Beside the control panel the plots give way first, so the world keeps at least 40% of the width.
    float most = a->show_panel ? 0.6f * (float)a->fb_w - 250.0f * a->ui_scale : 0.45f * (float)a->fb_w;
    most = most < 0.25f * (float)a->fb_w ? 0.25f * (float)a->fb_w : most;
    most = most > 0.45f * (float)a->fb_w ? 0.45f * (float)a->fb_w : most;
    return w > most ? most : w;
}

float layout_hud_right(app* a)
{
    if (!a->show_hud || a->renderer == NULL)
    {
        return 0.0f;
    }
    char lines[HUD_MAX_LINES][HUD_LINE_MAX];
    int n = hud_lines(a, lines, HUD_MAX_LINES);
    float width = 0.0f;
    for (int i = 0; i < n; ++i)
    {
        float w = render_ui_text_width(a->renderer, lines[i]);
        width = w > width ? w : width;
    }
    // Panel at pad, text inset by pad, and a pad of air after it (as draw_hud lays it out).
    return width + 4.0f * 8.0f * a->ui_scale;
}

float layout_hud_bottom(app* a)
{
    if (!a->show_hud || a->renderer == NULL)
    {
        return 0.0f;
    }
    char lines[HUD_MAX_LINES][HUD_LINE_MAX];
    int n = hud_lines(a, lines, HUD_MAX_LINES);
    // As draw_hud lays it out: panel at pad, text inset by pad, a pad of air below.
    return (float)n * render_ui_line_height(a->renderer) + 4.0f * 8.0f * a->ui_scale;
}

layout_rect layout_panel_rect(app* a)
{
    if (!a->show_panel || a->renderer == NULL)
    {
        return (layout_rect){0.0f, 0.0f, 0.0f, 0.0f};
    }
    float s = a->ui_scale;
    float pad = 8.0f * s;
    float w = 250.0f * s;
    w = w > 0.3f * (float)a->fb_w ? 0.3f * (float)a->fb_w : w;
    float top = a->show_hud ? layout_hud_bottom(a) - pad : pad;
    return (layout_rect){pad, top, w, (float)a->fb_h - top - pad};
}

float layout_left_width(app* a)
{
    layout_rect p = layout_panel_rect(a);
    float panel = p.w > 0.0f ? p.x + p.w + 8.0f * a->ui_scale : 0.0f;
    float hud = layout_hud_right(a);
    return panel > hud ? panel : hud;
}

layout_rect layout_world_area(app* a)
{
    float s = a->ui_scale;
    float left = a->pane_count > 1 || a->show_panel ? layout_left_width(a) : 0.0f;
    float right = a->show_plot ? layout_plot_width(a) + 16.0f * s : 0.0f;
    float top = 0.0f;
    // Without the control panel, panels never squeeze the world below half the window's width: the panes
    // go under the HUD instead (with it, the plot column has already given way: layout_plot_width).
    if (!a->show_panel && (float)a->fb_w - left - right < 0.5f * (float)a->fb_w)
    {
        top = left > 0.0f ? layout_hud_bottom(a) : 0.0f;
        top = top < 0.5f * (float)a->fb_h ? top : 0.0f;
        left = 0.0f;
        right = right < 0.5f * (float)a->fb_w ? right : 0.5f * (float)a->fb_w;
    }
    return (layout_rect){left, top, (float)a->fb_w - left - right, (float)a->fb_h - top};
}

bool layout_contains(layout_rect r, double x, double y)
{
    return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

static void world_box(const app* a, cs_vec2* lo, cs_vec2* hi)
{
    *lo = (cs_vec2){-1.0, -1.0};
    *hi = (cs_vec2){1.0, 1.0};
    if (a->world != NULL && (cs_world_body_count(a->world) > 0 || cs_world_wall_count(a->world) > 0))
    {
        cs_world_bounds(a->world, lo, hi);
    }
}

// Side by side or stacked, whichever shows the world larger.
static bool panes_side_by_side(app* a)
{
    layout_rect area = layout_world_area(a);
    cs_vec2 lo, hi;
    world_box(a, &lo, &hi);
    double bw = fmax(hi.x - lo.x, 1e-9), bh = fmax(hi.y - lo.y, 1e-9);
    int n = a->pane_count;
    double side = fmin(area.w / n / bw, area.h / bh);
    double stacked = fmin(area.w / bw, area.h / n / bh);
    return side >= stacked;
}

layout_rect layout_pane_rect(app* a, int pane)
{
    if (a->pane_count < 2)
    {
        return (layout_rect){0.0f, 0.0f, (float)a->fb_w, (float)a->fb_h};
    }
    layout_rect area = layout_world_area(a);
    int n = a->pane_count;
    if (panes_side_by_side(a))
    {
        float w = floorf(area.w / (float)n);
        return (layout_rect){area.x + (float)pane * w, area.y, w, area.h};
    }
    float h = floorf(area.h / (float)n);
    return (layout_rect){area.x, area.y + (float)pane * h, area.w, h};
}

int layout_pane_at(app* a, double x, double y)
{
    for (int i = 0; i < a->pane_count; ++i)
    {
        if (layout_contains(layout_pane_rect(a, i), x, y))
        {
            return i;
        }
    }
    return 0;
}

cs_vec2 layout_to_world(app* a, double x, double y)
{
    layout_rect r = layout_pane_rect(a, layout_pane_at(a, x, y));
    return render_view_to_world(&a->view, x - r.x, y - r.y);
}

void app_fit_view(app* a)
{
    cs_vec2 lo, hi;
    world_box(a, &lo, &hi);
    if (a->pane_count > 1)
    {
        // Every pane shows the same camera: fit the world into one pane's rectangle.
        layout_rect r = layout_pane_rect(a, 0);
        render_view_fit(&a->view, lo, hi, (int)r.w, (int)r.h, 0.05);
        a->view_moved = false;
        return;
    }
    if (a->show_panel)
    {
        // The control panel runs the window's height: fit into the area between it and the plots, then
        // widen the view to the window with that area's centre where it was.
        layout_rect area = layout_world_area(a);
        render_view_fit(&a->view, lo, hi, (int)area.w, (int)area.h, 0.05);
        a->view.cx += (0.5 * a->fb_w - (area.x + 0.5 * area.w)) / a->view.scale;
        a->view.cy -= (0.5 * a->fb_h - (area.y + 0.5 * area.h)) / a->view.scale;
        a->view.width = a->fb_w;
        a->view.height = a->fb_h;
        a->view_moved = false;
        return;
    }
    // Fit into the part of the window the plot panel leaves free, then widen the view to the window.
    int reserved = a->show_plot ? (int)(layout_plot_width(a) + 16.0f * a->ui_scale) : 0;
    int width = a->fb_w - reserved > a->fb_w / 2 ? a->fb_w - reserved : a->fb_w / 2;
    render_view_fit(&a->view, lo, hi, width, a->fb_h, 0.05);
    // Content narrow enough to pass beside the HUD (a stack, a pool in a wide window) is centred in the
    // space between the HUD and the plot instead of under the HUD.
    double left = layout_left_width(a);
    double content = (hi.x - lo.x) * a->view.scale;
    double shift = 0.5 * (a->fb_w - width);
    if (left > 0.0 && content + left <= width)
    {
        shift -= 0.5 * left;
    }
    a->view.cx += shift / a->view.scale;
    a->view.width = a->fb_w;
    a->view_moved = false;
}

void layout_update(app* a)
{
    if (a->fit_pending && !a->view_moved && a->renderer != NULL)
    {
        app_fit_view(a);
    }
    a->fit_pending = false;
}
