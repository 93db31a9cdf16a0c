// The engine in the viewer (issue 16): Delete removes the hovered circle (in every pane) and everything
// after it — drawing, hovering, the duel, the mouse — works by id; A and B switch sleeping and continuous
// collision; a right-drag casts a ray and draws its hit and normal; static circles are grey, kinematic ones
// outlined, sleeping ones dimmed, joints shaded by their force, and hits flash. Real pixels through Mesa.
#include "viewer_test.h"

#include "app/inspect.h"

static app a;

static void start(const char* scene, int w, int h)
{
    viewer_start(&a, scene, w, h, NULL);
    a.show_hud = false; // the world alone takes the mouse (test_panel.c covers the panels)
    app_set_show_plot(&a, false);
    app_fit_view(&a);
}

// Where world point p is on the screen, in pane `pane`.
static void screen_of(cs_vec2 p, int pane, int* x, int* y)
{
    layout_rect r = layout_pane_rect(&a, pane);
    double px, py;
    render_view_to_screen(&a.view, p, &px, &py);
    *x = (int)lround(px + (a.pane_count > 1 ? r.x : 0.0));
    *y = (int)lround(py + (a.pane_count > 1 ? r.y : 0.0));
}

static void hover_body(int id, int pane)
{
    int x, y;
    screen_of(cs_world_body(app_pane_world(&a, pane), id).position, pane, &x, &y);
    push_mouse_motion(x, y);
    app_frame(&a);
}

static bool near_rgb(const unsigned char* c, int r, int g, int b, int tol)
{
    bool near = c != NULL && abs(c[0] - r) <= tol && abs(c[1] - g) <= tol && abs(c[2] - b) <= tol;
    if (!near && c != NULL)
    {
        print_message("pixel (%d, %d, %d), looked for (%d, %d, %d)\n", c[0], c[1], c[2], r, g, b);
    }
    return near;
}

// A body's fill, clear of its radius line (drawn from the centre along its angle, 0 here).
static void fill_point(int id, int* x, int* y)
{
    cs_body_state b = cs_world_body(a.world, id);
    screen_of((cs_vec2){b.position.x, b.position.y + 0.5 * b.radius}, 0, x, y);
}

