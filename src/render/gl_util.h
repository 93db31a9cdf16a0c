// circlesim viewer — small OpenGL helpers shared by the render batches: shader programs loaded from
// shaders/*.glsl and streaming vertex buffers.
#ifndef CS_RENDER_GL_UTIL_H
#define CS_RENDER_GL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <epoxy/gl.h>

// Compiles and links data_dir/shaders/<name>.vert.glsl and <name>.frag.glsl. Returns 0 on failure
// with "FILE: compile log" in err.
GLuint gl_load_program(const char* data_dir, const char* name, char* err, size_t err_size);

// Uploads bytes to the bound-later buffer vbo, growing its storage geometrically (*gpu_bytes tracks
// the allocation) and orphaning it otherwise so the driver never waits on the previous draw.
void gl_stream_upload(GLuint vbo, const void* data, size_t bytes, size_t* gpu_bytes);

// Grows a CPU array of elem_size-byte items to hold at least need items. Returns false on failure.
bool gl_grow_array(void** items, int* capacity, int need, size_t elem_size);

// 0xRRGGBBAA → bytes in memory order r, g, b, a (what GL_UNSIGNED_BYTE vertex colours expect).
void gl_rgba_bytes(uint32_t rgba, uint8_t out[4]);

#endif
