// Reading a snapshot's slots (snapshot_read.h): each "bodies" entry is one slot, alive or removed, checked
// as a scene's body is (the sane ranges of cs_circle_def_problem) and against what the world itself
// would ever hold (a removed slot is static with no mass and no motion, a sleeping body is dynamic and
// still, ...), so that a file edited by hand fails at the number that is wrong instead of stepping a
// world no sequence of calls could make.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world/limits.h"
#include "world/snapshot.h"
#include "world/snapshot_read.h"
#include "world/world_internal.h"

bool cs_snapshot_read_row(const cs_jctx* c, const cs_jval* v, int count, double* out)
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

bool cs_snapshot_fail_field(const cs_jctx* c, const cs_jval* v, int k, const char* fmt, ...)
{
    char message[CS_ERROR_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    cs_jval element = cs_jval_child(v, cJSON_GetArrayItem(v->json, k), k);
    return cs_jfail(c, &element, "%s", message);
}

bool cs_snapshot_integer(double x, double lo, double hi)
{
    return x >= lo && x <= hi && x == floor(x);
}

// The integer and flag fields of a body row: a code out of its range fails at its place.
static bool check_codes(const cs_jctx* c, const cs_jval* v, const double* x)
{
    static const struct
    {
        int field;
        double lo, hi;
    } codes[] = {{CS_SNAP_TYPE, 0, 2},
                 {CS_SNAP_ALIVE, 0, 1},
                 {CS_SNAP_GENERATION, 0, CS_ID_GENERATIONS - 1},
                 {CS_SNAP_SENSOR, 0, 1},
                 {CS_SNAP_BULLET, 0, 1},
                 {CS_SNAP_CATEGORY, 0, 4294967295.0},
                 {CS_SNAP_MASK, 0, 4294967295.0},
                 {CS_SNAP_GROUP, -2147483648.0, 2147483647.0},
                 {CS_SNAP_ASLEEP, 0, 1},
                 {CS_SNAP_ISLAND_NEXT, -1, CS_ID_SLOT_MASK}};
    for (size_t k = 0; k < sizeof codes / sizeof codes[0]; ++k)
    {
        double value = x[codes[k].field];
        if (!cs_snapshot_integer(value, codes[k].lo, codes[k].hi))
        {
            return cs_snapshot_fail_field(
                c, v, codes[k].field, "%s must be an integer in [%.0f, %.0f], got %g",
                cs_snapshot_body_fields[codes[k].field], codes[k].lo, codes[k].hi, value);
        }
    }
    if (!(x[CS_SNAP_SLEEP_TIME] >= 0.0))
    {
        return cs_snapshot_fail_field(c, v, CS_SNAP_SLEEP_TIME, "sleep_time must be >= 0, got %g",
                                      x[CS_SNAP_SLEEP_TIME]);
    }
    return true;
}

// What the world makes of a slot: removed slots are static, massless and still; static and kinematic
// bodies have mass 0; a static body and a sleeping one do not move; only alive dynamic bodies sleep.
static bool check_consistent(const cs_jctx* c, const cs_jval* v, const double* x)
{
    bool alive = x[CS_SNAP_ALIVE] != 0.0, asleep = x[CS_SNAP_ASLEEP] != 0.0;
    bool dynamic = x[CS_SNAP_TYPE] == CS_BODY_DYNAMIC, is_static = x[CS_SNAP_TYPE] == CS_BODY_STATIC;
    bool still = x[CS_SNAP_VX] == 0.0 && x[CS_SNAP_VY] == 0.0 && x[CS_SNAP_OMEGA] == 0.0;
    if (!alive && !(is_static && x[CS_SNAP_MASS] == 0.0 && still && x[CS_SNAP_FX] == 0.0 &&
                    x[CS_SNAP_FY] == 0.0 && x[CS_SNAP_SENSOR] == 0.0 && x[CS_SNAP_BULLET] == 0.0 && !asleep))
    {
        return cs_snapshot_fail_field(c, v, CS_SNAP_ALIVE,
                                      "a removed slot (alive 0) is static (type 1) with mass, velocity, "
                                      "force, sensor, bullet and asleep all 0");
    }
    if (!dynamic && x[CS_SNAP_MASS] != 0.0)
    {
        return cs_snapshot_fail_field(c, v, CS_SNAP_MASS, "a static or kinematic body has mass 0, got %g",
                                      x[CS_SNAP_MASS]);
    }
    if (is_static && !still)
    {
        return cs_snapshot_fail_field(c, v, CS_SNAP_VX, "a static body has zero velocity");
    }
    if (asleep && !(alive && dynamic && still))
    {
        return cs_snapshot_fail_field(c, v, CS_SNAP_ASLEEP,
                                      "only an alive dynamic body sleeps, and it has zero velocity");
    }
    if (!asleep && x[CS_SNAP_ISLAND_NEXT] != -1.0)
    {
        return cs_snapshot_fail_field(c, v, CS_SNAP_ISLAND_NEXT, "an awake body's island_next is -1, got %g",
                                      x[CS_SNAP_ISLAND_NEXT]);
    }
    return true;
}

// Radius, mass and surface within the load ranges; the motion may be anything a running world holds (up
// to the explode limits of cs_health).
static bool check_ranges(const cs_jctx* c, const cs_jval* v, const double* x)
{
    cs_circle_def d = cs_circle_def_default();
    d.radius = x[CS_SNAP_RADIUS];
    d.mass = x[CS_SNAP_MASS];
    d.friction = x[CS_SNAP_FRICTION];
    d.restitution = x[CS_SNAP_RESTITUTION];
    d.type = (cs_body_type)x[CS_SNAP_TYPE];
    cs_error why = {CS_OK, ""};
    const char* key = cs_circle_def_problem(&d, &why);
    if (key != NULL)
    {
        return cs_jfail(c, v, "circle: %s: %s", key, why.message);
    }
    for (int k = CS_SNAP_X; k <= CS_SNAP_OMEGA; ++k)
    {
        double limit = k <= CS_SNAP_Y ? CS_LIMIT_EXPLODE_COORD
                                      : (k == CS_SNAP_ANGLE ? INFINITY : CS_LIMIT_EXPLODE_SPEED);
        if (!(fabs(x[k]) <= limit))
        {
            return cs_snapshot_fail_field(c, v, k, "%s must be within %g, got %g", cs_snapshot_body_fields[k],
                                          limit, x[k]);
        }
    }
    return true;
}

bool cs_snapshot_read_slot(cs_scene_loader* l, const cs_jval* v)
{
    double x[CS_SNAPSHOT_BODY_FIELDS];
    const cs_jctx* c = &l->c;
    cs_world* w = l->world;
    int i = w->body_count;
    if (i > CS_ID_SLOT_MASK) // the world's own limit (ids hold the slot in 23 bits)
    {
        return cs_jfail(c, v, "a world holds at most %d slots", CS_ID_SLOT_MASK + 1);
    }
    if (!cs_snapshot_read_row(c, v, CS_SNAPSHOT_BODY_FIELDS, x) || !check_codes(c, v, x) ||
        !check_ranges(c, v, x) || !check_consistent(c, v, x))
    {
        return false;
    }
    if (x[CS_SNAP_ASLEEP] != 0.0 && !w->sleeping)
    {
        return cs_snapshot_fail_field(c, v, CS_SNAP_ASLEEP,
                                      "a body sleeps only in a world with \"sleep\": true");
    }
    if (!cs_world_reserve_bodies(w, i + 1))
    {
        cs_fail(c->err, CS_ERR_MEMORY, "%s: out of memory", c->file);
        return false;
    }
    w->body_count = i + 1;
    w->px[i] = x[CS_SNAP_X];
    w->py[i] = x[CS_SNAP_Y];
    w->angle[i] = x[CS_SNAP_ANGLE];
    memcpy(w->v + 3 * i, x + CS_SNAP_VX, 3 * sizeof(double));
    memcpy(w->v_pre + 3 * i, x + CS_SNAP_VX, 3 * sizeof(double));
    w->radius[i] = x[CS_SNAP_RADIUS];
    w->reach[i] = x[CS_SNAP_RADIUS];
    w->mass[i] = x[CS_SNAP_MASS];
    w->friction[i] = x[CS_SNAP_FRICTION];
    w->restitution[i] = x[CS_SNAP_RESTITUTION];
    w->fx[i] = x[CS_SNAP_FX];
    w->fy[i] = x[CS_SNAP_FY];
    w->body_type[i] = (uint8_t)x[CS_SNAP_TYPE];
    w->body_flags[i] = (uint8_t)((x[CS_SNAP_ALIVE] != 0.0 ? CS_BODY_ALIVE : 0) |
                                 (x[CS_SNAP_SENSOR] != 0.0 ? CS_BODY_SENSOR : 0) |
                                 (x[CS_SNAP_BULLET] != 0.0 ? CS_BODY_BULLET : 0));
    w->generation[i] = (int)x[CS_SNAP_GENERATION];
    w->category[i] = (uint32_t)x[CS_SNAP_CATEGORY];
    w->mask[i] = (uint32_t)x[CS_SNAP_MASK];
    w->group[i] = (int)x[CS_SNAP_GROUP];
    w->asleep[i] = (uint8_t)x[CS_SNAP_ASLEEP];
    w->sleep_time[i] = x[CS_SNAP_SLEEP_TIME];
    w->island_next[i] = (int)x[CS_SNAP_ISLAND_NEXT];
    return true;
}

// A list of slots, each once and each with `alive` as asked, into out (its count into *count); `expected`
// of them must be listed.
static bool read_slots(cs_scene_loader* l, const cs_jval* root, const char* key, bool alive, int expected,
                       int* out, uint8_t* seen)
{
    const cs_jctx* c = &l->c;
    const cs_world* w = l->world;
    cs_jval list;
    if (!cs_jrequire(c, root, key) || !cs_jval_member(root, key, &list) ||
        !cs_jcheck_type(c, &list, cJSON_Array, NULL))
    {
        return false;
    }
    int n = 0;
    for (const cJSON* e = list.json->child; e != NULL; e = e->next, ++n)
    {
        cs_jval at = cs_jval_child(&list, e, n);
        double slot = cJSON_IsNumber(e) ? e->valuedouble : -1.0;
        if (!cs_snapshot_integer(slot, 0, w->body_count - 1) || n >= expected)
        {
            return cs_jfail(c, &at, "must be one of the %d %s slots (0 .. %d), each once", expected,
                            alive ? "alive" : "removed", w->body_count - 1);
        }
        int s = (int)slot;
        if (((w->body_flags[s] & CS_BODY_ALIVE) != 0) != alive || seen[s])
        {
            return cs_jfail(c, &at, "slot %d is %s", s,
                            seen[s] ? "listed twice" : (alive ? "removed (alive 0)" : "alive"));
        }
        seen[s] = 1;
        out[n] = s;
    }
    if (n != expected)
    {
        return cs_jfail(c, &list, "lists %d slots; the bodies have %d %s ones", n, expected,
                        alive ? "alive" : "removed");
    }
    return true;
}

// Each sleeping slot's island_next is a sleeping slot, and no two name the same one: the islands are
// rings (cs_sleep_wake walks them).
static bool check_islands(cs_scene_loader* l, const cs_jval* root, uint8_t* seen)
{
    const cs_world* w = l->world;
    cs_jval bodies;
    cs_jval_member(root, "bodies", &bodies);
    memset(seen, 0, (size_t)w->body_count);
    int i = 0;
    for (const cJSON* e = bodies.json->child; e != NULL; e = e->next, ++i)
    {
        int next = w->island_next[i];
        if (!w->asleep[i])
        {
            continue;
        }
        if (next < 0 || next >= w->body_count || !w->asleep[next] || seen[next])
        {
            cs_jval row = cs_jval_child(&bodies, e, i);
            return cs_snapshot_fail_field(&l->c, &row, CS_SNAP_ISLAND_NEXT,
                                          "island_next of a sleeping body is another sleeping slot (or "
                                          "itself), each named once: the islands are rings");
        }
        seen[next] = 1;
    }
    return true;
}

bool cs_snapshot_read_slot_lists(cs_scene_loader* l, const cs_jval* root)
{
    cs_world* w = l->world;
    int alive = 0;
    for (int i = 0; i < w->body_count; ++i)
    {
        alive += (w->body_flags[i] & CS_BODY_ALIVE) != 0;
    }
    int removed = w->body_count - alive;
    uint8_t* seen = calloc((size_t)w->body_count + 1, 1);
    w->free_ring = removed > 0 ? malloc((size_t)removed * sizeof(int)) : NULL;
    if (seen == NULL || (removed > 0 && w->free_ring == NULL))
    {
        free(seen);
        cs_fail(l->c.err, CS_ERR_MEMORY, "%s: out of memory", l->c.file);
        return false;
    }
    w->free_capacity = removed;
    w->free_head = 0;
    bool ok = read_slots(l, root, "alive_order", true, alive, w->dense, seen) &&
              read_slots(l, root, "free_slots", false, removed, w->free_ring, seen) &&
              check_islands(l, root, seen);
    free(seen);
    if (ok)
    {
        w->alive_count = alive;
        w->free_count = removed;
    }
    return ok;
}
