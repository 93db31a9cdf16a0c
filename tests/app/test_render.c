// Real pixels: the viewer renders scenes off-screen (Mesa llvmpipe) and the frame is read back and
// checked against the world's own geometry — circles at their projected centres, background away from
// everything, red at every contact point and along every normal, no red once contacts are toggled off.
#include "viewer_test.h"

static app a;

static void start_clean(const char* scene, int w, int h)
{
    viewer_start(&a, scene, w, h, NULL);
    // Only the world: no HUD or plot panels over it.
    a.show_hud = false;
    app_set_show_plot(&a, false);
    app_fit_view(&a);
}

// True when p is at least clearance away from every body and on the free side of every wall.
static bool free_space(const cs_world* w, cs_vec2 p, double clearance)
{
    for (int i = 0; i < cs_world_body_count(w); ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        if (hypot(p.x - b.position.x, p.y - b.position.y) < b.radius + clearance)
        {
            return false;
        }
    }
    for (int i = 0; i < cs_world_wall_count(w); ++i)
    {
        cs_wall wall = cs_world_wall(w, i);
        if (wall.kind == CS_WALL_HALF_PLANE)
        {
            double d = (p.x - wall.p0.x) * wall.normal.x + (p.y - wall.p0.y) * wall.normal.y;
            if (d < clearance)
            {
                return false;
            }
        }
        else
        {
            double ex = wall.p1.x - wall.p0.x, ey = wall.p1.y - wall.p0.y;
            double t = ((p.x - wall.p0.x) * ex + (p.y - wall.p0.y) * ey) / (ex * ex + ey * ey);
            t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
            if (hypot(p.x - wall.p0.x - t * ex, p.y - wall.p0.y - t * ey) < clearance)
            {
                return false;
            }
        }
    }
    return true;
}

static app* current = &a;

// Pixels of the normal-impulse arrow green.
static int count_green(const unsigned char* rgba)
{
    int n = 0;
    for (size_t i = 0; i < (size_t)current->fb_w * (size_t)current->fb_h; ++i)
    {
        const unsigned char* c = rgba + 4 * i;
        n += c[1] > 120 && c[0] < 60 && c[2] < 100;
    }
    return n;
}

static void test_stacking_pixels(void** state)
{
    (void)state;
    start_clean("scenes/stacking.json", 480, 640);
    viewer_frames(&a, 90);
    const cs_world* w = a.world;
    assert_non_null(w);
    int bodies = cs_world_body_count(w);
    int contacts = cs_world_contact_count(w);
    assert_true(bodies > 0);
    assert_true(contacts > 0);
    unsigned char* rgba = viewer_pixels(&a);

    // Every circle is drawn where the world says it is: at the centre we see the circle (fill or the
    // radius line), never the background; half a radius behind the radius line we see the fill, which is
    // blue (mass colouring), not background and not red.
    for (int i = 0; i < bodies; ++i)
    {
        cs_body_state b = cs_world_body(w, i);
        const unsigned char* c = world_pixel(&a, rgba, b.position);
        assert_non_null(c);
        assert_false(is_background(c));
        cs_vec2 behind = {b.position.x - 0.5 * b.radius * cos(b.angle + 0.6),
                          b.position.y - 0.5 * b.radius * sin(b.angle + 0.6)};
        const unsigned char* f = world_pixel(&a, rgba, behind);
        assert_non_null(f);
        assert_false(is_background(f));
        assert_false(is_red(f));
        assert_true(f[2] > f[0] + 30); // blue fill
    }

    // Background wherever nothing is: sample a grid, keep points two radii from bodies and walls.
    double r = cs_world_body(w, 0).radius;
    int checked = 0;
    for (int py = 4; py < a.fb_h; py += 16)
    {
        for (int px = 4; px < a.fb_w; px += 16)
        {
            cs_vec2 p = render_view_to_world(&a.view, px + 0.5, py + 0.5);
            if (free_space(w, p, 2.0 * r))
            {
                const unsigned char* c = pixel_at(&a, rgba, px, py);
                if (!is_background(c))
                {
                    fail_msg("pixel (%d, %d) = (%d, %d, %d) is not background", px, py, c[0], c[1], c[2]);
                }
                checked++;
            }
        }
    }
    assert_true(checked > 100);

    // Red dots at the contact points and red along each normal (drawn over half a radius from the point,
    // towards body b); the other side of the point, into body a, is not red.
    for (int k = 0; k < contacts; ++k)
    {
        cs_contact_info ci = cs_world_contact(w, k);
        assert_true(red_near(&a, rgba, ci.point));
        double rb = cs_world_body(w, ci.body_b).radius;
        cs_vec2 along = {ci.point.x + 0.3 * rb * ci.normal.x, ci.point.y + 0.3 * rb * ci.normal.y};
        assert_true(red_near(&a, rgba, along));
        cs_vec2 against = {ci.point.x - 0.3 * rb * ci.normal.x, ci.point.y - 0.3 * rb * ci.normal.y};
        assert_false(is_red(world_pixel(&a, rgba, against)));
    }
    assert_int_equal(render_last_stats(a.renderer)->contacts_drawn, contacts);
    free(rgba);

    // C hides the dots, V the normals: with both off there is no red at all.
    push_key(SDLK_c, KMOD_NONE);
    app_frame(&a);
    assert_false(a.show_contacts);
    rgba = viewer_pixels(&a);
    int red_normals_only = count_red(&a, rgba);
    assert_true(red_normals_only > 0);
    free(rgba);
    push_key(SDLK_v, KMOD_NONE);
    app_frame(&a);
    assert_false(a.show_normals);
    rgba = viewer_pixels(&a);
    assert_int_equal(count_red(&a, rgba), 0);
    free(rgba);
    // And back on: red again.
    push_key(SDLK_c, KMOD_NONE);
    push_key(SDLK_v, KMOD_NONE);
    app_frame(&a);
    rgba = viewer_pixels(&a);
    assert_true(count_red(&a, rgba) > red_normals_only);
    assert_int_equal(count_green(rgba), 0);
    free(rgba);
    // I adds normal-impulse arrows (green) at the contacts, pointing along the normal (up the stack).
    push_key(SDLK_i, KMOD_NONE);
    app_frame(&a);
    rgba = viewer_pixels(&a);
    assert_true(count_green(rgba) > 10 * cs_world_contact_count(a.world));
    cs_contact_info low = cs_world_contact(a.world, 0);
    for (int k = 1; k < cs_world_contact_count(a.world); ++k)
    {
        cs_contact_info c = cs_world_contact(a.world, k);
        low = c.point.y < low.point.y ? c : low;
    }
    // The bottom contact carries the whole stack: its arrow is capped at four radii, so 1.4 radii
    // up (between the contacts above, which are two radii apart) it is still green.
    double rb = cs_world_body(a.world, low.body_b).radius;
    const unsigned char* c = world_pixel(&a, rgba, (cs_vec2){low.point.x, low.point.y + 1.4 * rb});
    assert_true(c[1] > 120 && c[0] < 60 && c[2] < 100);
    free(rgba);
    app_shutdown(&a);
}

