// Scene generators: a grid (the paper's pools), a vertical stack (Stacking) and a random pile.
//
// Generators are deterministic: the same file gives bit-identical bodies on the same build, since
// randomness comes from our own splitmix64 stream seeded by the file, never from the C library.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/generator_formulas.h"
#include "scene/scene_internal.h"

// Circles tried per pile body before the pile gives up (rejection sampling must terminate).
#define CS_PILE_TRIES 1000

// A required body count that must place at least one body.
static bool read_count(cs_scene_loader* l, const cs_jval* g, const char* key, int* out)
{
    if (!cs_jread_int(&l->c, g, key, true, 0, CS_SCENE_MAX_BODIES, out))
    {
        return false;
    }
    if (*out == 0)
    {
        cs_jval at;
        cs_jval_member(g, key, &at);
        return cs_jfail(&l->c, &at, "must be >= 1, got 0 (the generator would place no bodies)");
    }
    return true;
}

// Friction, restitution and velocity every generator shares.
static bool read_common(cs_scene_loader* l, const cs_jval* g, cs_circle_def* d)
{
    *d = cs_circle_def_default();
    return cs_scene_read_surface(l, g, &d->friction, &d->restitution) &&
           cs_jread_vec2(&l->c, g, "velocity", false, &d->velocity);
}

// Rows bottom first, columns left to right; odd rows shift by row_offset so that a lattice of
// circles collapses into a packing instead of standing as columns in unstable equilibrium.
static bool grid(cs_scene_loader* l, const cs_jval* g)
{
    static const char* const keys[] = {"type",       "origin",   "columns",     "rows",       "spacing",
                                       "row_offset", "radius",   "mass",        "mass_range", "density",
                                       "material",   "friction", "restitution", "jitter",     "seed",
                                       "velocity",   NULL};
    static const char* const mass_keys[] = {"mass", "mass_range", "density", NULL};
    const cs_jctx* c = &l->c;
    cs_circle_def d;
    cs_vec2 origin = {0, 0};
    double spacing[2] = {0, 0}, mass_range[2] = {0, 0};
    double row_offset = 0.0, jitter = 0.0, mass = 0.0, density = 0.0;
    int columns = 0, rows = 0;
    uint64_t seed = 0;
    if (!cs_jcheck_object(c, g, keys) || !cs_jread_vec2(c, g, "origin", true, &origin) ||
        !read_count(l, g, "columns", &columns) || !read_count(l, g, "rows", &rows) ||
        !cs_jread_numbers(c, g, "spacing", true, 2, CS_JR_POSITIVE, spacing) ||
        !cs_jread_number(c, g, "row_offset", false, CS_JR_ANY, &row_offset) || !read_common(l, g, &d) ||
        !cs_jread_number(c, g, "radius", true, CS_JR_POSITIVE, &d.radius) ||
        !cs_jrequire_one(c, g, mass_keys) || !cs_scene_read_mass(l, g, &mass, &density) ||
        !cs_jread_numbers(c, g, "mass_range", false, 2, CS_JR_POSITIVE, mass_range) ||
        !cs_jread_number(c, g, "jitter", false, CS_JR_NONNEG, &jitter) ||
        !cs_jread_uint53(c, g, "seed", &seed) || !cs_scene_check_room(l, g, (int64_t)columns * rows))
    {
        return false;
    }
    bool ranged = cs_jhas(g, "mass_range");
    uint64_t state = seed;
    for (int r = 0; r < rows; ++r)
    {
        // Pool 2: mass linear in the row index, lowest row mass_range[0], highest mass_range[1].
        double row_mass = ranged ? cs_gen_row_mass(r, rows, mass_range[0], mass_range[1])
                                 : cs_scene_disc_mass(mass, density, d.radius);
        for (int k = 0; k < columns; ++k)
        {
            cs_gen_grid_point(origin.x, origin.y, spacing[0], spacing[1], row_offset, jitter, r, k, &state,
                              &d.position.x, &d.position.y);
            d.mass = row_mass;
            if (!cs_scene_add_circle(l, g, &d))
            {
                return false;
            }
        }
    }
    return true;
}

