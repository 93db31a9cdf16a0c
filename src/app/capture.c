// Screenshots and video: the low-level writers know files and pipes, nothing of the viewer's model
// (capture_actions.c puts them to work for the app).
#include "app/capture.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image_write.h>

#include "app/format.h"

bool capture_make_dirs(const char* path, bool is_dir)
{
    char buf[4096];
    app_format(buf, sizeof buf, "%s", path);
    if (!is_dir)
    {
        char* slash = strrchr(buf, '/');
        if (slash == NULL)
        {
            return true;
        }
        *slash = '\0';
    }
    for (char* p = buf + 1; *p != '\0'; ++p)
    {
        if (*p == '/')
        {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            {
                return false;
            }
            *p = '/';
        }
    }
    return buf[0] == '\0' || mkdir(buf, 0777) == 0 || errno == EEXIST;
}

bool capture_write_png(const char* path, int width, int height, const unsigned char* rgba, char* msg,
                       size_t msg_size)
{
    capture_make_dirs(path, false);
    // glReadPixels rows run bottom-up; PNG rows run top-down.
    stbi_flip_vertically_on_write(1);
    int ok = stbi_write_png(path, width, height, 4, rgba, width * 4);
    stbi_flip_vertically_on_write(0);
    if (!ok)
    {
        app_format(msg, msg_size, "%s: cannot write PNG", path);
        return false;
    }
    app_format(msg, msg_size, "saved %s (%dx%d)", path, width, height);
    return true;
}

bool capture_find_ffmpeg(char* out, size_t out_size)
{
    const char* forced = getenv("CIRCLESIM_FFMPEG");
    if (forced != NULL)
    {
        app_format(out, out_size, "%s", forced);
        return forced[0] != '\0' && access(forced, X_OK) == 0;
    }
    const char* path = getenv("PATH");
    if (path == NULL)
    {
        path = "/usr/local/bin:/usr/bin:/bin";
    }
    while (*path != '\0')
    {
        const char* end = strchr(path, ':');
        size_t len = end != NULL ? (size_t)(end - path) : strlen(path);
        app_format(out, out_size, "%.*s/ffmpeg", (int)len, len > 0 ? path : ".");
        if (access(out, X_OK) == 0)
        {
            return true;
        }
        path += len;
        if (*path == ':')
        {
            path++;
        }
    }
    return false;
}

// Single-quotes s for /bin/sh.
static void shell_quote(const char* s, char* out, size_t out_size)
{
    size_t n = 0;
    if (out_size < 3)
    {
        return;
    }
    out[n++] = '\'';
    for (; *s != '\0' && n + 5 < out_size; ++s)
    {
        if (*s == '\'')
        {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        }
        else
        {
            out[n++] = *s;
        }
    }
    out[n++] = '\'';
    out[n] = '\0';
}

static void sequence_dir(const char* path, char* out, size_t out_size)
{
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".mp4") == 0)
    {
        len -= 4;
    }
    app_format(out, out_size, "%.*s-frames", (int)len, path);
}

