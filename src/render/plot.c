// A small line-plot panel (render_plot in render.h) drawn with the UI layer: frame, title, log-scale
// y grid with decade labels, x range labels, polylines and a legend.
#include <math.h>
#include <stdio.h>

#include "render/render.h"

#define PANEL_FILL  RENDER_RGBA(255, 255, 255, 235)
#define PANEL_EDGE  RENDER_RGBA(150, 150, 150, 255)
#define GRID_COLOR  RENDER_RGBA(225, 225, 225, 255)
#define LABEL_COLOR RENDER_RGBA(70, 70, 70, 255)
#define TITLE_COLOR RENDER_RGBA(20, 20, 20, 255)

static bool usable(const render_plot_desc* p, const render_series* s, int i)
{
    double x = s->x != NULL ? s->x[i] : (double)i;
    return isfinite(s->y[i]) && (!p->log_y || s->y[i] > 0.0) && (!p->log_x || x > 0.0);
}

static double map_y(const render_plot_desc* p, double y)
{
    return p->log_y ? log10(y) : y;
}

// Where point i sits on the x axis (log10 on a log axis).
static double series_x(const render_plot_desc* p, const render_series* s, int i)
{
    double x = s->x != NULL ? s->x[i] : (double)i;
    return p->log_x ? log10(x) : x;
}

// Data ranges over every usable point; false when there is none.
static bool data_range(const render_plot_desc* p, double* x0, double* x1, double* y0, double* y1)
{
    *x0 = INFINITY;
    *x1 = -INFINITY;
    *y0 = INFINITY;
    *y1 = -INFINITY;
    for (int k = 0; k < p->series_count; ++k)
    {
        const render_series* s = &p->series[k];
        for (int i = 0; i < s->count; ++i)
        {
            if (!usable(p, s, i))
            {
                continue;
            }
            double x = series_x(p, s, i);
            double y = map_y(p, s->y[i]);
            *x0 = fmin(*x0, x);
            *x1 = fmax(*x1, x);
            *y0 = fmin(*y0, y);
            *y1 = fmax(*y1, y);
        }
    }
    if (!(*x0 <= *x1))
    {
        return false;
    }
    if (*x1 - *x0 < 1e-12)
    {
        *x0 -= 1.0;
        *x1 += 1.0;
    }
    if (p->log_y)
    {
        // Whole decades, at least one.
        *y0 = floor(*y0);
        *y1 = ceil(*y1);
        if (*y1 - *y0 < 1.0)
        {
            *y1 = *y0 + 1.0;
        }
    }
    else if (*y1 - *y0 < 1e-12)
    {
        *y0 -= 1.0;
        *y1 += 1.0;
    }
    return true;
}

static void format_y(const render_plot_desc* p, double v, char* out, size_t n)
{
    if (p->log_y)
    {
        snprintf(out, n, "1e%d", (int)lround(v));
    }
    else
    {
        snprintf(out, n, "%.3g", v);
    }
}

// The plot's box on screen and the data ranges it maps (y and x as map_y and series_x give them).
typedef struct plot_area
{
    float left, right, top, bottom;
    double x0, x1, y0, y1;
} plot_area;

// The panel's fill, border and title.
static void draw_frame(render_context* r, const render_plot_desc* p, float x, float y, float w, float h)
{
    float s = render_ui_scale(r);
    render_ui_rect(r, x, y, w, h, PANEL_FILL);
    render_ui_line(r, x, y, x + w, y, 1.0f * s, PANEL_EDGE);
    render_ui_line(r, x, y + h, x + w, y + h, 1.0f * s, PANEL_EDGE);
    render_ui_line(r, x, y, x, y + h, 1.0f * s, PANEL_EDGE);
    render_ui_line(r, x + w, y, x + w, y + h, 1.0f * s, PANEL_EDGE);
    float pad = 6.0f * s;
    render_ui_text(r, x + pad, y + 0.5f * pad, TITLE_COLOR, p->title != NULL ? p->title : "");
}

// Room for the widest y label (decades, or the linear range's ends).
static float y_label_width(render_context* r, const render_plot_desc* p)
{
    float label_w = render_ui_text_width(r, "1e-10");
    double r0, r1, r2, r3;
    if (!p->log_y && data_range(p, &r0, &r1, &r2, &r3))
    {
        char probe[32];
        format_y(p, r2, probe, sizeof probe);
        label_w = fmaxf(label_w, render_ui_text_width(r, probe));
        format_y(p, r3, probe, sizeof probe);
        label_w = fmaxf(label_w, render_ui_text_width(r, probe));
    }
    return label_w;
}

