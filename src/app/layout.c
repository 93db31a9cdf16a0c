// Where the panels go and the world view in the space they leave.
#include <math.h>
#include <string.h>

#include "app/hud_text.h"
#include "app/layout.h"

float layout_plot_width(const app* a)
{
    float w = 420.0f * a->ui_scale;
    return w > 0.45f * (float)a->fb_w ? 0.45f * (float)a->fb_w : w;
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

void app_fit_view(app* a)
{
    cs_vec2 lo = {-1.0, -1.0}, hi = {1.0, 1.0};
    if (a->world != NULL && (cs_world_body_count(a->world) > 0 || cs_world_wall_count(a->world) > 0))
    {
        cs_world_bounds(a->world, &lo, &hi);
    }
    // Fit into the part of the window the plot panel leaves free, then widen the view to the window.
    int reserved = a->show_plot ? (int)(layout_plot_width(a) + 16.0f * a->ui_scale) : 0;
    int width = a->fb_w - reserved > a->fb_w / 2 ? a->fb_w - reserved : a->fb_w / 2;
    render_view_fit(&a->view, lo, hi, width, a->fb_h, 0.05);
    // Content narrow enough to pass beside the HUD (a stack, a pool in a wide window) is centred in the
    // space between the HUD and the plot instead of under the HUD.
    double left = layout_hud_right(a);
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
