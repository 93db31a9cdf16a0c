// JSON scene files → a world. The format is documented in docs/SCENES.md.
//
// Loading is strict on purpose: an unknown key, a wrong type or a bad value is an error naming the
// key and its line and column, because a silently ignored typo ("raduis") would make a comparison
// of solvers quietly compare the wrong scenes. Nothing half-loaded is ever returned.
#include "circlesim/scene.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"

#define CS_SCENE_MAX_FILE_BYTES (64L * 1024L * 1024L)

// Shared pieces ------------------------------------------------------------------------------------------

static int compare_materials(const void* a, const void* b)
{
    return strcmp(((const cs_scene_material*)a)->name, ((const cs_scene_material*)b)->name);
}

bool cs_scene_read_surface(cs_scene_loader* l, const cs_jval* object, double* friction, double* restitution)
{
    cs_circle_def d = cs_circle_def_default();
    *friction = d.friction;
    *restitution = d.restitution;
    cs_jval name_at;
    if (cs_jval_member(object, "material", &name_at))
    {
        if (!cs_jcheck_type(&l->c, &name_at, cJSON_String, "a material name (a string)"))
        {
            return false;
        }
        const char* name = name_at.json->valuestring;
        cs_scene_material key = {name, 0.0, 0.0};
        const cs_scene_material* found =
            l->material_count > 0
                ? bsearch(&key, l->materials, (size_t)l->material_count, sizeof key, compare_materials)
                : NULL;
        if (found == NULL)
        {
            char quoted[64];
            cs_json_quote(name, quoted, sizeof quoted);
            if (l->material_count == 0)
            {
                return cs_jfail(&l->c, &name_at, "unknown material %s (the scene defines no \"materials\")",
                                quoted);
            }
            char list[256];
            size_t used = 0;
            list[0] = '\0';
            for (int i = 0; i < l->material_count && used + 1 < sizeof list; ++i)
            {
                char q[64];
                cs_json_quote(l->materials[i].name, q, sizeof q);
                int n = snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : ", ", q);
                used += n > 0 ? (size_t)n : 0;
            }
            return cs_jfail(&l->c, &name_at, "unknown material %s (defined: %s)", quoted, list);
        }
        *friction = found->friction;
        *restitution = found->restitution;
    }
    return cs_jread_number(&l->c, object, "friction", false, CS_JR_NONNEG, friction) &&
           cs_jread_number(&l->c, object, "restitution", false, CS_JR_UNIT, restitution);
}

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

static bool finite2(cs_vec2 v)
{
    return isfinite(v.x) && isfinite(v.y);
}

