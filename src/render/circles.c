#include "render/circles.h"

#include <stdlib.h>

#include "render/gl_util.h"

bool circle_batch_init(circle_batch* b)
{
    *b = (circle_batch){0};
    static const float corners[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    glGenVertexArrays(1, &b->vao);
    glGenBuffers(1, &b->quad_vbo);
    glGenBuffers(1, &b->instance_vbo);
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->quad_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), (void*)0);
    glBindBuffer(GL_ARRAY_BUFFER, b->instance_vbo);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(circle_instance),
                          (void*)offsetof(circle_instance, x));
    glVertexAttribDivisor(1, 1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(circle_instance),
                          (void*)offsetof(circle_instance, rgba));
    glVertexAttribDivisor(2, 1);
    glBindVertexArray(0);
    return b->vao != 0 && b->quad_vbo != 0 && b->instance_vbo != 0;
}

void circle_batch_free(circle_batch* b)
{
    if (b->quad_vbo != 0)
    {
        glDeleteBuffers(1, &b->quad_vbo);
    }
    if (b->instance_vbo != 0)
    {
        glDeleteBuffers(1, &b->instance_vbo);
    }
    if (b->vao != 0)
    {
        glDeleteVertexArrays(1, &b->vao);
    }
    free(b->items);
    *b = (circle_batch){0};
}

void circle_batch_add(circle_batch* b, float x, float y, float radius, float angle, uint32_t fill)
{
    if (!gl_grow_array((void**)&b->items, &b->capacity, b->count + 1, sizeof(circle_instance)))
    {
        return;
    }
    circle_instance* c = &b->items[b->count++];
    c->x = x;
    c->y = y;
    c->radius = radius;
    c->angle = angle;
    gl_rgba_bytes(fill, c->rgba);
}

void circle_batch_flush(circle_batch* b, GLuint program, const float* matrix, float pixel,
                        const circle_style* style)
{
    if (b->count == 0)
    {
        return;
    }
    uint8_t outline[4];
    gl_rgba_bytes(style->outline, outline);
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "u_view"), 1, GL_FALSE, matrix);
    glUniform1f(glGetUniformLocation(program, "u_pixel"), pixel);
    glUniform4f(glGetUniformLocation(program, "u_outline"), outline[0] / 255.0f, outline[1] / 255.0f,
                outline[2] / 255.0f, outline[3] / 255.0f);
    glUniform1f(glGetUniformLocation(program, "u_outline_px"), style->outline_px);
    glUniform1f(glGetUniformLocation(program, "u_radius_line_px"), style->radius_line_px);
    glBindVertexArray(b->vao);
    gl_stream_upload(b->instance_vbo, b->items, (size_t)b->count * sizeof(circle_instance), &b->gpu_bytes);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 6, b->count);
    b->draw_calls++;
    glBindVertexArray(0);
    b->count = 0;
}
