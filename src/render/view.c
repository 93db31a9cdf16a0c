// Camera math of render.h: pure arithmetic, no GL, so input handling can use it and tests can check it.
#include <math.h>

#include "render/render.h"

void render_view_fit(render_view* view, cs_vec2 lower, cs_vec2 upper, int width, int height, double margin)
{
    view->width = width > 0 ? width : 1;
    view->height = height > 0 ? height : 1;
    double w = upper.x - lower.x;
    double h = upper.y - lower.y;
    if (!(w > 1e-9) || !isfinite(w))
    {
        w = 1.0;
    }
    if (!(h > 1e-9) || !isfinite(h))
    {
        h = 1.0;
    }
    view->cx = isfinite(lower.x + upper.x) ? 0.5 * (lower.x + upper.x) : 0.0;
    view->cy = isfinite(lower.y + upper.y) ? 0.5 * (lower.y + upper.y) : 0.0;
    double usable = 1.0 - 2.0 * margin;
    double sx = view->width * usable / w;
    double sy = view->height * usable / h;
    view->scale = sx < sy ? sx : sy;
}

cs_vec2 render_view_to_world(const render_view* view, double px, double py)
{
    cs_vec2 p;
    p.x = view->cx + (px - 0.5 * view->width) / view->scale;
    p.y = view->cy - (py - 0.5 * view->height) / view->scale;
    return p;
}

void render_view_to_screen(const render_view* view, cs_vec2 p, double* px, double* py)
{
    *px = 0.5 * view->width + (p.x - view->cx) * view->scale;
    *py = 0.5 * view->height - (p.y - view->cy) * view->scale;
}

void render_view_zoom_at(render_view* view, double px, double py, double factor)
{
    cs_vec2 anchor = render_view_to_world(view, px, py);
    double scale = view->scale * factor;
    // Keep the zoom within what float rendering and the UI can show sensibly.
    if (scale < 1e-3 || scale > 1e6 || !isfinite(scale))
    {
        return;
    }
    view->scale = scale;
    view->cx = anchor.x - (px - 0.5 * view->width) / scale;
    view->cy = anchor.y + (py - 0.5 * view->height) / scale;
}

void render_view_pan(render_view* view, double dx, double dy)
{
    view->cx -= dx / view->scale;
    view->cy += dy / view->scale;
}

void render_view_resize(render_view* view, int width, int height)
{
    view->width = width > 0 ? width : 1;
    view->height = height > 0 ? height : 1;
}