// Remove a body mid-duel: both panes lose it, ids of the others stay, and the body with the highest id is
// still drawn, hovered and compared (a loop over 0..count-1 would miss it and read the removed one).
static void test_remove_hovered_then_draw_hover_duel(void** state)
{
    (void)state;
    start("scenes/stacking.json", 640, 480);
    viewer_frames(&a, 5);
    push_key(SDLK_d, KMOD_NONE);
    app_frame(&a);
    assert_int_equal(a.pane_count, 2);
    a.paused = true;
    app_frame(&a);
    int n = cs_world_body_count(a.world);
    int last = cs_world_body_id(a.world, n - 1);
    hover_body(10, 0);
    push_key(SDLK_DELETE, KMOD_NONE);
    app_frame(&a);
    for (int p = 0; p < 2; ++p)
    {
        assert_false(cs_world_body_alive(app_pane_world(&a, p), 10));
        assert_int_equal(cs_world_body_count(app_pane_world(&a, p)), n - 1);
        assert_true(cs_world_body_alive(app_pane_world(&a, p), last));
    }
    // Per-body arrays in iteration order are indexed through cs_world_body_index (the impulse colouring).
    for (int k = 0; k < n - 1; ++k)
    {
        assert_int_equal(cs_world_body_index(a.world, cs_world_body_id(a.world, k)), k);
    }
    assert_int_equal(cs_world_body_index(a.world, 10), -1);
    a.color_mode = RENDER_COLOR_IMPULSE;
    app_frame(&a);
    // Hover the last id, in the second pane too.
    for (int p = 0; p < 2; ++p)
    {
        hover_body(last, p);
        char text[256], want[32];
        int x, y;
        screen_of(cs_world_body(app_pane_world(&a, p), last).position, p, &x, &y);
        assert_true(inspect_text(&a, x, y, text, sizeof text));
        snprintf(want, sizeof want, "body %d ", last);
        if (strstr(text, want) == NULL)
        {
            fail_msg("hover over body %d in pane %d says '%s'", last, p + 1, text);
        }
    }
    // Drawn: every body alive in each pane (the one draw call holds n - 1 circles).
    assert_int_equal(render_last_stats(a.renderer)->bodies_drawn, n - 1);
    unsigned char* rgba = viewer_pixels(&a);
    int x, y;
    screen_of(cs_world_body(a.world, last).position, 0, &x, &y);
    assert_false(is_background(pixel_at(&a, rgba, x, y)));
    free(rgba);
    // The duel goes on in lockstep, coloured by divergence, with the mouse spring on a body by id.
    a.color_mode = RENDER_COLOR_VALUE;
    a.paused = false;
    hover_body(last, 0);
    screen_of(cs_world_body(a.world, last).position, 0, &x, &y);
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, x, y);
    viewer_frames(&a, 20);
    assert_int_equal(a.grab_body, last);
    push_mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, x, y);
    viewer_frames(&a, 10);
    assert_string_equal(a.error, "");
    assert_true(cs_world_health(a.world)->ok);
    assert_int_equal(cs_world_stats(a.world)->step, cs_world_stats(app_pane_world(&a, 1))->step);
    // A grabbed body that is removed lets go.
    hover_body(last, 0);
    screen_of(cs_world_body(a.world, last).position, 0, &x, &y);
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, x, y);
    app_frame(&a);
    assert_int_equal(a.grab_body, last);
    push_key(SDLK_BACKSPACE, KMOD_NONE);
    viewer_frames(&a, 3);
    assert_int_equal(a.grab_body, -1);
    assert_false(cs_world_body_alive(a.world, last));
    assert_int_equal(cs_world_body_count(app_pane_world(&a, 1)), n - 2);
    app_shutdown(&a);
}

static void test_keys_switch_sleeping_and_continuous(void** state)
{
    (void)state;
    start("scenes/stacking.json", 320, 240);
    assert_false(cs_world_sleeping_enabled(a.world));
    assert_true(cs_world_continuous_enabled(a.world));
    push_key(SDLK_a, KMOD_NONE);
    push_key(SDLK_b, KMOD_NONE);
    app_frame(&a);
    assert_true(cs_world_sleeping_enabled(a.world));
    assert_false(cs_world_continuous_enabled(a.world));
    push_key(SDLK_a, KMOD_NONE);
    push_key(SDLK_b, KMOD_NONE);
    app_frame(&a);
    assert_false(cs_world_sleeping_enabled(a.world));
    assert_true(cs_world_continuous_enabled(a.world));
    app_shutdown(&a);
}

