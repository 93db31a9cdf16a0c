// The control panel: synthesised SDL clicks on its widgets change the settings (solver, iterations, warm
// start, friction, scene, duel), clicks on panels never reach the world, and the panel scales with the UI
// while the world view fits the area beside it.
#include "viewer_test.h"

#include "app/inspect.h"
#include "app/panel.h"

static app a;

// Clicks the panel widget labelled `label` as a user would: button down and up at its centre.
static void click(const char* label, Uint16 mod)
{
    double x = 0.0, y = 0.0;
    if (!panel_find(&a, label, &x, &y, NULL))
    {
        fail_msg("no panel widget '%s'", label);
    }
    SDL_SetModState((SDL_Keymod)mod);
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, (int)(x / a.pixel_ratio),
                      (int)(y / a.pixel_ratio));
    push_mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, (int)(x / a.pixel_ratio), (int)(y / a.pixel_ratio));
    app_frame(&a);
    SDL_SetModState(KMOD_NONE);
}

static void start_sized(const char* scene, int w, int h)
{
    viewer_start(&a, scene, w, h, fresh_dir());
    a.show_panel = true; // headless starts without it (K)
    app_request_fit(&a);
    viewer_frames(&a, 2);
}

static void start(const char* scene)
{
    start_sized(scene, 1100, 1100); // tall enough for every widget (test_short_window_scrolls scrolls)
}

static void test_clicks_change_settings(void** state)
{
    (void)state;
    start("scenes/stacking.json");
    int amgs = cs_solver_find("amgs");
    assert_true(amgs >= 0 && a.solver != amgs);
    click("amgs", KMOD_NONE);
    assert_int_equal(a.solver, amgs);
    assert_int_equal(cs_world_solver(a.world), amgs); // pushed into the world

    int k = a.params.iterations;
    click("iterations +", KMOD_NONE);
    assert_int_equal(a.params.iterations, 2 * k);
    assert_int_equal(cs_world_solver_params(a.world)->iterations, 2 * k);

    double alpha = a.params.alpha;
    click("α +", KMOD_NONE); // shown because AMGS uses α
    assert_true(fabs(a.params.alpha - (alpha + 0.1)) < 1e-12);

    bool warm = a.params.warm_start;
    click("warm start", KMOD_NONE);
    assert_true(a.params.warm_start == !warm);

    assert_false(cs_world_get_def(a.world)->frictionless);
    click("friction", KMOD_NONE);
    assert_true(cs_world_get_def(a.world)->frictionless);

    click("key order", KMOD_NONE);
    assert_int_equal(cs_world_get_def(a.world)->row_order, CS_ROW_ORDER_KEY);

    click("impulses", KMOD_NONE);
    assert_true(a.show_impulses);

    click("pause", KMOD_NONE);
    assert_true(a.paused);
    int64_t step = cs_world_stats(a.world)->step;
    click("step", KMOD_NONE);
    assert_int_equal(cs_world_stats(a.world)->step, step + 1);

    click("duel", KMOD_NONE);
    assert_int_equal(a.pane_count, 2);
    click("end duel", KMOD_NONE);
    assert_int_equal(a.pane_count, 1);

    click("pool1", KMOD_NONE); // the scene picker
    assert_string_equal(a.info.name, "pool1");
    app_shutdown(&a);
}

// Shift+click spawns a circle in the world and a left click grabs one: neither happens through a panel.
static void test_panel_clicks_never_reach_the_world(void** state)
{
    (void)state;
    start("scenes/stacking.json");
    a.paused = true;
    int bodies = cs_world_body_count(a.world);
    layout_rect p = layout_panel_rect(&a);
    assert_true(p.w > 0.0f);
    // A blank spot of the panel (its foot) and a widget, with Shift held: no circle appears.
    int x = (int)(p.x + 0.5f * p.w), y = (int)(p.y + p.h - 4.0f);
    SDL_SetModState(KMOD_LSHIFT);
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, x, y);
    push_mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, x, y);
    app_frame(&a);
    SDL_SetModState(KMOD_NONE);
    click("normals", KMOD_LSHIFT);
    assert_int_equal(cs_world_body_count(a.world), bodies);
    assert_false(a.show_normals); // the widget took it
    // The same Shift+click beside the panel does reach the world (the test can fail).
    layout_rect area = layout_world_area(&a);
    SDL_SetModState(KMOD_LSHIFT);
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, (int)(area.x + 0.5f * area.w),
                      (int)(0.2f * area.h));
    app_frame(&a);
    SDL_SetModState(KMOD_NONE);
    assert_int_equal(cs_world_body_count(a.world), bodies + 1);
    app_shutdown(&a);
}

