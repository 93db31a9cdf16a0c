// Sane ranges at load (docs/SCENES.md "Ranges"): the world's own checks (world/limits.h), located at the
// key that holds the value, and warnings for extreme but valid values that say what will go wrong.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scene/scene_internal.h"
#include "world/limits.h"

static void warn(cs_scene_loader* l, const cs_jval* at, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void warn(cs_scene_loader* l, const cs_jval* at, const char* fmt, ...)
{
    cs_scene_info* info = l->info;
    if (info->warning_count < CS_SCENE_WARNINGS_KEPT)
    {
        va_list args;
        va_start(args, fmt);
        cs_jlocate_message(&l->c, at, false, info->warnings[info->warning_count], CS_ERROR_MAX, fmt, args);
        va_end(args);
    }
    info->warning_count += 1;
}

// The member `key` of object when it is there, else object itself.
static cs_jval member_or_self(const cs_jval* object, const char* key)
{
    cs_jval v;
    return cs_jval_member(object, key, &v) ? v : *object;
}

bool cs_scene_check_circle(cs_scene_loader* l, const cs_jval* at, const cs_circle_def* def)
{
    cs_error why = {CS_OK, ""};
    const char* key = cs_circle_def_problem(def, &why);
    if (key != NULL)
    {
        cs_jval v;
        if (cs_jval_member(at, key, &v))
        {
            return cs_jfail(&l->c, &v, "%s", why.message);
        }
        // Made by arithmetic (a generator's grid, a density times r²): name the body and the field.
        if (strcmp(key, "mass") == 0 && cs_jval_member(at, "density", &v))
        {
            return cs_jfail(&l->c, &v, "the mass of body %d (density x pi r^2) %s",
                            cs_world_body_count(l->world), why.message);
        }
        return cs_jfail(&l->c, at, "body %d: %s: %s", cs_world_body_count(l->world), key, why.message);
    }
    if (!cs_circle_def_precise(def, &why))
    {
        cs_jval v = member_or_self(at, "position");
        warn(l, &v, "warning: body %d is %s", cs_world_body_count(l->world), why.message);
    }
    // The mass ratio warning is about dynamic bodies: a static or kinematic circle's mass is ignored.
    if (def->type == CS_BODY_DYNAMIC)
    {
        if (!(l->heaviest > 0.0) || def->mass < l->lightest)
        {
            l->lightest = def->mass;
            l->lightest_at = *at;
        }
        if (!(l->heaviest > 0.0) || def->mass > l->heaviest)
        {
            l->heaviest = def->mass;
            l->heaviest_at = *at;
        }
    }
    return true;
}

void cs_scene_finish_warnings(cs_scene_loader* l)
{
    if (cs_world_body_count(l->world) < 2 || !(l->heaviest >= CS_LIMIT_MASS_RATIO_WARN * l->lightest))
    {
        return;
    }
    char light[256];
    cs_jval_path(&l->lightest_at, light, sizeof light);
    cs_jval v = member_or_self(&l->heaviest_at, "mass");
    warn(l, &v,
         "warning: a mass of %g kg is %.3g times the lightest (%g kg, %s); from %g:1 on, PGS and AMGS need "
         "far "
         "more "
         "iterations than usual, and a heavy body resting on light ones sinks through them at %d iterations",
         l->heaviest, l->heaviest / l->lightest, l->lightest, light[0] != '\0' ? light : "top level",
         CS_LIMIT_MASS_RATIO_WARN, cs_world_solver_params(l->world)->iterations);
}

bool cs_scene_check_world(cs_scene_loader* l, const cs_jval* root, const cs_world_def* def)
{
    cs_error why = {CS_OK, ""};
    const char* key = cs_world_def_problem(def, &why);
    if (key == NULL)
    {
        return true;
    }
    // "world.gravity" → root.world.gravity (the solver section may be a bare name: then at it).
    char section[32];
    const char* dot = strchr(key, '.');
    size_t n = dot != NULL ? (size_t)(dot - key) : 0;
    snprintf(section, sizeof section, "%.*s", (int)n, key);
    cs_jval s = member_or_self(root, section);
    cs_jval v = cJSON_IsObject(s.json) && dot != NULL ? member_or_self(&s, dot + 1) : s;
    return cs_jfail(&l->c, &v, "%s", why.message);
}

bool cs_scene_check_wall_point(cs_scene_loader* l, const cs_jval* wall, const char* key, cs_vec2 p)
{
    cs_error why = {CS_OK, ""};
    if (cs_wall_point_ok(p, &why))
    {
        return true;
    }
    cs_jval v = member_or_self(wall, key);
    return cs_jfail(&l->c, &v, "%s", why.message);
}