// A right-drag from the left of the top circle, level with its centre: the ray meets it at its leftmost
// point with the normal pointing back along the ray (closed form); both are drawn.
static void test_right_drag_casts_a_ray(void** state)
{
    (void)state;
    start("scenes/stacking.json", 640, 480);
    viewer_frames(&a, 2);
    a.paused = true;
    app_frame(&a);
    int top = cs_world_body_id(a.world, cs_world_body_count(a.world) - 1);
    cs_body_state b = cs_world_body(a.world, top);
    int x0, y0, x1, y1;
    screen_of((cs_vec2){b.position.x - 6.0 * b.radius, b.position.y}, 0, &x0, &y0);
    screen_of((cs_vec2){b.position.x + 6.0 * b.radius, b.position.y}, 0, &x1, &y1);
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_RIGHT, x0, y0);
    push_mouse_motion((x0 + x1) / 2, y0);
    push_mouse_motion(x1, y1);
    push_mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_RIGHT, x1, y1);
    app_frame(&a);
    assert_false(a.panning);
    assert_true(a.has_ray && a.ray_found);
    assert_int_equal(a.ray_hit.body, top);
    assert_int_equal(a.ray_hit.wall, -1);
    // The pixel grid rounds the drag's ends: the ray runs within half a pixel of the centre's height.
    double px = 1.0 / a.view.scale;
    double dy = a.ray_origin.y - b.position.y;
    double expect_x = b.position.x - sqrt(b.radius * b.radius - dy * dy);
    assert_true(fabs(a.ray_hit.point.x - expect_x) < 1e-9 + 1e-6 * px);
    assert_true(fabs(a.ray_hit.normal.x - (expect_x - b.position.x) / b.radius) < 1e-9);
    assert_true(fabs(dy) <= px);
    unsigned char* rgba = viewer_pixels(&a);
    int hx, hy;
    screen_of(a.ray_hit.point, 0, &hx, &hy);
    const unsigned char* dot = pixel_at(&a, rgba, hx, hy); // the hit point: green, over the ray's teal
    assert_true(dot[1] > dot[2] + 30 && dot[0] < 80);
    // Along the normal arrow, 20 px out: its green over the ray's teal (whose blue is high).
    int ax, ay;
    screen_of((cs_vec2){a.ray_hit.point.x - 20.0 * px, a.ray_hit.point.y}, 0, &ax, &ay);
    const unsigned char* arrow = pixel_at(&a, rgba, ax, ay);
    assert_true(arrow[1] > arrow[2] + 30 && arrow[0] < 80);
    free(rgba);
    // The HUD reads the hit.
    char lines[HUD_MAX_LINES][HUD_LINE_MAX], want[32];
    int count = hud_lines(&a, lines, HUD_MAX_LINES);
    snprintf(want, sizeof want, "ray: body %d at", top);
    bool read = false;
    for (int i = 0; i < count; ++i)
    {
        read = read || strstr(lines[i], want) != NULL;
    }
    assert_true(read);
    // A right-click without a drag clears it.
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_RIGHT, x0, y0);
    push_mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_RIGHT, x0, y0);
    app_frame(&a);
    assert_false(a.has_ray);
    app_shutdown(&a);
}

// One scene with every kind of body: a static circle, a kinematic one, a dynamic ball resting (it sleeps),
// two pendulums on rods (a heavy and a light bob) and a ball dropped 1.2 m (a hit).
static const char* marks_scene(void)
{
    const char* path = cs_test_temp_path("-marks.json");
    FILE* f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"name\": \"marks\", \"world\": {\"sleep\": true},\n"
          " \"walls\": [{\"type\": \"half_plane\", \"point\": [0, 0], \"normal\": [0, 1]}],\n"
          " \"bodies\": [\n"
          "  {\"position\": [-3, 0.5], \"radius\": 0.5, \"type\": \"static\"},\n"
          "  {\"position\": [-1.5, 2], \"radius\": 0.5, \"type\": \"kinematic\"},\n"
          "  {\"position\": [0, 0.5], \"radius\": 0.5, \"mass\": 1},\n"
          "  {\"position\": [1.5, 2.5], \"radius\": 0.3, \"mass\": 10},\n"
          "  {\"position\": [3, 2.5], \"radius\": 0.3, \"mass\": 0.1},\n"
          "  {\"position\": [4.5, 1.5], \"radius\": 0.3, \"mass\": 1}],\n"
          " \"joints\": [{\"body_a\": -1, \"anchor_a\": [1.5, 4], \"body_b\": 3},\n"
          "            {\"body_a\": -1, \"anchor_a\": [3, 4], \"body_b\": 4}]}\n",
          f);
    assert_int_equal(fclose(f), 0);
    return path;
}

static int count_flash(const unsigned char* rgba)
{
    int n = 0;
    for (size_t i = 0; i < (size_t)a.fb_w * (size_t)a.fb_h; ++i)
    {
        const unsigned char* c = rgba + 4 * i;
        n += c[0] > 235 && c[1] > 185 && c[1] < 212 && c[2] < 60; // gold (RENDER_FLASH_COLOR)
    }
    return n;
}

