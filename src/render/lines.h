// circlesim viewer — a batch of thick antialiased line segments and filled triangles, one draw call
// per flush. Coordinates are world units or pixels, whatever the flush matrix maps; widths are in
// framebuffer pixels, so units_per_px must match the matrix.
#ifndef CS_RENDER_LINES_H
#define CS_RENDER_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <epoxy/gl.h>

typedef struct line_vertex
{
    float x, y;
    uint8_t rgba[4];
    float across; // signed distance from the line's centre, pixels
    float half;   // half width, pixels (large for filled shapes)
} line_vertex;

typedef struct line_batch
{
    GLuint vao, vbo;
    size_t gpu_bytes;
    line_vertex* verts;
    int count;
    int capacity;
    float units_per_px; // coordinate units per framebuffer pixel for the shapes being added
} line_batch;

bool line_batch_init(line_batch* b);
void line_batch_free(line_batch* b);
// Segment with square caps (thick walls meet without gaps).
void line_batch_segment(line_batch* b, float x0, float y0, float x1, float y1, float width_px, uint32_t rgba);
void line_batch_triangle(line_batch* b, const float xy[6], uint32_t rgba);
// Axis-aligned filled rectangle.
void line_batch_rect(line_batch* b, float x, float y, float w, float h, uint32_t rgba);
// Arrow from (x0, y0) to (x1, y1) with a head of head_px pixels.
void line_batch_arrow(line_batch* b, float x0, float y0, float x1, float y1, float width_px, float head_px,
                      uint32_t rgba);
// Draws everything added since the last flush with the given program and 4x4 column-major matrix.
void line_batch_flush(line_batch* b, GLuint program, const float* matrix);

#endif
