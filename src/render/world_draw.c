// Draws a world: half-plane shading, walls, bodies (one instanced draw), the mouse spring, contact
// normals, impulse arrows and contact dots — the look of the AMGS paper's Figures 1 and 2.
#include <cglm/cglm.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/context.h"
#include "render/gl_util.h"

#define WALL_COLOR             RENDER_RGBA(60, 60, 60, 255)
#define SOLID_COLOR            RENDER_RGBA(228, 228, 228, 255)
#define OUTLINE_COLOR          RENDER_RGBA(30, 30, 30, 255)
#define HIGHLIGHT_COLOR        RENDER_RGBA(255, 214, 90, 255)
#define SPRING_COLOR           RENDER_RGBA(90, 90, 90, 255)
#define NORMAL_IMPULSE_COLOR   RENDER_RGBA(0, 150, 60, 255)
#define FRICTION_IMPULSE_COLOR RENDER_RGBA(140, 60, 200, 255)
#define STATIC_COLOR           RENDER_RGBA(150, 150, 150, 255)
#define KINEMATIC_COLOR        RENDER_RGBA(225, 236, 250, 255)
#define JOINT_COLOR            RENDER_RGBA(90, 90, 90, 255)

static uint32_t lerp_color(uint32_t a, uint32_t b, double t)
{
    uint8_t ca[4], cb[4];
    gl_rgba_bytes(a, ca);
    gl_rgba_bytes(b, cb);
    double u = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    uint32_t out = 0;
    for (int i = 0; i < 4; ++i)
    {
        double v = ca[i] + (cb[i] - ca[i]) * u;
        out = (out << 8) | (uint32_t)(v + 0.5);
    }
    return out;
}

// Light blue for the lightest body to deep blue for the heaviest (never red: red means contacts).
uint32_t render_mass_color(double t)
{
    return lerp_color(RENDER_RGBA(205, 222, 246, 255), RENDER_RGBA(38, 84, 168, 255), t);
}

// Pale blue → gold → burnt orange with the supported load (never pure red either).
uint32_t render_impulse_color(double t)
{
    if (t < 0.5)
    {
        return lerp_color(RENDER_RGBA(214, 226, 244, 255), RENDER_RGBA(246, 200, 60, 255), 2.0 * t);
    }
    return lerp_color(RENDER_RGBA(246, 200, 60, 255), RENDER_RGBA(196, 96, 16, 255), 2.0 * t - 2.0 * 0.5);
}

// Grey (0, the same as pane 1) → violet (1, far apart): how far a body diverged between duel panes.
uint32_t render_value_color(double t)
{
    return lerp_color(RENDER_RGBA(225, 225, 225, 255), RENDER_RGBA(120, 40, 200, 255), t);
}

static double gravity_magnitude(const cs_world* world)
{
    const cs_world_def* def = cs_world_get_def(world);
    double g = hypot(def->gravity.x, def->gravity.y);
    return g > 1e-9 ? g : 9.80665;
}

