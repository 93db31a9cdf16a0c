// circlesim viewer — text from a TrueType font baked into a single-channel atlas with stb_truetype
// (Debian's -lstb provides the implementation), drawn as textured quads in framebuffer pixels.
#ifndef CS_RENDER_TEXT_H
#define CS_RENDER_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <epoxy/gl.h>
#include <stb_truetype.h>

typedef struct text_font
{
    unsigned char* ttf; // the font file, kept to re-bake at another size
    GLuint texture;
    int atlas_size;
    float pixel_height;
    float ascent;      // pixels above the baseline
    float line_height; // pixels from one line's top to the next
    int range_count;
    stbtt_packedchar* chars[2]; // per range
    int first[2];               // range 0: a contiguous block; range 1: the codepoint list below
    int count[2];
} text_font;

typedef struct text_vertex
{
    float x, y, u, v;
    uint8_t rgba[4];
} text_vertex;

typedef struct text_batch
{
    GLuint vao, vbo;
    size_t gpu_bytes;
    text_vertex* verts;
    int count;
    int capacity;
} text_batch;

// Loads ttf_path and bakes it at pixel_height; err receives one line on failure.
bool text_font_load(text_font* font, const char* ttf_path, float pixel_height, char* err, size_t err_size);
// Re-bakes at a new pixel height (HiDPI scale change).
bool text_font_resize(text_font* font, float pixel_height);
void text_font_free(text_font* font);

bool text_batch_init(text_batch* b);
void text_batch_free(text_batch* b);
// Adds UTF-8 text with its line box's top-left corner at (x, y) (y down); returns the advance.
float text_batch_add(text_batch* b, const text_font* font, float x, float y, uint32_t rgba, const char* utf8);
float text_measure(const text_font* font, const char* utf8);
void text_batch_flush(text_batch* b, const text_font* font, GLuint program, const float* matrix);

#endif
