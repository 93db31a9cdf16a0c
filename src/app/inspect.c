#include "app/inspect.h"

#include <math.h>
#include <stdio.h>

#include "app/panel.h"
#include "app/pick.h"

#define TIP_FILL RENDER_RGBA(255, 250, 225, 240)
#define TIP_TEXT RENDER_RGBA(20, 20, 20, 255)
#define TIP_EDGE RENDER_RGBA(150, 150, 150, 255)
#define PICK_PX  6.0 // a contact is under the mouse within this many pixels of its point

// The contact nearest to p within `reach` metres, or -1.
static int pick_contact(const cs_world* w, cs_vec2 p, double reach)
{
    int best = -1;
    double best_d = reach;
    for (int k = 0; k < cs_world_contact_count(w); ++k)
    {
        cs_contact_info c = cs_world_contact(w, k);
        double d = hypot(c.point.x - p.x, c.point.y - p.y);
        if (d <= best_d)
        {
            best = k;
            best_d = d;
        }
    }
    return best;
}

bool inspect_text(app* a, double x, double y, char* out, size_t size)
{
    if (a->world == NULL || panel_covers(a, x, y))
    {
        return false;
    }
    int pane = layout_pane_at(a, x, y);
    const cs_world* w = app_pane_world(a, pane);
    cs_vec2 p = layout_to_world(a, x, y);
    char prefix[16] = "";
    if (a->pane_count > 1)
    {
        app_format(prefix, sizeof prefix, "pane %d  ", pane + 1);
    }
    int k = pick_contact(w, p, PICK_PX / a->view.scale);
    if (k >= 0)
    {
        cs_contact_info c = cs_world_contact(w, k);
        char who[48];
        if (c.body_a >= 0)
        {
            app_format(who, sizeof who, "bodies %d–%d", c.body_a, c.body_b);
        }
        else
        {
            app_format(who, sizeof who, "wall %d–body %d", c.wall, c.body_b);
        }
        return app_format(out, size, "%scontact %s  λn %.3e  λt %.3e N·s  gap %.2e m", prefix, who,
                          c.normal_impulse, c.friction_impulse, c.gap);
    }
    int b = pick_body_at(w, p);
    if (b >= 0)
    {
        cs_body_state s = cs_world_body(w, b);
        return app_format(out, size, "%sbody %d  v (%.3f, %.3f) m/s  ω %.3f rad/s  r %.3g m  m %.3g kg",
                          prefix, b, s.velocity.x, s.velocity.y, s.angular_velocity, s.radius, s.mass);
    }
    return false;
}

static void draw_hover(app* a)
{
    char text[256];
    if (!inspect_text(a, a->mouse_x, a->mouse_y, text, sizeof text))
    {
        return;
    }
    render_context* r = a->renderer;
    float pad = 5.0f * a->ui_scale;
    float w = render_ui_text_width(r, text) + 2.0f * pad;
    float h = render_ui_line_height(r) + 2.0f * pad;
    float x = (float)a->mouse_x + 14.0f * a->ui_scale;
    float y = (float)a->mouse_y + 14.0f * a->ui_scale;
    x = x + w > (float)a->fb_w ? (float)a->fb_w - w : x;
    y = y + h > (float)a->fb_h ? (float)a->mouse_y - h - 4.0f : y;
    render_ui_rect(r, x, y, w, h, TIP_EDGE);
    render_ui_rect(r, x + 1.0f, y + 1.0f, w - 2.0f, h - 2.0f, TIP_FILL);
    render_ui_text(r, x + pad, y + pad, TIP_TEXT, text);
}

// A gradient bar with its ends named.
static void draw_scale(app* a)
{
    const char* title;
    const char* lo;
    const char* hi;
    uint32_t (*color)(double);
    switch (a->color_mode)
    {
        case RENDER_COLOR_IMPULSE:
            title = "body colour: largest contact impulse / (m g h)";
            lo = "≤ 1";
            hi = "≥ 32";
            color = render_impulse_color;
            break;
        case RENDER_COLOR_VALUE:
            title = "body colour: distance from pane 1 / radius";
            lo = "≤ 1e-9";
            hi = "≥ 1";
            color = render_value_color;
            break;
        default:
            return; // mass: the light-to-dark tone says lighter or heavier, nothing to read off
    }
    render_context* r = a->renderer;
    float s = a->ui_scale;
    float lh = render_ui_line_height(r);
    float w = render_ui_text_width(r, title), h = 10.0f * s;
    // Bottom right, under the plot column: panel space, clear of the world.
    float x = (float)a->fb_w - w - 14.0f * s;
    float y = (float)a->fb_h - h - 2.0f * lh;
    render_ui_rect(r, x - 6.0f * s, y - lh - 6.0f * s, w + 12.0f * s, h + 2.0f * lh + 12.0f * s,
                   RENDER_RGBA(255, 255, 255, 220));
    render_ui_text(r, x, y - lh - 2.0f * s, TIP_TEXT, title);
    const int steps = 32;
    for (int i = 0; i < steps; ++i)
    {
        render_ui_rect(r, x + w * (float)i / steps, y, w / steps + 0.5f, h, color((i + 0.5) / steps));
    }
    render_ui_text(r, x, y + h + 2.0f * s, TIP_TEXT, lo);
    render_ui_text(r, x + w - render_ui_text_width(r, hi), y + h + 2.0f * s, TIP_TEXT, hi);
}

void inspect_draw(app* a)
{
    draw_scale(a);
    draw_hover(a);
}