bool capture_record_start(app_capture* c, const char* path, int width, int height, int fps, char* msg,
                          size_t msg_size)
{
    if (c->recording)
    {
        app_format(msg, msg_size, "already recording %s", c->path);
        return false;
    }
    free(c->frame);
    *c = (app_capture){0};
    c->frame = malloc((size_t)width * (size_t)height * 4);
    if (c->frame == NULL)
    {
        app_format(msg, msg_size, "out of memory for a %dx%d video", width, height);
        return false;
    }
    c->width = width;
    c->height = height;
    app_format(c->path, sizeof c->path, "%s", path);
    capture_make_dirs(path, false);
    char ffmpeg[4096];
    if (!capture_find_ffmpeg(ffmpeg, sizeof ffmpeg))
    {
        char dir[4096];
        sequence_dir(path, dir, sizeof dir);
        if (!capture_make_dirs(dir, true))
        {
            app_format(msg, msg_size, "%s: cannot create frame directory", dir);
            return false;
        }
        c->png_sequence = true;
        c->recording = true;
        app_format(msg, msg_size, "ffmpeg not found: recording PNG frames into %s/ instead", dir);
        return true;
    }
    // A dying ffmpeg must not kill the viewer with SIGPIPE: the failed write and pclose report it.
    signal(SIGPIPE, SIG_IGN);
    char qffmpeg[4200], qpath[4200], cmd[9000];
    shell_quote(ffmpeg, qffmpeg, sizeof qffmpeg);
    shell_quote(path, qpath, sizeof qpath);
    // Frames arrive bottom-up (vflip); yuv420p needs even sizes (crop) and makes the file playable
    // everywhere (TOOLCHAIN.md).
    app_format(cmd, sizeof cmd,
               "%s -y -loglevel error -f rawvideo -pix_fmt rgba -s %dx%d -r %d -i - "
               "-vf 'vflip,crop=trunc(iw/2)*2:trunc(ih/2)*2' -c:v libx264 -preset veryfast -crf 26 "
               "-pix_fmt yuv420p %s",
               qffmpeg, width, height, fps, qpath);
    c->pipe = popen(cmd, "w");
    if (c->pipe == NULL)
    {
        app_format(msg, msg_size, "cannot start ffmpeg: %s", strerror(errno));
        return false;
    }
    c->recording = true;
    app_format(msg, msg_size, "recording %s (%dx%d)", path, width, height);
    return true;
}

bool capture_record_frame(app_capture* c, const unsigned char* rgba, int width, int height, char* msg,
                          size_t msg_size)
{
    if (!c->recording)
    {
        return true;
    }
    const unsigned char* src = rgba;
    if (width != c->width || height != c->height)
    {
        // The window was resized: keep the video's size, anchored at the top-left corner (rows are
        // bottom-up, so align the top rows), padding with white.
        memset(c->frame, 255, (size_t)c->width * (size_t)c->height * 4);
        int cw = width < c->width ? width : c->width;
        int ch = height < c->height ? height : c->height;
        for (int row = 0; row < ch; ++row)
        {
            const unsigned char* s = rgba + ((size_t)(height - 1 - row) * (size_t)width) * 4;
            unsigned char* d = c->frame + ((size_t)(c->height - 1 - row) * (size_t)c->width) * 4;
            memcpy(d, s, (size_t)cw * 4);
        }
        src = c->frame;
    }
    c->frames++;
    if (c->png_sequence)
    {
        char dir[4096], path[4200];
        sequence_dir(c->path, dir, sizeof dir);
        app_format(path, sizeof path, "%s/frame-%06d.png", dir, c->frames);
        return capture_write_png(path, c->width, c->height, src, msg, msg_size);
    }
    size_t bytes = (size_t)c->width * (size_t)c->height * 4;
    if (fwrite(src, 1, bytes, c->pipe) != bytes)
    {
        app_format(msg, msg_size, "ffmpeg stopped accepting frames (%s)", strerror(errno));
        capture_record_stop(c, msg + strlen(msg), msg_size - strlen(msg));
        return false;
    }
    return true;
}

bool capture_record_stop(app_capture* c, char* msg, size_t msg_size)
{
    if (!c->recording)
    {
        return true;
    }
    bool ok = true;
    c->recording = false;
    if (c->pipe != NULL)
    {
        int status = pclose(c->pipe);
        c->pipe = NULL;
        if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        {
            app_format(msg, msg_size, "; ffmpeg failed (status %d): %s is incomplete", status, c->path);
            ok = false;
        }
        else
        {
            app_format(msg, msg_size, "saved %s (%d frames)", c->path, c->frames);
        }
    }
    else
    {
        app_format(msg, msg_size, "saved %d PNG frames for %s", c->frames, c->path);
    }
    free(c->frame);
    c->frame = NULL;
    return ok;
}