// The world's bounds land inside the free area, whatever the UI scale; the panel grows with the scale.
static void test_panel_scales_and_view_fits_beside_it(void** state)
{
    (void)state;
    float widths[2];
    for (int i = 0; i < 2; ++i)
    {
        start_sized("scenes/pool1.json", 1500, 800);
        a.ui_user = i == 0 ? 1.0f : 1.5f;
        app_frame(&a); // the scale applies with the frame's sizes
        push_key(SDLK_z, KMOD_NONE);
        app_frame(&a);
        layout_rect p = layout_panel_rect(&a);
        layout_rect area = layout_world_area(&a);
        widths[i] = p.w;
        cs_vec2 lo, hi;
        cs_world_bounds(a.world, &lo, &hi);
        double x0, y0, x1, y1;
        render_view_to_screen(&a.view, lo, &x0, &y0);
        render_view_to_screen(&a.view, hi, &x1, &y1);
        assert_true(x0 >= p.x + p.w);
        assert_true(x0 >= area.x && x1 <= area.x + area.w);
        assert_true(y1 >= area.y && y0 <= area.y + area.h);
        app_shutdown(&a);
    }
    assert_true(widths[1] > 1.4f * widths[0]);
}

// Hovering reads the world: a contact's λn, λt and gap, a body's velocity; nothing over a panel.
static void test_hover_reads_contacts_and_bodies(void** state)
{
    (void)state;
    start("scenes/stacking.json");
    viewer_frames(&a, 30);
    a.paused = true;
    app_frame(&a);
    char text[256], want[128];
    cs_contact_info c = cs_world_contact(a.world, 3);
    double x, y;
    render_view_to_screen(&a.view, c.point, &x, &y);
    assert_true(inspect_text(&a, x, y, text, sizeof text));
    snprintf(want, sizeof want, "λn %.3e  λt %.3e N·s  gap %.2e m", c.normal_impulse, c.friction_impulse,
             c.gap);
    if (strstr(text, want) == NULL)
    {
        fail_msg("hover says '%s', expected '%s'", text, want);
    }
    cs_body_state b = cs_world_body(a.world, 5);
    cs_vec2 inside_body = {b.position.x + 0.5 * b.radius, b.position.y};
    render_view_to_screen(&a.view, inside_body, &x, &y);
    assert_true(inspect_text(&a, x, y, text, sizeof text));
    snprintf(want, sizeof want, "body 5  v (%.3f, %.3f) m/s", b.velocity.x, b.velocity.y);
    assert_non_null(strstr(text, want));
    layout_rect p = layout_panel_rect(&a);
    assert_false(inspect_text(&a, p.x + 10.0, p.y + 10.0, text, sizeof text));
    app_shutdown(&a);
}

static void wheel_at(int x, int y, float notches)
{
    push_mouse_motion(x, y);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = (Sint32)notches;
    e.wheel.preciseY = notches;
    assert_int_equal(SDL_PushEvent(&e), 1);
    app_frame(&a);
}

