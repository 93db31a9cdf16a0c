// circlesim viewer — circles as instanced quads with a signed-distance fragment shader: every circle
// added between two flushes is drawn by one glDrawArraysInstanced call.
#ifndef CS_RENDER_CIRCLES_H
#define CS_RENDER_CIRCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <epoxy/gl.h>

typedef struct circle_instance
{
    float x, y, radius, angle;
    uint8_t rgba[4];
} circle_instance;

typedef struct circle_style
{
    uint32_t outline;     // outline and radius-line colour
    float outline_px;     // 0: no outline
    float radius_line_px; // 0: no radius line
} circle_style;

typedef struct circle_batch
{
    GLuint vao, quad_vbo, instance_vbo;
    size_t gpu_bytes;
    circle_instance* items;
    int count;
    int capacity;
    int draw_calls; // glDraw* calls issued since init (tests check there is one per flush)
} circle_batch;

bool circle_batch_init(circle_batch* b);
void circle_batch_free(circle_batch* b);
void circle_batch_add(circle_batch* b, float x, float y, float radius, float angle, uint32_t fill);
// Draws the batch: matrix maps world to clip space, pixel is world units per framebuffer pixel.
void circle_batch_flush(circle_batch* b, GLuint program, const float* matrix, float pixel,
                        const circle_style* style);

#endif