// Per-body fill colours into r->body_values (as doubles holding the t parameter), in the world's
// iteration order: entry k is body cs_world_body_id(world, k).
static bool body_parameters(render_context* r, const cs_world* world, const render_world_options* o,
                            int count)
{
    if (count > r->body_capacity)
    {
        double* p = realloc(r->body_values, (size_t)count * sizeof(double));
        if (p == NULL)
        {
            return false;
        }
        r->body_values = p;
        r->body_capacity = count;
    }
    double* t = r->body_values;
    if (o->color_mode == RENDER_COLOR_VALUE)
    {
        const cs_world* order = o->body_values_world != NULL ? o->body_values_world : world;
        for (int k = 0; k < count; ++k)
        {
            int at = order == world ? k : cs_world_body_index(order, cs_world_body_id(world, k));
            t[k] = o->body_values != NULL && at >= 0 ? o->body_values[at] : 0.0;
        }
        return true;
    }
    if (o->color_mode == RENDER_COLOR_MASS)
    {
        double lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < count; ++k)
        {
            double m = cs_world_body(world, cs_world_body_id(world, k)).mass;
            lo = m < lo ? m : lo;
            hi = m > hi ? m : hi;
        }
        for (int k = 0; k < count; ++k)
        {
            // Equal masses get one calm mid-light tone; otherwise the full gradient.
            double m = cs_world_body(world, cs_world_body_id(world, k)).mass;
            t[k] = hi - lo > 1e-12 * hi ? (m - lo) / (hi - lo) : 0.3;
        }
        return true;
    }
    memset(t, 0, (size_t)count * sizeof(double));
    int contacts = cs_world_contact_count(world);
    for (int c = 0; c < contacts; ++c)
    {
        cs_contact_info info = cs_world_contact(world, c);
        double j = fabs(info.normal_impulse);
        int ka = info.body_a >= 0 ? cs_world_body_index(world, info.body_a) : -1;
        int kb = info.body_b >= 0 ? cs_world_body_index(world, info.body_b) : -1;
        if (ka >= 0 && j > t[ka])
        {
            t[ka] = j;
        }
        if (kb >= 0 && j > t[kb])
        {
            t[kb] = j;
        }
    }
    double weight_impulse = gravity_magnitude(world) * cs_world_get_def(world)->time_step;
    for (int k = 0; k < count; ++k)
    {
        // The largest contact impulse on the body in units of its own weight per step: a body resting
        // alone carries 1 (pale), the bottom of a 30-stack about 30 (deep orange); log scale.
        double mass = cs_world_body(world, cs_world_body_id(world, k)).mass; // 0: static and kinematic
        double v = mass > 0.0 ? t[k] / (mass * weight_impulse) : 0.0;
        t[k] = v > 1.0 ? log2(v) / 5.0 : 0.0;
    }
    return true;
}

// A circle's outline as a ring of segments (kinematic bodies, hit flashes).
static void ring(render_context* r, cs_vec2 c, double radius, float width_px, uint32_t rgba)
{
    const int n = 40;
    for (int i = 0; i < n; ++i)
    {
        double a0 = 6.283185307179586 * i / n, a1 = 6.283185307179586 * (i + 1) / n;
        line_batch_segment(&r->world_lines, (float)(c.x + radius * cos(a0)), (float)(c.y + radius * sin(a0)),
                           (float)(c.x + radius * cos(a1)), (float)(c.y + radius * sin(a1)), width_px, rgba);
    }
}

// Kinematic circles get a strong outline (they move as told and are never pushed).
static void draw_kinematic_edges(render_context* r, const cs_world* world, int count)
{
    for (int k = 0; k < count; ++k)
    {
        int id = cs_world_body_id(world, k);
        if (cs_world_body_type(world, id) == CS_BODY_KINEMATIC)
        {
            cs_body_state b = cs_world_body(world, id);
            ring(r, b.position, b.radius, 3.0f * r->ui_scale, RENDER_KINEMATIC_EDGE);
        }
    }
}

// Hit events as rings that grow from the contact point and fade.
static void draw_flashes(render_context* r, const render_world_options* o)
{
    for (int i = 0; i < o->flash_count; ++i)
    {
        const render_flash* f = &o->flashes[i];
        double age = f->age < 0.0 ? 0.0 : (f->age > 1.0 ? 1.0 : f->age);
        uint32_t c = (RENDER_FLASH_COLOR & 0xffffff00u) | (uint32_t)(255.0 * (1.0 - age) + 0.5);
        ring(r, f->point, f->radius * (0.4 + 0.8 * age), 2.5f * r->ui_scale, c);
    }
}