// In an 800x600 window the panel holds less than its content: the widgets below are out of reach until the
// wheel over the panel scrolls them in (the world's zoom untouched), then a synthesised click on one changes
// its setting; the track pages too; the world still fits the free area beside the panel (Z).
static void test_short_window_scrolls(void** state)
{
    (void)state;
    start_sized("scenes/stacking.json", 800, 600);
    a.paused = true;
    layout_rect p = layout_panel_rect(&a);
    assert_true(p.w > 0.0f && p.y + p.h <= (float)a.fb_h);
    double x, y;
    bool shown = true;
    assert_true(panel_find(&a, "pool1", &x, &y, &shown)); // the scene picker, at the foot
    assert_false(shown);
    assert_true(y > p.y + p.h);
    assert_false(panel_find(&a, "pool1", &x, &y, NULL)); // not clickable
    assert_true(panel_find(&a, "continuous", &x, &y, &shown));
    bool reachable = shown;
    // The wheel over the panel scrolls it, a notch at a time, and never zooms the world.
    double scale = a.view.scale;
    int notches = 0;
    while (!(panel_find(&a, "pool1", &x, &y, &shown) && shown) && notches++ < 60)
    {
        wheel_at((int)(p.x + 0.5f * p.w), (int)(p.y + 0.5f * p.h), -1.0f);
    }
    assert_true(shown);
    assert_true(notches > 1);
    assert_true(a.view.scale == scale);
    assert_true(a.panel_scroll > 0.0f);
    // Scrolling further stops at the end of the content.
    float end = a.panel_scroll;
    wheel_at((int)(p.x + 0.5f * p.w), (int)(p.y + 0.5f * p.h), -30.0f);
    float most = a.panel_scroll;
    assert_true(most >= end);
    wheel_at((int)(p.x + 0.5f * p.w), (int)(p.y + 0.5f * p.h), -3.0f);
    assert_true(a.panel_scroll == most);
    click("pool1", KMOD_NONE);
    assert_string_equal(a.info.name, "pool1");
    // Back up with the wheel; the track pages as well (its lower half scrolls down again).
    wheel_at((int)(p.x + 0.5f * p.w), (int)(p.y + 0.5f * p.h), 100.0f);
    assert_true(a.panel_scroll == 0.0f);
    if (!reachable)
    {
        assert_false(panel_find(&a, "continuous", &x, &y, NULL));
    }
    int bx = (int)(p.x + p.w - 3.0f * a.ui_scale), by = (int)(p.y + 0.9f * p.h);
    push_mouse_button(SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, bx, by);
    push_mouse_button(SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, bx, by);
    app_frame(&a);
    assert_true(a.panel_scroll > 0.0f);
    // The sleeping and continuous-collision toggles, reached by scrolling where they are out of view.
    while (!panel_find(&a, "continuous", &x, &y, NULL) && notches++ < 120)
    {
        wheel_at((int)(p.x + 0.5f * p.w), (int)(p.y + 0.5f * p.h), a.panel_scroll > 0.0f ? 1.0f : -1.0f);
    }
    assert_true(cs_world_continuous_enabled(a.world));
    click("continuous", KMOD_NONE);
    assert_false(cs_world_continuous_enabled(a.world));
    while (!panel_find(&a, "sleeping", &x, &y, NULL) && notches++ < 180)
    {
        wheel_at((int)(p.x + 0.5f * p.w), (int)(p.y + 0.5f * p.h), 1.0f);
    }
    click("sleeping", KMOD_NONE);
    assert_true(cs_world_sleeping_enabled(a.world));
    // The world fits the free area beside the panel.
    push_key(SDLK_z, KMOD_NONE);
    app_frame(&a);
    layout_rect area = layout_world_area(&a);
    cs_vec2 lo, hi;
    cs_world_bounds(a.world, &lo, &hi);
    double x0, y0, x1, y1;
    render_view_to_screen(&a.view, lo, &x0, &y0);
    render_view_to_screen(&a.view, hi, &x1, &y1);
    assert_true(x0 >= p.x + p.w && x0 >= area.x && x1 <= area.x + area.w);
    assert_true(y1 >= area.y && y0 <= area.y + area.h);
    app_shutdown(&a);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clicks_change_settings),
        cmocka_unit_test(test_panel_clicks_never_reach_the_world),
        cmocka_unit_test(test_panel_scales_and_view_fits_beside_it),
        cmocka_unit_test(test_hover_reads_contacts_and_bodies),
        cmocka_unit_test(test_short_window_scrolls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
