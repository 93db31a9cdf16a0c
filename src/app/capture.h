// circlesim viewer — writing frames: PNG screenshots (stb_image_write) and MP4 video through an
// ffmpeg pipe, with a PNG frame sequence when ffmpeg is missing.
#ifndef CS_APP_CAPTURE_H
#define CS_APP_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct app_capture
{
    bool recording;
    bool png_sequence; // no ffmpeg: frames go to <path without .mp4>-frames/frame-NNNNNN.png
    FILE* pipe;
    int width, height; // fixed for the whole video (frames of another size are cropped/padded)
    int frames;
    char path[4096];
    unsigned char* frame; // width*height*4 staging buffer
} app_capture;

// Writes RGBA pixels whose rows run bottom-up (OpenGL order) as a top-down PNG.
bool capture_write_png(const char* path, int width, int height, const unsigned char* rgba, char* msg,
                       size_t msg_size);
// Finds ffmpeg: $CIRCLESIM_FFMPEG when set (empty or missing file: none), else on $PATH.
bool capture_find_ffmpeg(char* out, size_t out_size);
bool capture_record_start(app_capture* c, const char* path, int width, int height, int fps, char* msg,
                          size_t msg_size);
bool capture_record_frame(app_capture* c, const unsigned char* rgba, int width, int height, char* msg,
                          size_t msg_size);
// Closes the pipe and checks ffmpeg's exit status.
bool capture_record_stop(app_capture* c, char* msg, size_t msg_size);
// mkdir -p for the directory part of path (or path itself when is_dir).
bool capture_make_dirs(const char* path, bool is_dir);

#endif
