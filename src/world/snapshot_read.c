// Reading a snapshot (cs_world_load_state; cs_world_clone reads one from memory), validated like a scene:
// every error is one line "FILE:LINE:COL: PATH: message" (the scene loader's located JSON readers), the
// file has a size limit, and nothing half-loaded is returned. The settings sections are read by the scene
// loader's own readers, so a snapshot's "world" and "solver" mean exactly what a scene's do. The slots
// are read in snapshot_read_slots.c; what follows from the numbers read is rebuilt in
// snapshot_restore.c.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "core/array.h"
#include "core/file.h"
#include "world/snapshot.h"
#include "world/snapshot_read.h"
#include "world/world_internal.h"

// "body_fields" / "contact_fields" / "touch_fields" must name exactly the fields this reader knows, in
// order.
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

static bool alive_slot(const cs_world* w, int slot)
{
    return slot >= 0 && slot < w->body_count && (w->body_flags[slot] & CS_BODY_ALIVE);
}

static bool read_contact(cs_scene_loader* l, const cs_jval* v)
{
    double x[CS_SNAPSHOT_CONTACT_FIELDS];
    if (!cs_snapshot_read_row(&l->c, v, CS_SNAPSHOT_CONTACT_FIELDS, x))
    {
        return false;
    }
    cs_world* w = l->world;
    // (Whole numbers in int's range before they are cast: a double outside it has no int value — the
    // fuzzer's −1e104 was undefined behaviour here.)
    bool whole = cs_snapshot_integer(x[0], -1.0, 2147483647.0) &&
                 cs_snapshot_integer(x[1], 0.0, 2147483647.0) &&
                 cs_snapshot_integer(x[2], -1.0, 2147483647.0);
    int a = whole ? (int)x[0] : -1, b = whole ? (int)x[1] : 0, wall = whole ? (int)x[2] : -1;
    bool pair = a >= 0 && a < b && wall == -1;
    bool on_wall = a == -1 && wall >= 0 && wall < w->wall_count;
    if (!whole || !(b < w->body_count) || !(pair || on_wall))
    {
        return cs_jfail(
            &l->c, v,
            "a contact is [a, b, wall, …] with 0 <= a < b < bodies and wall -1, or a -1 and 0 <= wall < "
            "walls");
    }
    if (!alive_slot(w, b) || (pair && !alive_slot(w, a)))
    {
        return cs_jfail(&l->c, v, "a contact is between alive bodies (slot %d is removed)",
                        alive_slot(w, b) ? a : b);
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

// A joint names slots (a may be -1, the world); an alive one joins alive bodies. Its per-body lists are
// rebuilt afterwards (snapshot_restore.c). The spring keys (hertz, damping_ratio, stiffness, damping) may be
// left out: 0, a rigid joint.
static bool read_joint(cs_scene_loader* l, const cs_jval* v)
{
    static const char* const keys[] = {
        "a",     "b",         "anchor_a",      "anchor_b", "length",  "rope",    "collide", "alive",
        "hertz", "stiffness", "damping_ratio", "damping",  "impulse", "stretch", NULL};
    const cs_jctx* c = &l->c;
    cs_world* w = l->world;
    cs_joint j;
    memset(&j, 0, sizeof j);
    cs_vec2 la = {0, 0}, lb = {0, 0};
    if (!cs_jcheck_type(c, v, cJSON_Object, NULL) || !cs_jcheck_object(c, v, keys) ||
        !cs_jread_int(c, v, "a", true, -1, w->body_count - 1, &j.a) ||
        !cs_jread_int(c, v, "b", true, 0, w->body_count - 1, &j.b) ||
        !cs_jread_vec2(c, v, "anchor_a", true, &la) || !cs_jread_vec2(c, v, "anchor_b", true, &lb) ||
        !cs_jread_number(c, v, "length", true, CS_JR_POSITIVE, &j.length) || !cs_jrequire(c, v, "rope") ||
        !cs_jread_bool(c, v, "rope", &j.rope) || !cs_jrequire(c, v, "collide") ||
        !cs_jread_bool(c, v, "collide", &j.collide) || !cs_jrequire(c, v, "alive") ||
        !cs_jread_bool(c, v, "alive", &j.alive) ||
        !cs_jread_number(c, v, "hertz", false, CS_JR_NONNEG, &j.hertz) ||
        !cs_jread_number(c, v, "damping_ratio", false, CS_JR_NONNEG, &j.damping_ratio) ||
        !cs_jread_number(c, v, "stiffness", false, CS_JR_NONNEG, &j.stiffness) ||
        !cs_jread_number(c, v, "damping", false, CS_JR_NONNEG, &j.damping) ||
        !cs_jread_number(c, v, "impulse", true, CS_JR_ANY, &j.impulse) ||
        !cs_jread_number(c, v, "stretch", true, CS_JR_ANY, &j.stretch))
    {
        return false;
    }
    if (j.a == j.b)
    {
        return cs_jfail(c, v, "a joint joins two different slots, got %d twice", j.a);
    }
    if (j.hertz > 0.0 && j.stiffness > 0.0)
    {
        return cs_jfail(c, v, "a spring is given by \"hertz\" or by \"stiffness\", not both");
    }
    if (j.alive && (!alive_slot(w, j.b) || (j.a >= 0 && !alive_slot(w, j.a))))
    {
        return cs_jfail(c, v, "an alive joint joins alive bodies (slot %d is removed)",
                        alive_slot(w, j.b) ? j.a : j.b);
    }
    j.la_x = la.x;
    j.la_y = la.y;
    j.lb_x = lb.x;
    j.lb_y = lb.y;
    j.next_a = j.next_b = -1;
    if (!CS_GROW(w->joints, w->joint_capacity, w->joint_count + 1))
    {
        cs_fail(c->err, CS_ERR_MEMORY, "%s: out of memory", c->file);
        return false;
    }
    w->joints[w->joint_count++] = j;
    return true;
}

// "touching" / "overlaps": [key high, key low, body_a, body_b, wall, x, y], in strictly increasing key
// order (the events' merge walks them in order).
static bool read_touch_list(cs_scene_loader* l, const cs_jval* root, const char* key, cs_touch_list* out)
{
    const cs_jctx* c = &l->c;
    cs_jval list;
    if (!cs_jrequire(c, root, key) || !cs_jval_member(root, key, &list) ||
        !cs_jcheck_type(c, &list, cJSON_Array, NULL))
    {
        return false;
    }
    int count = cJSON_GetArraySize(list.json);
    if (count > 0 &&
        (!CS_RESIZE(out->keys, count) || !CS_RESIZE(out->items, count) || !CS_RESIZE(out->source, count)))
    {
        cs_fail(c->err, CS_ERR_MEMORY, "%s: out of memory", c->file);
        return false;
    }
    out->capacity = count > out->capacity ? count : out->capacity;
    int n = 0;
    for (const cJSON* e = list.json->child; e != NULL; e = e->next, ++n)
    {
        cs_jval v = cs_jval_child(&list, e, n);
        double x[CS_SNAPSHOT_TOUCH_FIELDS];
        if (!cs_snapshot_read_row(c, &v, CS_SNAPSHOT_TOUCH_FIELDS, x))
        {
            return false;
        }
        for (int k = 0; k < 5; ++k)
        {
            double lo = k < 2 ? 0.0 : -1.0, hi = k < 2 ? 4294967295.0 : 2147483647.0;
            if (!cs_snapshot_integer(x[k], lo, hi))
            {
                return cs_snapshot_fail_field(c, &v, k, "%s must be an integer in [%.0f, %.0f]",
                                              cs_snapshot_touch_fields[k], lo, hi);
            }
        }
        uint64_t k64 = (uint64_t)x[0] << 32 | (uint64_t)x[1];
        if (n > 0 && !(out->keys[n - 1] < k64))
        {
            return cs_jfail(c, &v, "entries must be in strictly increasing key order");
        }
        out->keys[n] = k64;
        out->source[n] = -1;
        cs_contact_event ev = {(int)x[2], (int)x[3], (int)x[4], {x[5], x[6]}, 0.0};
        out->items[n] = ev;
    }
    out->count = n;
    return true;
}

static bool read_header(cs_scene_loader* l, const cs_jval* r, uint64_t* step, cs_world_def* def)
{
    static const char* const keys[] = {
        "circlesim_state", "step",        "world",  "contact_events", "solver",
        "walls",           "body_fields", "bodies", "alive_order",    "free_slots",
        "contact_fields",  "contacts",    "joints", "touch_fields",   "touching",
        "overlaps",        NULL};
    const cs_jctx* c = &l->c;
    int version = 0;
    return cs_jcheck_type(c, r, cJSON_Object, "a snapshot object { ... }") && cs_jcheck_object(c, r, keys) &&
           cs_jread_int(c, r, "circlesim_state", true, CS_SNAPSHOT_VERSION, CS_SNAPSHOT_VERSION, &version) &&
           cs_jrequire(c, r, "step") && cs_jread_uint53(c, r, "step", step) && cs_jrequire(c, r, "world") &&
           cs_jrequire(c, r, "solver") && cs_jrequire(c, r, "contact_events") &&
           cs_scene_read_world(l, r, def) && cs_scene_read_solver(l, r, def) &&
           cs_jread_bool(c, r, "contact_events", &def->contact_events) && cs_scene_check_world(l, r, def) &&
           check_fields(c, r, "body_fields", cs_snapshot_body_fields, CS_SNAPSHOT_BODY_FIELDS) &&
           check_fields(c, r, "contact_fields", cs_snapshot_contact_fields, CS_SNAPSHOT_CONTACT_FIELDS) &&
           check_fields(c, r, "touch_fields", cs_snapshot_touch_fields, CS_SNAPSHOT_TOUCH_FIELDS);
}

static bool read_snapshot(cs_scene_loader* l, const cs_jval* r)
{
    const cs_jctx* c = &l->c;
    uint64_t step = 0;
    cs_world_def def = cs_world_def_default();
    // A key added after version 2 reads, when absent, as what the snapshots written without it ran with (as
    // a joint without the spring keys is rigid): position_tolerance 0, every position sweep, so an older
    // snapshot still resumes bit for bit.
    def.position_tolerance = 0.0;
    if (!read_header(l, r, &step, &def))
    {
        return false;
    }
    cs_error why = {CS_OK, ""};
    l->world = cs_world_create(&def, &why);
    if (l->world == NULL)
    {
        return cs_jfail(c, r, "cannot create the world: %s", why.message);
    }
    cs_world* w = l->world;
    if (!cs_scene_read_list(l, r, "walls", true, read_wall) ||
        !cs_scene_read_list(l, r, "bodies", true, cs_snapshot_read_slot) ||
        !cs_snapshot_read_slot_lists(l, r) || !cs_scene_read_list(l, r, "contacts", true, read_contact) ||
        !cs_scene_read_list(l, r, "joints", true, read_joint) ||
        !read_touch_list(l, r, "touching", &w->events.touching) ||
        !read_touch_list(l, r, "overlaps", &w->events.overlaps))
    {
        return false;
    }
    if (!cs_snapshot_restore_derived(w))
    {
        cs_fail(c->err, CS_ERR_MEMORY, "%s: out of memory", c->file);
        return false;
    }
    cs_step_stats* s = &w->stats;
    s->step = (int64_t)step;
    s->time = (double)s->step * def.time_step;
    s->bodies = w->alive_count;
    s->contacts = w->contacts.count;
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
