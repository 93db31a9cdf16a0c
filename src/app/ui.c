#include "app/ui.h"

#include <stdio.h>
#include <string.h>

#define UI_TEXT      RENDER_RGBA(20, 20, 20, 255)
#define UI_PALE      RENDER_RGBA(90, 90, 90, 255)
#define UI_BUTTON    RENDER_RGBA(232, 234, 238, 255)
#define UI_HOVER     RENDER_RGBA(210, 222, 245, 255)
#define UI_SELECTED  RENDER_RGBA(30, 100, 220, 255)
#define UI_ON_TEXT   RENDER_RGBA(255, 255, 255, 255)
#define UI_CHECK_BOX RENDER_RGBA(120, 120, 120, 255)

void ui_begin(ui* u, render_context* r, ui_pass pass, float x, float y, float w, float px, float py)
{
    float s = render_ui_scale(r);
    *u = (ui){.r = r, .pass = pass, .x = x, .y = y, .w = w, .px = px, .py = py};
    u->pad = 3.0f * s;
    u->row = render_ui_line_height(r) + 2.0f * u->pad;
}

void ui_clip(ui* u, float top, float bottom)
{
    u->clip_top = top;
    u->clip_bottom = bottom;
}

// Whether a row from y of height h lies inside the clip band (a scrolled panel shows whole rows only).
static bool shown(const ui* u, float y, float h)
{
    return u->clip_bottom <= 0.0f || (y >= u->clip_top && y + h <= u->clip_bottom);
}

static bool inside(const ui* u, float x, float y, float w, float h)
{
    return u->px >= x && u->px < x + w && u->py >= y && u->py < y + h;
}

static void locate(ui* u, const char* label, float x, float y, float w, float h)
{
    if (!u->found && u->find != NULL && strcmp(label, u->find) == 0)
    {
        u->found = true;
        u->found_shown = shown(u, y, h);
        u->fx = x + 0.5f * w;
        u->fy = y + 0.5f * h;
    }
}

// One box: true when the click lands in it (UI_HIT); drawn with its label centred (UI_DRAW).
static bool box(ui* u, float x, float y, float w, const char* label, bool selected, const char* tip)
{
    float h = u->row - u->pad;
    bool over = inside(u, x, y, w, h);
    if (u->pass == UI_FIND)
    {
        locate(u, label, x, y, w, h);
        return false;
    }
    if (!shown(u, y, h))
    {
        return false;
    }
    if (u->pass == UI_HIT)
    {
        if (over && !u->hit)
        {
            u->hit = true;
            return true;
        }
        return false;
    }
    if (over && tip != NULL)
    {
        u->tip = tip;
    }
    render_ui_rect(u->r, x, y, w, h, selected ? UI_SELECTED : (over ? UI_HOVER : UI_BUTTON));
    float tw = render_ui_text_width(u->r, label);
    render_ui_text(u->r, x + 0.5f * (w - tw), y + 0.5f * u->pad, selected ? UI_ON_TEXT : UI_TEXT, label);
    return false;
}

void ui_label(ui* u, const char* text)
{
    if (u->pass == UI_DRAW && shown(u, u->y, u->row))
    {
        render_ui_text(u->r, u->x, u->y + u->pad, UI_PALE, text);
    }
    u->y += u->row;
}

int ui_buttons(ui* u, const char* const* labels, int n, int selected, const char* tip)
{
    int clicked = -1;
    float gap = u->pad;
    float w = (u->w - gap * (float)(n - 1)) / (float)n;
    for (int i = 0; i < n; ++i)
    {
        if (box(u, u->x + (float)i * (w + gap), u->y, w, labels[i], i == selected, tip))
        {
            clicked = i;
        }
    }
    u->y += u->row;
    return clicked;
}

int ui_stepper(ui* u, const char* name, const char* value, const char* tip)
{
    float bw = u->row * 1.4f;
    float name_w = 0.42f * u->w;
    int step = 0;
    if (u->pass == UI_FIND)
    {
        char minus[96], plus[96];
        snprintf(minus, sizeof minus, "%s −", name);
        snprintf(plus, sizeof plus, "%s +", name);
        locate(u, minus, u->x + name_w, u->y, bw, u->row - u->pad);
        locate(u, plus, u->x + u->w - bw, u->y, bw, u->row - u->pad);
        u->y += u->row;
        return 0;
    }
    if (box(u, u->x + name_w, u->y, bw, "−", false, tip))
    {
        step = -1;
    }
    if (box(u, u->x + u->w - bw, u->y, bw, "+", false, tip))
    {
        step = +1;
    }
    if (u->pass == UI_DRAW && shown(u, u->y, u->row - u->pad))
    {
        render_ui_text(u->r, u->x, u->y + 0.5f * u->pad, UI_TEXT, name);
        float mid = u->x + name_w + bw;
        float span = u->w - name_w - 2.0f * bw;
        float tw = render_ui_text_width(u->r, value);
        render_ui_text(u->r, mid + 0.5f * (span - tw), u->y + 0.5f * u->pad, UI_TEXT, value);
    }
    u->y += u->row;
    return step;
}

bool ui_check(ui* u, const char* name, bool on, const char* tip)
{
    float h = u->row - u->pad;
    bool clicked = false;
    if (u->pass == UI_FIND)
    {
        locate(u, name, u->x, u->y, u->w, h);
    }
    else if (!shown(u, u->y, h))
    {
        // scrolled out of the panel: neither drawn nor clickable
    }
    else if (u->pass == UI_HIT)
    {
        clicked = inside(u, u->x, u->y, u->w, h) && !u->hit;
        u->hit = u->hit || clicked;
    }
    else
    {
        bool over = inside(u, u->x, u->y, u->w, h);
        if (over && tip != NULL)
        {
            u->tip = tip;
        }
        if (over)
        {
            render_ui_rect(u->r, u->x, u->y, u->w, h, UI_HOVER);
        }
        float b = h - 2.0f * u->pad;
        render_ui_rect(u->r, u->x + u->pad, u->y + u->pad, b, b, UI_CHECK_BOX);
        render_ui_rect(u->r, u->x + 2.0f * u->pad, u->y + 2.0f * u->pad, b - 2.0f * u->pad, b - 2.0f * u->pad,
                       on ? UI_SELECTED : UI_BUTTON);
        render_ui_text(u->r, u->x + b + 3.0f * u->pad, u->y + 0.5f * u->pad, UI_TEXT, name);
    }
    u->y += u->row;
    return clicked;
}

void ui_text(ui* u, const char* text)
{
    char line[256] = "";
    const char* p = text;
    float lh = render_ui_line_height(u->r);
    while (*p != '\0')
    {
        // Take words while they fit.
        size_t used = 0;
        line[0] = '\0';
        const char* q = p;
        while (*q != '\0')
        {
            const char* end = strchr(q, ' ');
            size_t len = end != NULL ? (size_t)(end - q) : strlen(q);
            char trial[256];
            snprintf(trial, sizeof trial, "%s%s%.*s", line, used > 0 ? " " : "", (int)len, q);
            if (used > 0 && render_ui_text_width(u->r, trial) > u->w)
            {
                break;
            }
            snprintf(line, sizeof line, "%s", trial);
            used++;
            q += len;
            while (*q == ' ')
            {
                q++;
            }
        }
        if (u->pass == UI_DRAW && shown(u, u->y, lh))
        {
            render_ui_text(u->r, u->x, u->y, UI_PALE, line);
        }
        u->y += lh;
        p = q;
    }
    u->y += u->pad;
}

float ui_height(const ui* u, float top)
{
    return u->y - top;
}
