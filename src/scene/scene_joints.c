// "joints": distance joints between bodies named by their index (the order of "bodies", then the
// generators' circles), or between a body and the world (-1).
#include <math.h>
#include <string.h>

#include "circlesim/joint.h"
#include "scene/scene_internal.h"

// A body index: -1 (the world) or one of the scene's bodies.
static bool read_body_index(cs_scene_loader* l, const cs_jval* j, const char* key, int* out)
{
    int count = cs_world_body_count(l->world);
    if (!cs_jread_int(&l->c, j, key, true, -1, 2147483647, out))
    {
        return false;
    }
    if (*out >= count)
    {
        cs_jval at;
        cs_jval_member(j, key, &at);
        return cs_jfail(&l->c, &at, "no body %d: the scene has %d (0 to %d; -1 is the world)", *out, count,
                        count - 1);
    }
    return true;
}

static bool fail_at(const cs_jctx* c, const cs_jval* j, const char* key, const char* message)
{
    cs_jval at;
    cs_jval_member(j, key, &at);
    return cs_jfail(c, &at, "%s", message);
}

// A spring: "hertz" (with "damping_ratio") or "stiffness" (with "damping"), each finite and >= 0.
static bool read_spring(const cs_jctx* c, const cs_jval* j, cs_distance_joint_def* d)
{
    if (!cs_jread_number(c, j, "hertz", false, CS_JR_NONNEG, &d->hertz) ||
        !cs_jread_number(c, j, "damping_ratio", false, CS_JR_NONNEG, &d->damping_ratio) ||
        !cs_jread_number(c, j, "stiffness", false, CS_JR_NONNEG, &d->stiffness) ||
        !cs_jread_number(c, j, "damping", false, CS_JR_NONNEG, &d->damping))
    {
        return false;
    }
    if (d->hertz > 0.0 && d->stiffness > 0.0)
    {
        return fail_at(c, j, "stiffness", "a spring is given by \"hertz\" or by \"stiffness\", not both");
    }
    if (d->damping_ratio > 0.0 && !(d->hertz > 0.0))
    {
        return fail_at(c, j, "damping_ratio", "\"damping_ratio\" needs \"hertz\" > 0");
    }
    if (d->damping > 0.0 && !(d->stiffness > 0.0))
    {
        return fail_at(c, j, "damping", "\"damping\" needs \"stiffness\" > 0");
    }
    return true;
}

bool cs_scene_read_joint(cs_scene_loader* l, const cs_jval* j)
{
    const cs_jctx* c = &l->c;
    static const char* const keys[] = {
        "type",  "body_a",        "body_b",    "anchor_a", "anchor_b", "length", "rope", "collide_connected",
        "hertz", "damping_ratio", "stiffness", "damping",  NULL};
    const char* type = "distance";
    cs_distance_joint_def d = cs_distance_joint_def_default();
    if (!cs_jcheck_type(c, j, cJSON_Object, NULL) || !cs_jcheck_object(c, j, keys) ||
        !cs_jread_string(c, j, "type", false, &type))
    {
        return false;
    }
    if (strcmp(type, "distance") != 0)
    {
        cs_jval at;
        cs_jval_member(j, "type", &at);
        char quoted[64];
        cs_json_quote(type, quoted, sizeof quoted);
        return cs_jfail(c, &at, "unknown joint type %s (expected \"distance\")", quoted);
    }
    if (!read_body_index(l, j, "body_a", &d.body_a) || !read_body_index(l, j, "body_b", &d.body_b) ||
        !cs_jread_vec2(c, j, "anchor_a", false, &d.local_anchor_a) ||
        !cs_jread_vec2(c, j, "anchor_b", false, &d.local_anchor_b) || !cs_jread_bool(c, j, "rope", &d.rope) ||
        !cs_jread_bool(c, j, "collide_connected", &d.collide_connected))
    {
        return false;
    }
    if (d.body_a == d.body_b)
    {
        cs_jval at;
        cs_jval_member(j, "body_b", &at);
        return cs_jfail(c, &at,
                        "a joint needs two different bodies (or a body and the world, -1), got %d twice",
                        d.body_a);
    }
    // The length defaults to the anchors' distance as the bodies are placed.
    cs_vec2 pa = d.local_anchor_a, pb = d.local_anchor_b;
    if (d.body_a >= 0)
    {
        cs_body_state s = cs_world_body(l->world, d.body_a);
        pa.x = s.position.x + cos(s.angle) * d.local_anchor_a.x - sin(s.angle) * d.local_anchor_a.y;
        pa.y = s.position.y + sin(s.angle) * d.local_anchor_a.x + cos(s.angle) * d.local_anchor_a.y;
    }
    if (d.body_b >= 0)
    {
        cs_body_state s = cs_world_body(l->world, d.body_b);
        pb.x = s.position.x + cos(s.angle) * d.local_anchor_b.x - sin(s.angle) * d.local_anchor_b.y;
        pb.y = s.position.y + sin(s.angle) * d.local_anchor_b.x + cos(s.angle) * d.local_anchor_b.y;
    }
    d.length = hypot(pb.x - pa.x, pb.y - pa.y);
    if (!cs_jread_number(c, j, "length", false, CS_JR_POSITIVE, &d.length))
    {
        return false;
    }
    if (!(d.length > 0.0) || !isfinite(d.length))
    {
        return cs_jfail(c, j, "the anchors coincide: give a \"length\" > 0");
    }
    if (!read_spring(c, j, &d))
    {
        return false;
    }
    cs_error world_err = {CS_OK, ""};
    if (cs_world_add_distance_joint(l->world, &d, &world_err) < 0)
    {
        return cs_jfail(c, j, "%s", world_err.message);
    }
    return true;
}
