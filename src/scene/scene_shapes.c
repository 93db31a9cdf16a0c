// The shapes a scene lists one by one: "walls" (half-planes, segments) and "bodies" (circles), and
// the checks every added circle passes, whether listed or made by a generator.
#include <math.h>
#include <string.h>

#include "scene/scene_internal.h"

bool cs_scene_read_mass(cs_scene_loader* l, const cs_jval* object, double* mass, double* density)
{
    *mass = 0.0;
    *density = 0.0;
    return cs_jread_number(&l->c, object, "mass", false, CS_JR_POSITIVE, mass) &&
           cs_jread_number(&l->c, object, "density", false, CS_JR_POSITIVE, density);
}

double cs_scene_disc_mass(double mass, double density, double radius)
{
    return density > 0.0 ? density * CS_SCENE_PI * radius * radius : mass;
}

bool cs_scene_check_room(cs_scene_loader* l, const cs_jval* at, int64_t extra)
{
    int64_t total = (int64_t)cs_world_body_count(l->world) + extra;
    if (extra > CS_SCENE_MAX_BODIES || total > CS_SCENE_MAX_BODIES)
    {
        return cs_jfail(&l->c, at, "would make the scene exceed %d bodies", (int)CS_SCENE_MAX_BODIES);
    }
    return true;
}

bool cs_scene_add_circle(cs_scene_loader* l, const cs_jval* at, const cs_circle_def* def)
{
    // Values read from the file are only known finite; this checks the sane ranges (and catches what
    // arithmetic made of them: a density times a huge radius, a grid running off to infinity).
    if (!cs_scene_check_circle(l, at, def))
    {
        return false;
    }
    if (!cs_scene_check_room(l, at, 1))
    {
        return false;
    }
    cs_error world_err = {CS_OK, ""};
    if (cs_world_add_circle(l->world, def, &world_err) < 0)
    {
        return cs_jfail(&l->c, at, "%s", world_err.message);
    }
    return true;
}

bool cs_scene_read_wall(cs_scene_loader* l, const cs_jval* w)
{
    const cs_jctx* c = &l->c;
    static const char* const plane_keys[] = {"type",     "point",       "normal", "material",
                                             "friction", "restitution", NULL};
    static const char* const segment_keys[] = {"type",     "p0",          "p1", "material",
                                               "friction", "restitution", NULL};
    const char* type = NULL;
    if (!cs_jcheck_type(c, w, cJSON_Object, NULL) || !cs_jread_string(c, w, "type", true, &type))
    {
        return false;
    }
    bool plane = strcmp(type, "half_plane") == 0;
    if (!plane && strcmp(type, "segment") != 0)
    {
        cs_jval at;
        cs_jval_member(w, "type", &at);
        char quoted[64];
        cs_json_quote(type, quoted, sizeof quoted);
        return cs_jfail(c, &at, "unknown wall type %s (expected \"half_plane\" or \"segment\")", quoted);
    }
    double friction, restitution;
    if (!cs_jcheck_object(c, w, plane ? plane_keys : segment_keys) ||
        !cs_scene_read_surface(l, w, &friction, &restitution))
    {
        return false;
    }
    cs_error world_err = {CS_OK, ""};
    if (plane)
    {
        cs_vec2 point = {0, 0}, normal = {0, 0};
        if (!cs_jread_vec2(c, w, "point", true, &point) || !cs_jread_vec2(c, w, "normal", true, &normal) ||
            !cs_scene_check_wall_point(l, w, "point", point))
        {
            return false;
        }
        // Normalise without overflow or underflow: scale by the largest component first.
        double largest = fmax(fabs(normal.x), fabs(normal.y));
        cs_jval at;
        cs_jval_member(w, "normal", &at);
        if (!(largest > 0.0))
        {
            return cs_jfail(c, &at, "must be a non-zero vector (the direction of the free side), got [0, 0]");
        }
        normal.x /= largest;
        normal.y /= largest;
        double length = hypot(normal.x, normal.y);
        normal.x /= length;
        normal.y /= length;
        if (cs_world_add_half_plane(l->world, point, normal, friction, restitution, &world_err) < 0)
        {
            return cs_jfail(c, w, "%s", world_err.message);
        }
        return true;
    }
    cs_vec2 p0 = {0, 0}, p1 = {0, 0};
    if (!cs_jread_vec2(c, w, "p0", true, &p0) || !cs_jread_vec2(c, w, "p1", true, &p1) ||
        !cs_scene_check_wall_point(l, w, "p0", p0) || !cs_scene_check_wall_point(l, w, "p1", p1))
    {
        return false;
    }
    double length = hypot(p1.x - p0.x, p1.y - p0.y);
    if (!(length > 1e-9) || !isfinite(length))
    {
        cs_jval at;
        cs_jval_member(w, "p1", &at);
        return cs_jfail(c, &at, "a segment needs a finite length > 1e-9 m, got %g", length);
    }
    if (cs_world_add_segment(l->world, p0, p1, friction, restitution, &world_err) < 0)
    {
        return cs_jfail(c, w, "%s", world_err.message);
    }
    return true;
}

