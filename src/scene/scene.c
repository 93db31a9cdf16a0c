// JSON scene files → a world. The format is documented in docs/SCENES.md.
//
// Loading is strict on purpose: an unknown key, a wrong type or a bad value is an error naming the
// key and its line and column, because a silently ignored typo ("raduis") would make a comparison
// of solvers quietly compare the wrong scenes. Nothing half-loaded is ever returned.
#include "circlesim/scene.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "scene/scene_internal.h"

bool cs_scene_read_list(cs_scene_loader* l, const cs_jval* root, const char* key, bool required,
                        bool (*one)(cs_scene_loader*, const cs_jval*))
{
    cs_jval list;
    if (!cs_jval_member(root, key, &list))
    {
        return !required || cs_jrequire(&l->c, root, key);
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

// The scene's JSON tree, or NULL after saying where the syntax broke.
static cJSON* parse_scene_json(const char* text, const char* display_name, cs_error* err)
{
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
    }
    return root;
}

// The top level's keys in order: info, world, solver and materials (checked together), the world created,
// then walls, bodies, generators and joints; a scene without bodies fails. l->world is the world once
// created, even when a later key fails.
static bool read_scene(cs_scene_loader* l, const cs_jval* r, cs_scene_info* local)
{
    static const char* const keys[] = {"name",  "description", "steps",      "world",  "solver", "materials",
                                       "walls", "bodies",      "generators", "joints", NULL};
    cs_world_def def = cs_world_def_default();
    bool ok = cs_jcheck_type(&l->c, r, cJSON_Object, "an object { ... } at the top level") &&
              cs_jcheck_object(&l->c, r, keys) && read_info(l, r, local) && cs_scene_read_world(l, r, &def) &&
              cs_scene_read_solver(l, r, &def) && cs_scene_read_materials(l, r) &&
              cs_scene_check_world(l, r, &def);
    if (ok)
    {
        cs_error world_err = {CS_OK, ""};
        l->world = cs_world_create(&def, &world_err);
        if (l->world == NULL)
        {
            ok = cs_jfail(&l->c, r, "cannot create the world: %s", world_err.message);
        }
    }
    ok = ok && cs_scene_read_list(l, r, "walls", false, cs_scene_read_wall) &&
         cs_scene_read_list(l, r, "bodies", false, cs_scene_read_body) &&
         cs_scene_read_list(l, r, "generators", false, cs_scene_generate) &&
         cs_scene_read_list(l, r, "joints", false, cs_scene_read_joint);
    if (ok && cs_world_body_count(l->world) == 0)
    {
        ok = cs_jfail(&l->c, r, "the scene has no bodies (add \"bodies\" or \"generators\")");
    }
    return ok;
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
    cJSON* root = parse_scene_json(text, display_name, err);
    if (root == NULL)
    {
        return NULL;
    }

    cs_scene_loader l;
    memset(&l, 0, sizeof l);
    l.c.text = text;
    l.c.file = display_name;
    l.c.err = err;
    cs_scene_info local;
    memset(&local, 0, sizeof local);
    l.info = &local;
    local.steps = 600;
    base_name(display_name, local.name, sizeof local.name);
    cs_jval r = cs_jval_root(root);
    bool ok = read_scene(&l, &r, &local);
    if (ok)
    {
        cs_scene_finish_warnings(&l);
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
    char* text = NULL;
    size_t used = 0;
    if (cs_read_file(path, (size_t)CS_SCENE_MAX_FILE_BYTES, &text, &used, err) != CS_OK)
    {
        return NULL;
    }
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
