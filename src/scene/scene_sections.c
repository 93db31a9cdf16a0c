// The settings sections of a scene file: "world", "solver" and "materials", and the surface
// (friction, restitution) that bodies, walls and generators take from a named material.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"

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

// "row_order": "coloured" | "key" (cs_row_order).
static bool read_row_order(cs_scene_loader* l, const cs_jval* world, cs_row_order* order)
{
    cs_jval at;
    if (!cs_jval_member(world, "row_order", &at))
    {
        return true;
    }
    if (!cs_jcheck_type(&l->c, &at, cJSON_String, "a row order (\"coloured\" or \"key\")"))
    {
        return false;
    }
    int index = cs_row_order_find(at.json->valuestring);
    if (index < 0)
    {
        char quoted[64];
        cs_json_quote(at.json->valuestring, quoted, sizeof quoted);
        return cs_jfail(&l->c, &at, "unknown row order %s (coloured, key)", quoted);
    }
    *order = (cs_row_order)index;
    return true;
}

// "formulation": "split" | "spook" | "soft" | "relax" (cs_formulation).
static bool read_formulation(cs_scene_loader* l, const cs_jval* world, cs_formulation* formulation)
{
    cs_jval at;
    if (!cs_jval_member(world, "formulation", &at))
    {
        return true;
    }
    if (!cs_jcheck_type(&l->c, &at, cJSON_String,
                        "a formulation (\"split\", \"spook\", \"soft\" or \"relax\")"))
    {
        return false;
    }
    int index = cs_formulation_find(at.json->valuestring);
    if (index < 0)
    {
        char quoted[64];
        cs_json_quote(at.json->valuestring, quoted, sizeof quoted);
        return cs_jfail(&l->c, &at, "unknown formulation %s (split, spook, soft, relax)", quoted);
    }
    *formulation = (cs_formulation)index;
    return true;
}

bool cs_scene_read_world(cs_scene_loader* l, const cs_jval* root, cs_world_def* def)
{
    cs_jval w;
    if (!cs_jval_member(root, "world", &w))
    {
        return true;
    }
    static const char* const keys[] = {"gravity",
                                       "time_step",
                                       "speculative_margin",
                                       "linear_slop",
                                       "baumgarte",
                                       "max_correction",
                                       "position_iterations",
                                       "position_tolerance",
                                       "restitution_threshold",
                                       "hit_event_threshold",
                                       "sleep",
                                       "continuous",
                                       "frictionless",
                                       "row_order",
                                       "formulation",
                                       "spook_stiffness",
                                       "spook_damping_time",
                                       NULL};
    const cs_jctx* c = &l->c;
    return cs_jcheck_object(c, &w, keys) && read_row_order(l, &w, &def->row_order) &&
           read_formulation(l, &w, &def->formulation) &&
           cs_jread_number(c, &w, "spook_stiffness", false, CS_JR_POSITIVE, &def->spook_stiffness) &&
           cs_jread_number(c, &w, "spook_damping_time", false, CS_JR_NONNEG, &def->spook_damping_time) &&
           cs_jread_vec2(c, &w, "gravity", false, &def->gravity) &&
           cs_jread_number(c, &w, "time_step", false, CS_JR_POSITIVE, &def->time_step) &&
           cs_jread_number(c, &w, "speculative_margin", false, CS_JR_NONNEG, &def->speculative_margin) &&
           cs_jread_number(c, &w, "linear_slop", false, CS_JR_NONNEG, &def->linear_slop) &&
           cs_jread_number(c, &w, "baumgarte", false, CS_JR_UNIT, &def->baumgarte) &&
           cs_jread_number(c, &w, "max_correction", false, CS_JR_NONNEG, &def->max_correction) &&
           cs_jread_int(c, &w, "position_iterations", false, 1, 1000000, &def->position_iterations) &&
           cs_jread_number(c, &w, "position_tolerance", false, CS_JR_NONNEG, &def->position_tolerance) &&
           cs_jread_number(c, &w, "restitution_threshold", false, CS_JR_NONNEG,
                           &def->restitution_threshold) &&
           cs_jread_number(c, &w, "hit_event_threshold", false, CS_JR_NONNEG, &def->hit_event_threshold) &&
           cs_jread_bool(c, &w, "frictionless", &def->frictionless) &&
           cs_jread_bool(c, &w, "sleep", &def->enable_sleep) &&
           cs_jread_bool(c, &w, "continuous", &def->enable_continuous);
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

// A method parameter the section's solver does not read would be silently ignored: an error at its key.
static bool check_solver_keys_used(const cs_jctx* c, const cs_jval* section, int solver)
{
    static const struct
    {
        const char* key;
        unsigned flag;
    } keys[] = {{"alpha", CS_SOLVER_USES_ALPHA},
                {"gamma", CS_SOLVER_USES_GAMMA},
                {"relaxation", CS_SOLVER_USES_RELAXATION},
                {"amgs_literal", CS_SOLVER_USES_LITERAL},
                {"kgs", CS_SOLVER_USES_KGS},
                {"ksm", CS_SOLVER_USES_KSM},
                {"subspace_solver", CS_SOLVER_USES_SUBSPACE}};
    const cs_solver_info* info = cs_solver_at(solver);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
    {
        cs_jval at;
        if (cs_jval_member(section, keys[k].key, &at) && !(info->flags & keys[k].flag))
        {
            return cs_jfail(c, &at, "does nothing for solver \"%s\" (used by: %s)", info->name,
                            cs_solver_names_with(keys[k].flag));
        }
    }
    return true;
}

bool cs_scene_read_solver(cs_scene_loader* l, const cs_jval* root, cs_world_def* def)
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
    static const char* const keys[] = {
        "name",       "iterations",   "tolerance", "tolerance_on", "warm_start", "alpha",           "gamma",
        "relaxation", "amgs_literal", "simd",      "kgs",          "ksm",        "subspace_solver", NULL};
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
        !cs_jread_bool(c, &s, "amgs_literal", &p->amgs_literal) || !cs_jread_bool(c, &s, "simd", &p->simd) ||
        !cs_jread_int(c, &s, "kgs", false, 1, 100000, &p->kgs) ||
        !cs_jread_int(c, &s, "ksm", false, 0, 1000, &p->ksm))
    {
        return false;
    }
    if (!check_solver_keys_used(c, &s, def->solver))
    {
        return false;
    }
    cs_jval sub;
    if (cs_jval_member(&s, "subspace_solver", &sub))
    {
        int found = cJSON_IsString(sub.json) ? cs_subspace_solver_find(sub.json->valuestring) : -1;
        if (found < 0)
        {
            return cs_jfail_expected(c, &sub, "\"cholmod\" or \"pcg\"");
        }
        p->subspace_solver = (cs_subspace_solver)found;
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
            return cs_jfail_expected(c, &on, "\"lcp\" or \"nat\"");
        }
    }
    return true;
}

bool cs_scene_read_materials(cs_scene_loader* l, const cs_jval* root)
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
