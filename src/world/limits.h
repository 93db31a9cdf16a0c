// The sane ranges of every number a world takes (docs/SCENES.md "Ranges"), in one place: the world's
// public API, the scene loader (which locates the offending key) and the CLI's options all check
// against these, and the fault-injection tests generate their cases from them.
//
// The bounds are where the step's arithmetic or its fixed tolerances stop meaning anything: inverse
// inertia 2/(m r²) must stay a normal double, squared distances and speeds must not overflow, and a
// position must be resolvable to a small fraction of the radius (a double resolves |x|·2.2e-16).
#ifndef CS_LIMITS_H
#define CS_LIMITS_H

#include <stdbool.h>

#include "circlesim/world.h"

typedef struct cs_limit
{
    const char* key; // as in the scene format ("radius", "world.gravity" is "gravity" here)
    double lo, hi;   // inclusive, except where open
    bool lo_open, hi_open;
    const char* unit; // "m", "kg", … ("" when none)
} cs_limit;

// Circle fields.
extern const cs_limit cs_limit_radius;
extern const cs_limit cs_limit_mass;
extern const cs_limit cs_limit_coordinate; // each coordinate of a position or wall point
extern const cs_limit cs_limit_speed;      // each velocity component
extern const cs_limit cs_limit_angle;
extern const cs_limit cs_limit_angular_velocity;
extern const cs_limit cs_limit_friction;
// World settings.
extern const cs_limit cs_limit_gravity; // each component
extern const cs_limit cs_limit_time_step;
extern const cs_limit cs_limit_length; // speculative_margin, linear_slop, max_correction, position_tolerance
extern const cs_limit cs_limit_restitution_threshold;
// Solver settings.
extern const cs_limit cs_limit_alpha;
extern const cs_limit cs_limit_gamma;
extern const cs_limit cs_limit_relaxation;
extern const cs_limit cs_limit_tolerance;

// Beyond this many radii from the origin a body fails to load: a double resolves |x|·2.2e-16 there, more
// than 2e-4 of the radius.
#define CS_LIMIT_RADII_ERROR 1e12
// Beyond this many radii a body loads with a warning (contacts lose digits).
#define CS_LIMIT_RADII_WARN 1e7
// A heaviest-to-lightest mass ratio of this or more loads with a warning (1000:1 on a five-stack already
// collapses PGS at 10 iterations).
#define CS_LIMIT_MASS_RATIO_WARN 1e3

// A step that makes a speed (m/s, or rad/s) or a coordinate (m) exceed these has exploded (cs_health):
// 100 times the load limits, far beyond anything a scene within them reaches.
#define CS_LIMIT_EXPLODE_SPEED 1e8
#define CS_LIMIT_EXPLODE_COORD 1e14

bool cs_limit_ok(const cs_limit* limit, double x);
// "must be in [1e-06, 1e+06] m, got 1e+308" into buffer (size bytes).
void cs_limit_describe(const cs_limit* limit, double got, char* buffer, int size);

// The first field of def out of range: its key ("radius", "position", …) with the reason in err
// (without the key); NULL when every field is in range.
const char* cs_circle_def_problem(const cs_circle_def* def, cs_error* err);
// The same for a world definition: "world.gravity", "solver.alpha", … .
const char* cs_world_def_problem(const cs_world_def* def, cs_error* err);
// A wall point's coordinates ("must be in …").
bool cs_wall_point_ok(cs_vec2 p, cs_error* err);
// Extreme but valid: a body this far out loads with a warning (false, reason in err).
bool cs_circle_def_precise(const cs_circle_def* def, cs_error* warning);

#endif