// count circles standing on base (the bottom point of the lowest circle), gap apart.
static bool stack(cs_scene_loader* l, const cs_jval* g)
{
    static const char* const keys[] = {"type", "base",     "count",    "radius",      "mass",     "density",
                                       "gap",  "material", "friction", "restitution", "velocity", NULL};
    static const char* const mass_keys[] = {"mass", "density", NULL};
    const cs_jctx* c = &l->c;
    cs_circle_def d;
    cs_vec2 base = {0, 0};
    double gap = 0.0, mass = 0.0, density = 0.0;
    int count = 0;
    if (!cs_jcheck_object(c, g, keys) || !cs_jread_vec2(c, g, "base", true, &base) ||
        !read_count(l, g, "count", &count) || !read_common(l, g, &d) ||
        !cs_jread_number(c, g, "radius", true, CS_JR_POSITIVE, &d.radius) ||
        !cs_jrequire_one(c, g, mass_keys) || !cs_scene_read_mass(l, g, &mass, &density) ||
        !cs_jread_number(c, g, "gap", false, CS_JR_NONNEG, &gap) || !cs_scene_check_room(l, g, count))
    {
        return false;
    }
    d.mass = cs_scene_disc_mass(mass, density, d.radius);
    for (int k = 0; k < count; ++k)
    {
        d.position.x = base.x;
        d.position.y = cs_gen_stack_y(base.y, d.radius, gap, k);
        if (!cs_scene_add_circle(l, g, &d))
        {
            return false;
        }
    }
    return true;
}

// A pile's keys once read and checked: the placement, each circle's mass rule, the speed range and the
// shared surface and base velocity.
typedef struct pile_request
{
    cs_gen_pile spec;
    double mass, density;
    double speed_range[2];
    cs_circle_def d;
} pile_request;

// Reads the pile's keys and checks the ranges are ordered and the region holds the largest circle.
static bool read_pile(cs_scene_loader* l, const cs_jval* g, pile_request* q)
{
    static const char* const keys[] = {"type",         "seed",     "count",       "region",   "radius",
                                       "radius_range", "mass",     "density",     "material", "friction",
                                       "restitution",  "velocity", "speed_range", NULL};
    static const char* const radius_keys[] = {"radius", "radius_range", NULL};
    static const char* const mass_keys[] = {"mass", "density", NULL};
    const cs_jctx* c = &l->c;
    double region[4] = {0, 0, 0, 0}, radius_range[2] = {0, 0};
    double radius = 0.0;
    int count = 0;
    uint64_t seed = 0;
    q->mass = q->density = 0.0;
    q->speed_range[0] = q->speed_range[1] = 0.0;
    if (!cs_jcheck_object(c, g, keys) || !cs_jread_uint53(c, g, "seed", &seed) ||
        !read_count(l, g, "count", &count) || !cs_jread_numbers(c, g, "region", true, 4, CS_JR_ANY, region) ||
        !cs_jrequire_one(c, g, radius_keys) ||
        !cs_jread_number(c, g, "radius", false, CS_JR_POSITIVE, &radius) ||
        !cs_jread_numbers(c, g, "radius_range", false, 2, CS_JR_POSITIVE, radius_range) ||
        !cs_jrequire_one(c, g, mass_keys) || !cs_scene_read_mass(l, g, &q->mass, &q->density) ||
        !read_common(l, g, &q->d) ||
        !cs_jread_numbers(c, g, "speed_range", false, 2, CS_JR_NONNEG, q->speed_range) ||
        !cs_scene_check_room(l, g, count))
    {
        return false;
    }
    if (!(q->speed_range[0] <= q->speed_range[1]))
    {
        cs_jval at;
        cs_jval_member(g, "speed_range", &at);
        return cs_jfail(c, &at, "must be [slowest, fastest] with slowest <= fastest, got [%g, %g]",
                        q->speed_range[0], q->speed_range[1]);
    }
    bool ranged = cs_jhas(g, "radius_range");
    if (ranged && !(radius_range[0] <= radius_range[1]))
    {
        cs_jval at;
        cs_jval_member(g, "radius_range", &at);
        return cs_jfail(c, &at, "must be [smallest, largest] with smallest <= largest, got [%g, %g]",
                        radius_range[0], radius_range[1]);
    }
    double rmax = ranged ? radius_range[1] : radius;
    double width = region[2] - region[0], height = region[3] - region[1];
    cs_jval region_at;
    cs_jval_member(g, "region", &region_at);
    if (!(width > 0.0 && height > 0.0 && isfinite(width) && isfinite(height)))
    {
        return cs_jfail(c, &region_at, "must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1 (finite extents)");
    }
    if (width < 2.0 * rmax || height < 2.0 * rmax)
    {
        return cs_jfail(c, &region_at, "is %g x %g m: too small to place any circle of radius %g", width,
                        height, rmax);
    }
    q->spec = (cs_gen_pile){.seed = seed,
                            .count = count,
                            .region = {region[0], region[1], region[2], region[3]},
                            .ranged = ranged,
                            .radius = radius,
                            .radius_range = {radius_range[0], radius_range[1]},
                            .tries = CS_PILE_TRIES};
    return true;
}