// The right-drag's ray: the segment, and at its hit the point and the surface normal.
static void draw_ray(render_context* r, const render_world_options* o, float px)
{
    if (!o->has_ray)
    {
        return;
    }
    cs_vec2 end = o->ray_hit ? o->hit.point : o->ray_end;
    line_batch_segment(&r->world_lines, (float)o->ray_origin.x, (float)o->ray_origin.y, (float)end.x,
                       (float)end.y, 1.5f * r->ui_scale, RENDER_RAY_COLOR);
    if (o->ray_hit)
    {
        // A ray cast from inside a circle hits at once with a zero normal: the arrow has no length then.
        double len = 40.0 * r->ui_scale * px;
        line_batch_arrow(&r->world_lines, (float)end.x, (float)end.y, (float)(end.x + len * o->hit.normal.x),
                         (float)(end.y + len * o->hit.normal.y), 2.0f * r->ui_scale, 8.0f * r->ui_scale,
                         RENDER_RAY_HIT_COLOR);
        circle_batch_add(&r->dots, (float)end.x, (float)end.y, 4.0f * r->ui_scale * px, 0.0f,
                         RENDER_RAY_HIT_COLOR);
    }
}

// Joints as lines between their anchors, shaded from grey to red by their impulse (relative to the
// largest of the step).
static void draw_joints(render_context* r, const cs_world* world)
{
    int joints = cs_world_joint_count(world);
    double most = 0.0;
    for (int k = 0; k < joints; ++k)
    {
        most = fmax(most, fabs(cs_world_joint(world, k).impulse));
    }
    for (int k = 0; k < joints; ++k)
    {
        cs_joint_info j = cs_world_joint(world, k);
        if (j.alive)
        {
            double t = most > 0.0 ? fabs(j.impulse) / most : 0.0;
            line_batch_segment(&r->world_lines, (float)j.anchor_a.x, (float)j.anchor_a.y, (float)j.anchor_b.x,
                               (float)j.anchor_b.y, 2.0f * r->ui_scale,
                               lerp_color(JOINT_COLOR, RENDER_CONTACT_RED, t));
        }
    }
}

static void draw_walls(render_context* r, const cs_world* world, const render_view* view, float px)
{
    line_batch* lines = &r->world_lines;
    // Long enough to leave the view from anywhere inside it.
    double reach = 2.0 * hypot(view->width, view->height) / view->scale;
    int walls = cs_world_wall_count(world);
    for (int i = 0; i < walls; ++i)
    {
        cs_wall w = cs_world_wall(world, i);
        if (w.kind != CS_WALL_HALF_PLANE)
        {
            continue;
        }
        double nx = w.normal.x, ny = w.normal.y;
        double tx = -ny, ty = nx;
        // Project the view centre on the boundary so the shading covers the view wherever it is.
        double s = (view->cx - w.p0.x) * tx + (view->cy - w.p0.y) * ty;
        double ox = w.p0.x + s * tx, oy = w.p0.y + s * ty;
        double ax = ox - reach * tx, ay = oy - reach * ty;
        double bx = ox + reach * tx, by = oy + reach * ty;
        float t0[6] = {
            (float)ax, (float)ay, (float)bx, (float)by, (float)(bx - reach * nx), (float)(by - reach * ny)};
        float t1[6] = {(float)ax,
                       (float)ay,
                       (float)(bx - reach * nx),
                       (float)(by - reach * ny),
                       (float)(ax - reach * nx),
                       (float)(ay - reach * ny)};
        line_batch_triangle(lines, t0, SOLID_COLOR);
        line_batch_triangle(lines, t1, SOLID_COLOR);
        line_batch_segment(lines, (float)ax, (float)ay, (float)bx, (float)by, 3.0f * r->ui_scale, WALL_COLOR);
    }
    for (int i = 0; i < walls; ++i)
    {
        cs_wall w = cs_world_wall(world, i);
        if (w.kind == CS_WALL_SEGMENT)
        {
            line_batch_segment(lines, (float)w.p0.x, (float)w.p0.y, (float)w.p1.x, (float)w.p1.y,
                               3.0f * r->ui_scale, WALL_COLOR);
        }
    }
    (void)px;
}

static double contact_radius(const cs_world* world, const cs_contact_info* c)
{
    double rb = c->body_b >= 0 ? cs_world_body(world, c->body_b).radius : 0.0;
    if (c->body_a >= 0)
    {
        double ra = cs_world_body(world, c->body_a).radius;
        return ra < rb ? ra : rb;
    }
    return rb;
}