bool cs_scene_add_circle(cs_scene_loader* l, const cs_jval* at, const cs_circle_def* def)
{
    // Values read from the file are already checked; these catch what arithmetic made of them
    // (a density times a huge radius, a grid running off to infinity).
    if (!(isfinite(def->mass) && def->mass > 0.0))
    {
        return cs_jfail(&l->c, at, "the mass of body %d comes out as %g (must be finite and > 0)",
                        cs_world_body_count(l->world), def->mass);
    }
    if (!finite2(def->position))
    {
        return cs_jfail(&l->c, at, "the position of body %d is not finite", cs_world_body_count(l->world));
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

// Sections -------------------------------------------------------------------------------------------------

static bool read_world(cs_scene_loader* l, const cs_jval* root, cs_world_def* def)
{
    cs_jval w;
    if (!cs_jval_member(root, "world", &w))
    {
        return true;
    }
    static const char* const keys[] = {
        "gravity",        "time_step",           "speculative_margin",    "linear_slop",  "baumgarte",
        "max_correction", "position_iterations", "restitution_threshold", "frictionless", NULL};
    const cs_jctx* c = &l->c;
    return cs_jcheck_object(c, &w, keys) && cs_jread_vec2(c, &w, "gravity", false, &def->gravity) &&
           cs_jread_number(c, &w, "time_step", false, CS_JR_POSITIVE, &def->time_step) &&
           cs_jread_number(c, &w, "speculative_margin", false, CS_JR_NONNEG, &def->speculative_margin) &&
           cs_jread_number(c, &w, "linear_slop", false, CS_JR_NONNEG, &def->linear_slop) &&
           cs_jread_number(c, &w, "baumgarte", false, CS_JR_UNIT, &def->baumgarte) &&
           cs_jread_number(c, &w, "max_correction", false, CS_JR_NONNEG, &def->max_correction) &&
           cs_jread_int(c, &w, "position_iterations", false, 1, 1000000, &def->position_iterations) &&
           cs_jread_number(c, &w, "restitution_threshold", false, CS_JR_NONNEG,
                           &def->restitution_threshold) &&
           cs_jread_bool(c, &w, "frictionless", &def->frictionless);
}

static bool check_solver_name(cs_scene_loader* l, const cs_jval* at, int* solver)
{
    if (!cs_jcheck_type(&l->c, at, cJSON_String, "a solver name (a string)"))
    {
        return false;
    }
    int index = cs_solver_find(at->json->valuestring);
    if (index < 0)
    {
        char quoted[64];
        cs_json_quote(at->json->valuestring, quoted, sizeof quoted);
        return cs_jfail(&l->c, at, "unknown solver %s (registered: %s)", quoted, cs_solver_names());
    }
    *solver = index;
    return true;
}

static bool read_solver(cs_scene_loader* l, const cs_jval* root, cs_world_def* def)
{
    cs_jval s;
    if (!cs_jval_member(root, "solver", &s))
    {
        return true;
    }
    if (cJSON_IsString(s.json))
    {
        return check_solver_name(l, &s, &def->solver); // "solver": "amgs" is short for {"name": "amgs"}
    }
    static const char* const keys[] = {"name",  "iterations", "tolerance",  "tolerance_on", "warm_start",
                                       "alpha", "gamma",      "relaxation", "amgs_literal", NULL};
    const cs_jctx* c = &l->c;
    if (!cs_jcheck_object(c, &s, keys))
    {
        return false;
    }
    cs_jval name;
    if (cs_jval_member(&s, "name", &name) && !check_solver_name(l, &name, &def->solver))
    {
        return false;
    }
    cs_solver_params* p = &def->solver_params;
    if (!cs_jread_int(c, &s, "iterations", false, 1, 100000000, &p->iterations) ||
        !cs_jread_number(c, &s, "tolerance", false, CS_JR_NONNEG, &p->tolerance) ||
        !cs_jread_bool(c, &s, "warm_start", &p->warm_start) ||
        !cs_jread_number(c, &s, "alpha", false, CS_JR_POSITIVE, &p->alpha) ||
        !cs_jread_number(c, &s, "gamma", false, CS_JR_POSITIVE, &p->gamma) ||
        !cs_jread_number(c, &s, "relaxation", false, CS_JR_RELAX, &p->relaxation) ||
        !cs_jread_bool(c, &s, "amgs_literal", &p->amgs_literal))
    {
        return false;
    }
    cs_jval on;
    if (cs_jval_member(&s, "tolerance_on", &on))
    {
        const char* t = cJSON_IsString(on.json) ? on.json->valuestring : "";
        if (strcmp(t, "lcp") == 0)
        {
            p->tolerance_on = CS_RES_LCP;
        }
        else if (strcmp(t, "nat") == 0)
        {
            p->tolerance_on = CS_RES_NAT;
        }
        else
        {
            char got[96];
            cs_jval_describe(c, &on, got, sizeof got);
            return cs_jfail(c, &on, "must be \"lcp\" or \"nat\", got %s", got);
        }
    }
    return true;
}

static bool read_materials(cs_scene_loader* l, const cs_jval* root)
{
    cs_jval m;
    if (!cs_jval_member(root, "materials", &m))
    {
        return true;
    }
    if (!cs_jcheck_object(&l->c, &m, NULL)) // names are the user's; only duplicates are errors
    {
        return false;
    }
    int count = cJSON_GetArraySize(m.json);
    if (count == 0)
    {
        return true;
    }
    l->materials = calloc((size_t)count, sizeof *l->materials);
    if (l->materials == NULL)
    {
        cs_fail(l->c.err, CS_ERR_MEMORY, "%s: out of memory reading materials", l->c.file);
        return false;
    }
    static const char* const keys[] = {"friction", "restitution", NULL};
    int ordinal = 0;
    for (const cJSON* e = m.json->child; e != NULL; e = e->next, ++ordinal)
    {
        cs_jval v = cs_jval_child(&m, e, ordinal);
        cs_scene_material* mat = &l->materials[l->material_count];
        cs_circle_def d = cs_circle_def_default();
        mat->name = e->string != NULL ? e->string : "";
        mat->friction = d.friction;
        mat->restitution = d.restitution;
        if (!cs_jcheck_object(&l->c, &v, keys) ||
            !cs_jread_number(&l->c, &v, "friction", false, CS_JR_NONNEG, &mat->friction) ||
            !cs_jread_number(&l->c, &v, "restitution", false, CS_JR_UNIT, &mat->restitution))
        {
            return false;
        }
        l->material_count += 1;
    }
    // Sorted by name for lookups (names are unique: repeated keys were rejected above).
    qsort(l->materials, (size_t)l->material_count, sizeof *l->materials, compare_materials);
    return true;
}

static bool read_wall(cs_scene_loader* l, const cs_jval* w)
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
        if (!cs_jread_vec2(c, w, "point", true, &point) || !cs_jread_vec2(c, w, "normal", true, &normal))
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
    if (!cs_jread_vec2(c, w, "p0", true, &p0) || !cs_jread_vec2(c, w, "p1", true, &p1))
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

static bool read_body(cs_scene_loader* l, const cs_jval* b)
{
    const cs_jctx* c = &l->c;
    static const char* const keys[] = {"position", "radius",           "mass",     "density",  "velocity",
                                       "angle",    "angular_velocity", "material", "friction", "restitution",
                                       NULL};
    static const char* const mass_keys[] = {"mass", "density", NULL};
    cs_circle_def d = cs_circle_def_default();
    double mass, density;
    if (!cs_jcheck_object(c, b, keys) || !cs_jread_vec2(c, b, "position", true, &d.position) ||
        !cs_jread_number(c, b, "radius", true, CS_JR_POSITIVE, &d.radius) ||
        !cs_jrequire_one(c, b, mass_keys) || !cs_scene_read_mass(l, b, &mass, &density) ||
        !cs_jread_vec2(c, b, "velocity", false, &d.velocity) ||
        !cs_jread_number(c, b, "angle", false, CS_JR_ANY, &d.angle) ||
        !cs_jread_number(c, b, "angular_velocity", false, CS_JR_ANY, &d.angular_velocity) ||
        !cs_scene_read_surface(l, b, &d.friction, &d.restitution))
    {
        return false;
    }
    d.mass = cs_scene_disc_mass(mass, density, d.radius);
    return cs_scene_add_circle(l, b, &d);
}

// Reads an optional array and hands each element to `one`.
static bool read_list(cs_scene_loader* l, const cs_jval* root, const char* key,
                      bool (*one)(cs_scene_loader*, const cs_jval*))
{
    cs_jval list;
    if (!cs_jval_member(root, key, &list))
    {
        return true;
    }
    if (!cs_jcheck_type(&l->c, &list, cJSON_Array, NULL))
    {
        return false;
    }
    int ordinal = 0;
    for (const cJSON* e = list.json->child; e != NULL; e = e->next, ++ordinal)
    {
        cs_jval v = cs_jval_child(&list, e, ordinal);
        if (!one(l, &v))
        {
            return false;
        }
    }
    return true;
}

static bool generate(cs_scene_loader* l, const cs_jval* g)
{
    return cs_scene_generate(l, g);
}

// Top level -------------------------------------------------------------------------------------------------

static void base_name(const char* path, char* out, size_t size)
{
    const char* slash = strrchr(path, '/');
    const char* base = slash != NULL ? slash + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
    {
        n -= 5;
    }
    if (n >= size)
    {
        n = size - 1;
    }
    memcpy(out, base, n);
    out[n] = '\0';
}

static bool read_info(cs_scene_loader* l, const cs_jval* root, cs_scene_info* info)
{
    const cs_jctx* c = &l->c;
    const char* name = NULL;
    const char* description = NULL;
    if (!cs_jread_string(c, root, "name", false, &name) ||
        !cs_jread_string(c, root, "description", false, &description) ||
        !cs_jread_int(c, root, "steps", false, 1, 1000000000, &info->steps))
    {
        return false;
    }
    if (name != NULL)
    {
        if (strlen(name) >= sizeof info->name || name[0] == '\0')
        {
            cs_jval at;
            cs_jval_member(root, "name", &at);
            return cs_jfail(c, &at, "must be 1 to %d bytes long, got %zu", (int)sizeof info->name - 1,
                            strlen(name));
        }
        snprintf(info->name, sizeof info->name, "%s", name);
    }
    if (description != NULL)
    {
        if (strlen(description) >= sizeof info->description)
        {
            cs_jval at;
            cs_jval_member(root, "description", &at);
            return cs_jfail(c, &at, "must be at most %d bytes long, got %zu",
                            (int)sizeof info->description - 1, strlen(description));
        }
        snprintf(info->description, sizeof info->description, "%s", description);
    }
    return true;
}

// Adds a hint for the usual hand-editing mistakes to cJSON's bare error position.
static const char* syntax_hint(const char* text, const char* end)
{
    const char* p = text;
    while (*p != '\0' && (unsigned char)*p <= 32)
    {
        ++p;
    }
    if (*p == '\0')
    {
        return "the text is empty";
    }
    if (*end == '\0')
    {
        return "unexpected end of text (an unclosed { or [ ?)";
    }
    // cJSON may stop on either character of the "//" or "/*".
    const char* slash = end > text && end[-1] == '/' ? end - 1 : end;
    if (slash[0] == '/' && (slash[1] == '/' || slash[1] == '*'))
    {
        return "JSON has no comments";
    }
    if (strncmp(end, "NaN", 3) == 0 || strncmp(end, "nan", 3) == 0 || strncmp(end, "Infinity", 8) == 0 ||
        strncmp(end, "inf", 3) == 0 || strncmp(end, "-Infinity", 9) == 0 || strncmp(end, "-inf", 4) == 0)
    {
        return "JSON has no NaN or Infinity: write a finite number";
    }
    if (*end == '\'')
    {
        return "JSON strings use double quotes";
    }
    const char* q = end;
    while (q > text && (unsigned char)q[-1] <= 32)
    {
        --q;
    }
    if ((*end == '}' || *end == ']') && q > text && q[-1] == ',')
    {
        return "a trailing comma before it?";
    }
    if (q > text && (q[-1] == '}' || q[-1] == ']') && q - 1 > text)
    {
        // cJSON reports a trailing comma inside an object after its closing brace.
        const char* r = q - 1;
        while (r > text && (unsigned char)r[-1] <= 32)
        {
            --r;
        }
        if (r > text && r[-1] == ',')
        {
            return "a trailing comma before the closing bracket?";
        }
    }
    if (*end == '"' || *end == '{' || *end == '[' || (*end >= '0' && *end <= '9'))
    {
        return "a missing comma before it?";
    }
    return "unexpected character";
}

cs_world* cs_scene_load_string(const char* text, const char* display_name, cs_scene_info* info, cs_error* err)
{
    if (display_name == NULL)
    {
        display_name = "<scene>";
    }
    if (text == NULL)
    {
        cs_fail(err, CS_ERR_USAGE, "%s: no scene text given", display_name);
        return NULL;
    }
    const char* end = NULL;
    cJSON* root = cJSON_ParseWithOpts(text, &end, 1);
    if (root == NULL)
    {
        if (end == NULL || end < text)
        {
            end = text;
        }
        int line, column;
        cs_json_position(text, end, &line, &column);
        cs_fail(err, CS_ERR_PARSE, "%s:%d:%d: invalid JSON near line %d, column %d: %s", display_name, line,
                column, line, column, syntax_hint(text, end));
        return NULL;
    }

    cs_scene_loader l;
    memset(&l, 0, sizeof l);
    l.c.text = text;
    l.c.file = display_name;
    l.c.err = err;
    cs_scene_info local;
    memset(&local, 0, sizeof local);
    local.steps = 600;
    base_name(display_name, local.name, sizeof local.name);
    cs_world_def def = cs_world_def_default();
    cs_jval r = cs_jval_root(root);
    static const char* const keys[] = {"name",      "description", "steps",  "world",      "solver",
                                       "materials", "walls",       "bodies", "generators", NULL};

    bool ok = cs_jcheck_type(&l.c, &r, cJSON_Object, "an object { ... } at the top level") &&
              cs_jcheck_object(&l.c, &r, keys) && read_info(&l, &r, &local) && read_world(&l, &r, &def) &&
              read_solver(&l, &r, &def) && read_materials(&l, &r);
    if (ok)
    {
        cs_error world_err = {CS_OK, ""};
        l.world = cs_world_create(&def, &world_err);
        if (l.world == NULL)
        {
            ok = cs_jfail(&l.c, &r, "cannot create the world: %s", world_err.message);
        }
    }
    ok = ok && read_list(&l, &r, "walls", read_wall) && read_list(&l, &r, "bodies", read_body) &&
         read_list(&l, &r, "generators", generate);
    if (ok && cs_world_body_count(l.world) == 0)
    {
        ok = cs_jfail(&l.c, &r, "the scene has no bodies (add \"bodies\" or \"generators\")");
    }

    free(l.materials);
    cJSON_Delete(root);
    if (!ok)
    {
        cs_world_destroy(l.world);
        return NULL;
    }
    if (info != NULL)
    {
        *info = local;
    }
    if (err != NULL)
    {
        err->status = CS_OK;
        err->message[0] = '\0';
    }
    return l.world;
}

cs_world* cs_scene_load(const char* path, cs_scene_info* info, cs_error* err)
{
    if (path == NULL)
    {
        cs_fail(err, CS_ERR_USAGE, "no scene path given");
        return NULL;
    }
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        cs_fail(err, CS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t capacity = 4096, used = 0;
    char* text = malloc(capacity);
    bool failed = text == NULL;
    while (!failed)
    {
        if (used + 1 >= capacity)
        {
            if (capacity >= (size_t)CS_SCENE_MAX_FILE_BYTES)
            {
                fclose(f);
                free(text);
                cs_fail(err, CS_ERR_IO, "%s: cannot read: larger than %ld MiB", path,
                        CS_SCENE_MAX_FILE_BYTES / (1024L * 1024L));
                return NULL;
            }
            char* grown = realloc(text, capacity * 2);
            if (grown == NULL)
            {
                failed = true;
                break;
            }
            text = grown;
            capacity *= 2;
        }
        size_t n = fread(text + used, 1, capacity - 1 - used, f);
        used += n;
        if (n == 0)
        {
            break;
        }
    }
    if (failed)
    {
        fclose(f);
        free(text);
        cs_fail(err, CS_ERR_MEMORY, "%s: out of memory reading the file", path);
        return NULL;
    }
    if (ferror(f))
    {
        int e = errno;
        fclose(f);
        free(text);
        cs_fail(err, CS_ERR_IO, "%s: cannot read: %s", path, strerror(e));
        return NULL;
    }
    fclose(f);
    text[used] = '\0';
    if (strlen(text) != used)
    {
        // cJSON stops at a NUL byte; the rest of the file would be ignored silently.
        int line, column;
        cs_json_position(text, text + strlen(text), &line, &column);
        cs_fail(err, CS_ERR_PARSE, "%s:%d:%d: the file contains a NUL byte", path, line, column);
        free(text);
        return NULL;
    }
    cs_world* world = cs_scene_load_string(text, path, info, err);
    free(text);
    return world;
}