// Adds the placed circles. speed_range: each circle also moves in a random direction at a speed uniform in
// the range (an elastic gas), from a stream of its own so that positions do not depend on it.
static bool add_pile(cs_scene_loader* l, const cs_jval* g, pile_request* q, const double* x, const double* y,
                     const double* r, int placed)
{
    uint64_t velocities = cs_gen_velocity_seed(q->spec.seed);
    cs_circle_def d = q->d;
    cs_vec2 base = d.velocity;
    bool ok = true;
    for (int n = 0; ok && n < placed; ++n)
    {
        d.position.x = x[n];
        d.position.y = y[n];
        d.radius = r[n];
        d.mass = cs_scene_disc_mass(q->mass, q->density, r[n]);
        if (q->speed_range[1] > 0.0)
        {
            cs_gen_pile_velocity(&velocities, q->speed_range[0], q->speed_range[1], base.x, base.y,
                                 &d.velocity.x, &d.velocity.y);
        }
        ok = cs_scene_add_circle(l, g, &d);
    }
    return ok;
}

// Random sequential addition of non-overlapping discs inside a box (cs_gen_pile_place): read and check the
// keys, place the circles (saying why when memory or room runs out), add them.
static bool pile(cs_scene_loader* l, const cs_jval* g)
{
    const cs_jctx* c = &l->c;
    pile_request q;
    if (!read_pile(l, g, &q))
    {
        return false;
    }
    int count = q.spec.count;
    double* x = malloc((size_t)count * sizeof *x);
    double* y = malloc((size_t)count * sizeof *y);
    double* r = malloc((size_t)count * sizeof *r);
    int placed = 0;
    cs_gen_pile_status status = x != NULL && y != NULL && r != NULL
                                    ? cs_gen_pile_place(&q.spec, x, y, r, &placed)
                                    : CS_GEN_PILE_MEMORY;
    bool ok = status == CS_GEN_PILE_OK;
    if (status == CS_GEN_PILE_MEMORY)
    {
        cs_fail(c->err, CS_ERR_MEMORY, "%s: out of memory placing a pile of %d circles", c->file, count);
    }
    else if (status == CS_GEN_PILE_FULL)
    {
        cs_jfail(c, g,
                 "placed only %d of %d circles after %d tries for the next one: enlarge \"region\" or lower "
                 "\"count\"",
                 placed, count, CS_PILE_TRIES);
    }
    ok = ok && add_pile(l, g, &q, x, y, r, placed);
    free(x);
    free(y);
    free(r);
    return ok;
}

bool cs_scene_generate(cs_scene_loader* l, const cs_jval* generator)
{
    const char* type = NULL;
    if (!cs_jcheck_type(&l->c, generator, cJSON_Object, NULL) ||
        !cs_jread_string(&l->c, generator, "type", true, &type))
    {
        return false;
    }
    if (strcmp(type, "grid") == 0)
    {
        return grid(l, generator);
    }
    if (strcmp(type, "stack") == 0)
    {
        return stack(l, generator);
    }
    if (strcmp(type, "pile") == 0)
    {
        return pile(l, generator);
    }
    cs_jval at;
    cs_jval_member(generator, "type", &at);
    char quoted[64];
    cs_json_quote(type, quoted, sizeof quoted);
    return cs_jfail(&l->c, &at, "unknown generator type %s (expected \"grid\", \"stack\" or \"pile\")",
                    quoted);
}
