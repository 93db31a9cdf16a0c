// The HUD, the plot panel, the help overlay, the error banner and the status line.
#include <stdio.h>
#include <string.h>

#include "app/app.h"

#define HUD_PANEL    RENDER_RGBA(255, 255, 255, 215)
#define HUD_TEXT     RENDER_RGBA(20, 20, 20, 255)
#define HUD_WARN     RENDER_RGBA(190, 90, 0, 255)
#define ERROR_BANNER RENDER_RGBA(170, 20, 20, 235)
#define ERROR_TEXT   RENDER_RGBA(255, 255, 255, 255)
#define HELP_PANEL   RENDER_RGBA(250, 250, 250, 240)
#define HELP_KEY     RENDER_RGBA(30, 100, 220, 255)

static const char* speed_label(int index)
{
    static const char* labels[APP_SPEED_COUNT] = {"×¼", "×½", "×1", "×2", "×4"};
    return index >= 0 && index < APP_SPEED_COUNT ? labels[index] : "?";
}

int hud_lines(const app* a, char lines[][HUD_LINE_MAX], int max_lines)
{
    int n = 0;
#define LINE(...)                                                                                            \
    do                                                                                                       \
    {                                                                                                        \
        if (n < max_lines)                                                                                   \
        {                                                                                                    \
            app_format(lines[n++], HUD_LINE_MAX, __VA_ARGS__);                                               \
        }                                                                                                    \
    } while (0)

    LINE("scene  %s", a->world != NULL ? a->info.name : "(none)");
    const cs_solver_info* info = cs_solver_at(a->solver);
    char extra[96] = "";
    if (info != NULL)
    {
        size_t used = 0;
        if ((info->flags & CS_SOLVER_USES_ALPHA) != 0)
        {
            used += (size_t)snprintf(extra + used, sizeof extra - used, "  α %.2f", a->params.alpha);
        }
        if ((info->flags & CS_SOLVER_USES_GAMMA) != 0 && used < sizeof extra)
        {
            used += (size_t)snprintf(extra + used, sizeof extra - used, "  γ %.2f", a->params.gamma);
        }
        if ((info->flags & CS_SOLVER_USES_RELAXATION) != 0 && used < sizeof extra)
        {
            app_format(extra + used, sizeof extra - used, "  ω %.2f", a->params.relaxation);
        }
        // pgs-sm, pgs-kz: what one of their iterations is (docs/pgs-sm.md).
        used = strlen(extra);
        if ((info->flags & CS_SOLVER_USES_KGS) != 0 && used < sizeof extra)
        {
            used += (size_t)snprintf(extra + used, sizeof extra - used, "  k_gs %d", a->params.kgs);
        }
        if ((info->flags & CS_SOLVER_USES_KSM) != 0 && used < sizeof extra)
        {
            used += (size_t)snprintf(extra + used, sizeof extra - used, "  k_sm %d", a->params.ksm);
        }
        if ((info->flags & CS_SOLVER_USES_SUBSPACE) != 0 && used < sizeof extra)
        {
            app_format(extra + used, sizeof extra - used, "  %s",
                       cs_subspace_solver_name(a->params.subspace_solver));
        }
    }
    LINE("solver %d/%d %s%s", a->solver + 1, cs_solver_count(), info != NULL ? info->name : "?", extra);
    LINE("iterations %d/step  warm start %s", a->params.iterations, a->params.warm_start ? "on" : "off");
    if (a->world != NULL)
    {
        const cs_step_stats* s = cs_world_stats(a->world);
        LINE("bodies %d  contacts %d  rows %d", cs_world_body_count(a->world), s->contacts, s->rows);
        // "AVX2 lanes" when the sweeps update four rows per instruction (the same results, only faster).
        bool lanes =
            a->params.simd && cs_solver_simd_available() && info != NULL && (info->flags & CS_SOLVER_SIMD);
        LINE("row order %s%s", cs_row_order_name(cs_world_get_def(a->world)->row_order),
             lanes ? "  AVX2 lanes" : "");
        LINE("res_lcp %.3e  res_nat %.3e", s->res_lcp, s->res_nat);
        LINE("step %.2f ms  solver %.2f ms", a->step_ms, a->solver_ms);
        LINE("t %.2f s  step %lld  %.0f FPS", s->time, (long long)s->step, a->fps);
        if (cs_world_get_def(a->world)->frictionless)
        {
            LINE("frictionless");
        }
    }
    LINE("speed %s%s%s", speed_label(a->speed_index), a->paused ? "  PAUSED" : "",
         a->behind ? "  slower than real time" : "");
    if (a->capture.recording)
    {
        LINE("● REC %d frames", a->capture.frames);
    }
    LINE("H: help");
#undef LINE
    return n;
}

float hud_panel_right(app* a)
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

float hud_plot_width(const app* a)
{
    float w = 420.0f * a->ui_scale;
    return w > 0.45f * (float)a->fb_w ? 0.45f * (float)a->fb_w : w;
}

static void draw_plots(app* a)
{
    float s = a->ui_scale;
    float pad = 8.0f * s;
    float w = hud_plot_width(a);
    float h = 170.0f * s;
    if (h > 0.5f * ((float)a->fb_h - 3.0f * pad))
    {
        h = 0.5f * ((float)a->fb_h - 3.0f * pad); // two plots always fit the window's height
    }
    float x = (float)a->fb_w - w - pad;
    render_plot_desc per_step, per_iteration;
    plot_data_describe(&a->plot, &per_step, &per_iteration);
    render_plot(a->renderer, &per_step, x, pad, w, h);
    render_plot(a->renderer, &per_iteration, x, 2.0f * pad + h, w, h);
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
    if (a->show_plot)
    {
        draw_plots(a);
    }
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
