#include "render/lines.h"

#include <math.h>
#include <stdlib.h>

#include "render/gl_util.h"

bool line_batch_init(line_batch* b)
{
    *b = (line_batch){0};
    b->units_per_px = 1.0f;
    glGenVertexArrays(1, &b->vao);
    glGenBuffers(1, &b->vbo);
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(line_vertex), (void*)offsetof(line_vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(line_vertex),
                          (void*)offsetof(line_vertex, rgba));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, sizeof(line_vertex),
                          (void*)offsetof(line_vertex, across));
    glBindVertexArray(0);
    return b->vao != 0 && b->vbo != 0;
}

void line_batch_free(line_batch* b)
{
    if (b->vbo != 0)
    {
        glDeleteBuffers(1, &b->vbo);
    }
    if (b->vao != 0)
    {
        glDeleteVertexArrays(1, &b->vao);
    }
    free(b->verts);
    *b = (line_batch){0};
}

static line_vertex* reserve(line_batch* b, int n)
{
    if (!gl_grow_array((void**)&b->verts, &b->capacity, b->count + n, sizeof(line_vertex)))
    {
        return NULL;
    }
    line_vertex* v = b->verts + b->count;
    b->count += n;
    return v;
}

static void set_vertex(line_vertex* v, float x, float y, const uint8_t rgba[4], float across, float half)
{
    v->x = x;
    v->y = y;
    v->rgba[0] = rgba[0];
    v->rgba[1] = rgba[1];
    v->rgba[2] = rgba[2];
    v->rgba[3] = rgba[3];
    v->across = across;
    v->half = half;
}

void line_batch_segment(line_batch* b, float x0, float y0, float x1, float y1, float width_px, uint32_t rgba)
{
    float dx = x1 - x0;
    float dy = y1 - y0;
    float len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.0f) || !isfinite(len))
    {
        return;
    }
    float half = 0.5f * width_px;
    // The quad reaches one pixel beyond the line on each side for the antialiasing ramp.
    float reach = (half + 1.0f) * b->units_per_px;
    float ux = dx / len * reach;
    float uy = dy / len * reach;
    float nx = -uy;
    float ny = ux;
    // Square caps: extend along the line by the half width.
    float cap = half * b->units_per_px / reach;
    float ax = x0 - ux * cap;
    float ay = y0 - uy * cap;
    float bx = x1 + ux * cap;
    float by = y1 + uy * cap;
    uint8_t c[4];
    gl_rgba_bytes(rgba, c);
    line_vertex* v = reserve(b, 6);
    if (v == NULL)
    {
        return;
    }
    float edge = half + 1.0f;
    set_vertex(&v[0], ax + nx, ay + ny, c, edge, half);
    set_vertex(&v[1], ax - nx, ay - ny, c, -edge, half);
    set_vertex(&v[2], bx + nx, by + ny, c, edge, half);
    set_vertex(&v[3], bx + nx, by + ny, c, edge, half);
    set_vertex(&v[4], ax - nx, ay - ny, c, -edge, half);
    set_vertex(&v[5], bx - nx, by - ny, c, -edge, half);
}

void line_batch_triangle(line_batch* b, const float xy[6], uint32_t rgba)
{
    uint8_t c[4];
    gl_rgba_bytes(rgba, c);
    line_vertex* v = reserve(b, 3);
    if (v == NULL)
    {
        return;
    }
    for (int i = 0; i < 3; ++i)
    {
        set_vertex(&v[i], xy[2 * i], xy[2 * i + 1], c, 0.0f, 1.0e6f);
    }
}

void line_batch_rect(line_batch* b, float x, float y, float w, float h, uint32_t rgba)
{
    float t0[6] = {x, y, x + w, y, x + w, y + h};
    float t1[6] = {x, y, x + w, y + h, x, y + h};
    line_batch_triangle(b, t0, rgba);
    line_batch_triangle(b, t1, rgba);
}

void line_batch_arrow(line_batch* b, float x0, float y0, float x1, float y1, float width_px, float head_px,
                      uint32_t rgba)
{
    float dx = x1 - x0;
    float dy = y1 - y0;
    float len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.0f) || !isfinite(len))
    {
        return;
    }
    line_batch_segment(b, x0, y0, x1, y1, width_px, rgba);
    float head = head_px * b->units_per_px;
    if (head > 0.5f * len)
    {
        head = 0.5f * len;
    }
    float ux = dx / len * head;
    float uy = dy / len * head;
    // Two barbs at ±30 degrees from the shaft.
    const float c = 0.866f;
    const float s = 0.5f;
    line_batch_segment(b, x1, y1, x1 - (c * ux - s * uy), y1 - (s * ux + c * uy), width_px, rgba);
    line_batch_segment(b, x1, y1, x1 - (c * ux + s * uy), y1 - (-s * ux + c * uy), width_px, rgba);
}

void line_batch_flush(line_batch* b, GLuint program, const float* matrix)
{
    if (b->count == 0)
    {
        return;
    }
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "u_view"), 1, GL_FALSE, matrix);
    glBindVertexArray(b->vao);
    gl_stream_upload(b->vbo, b->verts, (size_t)b->count * sizeof(line_vertex), &b->gpu_bytes);
    glDrawArrays(GL_TRIANGLES, 0, b->count);
    glBindVertexArray(0);
    b->count = 0;
}
