#include "render/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/gl_util.h"

// Beyond ASCII, the symbols the HUD, help and plots use (Greek letters of the methods, ×, norms…).
static const int extra_codepoints[] = {
    0x00B0, 0x00B1, 0x00B7, 0x00BC, 0x00BD, 0x00D7, 0x0394, 0x03A9, 0x03B1, 0x03B2, 0x03B3,
    0x03B8, 0x03BB, 0x03BC, 0x03C9, 0x2014, 0x2016, 0x2026, 0x2190, 0x2191, 0x2192, 0x2193,
    0x2212, 0x2264, 0x2265, 0x207B, 0x00B9, 0x00B2, 0x00B3, 0x2070, 0x2074, 0x2075, 0x2076,
    0x2077, 0x2078, 0x2079, 0x2080, 0x2081, 0x2082, 0x2022, 0x25CF,
};
#define EXTRA_COUNT ((int)(sizeof extra_codepoints / sizeof extra_codepoints[0]))

static bool bake(text_font* font, float pixel_height)
{
    // Atlas side grows with the size: 95 + ~40 glyphs at 2x horizontal oversampling.
    int size = 256;
    while ((float)size < pixel_height * 24.0f && size < 4096)
    {
        size *= 2;
    }
    unsigned char* pixels = calloc((size_t)size * (size_t)size, 1);
    stbtt_packedchar* ascii = calloc(95, sizeof(stbtt_packedchar));
    stbtt_packedchar* extra = calloc(EXTRA_COUNT, sizeof(stbtt_packedchar));
    if (pixels == NULL || ascii == NULL || extra == NULL)
    {
        free(pixels);
        free(ascii);
        free(extra);
        return false;
    }
    stbtt_pack_context pack;
    bool ok = stbtt_PackBegin(&pack, pixels, size, size, 0, 1, NULL) != 0;
    if (ok)
    {
        stbtt_PackSetOversampling(&pack, 2, 1);
        stbtt_pack_range ranges[2] = {
            {.font_size = pixel_height,
             .first_unicode_codepoint_in_range = 32,
             .num_chars = 95,
             .chardata_for_range = ascii},
            {.font_size = pixel_height,
             .array_of_unicode_codepoints = (int*)extra_codepoints,
             .num_chars = EXTRA_COUNT,
             .chardata_for_range = extra},
        };
        ok = stbtt_PackFontRanges(&pack, font->ttf, 0, ranges, 2) != 0;
        stbtt_PackEnd(&pack);
    }
    if (!ok)
    {
        free(pixels);
        free(ascii);
        free(extra);
        return false;
    }
    stbtt_fontinfo info;
    stbtt_InitFont(&info, font->ttf, stbtt_GetFontOffsetForIndex(font->ttf, 0));
    int ascent, descent, gap;
    stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
    float scale = stbtt_ScaleForPixelHeight(&info, pixel_height);

    if (font->texture == 0)
    {
        glGenTextures(1, &font->texture);
    }
    glBindTexture(GL_TEXTURE_2D, font->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, size, size, 0, GL_RED, GL_UNSIGNED_BYTE, pixels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    free(pixels);

    free(font->chars[0]);
    free(font->chars[1]);
    font->chars[0] = ascii;
    font->chars[1] = extra;
    font->first[0] = 32;
    font->count[0] = 95;
    font->count[1] = EXTRA_COUNT;
    font->range_count = 2;
    font->atlas_size = size;
    font->pixel_height = pixel_height;
    font->ascent = roundf((float)ascent * scale);
    font->line_height = ceilf((float)(ascent - descent + gap) * scale);
    return true;
}

bool text_font_load(text_font* font, const char* ttf_path, float pixel_height, char* err, size_t err_size)
{
    *font = (text_font){0};
    FILE* f = fopen(ttf_path, "rb");
    if (f == NULL)
    {
        snprintf(err, err_size, "%s: cannot open font", ttf_path);
        return false;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    font->ttf = size > 0 ? malloc((size_t)size) : NULL;
    bool ok = font->ttf != NULL && fread(font->ttf, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    stbtt_fontinfo info;
    if (ok)
    {
        ok = stbtt_InitFont(&info, font->ttf, stbtt_GetFontOffsetForIndex(font->ttf, 0)) != 0;
    }
    if (!ok || !bake(font, pixel_height))
    {
        snprintf(err, err_size, "%s: not a usable TrueType font", ttf_path);
        text_font_free(font);
        return false;
    }
    return true;
}

bool text_font_resize(text_font* font, float pixel_height)
{
    if (fabsf(pixel_height - font->pixel_height) < 0.01f)
    {
        return true;
    }
    return bake(font, pixel_height);
}

void text_font_free(text_font* font)
{
    if (font->texture != 0)
    {
        glDeleteTextures(1, &font->texture);
    }
    free(font->ttf);
    free(font->chars[0]);
    free(font->chars[1]);
    *font = (text_font){0};
}

// Decodes one UTF-8 sequence; invalid bytes decode as '?' and advance by one.
static int next_codepoint(const char** s)
{
    const unsigned char* p = (const unsigned char*)*s;
    int cp = '?';
    int len = 1;
    if (p[0] < 0x80)
    {
        cp = p[0];
    }
    else if ((p[0] & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80)
    {
        cp = ((p[0] & 0x1F) << 6) | (p[1] & 0x3F);
        len = 2;
    }
    else if ((p[0] & 0xF0) == 0xE0 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80)
    {
        cp = ((p[0] & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
        len = 3;
    }
    *s += len;
    return cp;
}

// Finds the packed glyph of a codepoint: (range, index), or range -1 when the atlas lacks it.
static const stbtt_packedchar* find_glyph(const text_font* font, int cp, int* range, int* index)
{
    if (cp >= font->first[0] && cp < font->first[0] + font->count[0])
    {
        *range = 0;
        *index = cp - font->first[0];
        return &font->chars[0][*index];
    }
    for (int i = 0; i < font->count[1]; ++i)
    {
        if (extra_codepoints[i] == cp)
        {
            *range = 1;
            *index = i;
            return &font->chars[1][i];
        }
    }
    *range = 0;
    *index = '?' - font->first[0];
    return &font->chars[0][*index];
}

float text_measure(const text_font* font, const char* utf8)
{
    float width = 0.0f;
    while (*utf8 != '\0')
    {
        int range, index;
        const stbtt_packedchar* g = find_glyph(font, next_codepoint(&utf8), &range, &index);
        width += g->xadvance;
    }
    return width;
}

float text_batch_add(text_batch* b, const text_font* font, float x, float y, uint32_t rgba, const char* utf8)
{
    uint8_t c[4];
    gl_rgba_bytes(rgba, c);
    float pen_x = roundf(x);
    float pen_y = roundf(y + font->ascent);
    float start = pen_x;
    while (*utf8 != '\0')
    {
        int range, index;
        int cp = next_codepoint(&utf8);
        find_glyph(font, cp, &range, &index);
        stbtt_aligned_quad q;
        stbtt_GetPackedQuad(font->chars[range], font->atlas_size, font->atlas_size, index, &pen_x, &pen_y, &q,
                            0);
        if (cp == ' ')
        {
            continue;
        }
        if (!gl_grow_array((void**)&b->verts, &b->capacity, b->count + 6, sizeof(text_vertex)))
        {
            break;
        }
        text_vertex quad[6] = {
            {q.x0, q.y0, q.s0, q.t0, {0}}, {q.x1, q.y0, q.s1, q.t0, {0}}, {q.x1, q.y1, q.s1, q.t1, {0}},
            {q.x0, q.y0, q.s0, q.t0, {0}}, {q.x1, q.y1, q.s1, q.t1, {0}}, {q.x0, q.y1, q.s0, q.t1, {0}},
        };
        for (int i = 0; i < 6; ++i)
        {
            memcpy(quad[i].rgba, c, 4);
            b->verts[b->count++] = quad[i];
        }
    }
    return pen_x - start;
}

bool text_batch_init(text_batch* b)
{
    *b = (text_batch){0};
    glGenVertexArrays(1, &b->vao);
    glGenBuffers(1, &b->vbo);
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(text_vertex), (void*)offsetof(text_vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(text_vertex), (void*)offsetof(text_vertex, u));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(text_vertex),
                          (void*)offsetof(text_vertex, rgba));
    glBindVertexArray(0);
    return b->vao != 0 && b->vbo != 0;
}

void text_batch_free(text_batch* b)
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
    *b = (text_batch){0};
}

void text_batch_flush(text_batch* b, const text_font* font, GLuint program, const float* matrix)
{
    if (b->count == 0)
    {
        return;
    }
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "u_view"), 1, GL_FALSE, matrix);
    glUniform1i(glGetUniformLocation(program, "u_atlas"), 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, font->texture);
    glBindVertexArray(b->vao);
    gl_stream_upload(b->vbo, b->verts, (size_t)b->count * sizeof(text_vertex), &b->gpu_bytes);
    glDrawArrays(GL_TRIANGLES, 0, b->count);
    glBindVertexArray(0);
    b->count = 0;
}
