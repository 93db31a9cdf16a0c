// Reading a snapshot (cs_world_load_state), validated like a scene: every error is one line
// "FILE:LINE:COL: PATH: message" (the scene loader's located JSON readers), the file has a size limit, and
// nothing half-loaded is returned. The settings sections are read by the scene loader's own readers, so
// a snapshot's "world" and "solver" mean exactly what a scene's do.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "core/array.h"
#include "core/file.h"
#include "scene/scene_internal.h"
#include "world/limits.h"
#include "world/snapshot.h"
#include "world/world_internal.h"

// An array of exactly `count` finite numbers at v, into out.
static bool read_row(const cs_jctx* c, const cs_jval* v, int count, double* out)
{
    if (!cJSON_IsArray(v->json) || cJSON_GetArraySize(v->json) != count)
    {
        char expected[64];
        snprintf(expected, sizeof expected, "an array of %d numbers", count);
        return cs_jfail_expected(c, v, expected);
    }
    int k = 0;
    for (const cJSON* e = v->json->child; e != NULL && k < count; e = e->next, ++k)
    {
        cs_jval element = cs_jval_child(v, e, k);
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
        {
            return cs_jfail_expected(c, &element, "a finite number");
        }
        out[k] = e->valuedouble;
    }
    return true;
}

// "body_fields" / "contact_fields" must name exactly the fields this reader knows, in order.
static bool check_fields(const cs_jctx* c, const cs_jval* root, const char* key, const char* const* names,
                         int count)
{
    cs_jval v;
    if (!cs_jrequire(c, root, key) || !cs_jval_member(root, key, &v))
    {
        return false;
    }
    int k = 0;
    bool ok = cJSON_IsArray(v.json) && cJSON_GetArraySize(v.json) == count;
    for (const cJSON* e = ok ? v.json->child : NULL; e != NULL && ok; e = e->next, ++k)
    {
        ok = cJSON_IsString(e) && strcmp(e->valuestring, names[k]) == 0;
    }
    if (!ok)
    {
        char expected[CS_ERROR_MAX];
        size_t used = (size_t)snprintf(expected, sizeof expected, "the %d names [", count);
        for (k = 0; k < count && used < sizeof expected; ++k)
        {
            used +=
                (size_t)snprintf(expected + used, sizeof expected - used, k == 0 ? "%s" : ", %s", names[k]);
        }
        if (used < sizeof expected)
        {
            snprintf(expected + used, sizeof expected - used, "] (snapshot version %d)", CS_SNAPSHOT_VERSION);
        }
        return cs_jfail_expected(c, &v, expected);
    }
    return true;
}

static bool read_wall(cs_scene_loader* l, const cs_jval* v)
{
    static const char* const keys[] = {"type", "p0", "p1", "normal", "friction", "restitution", NULL};
    const cs_jctx* c = &l->c;
    const char* type = NULL;
    cs_vec2 p0 = {0, 0}, p1 = {0, 0}, normal = {0, 0};
    double friction = 0.0, restitution = 0.0;
    if (!cs_jcheck_type(c, v, cJSON_Object, NULL) || !cs_jcheck_object(c, v, keys) ||
        !cs_jread_string(c, v, "type", true, &type) || !cs_jread_vec2(c, v, "p0", true, &p0) ||
        !cs_jread_vec2(c, v, "p1", true, &p1) || !cs_jread_vec2(c, v, "normal", true, &normal) ||
        !cs_jread_number(c, v, "friction", true, CS_JR_NONNEG, &friction) ||
        !cs_jread_number(c, v, "restitution", true, CS_JR_UNIT, &restitution))
    {
        return false;
    }
    bool plane = strcmp(type, "half_plane") == 0;
    cs_jval at;
    if (!plane && strcmp(type, "segment") != 0)
    {
        cs_jval_member(v, "type", &at);
        return cs_jfail_expected(c, &at, "\"half_plane\" or \"segment\"");
    }
    cs_error why = {CS_OK, ""};
    int k = plane ? cs_world_add_half_plane(l->world, p0, normal, friction, restitution, &why)
                  : cs_world_add_segment(l->world, p0, p1, friction, restitution, &why);
    if (k < 0)
    {
        return cs_jfail(c, v, "%s", why.message);
    }
    // The normal as it was computed at creation (recomputing it could move it by an ulp).
    cs_jval_member(v, "normal", &at);
    if (!(fabs(hypot(normal.x, normal.y) - 1.0) <= 1e-12))
    {
        return cs_jfail(c, &at, "must be a unit vector, got [%g, %g]", normal.x, normal.y);
    }
    l->world->walls[k].normal = normal;
    return true;
}

