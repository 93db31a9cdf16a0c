// circlesim viewer — the OpenGL 3.3 renderer: draws a world, UI rectangles, text and plots.
//
// Render knows OpenGL (through libepoxy) and the world's read-only API; it knows nothing of SDL, windows
// or events. The caller owns the GL context and makes it current before calling anything here.
// Frames go into an off-screen framebuffer that render_end_frame copies to the default framebuffer,
// so read-back (screenshots, video, tests) sees exactly what was drawn whatever the window system does.
#ifndef CS_RENDER_H
#define CS_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "circlesim/circlesim.h"

// 0xRRGGBBAA
#define RENDER_RGBA(r, g, b, a)                                                                              \
    (((uint32_t)(r) << 24) | ((uint32_t)(g) << 16) | ((uint32_t)(b) << 8) | (uint32_t)(a))

// The paper's Figures 1-2: dark outlines on white, contacts and normals in pure red.
#define RENDER_BACKGROUND  RENDER_RGBA(255, 255, 255, 255)
#define RENDER_CONTACT_RED RENDER_RGBA(230, 0, 0, 255)

// Camera --------------------------------------------------------------------------------------------
// Pixel coordinates have their origin at the top-left framebuffer corner, y down; world y is up.
typedef struct render_view
{
    double cx, cy; // world point at the framebuffer centre
    double scale;  // framebuffer pixels per metre
    int width;     // framebuffer size in pixels
    int height;
} render_view;

// Fits the box [lower, upper] into a width x height framebuffer leaving margin (fraction of the size).
void render_view_fit(render_view* view, cs_vec2 lower, cs_vec2 upper, int width, int height, double margin);
cs_vec2 render_view_to_world(const render_view* view, double px, double py);
void render_view_to_screen(const render_view* view, cs_vec2 p, double* px, double* py);
// Zooms by factor keeping the world point under pixel (px, py) fixed.
void render_view_zoom_at(render_view* view, double px, double py, double factor);
// Moves the view so the content follows a drag of (dx, dy) pixels.
void render_view_pan(render_view* view, double dx, double dy);
// Keeps the world centre and scale when the framebuffer changes size.
void render_view_resize(render_view* view, int width, int height);

// World drawing -------------------------------------------------------------------------------------
typedef enum render_color_mode
{
    RENDER_COLOR_MASS = 0,    // light → dark blue with the body mass (Pool 2 shows its gradient)
    RENDER_COLOR_IMPULSE = 1, // by the largest normal impulse on the body, in units of its weight
    RENDER_COLOR_VALUE = 2,   // by the caller's per-body values in [0, 1] (options.body_values)
} render_color_mode;

// The colour scales, for legends: t in [0, 1] (impulse: log2 of the load in body weights / 5).
uint32_t render_mass_color(double t);
uint32_t render_impulse_color(double t);
uint32_t render_value_color(double t);

// A hit event to flash: a ring at point, of radius growing and colour fading with age in [0, 1).
typedef struct render_flash
{
    cs_vec2 point;
    double radius;
    double age;
} render_flash;

// The colours of the marks the viewer adds to the world (tests look for them in the pixels).
#define RENDER_FLASH_COLOR    RENDER_RGBA(255, 200, 0, 255)
#define RENDER_RAY_COLOR      RENDER_RGBA(0, 150, 160, 255)
#define RENDER_RAY_HIT_COLOR  RENDER_RGBA(0, 110, 40, 255)
#define RENDER_KINEMATIC_EDGE RENDER_RGBA(20, 80, 200, 255)

typedef struct render_world_options
{
    bool contacts; // small red dots at contact points
    bool normals;  // short red normal segments
    bool impulses; // normal/friction impulse arrows scaled by magnitude
    render_color_mode color_mode;
    int highlight_body; // body grabbed by the mouse (-1: none)
    bool has_target;    // mouse spring target of highlight_body
    cs_vec2 target;
    // RENDER_COLOR_VALUE: one value in [0, 1] per body, in the iteration order (cs_world_body_id) of
    // body_values_world (NULL: of the world drawn); a body that world lacks gets 0.
    const double* body_values;
    const cs_world* body_values_world;
    // Per contact, the colour of its dot and normal (NULL: the paper's red): the graph-colour view.
    const uint32_t* contact_colors;
    // Recent hit events, drawn as rings fading out (render_flash).
    const struct render_flash* flashes;
    int flash_count;
    // A ray cast (the right-drag): drawn from origin to end, with its hit point and normal when it hit.
    bool has_ray;
    cs_vec2 ray_origin, ray_end;
    bool ray_hit;
    cs_ray_hit hit;
    // Pixel rectangle to draw into (origin top-left, y down); w == 0: the whole frame. The view's width
    // and height should be the rectangle's.
    int viewport_x, viewport_y, viewport_w, viewport_h;
} render_world_options;

typedef struct render_context render_context;

// data_dir holds shaders/ and assets/. Returns NULL with a message in err on failure.
render_context* render_create(const char* data_dir, float ui_scale, char* err, size_t err_size);
void render_destroy(render_context* r);

// Starts a frame of width x height framebuffer pixels and clears it; ui_scale is pixels per UI point.
void render_begin_frame(render_context* r, int width, int height, float ui_scale);
void render_world(render_context* r, const cs_world* world, const render_view* view,
                  const render_world_options* options);
// Flushes the UI layer and copies the frame to the default framebuffer (the caller swaps buffers).
void render_end_frame(render_context* r);

// What the last render_world drew (tests check the one-draw-call promise).
typedef struct render_stats
{
    int body_draw_calls; // glDraw* calls that drew bodies (1 whenever there are bodies)
    int bodies_drawn;
    int contacts_drawn;
    int normals_drawn;
} render_stats;

const render_stats* render_last_stats(const render_context* r);

int render_width(const render_context* r);
int render_height(const render_context* r);
float render_ui_scale(const render_context* r);
// Reads the finished frame as RGBA, rows bottom-up (OpenGL order); rgba holds width*height*4 bytes.
bool render_read_pixels(render_context* r, unsigned char* rgba);

// UI layer, in framebuffer pixels (y down). Shapes and text accumulate and are drawn by
// render_ui_flush (shapes first, then text), so call it between overlapping layers.
void render_ui_rect(render_context* r, float x, float y, float w, float h, uint32_t rgba);
void render_ui_line(render_context* r, float x0, float y0, float x1, float y1, float width, uint32_t rgba);
// Draws UTF-8 text with its top-left corner at (x, y); returns the advance in pixels.
float render_ui_text(render_context* r, float x, float y, uint32_t rgba, const char* utf8);
float render_ui_text_width(render_context* r, const char* utf8);
float render_ui_line_height(const render_context* r);
void render_ui_flush(render_context* r);

// Plot panel ----------------------------------------------------------------------------------------
#define RENDER_PLOT_MAX_SERIES 24 // the frozen-step race draws one curve per registered solver

typedef struct render_series
{
    const double* x; // NULL: x = index
    const double* y;
    int count;
    uint32_t rgba;
    const char* label; // legend entry (NULL: none)
} render_series;

typedef struct render_plot_desc
{
    const char* title;
    const char* x_label;
    const char* y_label; // the quantity on the y axis (NULL: none)
    bool log_y;          // values <= 0 or non-finite are skipped (they break the line)
    bool log_x;          // the same for x
    int series_count;
    render_series series[RENDER_PLOT_MAX_SERIES];
} render_plot_desc;

// Draws a framed plot in the rectangle (x, y, w, h) of the UI layer.
void render_plot(render_context* r, const render_plot_desc* plot, float x, float y, float w, float h);

#endif