// The horizontal grid with its y labels, the y axis, and the x range's ends with the x axis name.
static void draw_axes(render_context* r, const render_plot_desc* p, const plot_area* a)
{
    float s = render_ui_scale(r);
    float lh = render_ui_line_height(r);
    float pad = 6.0f * s;
    // Grid: at most ~6 labelled horizontal lines.
    double span = a->y1 - a->y0;
    double step = p->log_y ? ceil(span / 6.0) : span / 4.0;
    char label[32];
    for (double v = a->y0; v <= a->y1 + 1e-9; v += step)
    {
        float py = a->bottom - (float)((v - a->y0) / span) * (a->bottom - a->top);
        render_ui_line(r, a->left, py, a->right, py, 1.0f * s, GRID_COLOR);
        format_y(p, v, label, sizeof label);
        render_ui_text(r, a->left - pad - render_ui_text_width(r, label), py - 0.5f * lh, LABEL_COLOR, label);
    }
    render_ui_line(r, a->left, a->top, a->left, a->bottom, 1.0f * s, PANEL_EDGE);
    snprintf(label, sizeof label, "%.4g", p->log_x ? pow(10.0, a->x0) : a->x0);
    render_ui_text(r, a->left, a->bottom + 0.25f * pad, LABEL_COLOR, label);
    snprintf(label, sizeof label, "%.4g", p->log_x ? pow(10.0, a->x1) : a->x1);
    render_ui_text(r, a->right - render_ui_text_width(r, label), a->bottom + 0.25f * pad, LABEL_COLOR, label);
    if (p->x_label != NULL)
    {
        float lw = render_ui_text_width(r, p->x_label);
        render_ui_text(r, 0.5f * (a->left + a->right - lw), a->bottom + 0.25f * pad, LABEL_COLOR, p->x_label);
    }
}

// One series' polyline, broken at unusable points.
static void draw_curve(render_context* r, const render_plot_desc* p, const plot_area* a,
                       const render_series* se)
{
    float s = render_ui_scale(r);
    double span = a->y1 - a->y0;
    bool have_prev = false;
    float prev_x = 0.0f, prev_y = 0.0f;
    for (int i = 0; i < se->count; ++i)
    {
        if (!usable(p, se, i))
        {
            have_prev = false;
            continue;
        }
        float qx = a->left + (float)((series_x(p, se, i) - a->x0) / (a->x1 - a->x0)) * (a->right - a->left);
        float qy = a->bottom - (float)((map_y(p, se->y[i]) - a->y0) / span) * (a->bottom - a->top);
        if (have_prev)
        {
            render_ui_line(r, prev_x, prev_y, qx, qy, 1.6f * s, se->rgba);
        }
        else if (se->count == 1 || i + 1 == se->count || !usable(p, se, i + 1))
        {
            // An isolated point still shows as a short tick.
            render_ui_line(r, qx - 1.5f * s, qy, qx + 1.5f * s, qy, 3.0f * s, se->rgba);
        }
        prev_x = qx;
        prev_y = qy;
        have_prev = true;
    }
}

// Every series' curve, and the labelled ones' legend lines in the strip under the x axis.
static void draw_series(render_context* r, const render_plot_desc* p, const plot_area* a)
{
    float s = render_ui_scale(r);
    float lh = render_ui_line_height(r);
    float pad = 6.0f * s;
    float legend_y = a->bottom + lh + 0.25f * pad;
    for (int k = 0; k < p->series_count; ++k)
    {
        const render_series* se = &p->series[k];
        draw_curve(r, p, a, se);
        if (se->label != NULL)
        {
            float lx = a->left + 20.0f * s;
            render_ui_line(r, lx - 16.0f * s, legend_y + 0.5f * lh, lx - 4.0f * s, legend_y + 0.5f * lh,
                           3.0f * s, se->rgba);
            render_ui_text(r, lx, legend_y, se->rgba, se->label);
            legend_y += lh;
        }
    }
}

// Frame and title, the plot's box (the y labels' room on the left, the legend's strip below), then the axes
// and the series; a box too small draws nothing more, and data with no usable point says so.
void render_plot(render_context* r, const render_plot_desc* p, float x, float y, float w, float h)
{
    float s = render_ui_scale(r);
    float lh = render_ui_line_height(r);
    draw_frame(r, p, x, y, w, h);
    float pad = 6.0f * s;
    plot_area a = {0};
    a.left = x + pad + y_label_width(r, p) + pad;
    a.right = x + w - pad;
    a.top = y + 2.5f * lh + pad; // room for the title, the y axis name and half a label
    int legend_lines = 0;
    for (int k = 0; k < p->series_count; ++k)
    {
        legend_lines += p->series[k].label != NULL;
    }
    // The legend sits in its own strip under the x axis, never over the curves.
    a.bottom = y + h - lh - pad - (float)legend_lines * lh;
    if (p->y_label != NULL)
    {
        render_ui_text(r, x + pad, y + 0.5f * pad + lh, LABEL_COLOR, p->y_label);
    }
    if (a.right - a.left < 10.0f || a.bottom - a.top < 10.0f)
    {
        return;
    }
    if (!data_range(p, &a.x0, &a.x1, &a.y0, &a.y1))
    {
        int samples = 0;
        for (int k = 0; k < p->series_count; ++k)
        {
            samples += p->series[k].count;
        }
        // Zero residuals (no contacts) have no place on a log axis; say so rather than draw nothing.
        render_ui_text(r, a.left + pad, a.top + pad, LABEL_COLOR,
                       samples == 0 ? "no data yet" : (p->log_y ? "all values are 0" : "no finite values"));
        return;
    }
    draw_axes(r, p, &a);
    draw_series(r, p, &a);
}