static void test_body_kinds_joints_and_hit_flashes(void** state)
{
    (void)state;
    start(marks_scene(), 640, 400);
    app_frame(&a);
    unsigned char* rgba = viewer_pixels(&a);
    int x, y;
    fill_point(0, &x, &y);
    assert_true(near_rgb(pixel_at(&a, rgba, x, y), 150, 150, 150, 6)); // static: grey
    cs_body_state k = cs_world_body(a.world, 1);
    fill_point(1, &x, &y);
    assert_true(near_rgb(pixel_at(&a, rgba, x, y), 225, 236, 250, 6)); // kinematic: pale inside …
    int edge = 0;
    for (int d = -3; d <= 3; ++d)
    {
        screen_of((cs_vec2){k.position.x + k.radius, k.position.y}, 0, &x, &y);
        edge += near_rgb(pixel_at(&a, rgba, x + d, y), 20, 80, 200, 40);
    }
    assert_true(edge > 0); // … a strong blue outline
    // Joints: lines between the anchors, the heavy bob's red (the most loaded), the light one's grey.
    int red = 0, grey = 0;
    for (int j = 0; j < 2; ++j)
    {
        cs_joint_info info = cs_world_joint(a.world, j);
        cs_vec2 mid = {0.5 * (info.anchor_a.x + info.anchor_b.x), 0.5 * (info.anchor_a.y + info.anchor_b.y)};
        screen_of(mid, 0, &x, &y);
        for (int d = -2; d <= 2; ++d)
        {
            const unsigned char* c = pixel_at(&a, rgba, x + d, y);
            red += j == 0 && c[0] - c[1] > 150;
            grey += j == 1 && !is_background(c) && abs(c[0] - c[1]) < 30;
        }
    }
    assert_true(red > 0 && grey > 0);
    free(rgba);

    // The dropped ball hits the ground: a ring flashes at the contact and fades within APP_FLASH_STEPS.
    int frames = 0;
    while (a.flash_count == 0 && frames++ < 90)
    {
        rgba = viewer_pixels(&a);
        assert_int_equal(count_flash(rgba), 0);
        free(rgba);
        app_frame(&a);
    }
    assert_int_equal(a.flash_count, 1);
    const app_flash* f = &a.flashes[0];
    assert_true(fabs(f->point.x - 4.5) < 1e-6 && fabs(f->point.y) < 0.02);
    rgba = viewer_pixels(&a);
    assert_true(count_flash(rgba) > 20);
    free(rgba);
    viewer_frames(&a, APP_FLASH_STEPS);
    rgba = viewer_pixels(&a);
    assert_int_equal(count_flash(rgba), 0);
    free(rgba);

    // The resting ball sleeps and is drawn paler; A (sleeping off) wakes it and its colour comes back.
    viewer_frames(&a, 60);
    assert_true(cs_world_body_asleep(a.world, 2));
    rgba = viewer_pixels(&a);
    fill_point(2, &x, &y);
    unsigned char asleep[4];
    memcpy(asleep, pixel_at(&a, rgba, x, y), 4);
    free(rgba);
    push_key(SDLK_a, KMOD_NONE);
    app_frame(&a);
    assert_false(cs_world_body_asleep(a.world, 2));
    rgba = viewer_pixels(&a);
    const unsigned char* awake = pixel_at(&a, rgba, x, y);
    // Paler and greyer: toward the ground's grey.
    int sat_asleep = abs(asleep[2] - asleep[0]), sat_awake = abs(awake[2] - awake[0]);
    assert_true(asleep[0] + asleep[1] + asleep[2] > awake[0] + awake[1] + awake[2] + 10);
    assert_true(2 * sat_asleep < sat_awake);
    free(rgba);
    app_shutdown(&a);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_remove_hovered_then_draw_hover_duel),
        cmocka_unit_test(test_keys_switch_sleeping_and_continuous),
        cmocka_unit_test(test_right_drag_casts_a_ray),
        cmocka_unit_test(test_body_kinds_joints_and_hit_flashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