// Radius, mass and surface go through cs_world_add_circle (the load ranges); the motion may be anything a
// running world holds (up to the explode limits of cs_health), so it is set afterwards.
static bool read_body(cs_scene_loader* l, const cs_jval* v)
{
    double x[CS_SNAPSHOT_BODY_FIELDS];
    if (!read_row(&l->c, v, CS_SNAPSHOT_BODY_FIELDS, x) || !cs_scene_check_room(l, v, 1))
    {
        return false;
    }
    cs_circle_def d = cs_circle_def_default();
    d.radius = x[6];
    d.mass = x[7];
    d.friction = x[8];
    d.restitution = x[9];
    cs_error why = {CS_OK, ""};
    int i = cs_world_add_circle(l->world, &d, &why);
    if (i < 0)
    {
        return cs_jfail(&l->c, v, "%s", why.message);
    }
    for (int k = 0; k < 6; ++k)
    {
        double limit = k < 2 ? CS_LIMIT_EXPLODE_COORD : (k == 2 ? INFINITY : CS_LIMIT_EXPLODE_SPEED);
        if (!(fabs(x[k]) <= limit))
        {
            cs_jval element = cs_jval_child(v, cJSON_GetArrayItem(v->json, k), k);
            return cs_jfail(&l->c, &element, "%s must be within %g, got %g", cs_snapshot_body_fields[k],
                            limit, x[k]);
        }
    }
    cs_world* w = l->world;
    w->px[i] = x[0];
    w->py[i] = x[1];
    w->angle[i] = x[2];
    memcpy(w->v + 3 * i, x + 3, 3 * sizeof(double));
    w->fx[i] = x[10];
    w->fy[i] = x[11];
    return true;
}

static bool read_contact(cs_scene_loader* l, const cs_jval* v)
{
    double x[CS_SNAPSHOT_CONTACT_FIELDS];
    if (!read_row(&l->c, v, CS_SNAPSHOT_CONTACT_FIELDS, x))
    {
        return false;
    }
    cs_world* w = l->world;
    int a = (int)x[0], b = (int)x[1], wall = (int)x[2];
    bool pair = x[0] == a && a >= 0 && a < b && x[2] == -1.0;
    bool on_wall = x[0] == -1.0 && wall >= 0 && wall < w->wall_count && x[2] == wall;
    if (!(x[1] == b && b >= 0 && b < w->body_count) || !(pair || on_wall))
    {
        return cs_jfail(
            &l->c, v,
            "a contact is [a, b, wall, …] with 0 <= a < b < bodies and wall -1, or a -1 and 0 <= wall < "
            "walls");
    }
    cs_contact c;
    memset(&c, 0, sizeof c);
    c.key = pair ? ((uint64_t)(uint32_t)a << 32) | (uint32_t)b
                 : ((uint64_t)(CS_WALL_KEY_BIT + (uint32_t)wall) << 32) | (uint32_t)b;
    cs_contact_list* list = &w->contacts;
    if (list->count > 0 && !(list->items[list->count - 1].key < c.key))
    {
        return cs_jfail(&l->c, v,
                        "contacts must be in key order (circle pairs by a then b, then walls), once each");
    }
    c.a = pair ? a : -1;
    c.b = b;
    c.wall = pair ? -1 : wall;
    c.nx = x[3];
    c.ny = x[4];
    c.px = x[5];
    c.py = x[6];
    c.gap = x[7];
    c.ra = x[8];
    c.rb = x[9];
    c.friction = x[10];
    c.restitution = x[11];
    c.normal_impulse = x[12];
    c.friction_impulse = x[13];
    if (!CS_GROW(list->items, list->capacity, list->count + 1))
    {
        cs_fail(l->c.err, CS_ERR_MEMORY, "%s: out of memory", l->c.file);
        return false;
    }
    list->items[list->count++] = c;
    return true;
}

