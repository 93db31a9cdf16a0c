// circlesim viewer — the renderer's private state, shared by renderer.c (frames, UI layer) and
// world_draw.c (bodies, walls, contacts).
#ifndef CS_RENDER_CONTEXT_H
#define CS_RENDER_CONTEXT_H

#include "render/circles.h"
#include "render/lines.h"
#include "render/render.h"
#include "render/text.h"

// Base UI font height in points (multiplied by the HiDPI scale).
#define RENDER_FONT_POINTS 14.0f

struct render_context
{
    GLuint circle_program;
    GLuint line_program;
    GLuint text_program;
    circle_batch circles; // bodies: one instanced draw per frame
    circle_batch dots;    // contact points
    line_batch world_lines;
    line_batch ui_lines;
    text_batch ui_text;
    text_font font;

    GLuint fbo;
    GLuint color_rb;
    int fbo_width;
    int fbo_height;

    int width;
    int height;
    float ui_scale;
    float ui_matrix[16];

    double* body_values; // per-body scratch (impulse sums), grown on demand
    int body_capacity;

    render_stats stats;
};

#endif