static void draw_contacts(render_context* r, const cs_world* world, const render_world_options* o, float px)
{
    int contacts = cs_world_contact_count(world);
    double weight_impulse = gravity_magnitude(world) * cs_world_get_def(world)->time_step;
    for (int k = 0; k < contacts; ++k)
    {
        cs_contact_info c = cs_world_contact(world, k);
        double rad = contact_radius(world, &c);
        // 1.6 px, but thinner on circles only a few pixels across (Stacking 150 at the default zoom), so
        // their markers never bury them.
        float width = 1.6f * r->ui_scale;
        float thin = 0.2f * (float)rad / px;
        width = thin < width ? thin : width;
        uint32_t color = o->contact_colors != NULL ? o->contact_colors[k] : RENDER_CONTACT_RED;
        float x = (float)c.point.x, y = (float)c.point.y;
        if (o->normals)
        {
            // Short segment along the normal: half the smaller radius, as in Figures 1-2.
            double len = 0.5 * rad;
            line_batch_segment(&r->world_lines, x, y, (float)(c.point.x + len * c.normal.x),
                               (float)(c.point.y + len * c.normal.y), width, color);
            r->stats.normals_drawn++;
        }
        if (o->impulses && c.body_b >= 0)
        {
            // Half a radius per weight-impulse of body b (m g h), capped at four radii.
            double unit = cs_world_body(world, c.body_b).mass * weight_impulse;
            double ln = fmin(0.5 * rad * c.normal_impulse / unit, 4.0 * rad);
            double lt = fmax(fmin(0.5 * rad * c.friction_impulse / unit, 4.0 * rad), -4.0 * rad);
            double tx = -c.normal.y, ty = c.normal.x;
            line_batch_arrow(&r->world_lines, x, y, (float)(c.point.x + ln * c.normal.x),
                             (float)(c.point.y + ln * c.normal.y), width, 6.0f * r->ui_scale,
                             NORMAL_IMPULSE_COLOR);
            line_batch_arrow(&r->world_lines, x, y, (float)(c.point.x + lt * tx),
                             (float)(c.point.y + lt * ty), width, 6.0f * r->ui_scale, FRICTION_IMPULSE_COLOR);
        }
        if (o->contacts)
        {
            // 2.6 px, but never more than a quarter of the smaller circle: small circles (Stacking 150,
            // the pile) keep their outlines readable under their contact dots at any zoom.
            float dot = 2.6f * r->ui_scale * px;
            dot = dot > 0.25f * (float)rad ? 0.25f * (float)rad : dot;
            circle_batch_add(&r->dots, x, y, dot, 0.0f, color);
            r->stats.contacts_drawn++;
        }
    }
}

// A body's fill: its value's colour (mass, impulse or the caller's value t), grey when static, pale when
// kinematic, faded when asleep; the highlighted body's own colour over all.
static uint32_t body_fill(const cs_world* world, const render_world_options* o, int id, double t)
{
    uint32_t fill = o->color_mode == RENDER_COLOR_MASS    ? render_mass_color(t)
                    : o->color_mode == RENDER_COLOR_VALUE ? render_value_color(t)
                                                          : render_impulse_color(t);
    // Issue 16: static circles grey, kinematic ones pale inside a strong outline
    // (draw_kinematic_edges), sleeping ones faded toward the background.
    cs_body_type type = cs_world_body_type(world, id);
    fill = type == CS_BODY_STATIC ? STATIC_COLOR : (type == CS_BODY_KINEMATIC ? KINEMATIC_COLOR : fill);
    fill = cs_world_body_asleep(world, id) ? lerp_color(fill, SOLID_COLOR, 0.6) : fill;
    if (id == o->highlight_body)
    {
        fill = HIGHLIGHT_COLOR;
    }
    return fill;
}