static bool read_snapshot(cs_scene_loader* l, const cs_jval* r)
{
    static const char* const keys[] = {"circlesim_state", "step",   "world",          "solver",   "walls",
                                       "body_fields",     "bodies", "contact_fields", "contacts", NULL};
    const cs_jctx* c = &l->c;
    int version = 0;
    uint64_t step = 0;
    cs_world_def def = cs_world_def_default();
    if (!cs_jcheck_type(c, r, cJSON_Object, "a snapshot object { ... }") || !cs_jcheck_object(c, r, keys) ||
        !cs_jread_int(c, r, "circlesim_state", true, CS_SNAPSHOT_VERSION, CS_SNAPSHOT_VERSION, &version) ||
        !cs_jrequire(c, r, "step") || !cs_jread_uint53(c, r, "step", &step) || !cs_jrequire(c, r, "world") ||
        !cs_jrequire(c, r, "solver") || !cs_scene_read_world(l, r, &def) ||
        !cs_scene_read_solver(l, r, &def) || !cs_scene_check_world(l, r, &def) ||
        !check_fields(c, r, "body_fields", cs_snapshot_body_fields, CS_SNAPSHOT_BODY_FIELDS) ||
        !check_fields(c, r, "contact_fields", cs_snapshot_contact_fields, CS_SNAPSHOT_CONTACT_FIELDS))
    {
        return false;
    }
    cs_error why = {CS_OK, ""};
    l->world = cs_world_create(&def, &why);
    if (l->world == NULL)
    {
        return cs_jfail(c, r, "cannot create the world: %s", why.message);
    }
    if (!cs_scene_read_list(l, r, "walls", true, read_wall) ||
        !cs_scene_read_list(l, r, "bodies", true, read_body) ||
        !cs_scene_read_list(l, r, "contacts", true, read_contact))
    {
        return false;
    }
    cs_step_stats* s = &l->world->stats;
    s->step = (int64_t)step;
    s->time = (double)s->step * def.time_step;
    s->bodies = l->world->body_count;
    s->contacts = l->world->contacts.count;
    return true;
}

cs_world* cs_world_load_state_string(const char* text, const char* display_name, cs_error* err)
{
    const char* name = display_name != NULL ? display_name : "<snapshot>";
    const char* end = NULL;
    cJSON* root = text != NULL ? cJSON_ParseWithOpts(text, &end, 1) : NULL;
    if (root == NULL)
    {
        int line = 1, column = 1;
        if (text != NULL && end != NULL && end >= text)
        {
            cs_json_position(text, end, &line, &column);
        }
        cs_fail(err, CS_ERR_PARSE, "%s:%d:%d: invalid JSON near line %d, column %d", name, line, column, line,
                column);
        return NULL;
    }
    cs_scene_loader l;
    memset(&l, 0, sizeof l);
    cs_scene_info info; // the scene readers' warnings; a snapshot's settings were valid when saved
    memset(&info, 0, sizeof info);
    l.info = &info;
    l.c.text = text;
    l.c.file = name;
    l.c.err = err;
    cs_jval r = cs_jval_root(root);
    bool ok = read_snapshot(&l, &r);
    cJSON_Delete(root);
    if (!ok)
    {
        cs_world_destroy(l.world);
        return NULL;
    }
    return l.world;
}

cs_world* cs_world_load_state(const char* path, cs_error* err)
{
    char* text = NULL;
    size_t length = 0;
    if (cs_read_text_file(path, CS_SNAPSHOT_MAX_FILE_BYTES, &text, &length, err) != CS_OK)
    {
        return NULL;
    }
    cs_world* w = cs_world_load_state_string(text, path, err);
    free(text);
    return w;
}
