#include "render/gl_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char* read_text_file(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0)
    {
        fclose(f);
        return NULL;
    }
    long size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0)
    {
        fclose(f);
        return NULL;
    }
    char* text = malloc((size_t)size + 1);
    if (text != NULL && fread(text, 1, (size_t)size, f) != (size_t)size)
    {
        free(text);
        text = NULL;
    }
    if (text != NULL)
    {
        text[size] = '\0';
    }
    fclose(f);
    return text;
}

static GLuint compile_stage(GLenum stage, const char* path, char* err, size_t err_size)
{
    char* source = read_text_file(path);
    if (source == NULL)
    {
        snprintf(err, err_size, "%s: cannot read shader", path);
        return 0;
    }
    GLuint shader = glCreateShader(stage);
    const char* sources[1] = {source};
    glShaderSource(shader, 1, sources, NULL);
    glCompileShader(shader);
    free(source);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE)
    {
        char log[1024] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        // The driver's log is multi-line; keep the first line so the message stays one line.
        char* newline = strchr(log, '\n');
        if (newline != NULL)
        {
            *newline = '\0';
        }
        snprintf(err, err_size, "%s: %s", path, log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

GLuint gl_load_program(const char* data_dir, const char* name, char* err, size_t err_size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/shaders/%s.vert.glsl", data_dir, name);
    GLuint vs = compile_stage(GL_VERTEX_SHADER, path, err, err_size);
    if (vs == 0)
    {
        return 0;
    }
    snprintf(path, sizeof path, "%s/shaders/%s.frag.glsl", data_dir, name);
    GLuint fs = compile_stage(GL_FRAGMENT_SHADER, path, err, err_size);
    if (fs == 0)
    {
        glDeleteShader(vs);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE)
    {
        char log[1024] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        char* newline = strchr(log, '\n');
        if (newline != NULL)
        {
            *newline = '\0';
        }
        snprintf(err, err_size, "%s/shaders/%s: link: %s", data_dir, name, log);
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

void gl_stream_upload(GLuint vbo, const void* data, size_t bytes, size_t* gpu_bytes)
{
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    if (bytes > *gpu_bytes)
    {
        size_t grown = *gpu_bytes * 2;
        *gpu_bytes = grown > bytes ? grown : bytes;
    }
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)*gpu_bytes, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, data);
}

bool gl_grow_array(void** items, int* capacity, int need, size_t elem_size)
{
    if (need <= *capacity)
    {
        return true;
    }
    int grown = *capacity < 64 ? 64 : *capacity;
    while (grown < need)
    {
        grown *= 2;
    }
    void* p = realloc(*items, (size_t)grown * elem_size);
    if (p == NULL)
    {
        return false;
    }
    *items = p;
    *capacity = grown;
    return true;
}

void gl_rgba_bytes(uint32_t rgba, uint8_t out[4])
{
    out[0] = (uint8_t)(rgba >> 24);
    out[1] = (uint8_t)(rgba >> 16);
    out[2] = (uint8_t)(rgba >> 8);
    out[3] = (uint8_t)rgba;
}