// Every body's filled circle, outlined as thick as the smallest circle allows; the stats count them.
static void draw_bodies(render_context* r, const cs_world* world, const render_world_options* o, int count,
                        float px, const float* matrix)
{
    if (count <= 0 || !body_parameters(r, world, o, count))
    {
        return;
    }
    for (int k = 0; k < count; ++k)
    {
        int id = cs_world_body_id(world, k);
        cs_body_state b = cs_world_body(world, id);
        circle_batch_add(&r->circles, (float)b.position.x, (float)b.position.y, (float)b.radius,
                         (float)b.angle, body_fill(world, o, id, r->body_values[k]));
    }
    r->stats.bodies_drawn = r->circles.count;
    int before = r->circles.draw_calls;
    // Outlines thin out the same way on tiny circles (the smallest circle sets them).
    double smallest = INFINITY;
    for (int k = 0; k < count; ++k)
    {
        smallest = fmin(smallest, cs_world_body(world, cs_world_body_id(world, k)).radius);
    }
    float outline = 1.3f * r->ui_scale;
    float thin = 0.12f * (float)(smallest / px);
    outline = thin < outline ? thin : outline;
    circle_style style = {OUTLINE_COLOR, outline, outline};
    circle_batch_flush(&r->circles, r->circle_program, matrix, px, &style);
    r->stats.body_draw_calls = r->circles.draw_calls - before;
}

// The view's world-to-clip matrix, relative to the view centre so that float precision is spent near what
// is visible.
static void view_matrix(const render_view* view, float matrix[16])
{
    float hw = (float)(0.5 * view->width / view->scale);
    float hh = (float)(0.5 * view->height / view->scale);
    mat4 m;
    glm_ortho(-hw, hw, -hh, hh, -1.0f, 1.0f, m);
    glm_translate(m, (vec3){(float)-view->cx, (float)-view->cy, 0.0f});
    memcpy(matrix, m, 16 * sizeof *matrix);
}

// Into the pane's viewport (the whole target without one): walls, bodies, the grab's spring, kinematic
// edges, joints, contacts, flashes and the ray, then the contact dots.
void render_world(render_context* r, const cs_world* world, const render_view* view,
                  const render_world_options* o)
{
    memset(&r->stats, 0, sizeof r->stats);
    if (world == NULL)
    {
        return;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    bool pane = o->viewport_w > 0 && o->viewport_h > 0;
    if (pane)
    {
        // GL's viewport origin is bottom-left.
        int gy = r->height - (o->viewport_y + o->viewport_h);
        glViewport(o->viewport_x, gy, o->viewport_w, o->viewport_h);
        glEnable(GL_SCISSOR_TEST);
        glScissor(o->viewport_x, gy, o->viewport_w, o->viewport_h);
    }
    float matrix[16];
    view_matrix(view, matrix);
    float px = (float)(1.0 / view->scale);
    r->world_lines.units_per_px = px;

    draw_walls(r, world, view, px);
    line_batch_flush(&r->world_lines, r->line_program, matrix);
    int count = cs_world_body_count(world);
    draw_bodies(r, world, o, count, px, matrix);

    if (o->has_target && cs_world_body_alive(world, o->highlight_body))
    {
        cs_body_state b = cs_world_body(world, o->highlight_body);
        line_batch_segment(&r->world_lines, (float)b.position.x, (float)b.position.y, (float)o->target.x,
                           (float)o->target.y, 1.5f * r->ui_scale, SPRING_COLOR);
    }
    draw_kinematic_edges(r, world, count);
    draw_joints(r, world);
    draw_contacts(r, world, o, px);
    draw_flashes(r, o);
    draw_ray(r, o, px);
    line_batch_flush(&r->world_lines, r->line_program, matrix);
    circle_style dot_style = {RENDER_CONTACT_RED, 0.0f, 0.0f};
    circle_batch_flush(&r->dots, r->circle_program, matrix, px, &dot_style);
    if (pane)
    {
        glDisable(GL_SCISSOR_TEST);
        glViewport(0, 0, r->width, r->height);
    }
}
