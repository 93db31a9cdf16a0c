// Scene loader internals shared by scene.c (the top level), scene_sections.c (world, solver,
// materials), scene_shapes.c (walls, bodies) and scene_generators.c.
#ifndef CS_SCENE_INTERNAL_H
#define CS_SCENE_INTERNAL_H

#include "circlesim/scene.h"
#include "circlesim/world.h"
#include "scene/scene_json.h"

// A cap on the bodies one scene may create, so that a typo ("rows": 1e7) fails with a message
// instead of exhausting memory. The fuzz target builds with a smaller cap.
#ifndef CS_SCENE_MAX_BODIES
#define CS_SCENE_MAX_BODIES 1000000
#endif

#define CS_SCENE_PI 3.14159265358979323846

typedef struct cs_scene_material
{
    const char* name; // the key in "materials" (owned by the cJSON tree)
    double friction;
    double restitution;
} cs_scene_material;

typedef struct cs_scene_loader
{
    cs_jctx c;
    cs_world* world;
    cs_scene_material* materials;
    int material_count;
    cs_scene_info* info; // warnings go here
    // The lightest and heaviest bodies so far and where they were made, for the mass-ratio warning.
    double lightest, heaviest;
    cs_jval lightest_at, heaviest_at;
} cs_scene_loader;

// Friction and restitution of a body, wall or generator: the defaults of cs_circle_def_default(),
// then the named "material", then inline "friction"/"restitution" (which override the material).
bool cs_scene_read_surface(cs_scene_loader* l, const cs_jval* object, double* friction, double* restitution);
// "mass" or "density" (the caller has checked that exactly one of them, or of its own
// alternatives, is present); the other output is set to 0.
bool cs_scene_read_mass(cs_scene_loader* l, const cs_jval* object, double* mass, double* density);
// Mass of a disc from either a mass or a density (ρ π r²).
double cs_scene_disc_mass(double mass, double density, double radius);
// Fails (at `at`) unless `extra` more bodies keep the scene within CS_SCENE_MAX_BODIES.
bool cs_scene_check_room(cs_scene_loader* l, const cs_jval* at, int64_t extra);
// Validates and adds one circle; errors name `at`.
bool cs_scene_add_circle(cs_scene_loader* l, const cs_jval* at, const cs_circle_def* def);

// Hands each element of the array root.key to `one` (scene.c); an absent key is fine unless required.
bool cs_scene_read_list(cs_scene_loader* l, const cs_jval* root, const char* key, bool required,
                        bool (*one)(cs_scene_loader*, const cs_jval*));

// Sane ranges (scene_ranges.c, on world/limits.h) -------------------------------------------------------
// A circle about to be added, made at `at` (a "bodies" entry or a generator): out-of-range fields fail at
// their key when `at` has it; extreme-but-valid ones add warnings.
bool cs_scene_check_circle(cs_scene_loader* l, const cs_jval* at, const cs_circle_def* def);
// The world and solver settings read into def, located at their keys.
bool cs_scene_check_world(cs_scene_loader* l, const cs_jval* root, const cs_world_def* def);
// A wall point read from member `key` of wall.
bool cs_scene_check_wall_point(cs_scene_loader* l, const cs_jval* wall, const char* key, cs_vec2 p);
// After the last body: the mass-ratio warning.
void cs_scene_finish_warnings(cs_scene_loader* l);

// The optional top-level sections (scene_sections.c); an absent section leaves the defaults.
bool cs_scene_read_world(cs_scene_loader* l, const cs_jval* root, cs_world_def* def);
bool cs_scene_read_solver(cs_scene_loader* l, const cs_jval* root, cs_world_def* def);
// Fills l->materials, sorted by name for cs_scene_read_surface.
bool cs_scene_read_materials(cs_scene_loader* l, const cs_jval* root);

// One entry of "walls" or "bodies" (scene_shapes.c).
bool cs_scene_read_wall(cs_scene_loader* l, const cs_jval* wall);
bool cs_scene_read_body(cs_scene_loader* l, const cs_jval* body);

// One entry of "joints" (scene_joints.c), read after every body exists.
bool cs_scene_read_joint(cs_scene_loader* l, const cs_jval* joint);

// One entry of "generators" (scene_generators.c).
bool cs_scene_generate(cs_scene_loader* l, const cs_jval* generator);

#endif