// One instanced draw call for all the circles, however many there are.
static void test_one_draw_call(void** state)
{
    (void)state;
    start_clean("scenes/pool1.json", 400, 300);
    viewer_frames(&a, 3);
    const render_stats* s = render_last_stats(a.renderer);
    assert_int_equal(s->bodies_drawn, cs_world_body_count(a.world));
    assert_true(s->bodies_drawn > 200);
    assert_int_equal(s->body_draw_calls, 1);
    app_shutdown(&a);
}

static double luminance(const unsigned char* c)
{
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

// Pool 2's masses grow with the initial height: colour by mass shows the gradient (heavier is darker);
// M switches to contact-impulse colouring, where the bottom of Stacking (holding 29 circles up) differs
// from the top.
static void test_colour_modes(void** state)
{
    (void)state;
    start_clean("scenes/pool2.json", 400, 400);
    app_frame(&a);
    int light = 0, heavy = 0;
    for (int i = 1; i < cs_world_body_count(a.world); ++i)
    {
        if (cs_world_body(a.world, i).mass < cs_world_body(a.world, light).mass)
        {
            light = i;
        }
        if (cs_world_body(a.world, i).mass > cs_world_body(a.world, heavy).mass)
        {
            heavy = i;
        }
    }
    assert_true(cs_world_body(a.world, heavy).mass > 1.5 * cs_world_body(a.world, light).mass);
    unsigned char* rgba = viewer_pixels(&a);
    cs_body_state bl = cs_world_body(a.world, light), bh = cs_world_body(a.world, heavy);
    // Sample opposite the radius line so the sample is fill.
    cs_vec2 pl = {bl.position.x - 0.5 * bl.radius * cos(bl.angle),
                  bl.position.y - 0.5 * bl.radius * sin(bl.angle)};
    cs_vec2 ph = {bh.position.x - 0.5 * bh.radius * cos(bh.angle),
                  bh.position.y - 0.5 * bh.radius * sin(bh.angle)};
    assert_true(luminance(world_pixel(&a, rgba, pl)) > luminance(world_pixel(&a, rgba, ph)) + 40.0);
    free(rgba);
    app_shutdown(&a);

    start_clean("scenes/stacking.json", 300, 500);
    viewer_frames(&a, 60);
    push_key(SDLK_m, KMOD_NONE);
    app_frame(&a);
    assert_int_equal(a.color_mode, RENDER_COLOR_IMPULSE);
    rgba = viewer_pixels(&a);
    int low = 0, high = 0;
    for (int i = 1; i < cs_world_body_count(a.world); ++i)
    {
        low = cs_world_body(a.world, i).position.y < cs_world_body(a.world, low).position.y ? i : low;
        high = cs_world_body(a.world, i).position.y > cs_world_body(a.world, high).position.y ? i : high;
    }
    cs_body_state b0 = cs_world_body(a.world, low), b1 = cs_world_body(a.world, high);
    cs_vec2 p0 = {b0.position.x - 0.5 * b0.radius * cos(b0.angle),
                  b0.position.y - 0.5 * b0.radius * sin(b0.angle)};
    cs_vec2 p1 = {b1.position.x - 0.5 * b1.radius * cos(b1.angle),
                  b1.position.y - 0.5 * b1.radius * sin(b1.angle)};
    const unsigned char* c0 = world_pixel(&a, rgba, p0);
    const unsigned char* c1 = world_pixel(&a, rgba, p1);
    // Heavily loaded: warm (red channel well above blue); the top carries about its own weight only and
    // stays much cooler.
    assert_true(c0[0] > c0[2] + 60);
    assert_true((int)c0[0] - (int)c0[2] > (int)c1[0] - (int)c1[2] + 60);
    free(rgba);
    app_shutdown(&a);
}

// The HUD and the plot panel draw text and curves (not background) in their corners; the help overlay
// covers the middle.
static void test_hud_plot_help_drawn(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/stacking.json", 800, 500, NULL);
    viewer_frames(&a, 30);
    unsigned char* rgba = viewer_pixels(&a);
    // Dark text pixels in the HUD's top-left box.
    int dark = 0;
    for (int y = 10; y < 80; ++y)
    {
        for (int x = 10; x < 200; ++x)
        {
            const unsigned char* c = pixel_at(&a, rgba, x, y);
            dark += c[0] < 100 && c[1] < 100 && c[2] < 100;
        }
    }
    assert_true(dark > 200);
    // Plot curve colour (current setting: blue) in the top-right panel.
    int curve = 0;
    for (int y = 0; y < a.fb_h / 2; ++y)
    {
        for (int x = a.fb_w / 2; x < a.fb_w; ++x)
        {
            const unsigned char* c = pixel_at(&a, rgba, x, y);
            curve += c[2] > 180 && c[0] < 90 && c[1] > 60 && c[1] < 140;
        }
    }
    assert_true(curve > 50);
    free(rgba);
    push_key(SDLK_h, KMOD_NONE);
    app_frame(&a);
    assert_true(a.show_help);
    rgba = viewer_pixels(&a);
    const unsigned char* mid = pixel_at(&a, rgba, a.fb_w / 2, a.fb_h / 2);
    // The overlay's panel is near-white but not the pure background, or text on it.
    assert_true(mid[0] < 252 || mid[1] < 252 || mid[2] < 252);
    free(rgba);
    app_shutdown(&a);
}

// Stacking 150 at the default zoom has circles ~5 px across: their contact markers and outlines thin out
// with the circle, so the stack reads as circles (mostly body colour), not as a red bar.
static void test_small_circles_stay_readable(void** state)
{
    (void)state;
    viewer_start(&a, "scenes/stacking150.json", 1280, 800, NULL);
    viewer_frames(&a, 5);
    unsigned char* rgba = viewer_pixels(&a);
    int red = 0, body = 0;
    for (int i = 0; i < cs_world_body_count(a.world); ++i)
    {
        cs_body_state b = cs_world_body(a.world, i);
        double r = b.radius * a.view.scale;
        assert_true(r < 4.0); // the case in question: tiny on screen
        double cx, cy;
        render_view_to_screen(&a.view, b.position, &cx, &cy);
        for (int dy = -(int)r; dy <= (int)r; ++dy)
        {
            for (int dx = -(int)r; dx <= (int)r; ++dx)
            {
                const unsigned char* c = pixel_at(&a, rgba, cx + dx, cy + dy);
                red += is_red(c);
                body += c != NULL && c[2] > c[0] + 30; // blue-ish body fill
            }
        }
    }
    free(rgba);
    if (!(body > 3 * red))
    {
        fail_msg("stack pixels: %d body, %d red", body, red);
    }
    app_shutdown(&a);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stacking_pixels),
        cmocka_unit_test(test_one_draw_call),
        cmocka_unit_test(test_colour_modes),
        cmocka_unit_test(test_hud_plot_help_drawn),
        cmocka_unit_test(test_small_circles_stay_readable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
