// Frames, the off-screen target and the UI layer of render.h.
#include <cglm/cglm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/context.h"
#include "render/gl_util.h"

render_context* render_create(const char* data_dir, float ui_scale, char* err, size_t err_size)
{
    render_context* r = calloc(1, sizeof *r);
    if (r == NULL)
    {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    r->ui_scale = ui_scale > 0.0f ? ui_scale : 1.0f;
    r->circle_program = gl_load_program(data_dir, "circle", err, err_size);
    if (r->circle_program != 0)
    {
        r->line_program = gl_load_program(data_dir, "line", err, err_size);
    }
    if (r->line_program != 0)
    {
        r->text_program = gl_load_program(data_dir, "text", err, err_size);
    }
    if (r->text_program == 0)
    {
        render_destroy(r);
        return NULL;
    }
    char font_path[4096];
    snprintf(font_path, sizeof font_path, "%s/assets/DejaVuSansMono.ttf", data_dir);
    if (!text_font_load(&r->font, font_path, RENDER_FONT_POINTS * r->ui_scale, err, err_size))
    {
        render_destroy(r);
        return NULL;
    }
    if (!circle_batch_init(&r->circles) || !circle_batch_init(&r->dots) ||
        !line_batch_init(&r->world_lines) || !line_batch_init(&r->ui_lines) || !text_batch_init(&r->ui_text))
    {
        snprintf(err, err_size, "cannot create OpenGL buffers");
        render_destroy(r);
        return NULL;
    }
    glGenFramebuffers(1, &r->fbo);
    glGenRenderbuffers(1, &r->color_rb);
    return r;
}

void render_destroy(render_context* r)
{
    if (r == NULL)
    {
        return;
    }
    circle_batch_free(&r->circles);
    circle_batch_free(&r->dots);
    line_batch_free(&r->world_lines);
    line_batch_free(&r->ui_lines);
    text_batch_free(&r->ui_text);
    text_font_free(&r->font);
    if (r->fbo != 0)
    {
        glDeleteFramebuffers(1, &r->fbo);
    }
    if (r->color_rb != 0)
    {
        glDeleteRenderbuffers(1, &r->color_rb);
    }
    if (r->circle_program != 0)
    {
        glDeleteProgram(r->circle_program);
    }
    if (r->line_program != 0)
    {
        glDeleteProgram(r->line_program);
    }
    if (r->text_program != 0)
    {
        glDeleteProgram(r->text_program);
    }
    free(r->body_values);
    free(r);
}

static void ensure_target(render_context* r, int width, int height)
{
    if (r->fbo_width == width && r->fbo_height == height)
    {
        return;
    }
    glBindRenderbuffer(GL_RENDERBUFFER, r->color_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->color_rb);
    r->fbo_width = width;
    r->fbo_height = height;
}

void render_begin_frame(render_context* r, int width, int height, float ui_scale)
{
    r->width = width > 0 ? width : 1;
    r->height = height > 0 ? height : 1;
    if (ui_scale > 0.0f && ui_scale != r->ui_scale)
    {
        r->ui_scale = ui_scale;
        text_font_resize(&r->font, RENDER_FONT_POINTS * ui_scale);
    }
    ensure_target(r, r->width, r->height);
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glViewport(0, 0, r->width, r->height);
    uint8_t bg[4];
    gl_rgba_bytes(RENDER_BACKGROUND, bg);
    glClearColor(bg[0] / 255.0f, bg[1] / 255.0f, bg[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_BLEND);
    // Colour blends normally; destination alpha accumulates so read-back frames are opaque.
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    mat4 m;
    glm_ortho(0.0f, (float)r->width, (float)r->height, 0.0f, -1.0f, 1.0f, m);
    memcpy(r->ui_matrix, m, sizeof r->ui_matrix);
    r->ui_lines.units_per_px = 1.0f;
}

void render_ui_flush(render_context* r)
{
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    line_batch_flush(&r->ui_lines, r->line_program, r->ui_matrix);
    text_batch_flush(&r->ui_text, &r->font, r->text_program, r->ui_matrix);
}

void render_end_frame(render_context* r)
{
    render_ui_flush(r);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, r->width, r->height, 0, 0, r->width, r->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

int render_width(const render_context* r)
{
    return r->width;
}

int render_height(const render_context* r)
{
    return r->height;
}

float render_ui_scale(const render_context* r)
{
    return r->ui_scale;
}

const render_stats* render_last_stats(const render_context* r)
{
    return &r->stats;
}

bool render_read_pixels(render_context* r, unsigned char* rgba)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, r->width, r->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    return glGetError() == GL_NO_ERROR;
}

void render_ui_rect(render_context* r, float x, float y, float w, float h, uint32_t rgba)
{
    line_batch_rect(&r->ui_lines, x, y, w, h, rgba);
}

void render_ui_line(render_context* r, float x0, float y0, float x1, float y1, float width, uint32_t rgba)
{
    line_batch_segment(&r->ui_lines, x0, y0, x1, y1, width, rgba);
}

float render_ui_text(render_context* r, float x, float y, uint32_t rgba, const char* utf8)
{
    return text_batch_add(&r->ui_text, &r->font, x, y, rgba, utf8);
}

float render_ui_text_width(render_context* r, const char* utf8)
{
    return text_measure(&r->font, utf8);
}

float render_ui_line_height(const render_context* r)
{
    return r->font.line_height;
}