// "type": "dynamic" (default) | "static" | "kinematic".
static bool read_body_type(cs_scene_loader* l, const cs_jval* b, cs_body_type* type)
{
    static const char* const names[] = {"dynamic", "static", "kinematic"};
    const char* name = NULL;
    if (!cs_jread_string(&l->c, b, "type", false, &name))
    {
        return false;
    }
    for (int i = 0; name != NULL && i < 3; ++i)
    {
        if (strcmp(name, names[i]) == 0)
        {
            *type = (cs_body_type)i;
            return true;
        }
    }
    if (name == NULL)
    {
        return true;
    }
    cs_jval at;
    cs_jval_member(b, "type", &at);
    char quoted[64];
    cs_json_quote(name, quoted, sizeof quoted);
    return cs_jfail(&l->c, &at, "unknown body type %s (dynamic, static, kinematic)", quoted);
}

// A 32-bit mask: an integer in [0, 2^32 - 1].
static bool read_bits(cs_scene_loader* l, const cs_jval* b, const char* key, uint32_t* out)
{
    uint64_t x = *out;
    if (!cs_jread_uint53(&l->c, b, key, &x))
    {
        return false;
    }
    if (x > UINT32_MAX)
    {
        cs_jval at;
        cs_jval_member(b, key, &at);
        return cs_jfail_expected(&l->c, &at, "an integer in [0, 4294967295] (32 bits)");
    }
    *out = (uint32_t)x;
    return true;
}

// Type, filter and sensor keys of a body (issue 16). Mass or density: required for a dynamic body, an
// error for a static or kinematic one (where it would mean nothing).
static bool read_engine_keys(cs_scene_loader* l, const cs_jval* b, cs_circle_def* d, bool* needs_mass)
{
    const cs_jctx* c = &l->c;
    if (!read_body_type(l, b, &d->type) || !read_bits(l, b, "category_bits", &d->category_bits) ||
        !read_bits(l, b, "mask_bits", &d->mask_bits) ||
        !cs_jread_int(c, b, "group", false, INT32_MIN, INT32_MAX, &d->group) ||
        !cs_jread_bool(c, b, "sensor", &d->sensor) || !cs_jread_bool(c, b, "bullet", &d->bullet))
    {
        return false;
    }
    *needs_mass = d->type == CS_BODY_DYNAMIC;
    cs_jval at;
    if (!*needs_mass && (cs_jval_member(b, "mass", &at) || cs_jval_member(b, "density", &at)))
    {
        return cs_jfail(c, &at, "a %s body has no mass (it is never moved by forces): remove the key",
                        d->type == CS_BODY_STATIC ? "static" : "kinematic");
    }
    return true;
}

bool cs_scene_read_body(cs_scene_loader* l, const cs_jval* b)
{
    const cs_jctx* c = &l->c;
    static const char* const keys[] = {
        "position",         "radius",   "mass",     "density",     "velocity", "angle",
        "angular_velocity", "material", "friction", "restitution", "type",     "category_bits",
        "mask_bits",        "group",    "sensor",   "bullet",      NULL};
    static const char* const mass_keys[] = {"mass", "density", NULL};
    cs_circle_def d = cs_circle_def_default();
    double mass = 0.0, density = 0.0;
    bool needs_mass = true;
    if (!cs_jcheck_object(c, b, keys) || !read_engine_keys(l, b, &d, &needs_mass) ||
        !cs_jread_vec2(c, b, "position", true, &d.position) ||
        !cs_jread_number(c, b, "radius", true, CS_JR_POSITIVE, &d.radius) ||
        (needs_mass && (!cs_jrequire_one(c, b, mass_keys) || !cs_scene_read_mass(l, b, &mass, &density))) ||
        !cs_jread_vec2(c, b, "velocity", false, &d.velocity) ||
        !cs_jread_number(c, b, "angle", false, CS_JR_ANY, &d.angle) ||
        !cs_jread_number(c, b, "angular_velocity", false, CS_JR_ANY, &d.angular_velocity) ||
        !cs_scene_read_surface(l, b, &d.friction, &d.restitution))
    {
        return false;
    }
    d.mass = needs_mass ? cs_scene_disc_mass(mass, density, d.radius) : 0.0;
    return cs_scene_add_circle(l, b, &d);
}
