// Helpers for the viewer tests: an in-process headless viewer (SDL offscreen driver, real GL through
// Mesa), injected SDL events and pixel read-back in screen coordinates.
#ifndef CS_VIEWER_TEST_H
#define CS_VIEWER_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "app/hud_text.h"
#include "app/input.h"
#include "app/layout.h"
#include "app/loop.h"

// Starts a headless viewer on a scene of the source tree (relative path) at w x h pixels.
static inline void viewer_start(app* a, const char* scene, int w, int h, const char* capture_dir)
{
    setenv("SDL_VIDEODRIVER", "offscreen", 0);
    char path[8192];
    if (snprintf(path, sizeof path, "%s", scene[0] == '/' ? scene : cs_test_source_path(scene)) >=
        (int)sizeof path)
    {
        fail_msg("path too long");
    }
    app_config c = {0};
    c.headless = true;
    c.scene = path;
    c.width = w;
    c.height = h;
    c.alpha = NAN;
    c.capture_dir = capture_dir;
    char err[CS_ERROR_MAX] = "";
    if (!app_init(a, &c, err, sizeof err))
    {
        fail_msg("app_init: %s", err);
    }
}

// Starts a headless viewer at w x h running a script (script.h); scene: a path in the source tree, or NULL
// for the default scene; ui_scale as --ui-scale (0: 1).
static inline void viewer_start_script(app* a, const char* scene, const char* script, int w, int h,
                                       double ui_scale, const char* capture_dir)
{
    setenv("SDL_VIDEODRIVER", "offscreen", 0);
    char path[8192];
    snprintf(path, sizeof path, "%s", scene != NULL ? cs_test_source_path(scene) : "");
    app_config c = {0};
    c.headless = true;
    c.scene = scene != NULL ? path : NULL;
    c.script = script;
    c.width = w;
    c.height = h;
    c.ui_scale = ui_scale;
    c.alpha = NAN;
    c.capture_dir = capture_dir;
    char err[CS_ERROR_MAX] = "";
    if (!app_init(a, &c, err, sizeof err))
    {
        fail_msg("app_init: %s", err);
    }
}

static inline void viewer_frames(app* a, int n)
{
    for (int i = 0; i < n; ++i)
    {
        app_frame(a);
    }
}

static inline void push_key(SDL_Keycode key, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.state = SDL_PRESSED;
    e.key.keysym.sym = key;
    e.key.keysym.mod = mod;
    assert_int_equal(SDL_PushEvent(&e), 1);
}

static inline void push_mouse_button(Uint32 type, Uint8 button, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.button.button = button;
    e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.button.x = x;
    e.button.y = y;
    assert_int_equal(SDL_PushEvent(&e), 1);
}

static inline void push_mouse_motion(int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    assert_int_equal(SDL_PushEvent(&e), 1);
}

// The last frame as RGBA, rows bottom-up (caller frees).
static inline unsigned char* viewer_pixels(app* a)
{
    unsigned char* rgba = malloc((size_t)a->fb_w * (size_t)a->fb_h * 4);
    assert_non_null(rgba);
    assert_true(render_read_pixels(a->renderer, rgba));
    return rgba;
}

// Pixel under screen position (px, py) (origin top-left, y down) of a bottom-up frame; NULL outside.
static inline const unsigned char* pixel_at(const app* a, const unsigned char* rgba, double px, double py)
{
    int x = (int)floor(px);
    int y = (int)floor(py);
    if (x < 0 || y < 0 || x >= a->fb_w || y >= a->fb_h)
    {
        return NULL;
    }
    return rgba + ((size_t)(a->fb_h - 1 - y) * (size_t)a->fb_w + (size_t)x) * 4;
}

static inline const unsigned char* world_pixel(const app* a, const unsigned char* rgba, cs_vec2 p)
{
    double px, py;
    render_view_to_screen(&a->view, p, &px, &py);
    return pixel_at(a, rgba, px, py);
}

// The contact red of the paper's figures (and nothing else the viewer draws by default).
static inline bool is_red(const unsigned char* c)
{
    return c != NULL && c[0] > 180 && c[1] < 70 && c[2] < 70;
}

static inline bool is_background(const unsigned char* c)
{
    return c != NULL && c[0] >= 250 && c[1] >= 250 && c[2] >= 250;
}

// Red within one pixel of (px, py): sample positions fall between pixel centres.
static inline bool red_near(const app* a, const unsigned char* rgba, cs_vec2 p)
{
    double px, py;
    render_view_to_screen(&a->view, p, &px, &py);
    for (int dy = -1; dy <= 1; ++dy)
    {
        for (int dx = -1; dx <= 1; ++dx)
        {
            if (is_red(pixel_at(a, rgba, px + dx, py + dy)))
            {
                return true;
            }
        }
    }
    return false;
}

static inline int count_red(const app* a, const unsigned char* rgba)
{
    int n = 0;
    for (size_t i = 0; i < (size_t)a->fb_w * (size_t)a->fb_h; ++i)
    {
        n += is_red(rgba + 4 * i);
    }
    return n;
}

// A fresh empty directory under the build tree.
static inline const char* fresh_dir(void)
{
    const char* dir = cs_test_temp_path("-dir");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    assert_int_equal(system(cmd), 0);
    return dir;
}

// The one file in dir whose name ends in suffix (fails unless exactly one).
static inline void single_file(const char* dir, const char* suffix, char* out, size_t size)
{
    char cmd[8192], listing[8192];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -c -- '%s$'; ls '%s' | grep -- '%s$' | head -1", dir, suffix,
             dir, suffix);
    assert_int_equal(cs_test_run(cmd, listing, sizeof listing), 0);
    int count = atoi(listing);
    if (count != 1)
    {
        fail_msg("%d files ending in %s in %s", count, suffix, dir);
    }
    char* name = strchr(listing, '\n');
    assert_non_null(name);
    name++;
    name[strcspn(name, "\n")] = '\0';
    snprintf(out, size, "%s/%s", dir, name);
}

#endif
