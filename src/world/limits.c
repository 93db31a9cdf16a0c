// Sane ranges (limits.h). Each bound says in its comment what breaks beyond it.
#include "world/limits.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// Down to a micrometre, up to a thousand kilometres: inside, r² and m r² stay far from under- and
// overflow, and the world's fixed tolerances (slop 1 mm, margin 2 cm) stay within 1e9 of the radius.
const cs_limit cs_limit_radius = {"radius", 1e-6, 1e6, false, false, "m"};
// Inverse mass and inverse inertia 2/(m r²) must be normal doubles whose products with impulses neither
// overflow nor vanish.
const cs_limit cs_limit_mass = {"mass", 1e-12, 1e12, false, false, "kg"};
// Squared distances between far bodies stay finite (1e24), and 1e12 m is 1e9 km.
const cs_limit cs_limit_coordinate = {"position", -1e12, 1e12, false, false, "m"};
// A body that crosses 16 km per step at 60 Hz has left any scene; squares stay finite.
const cs_limit cs_limit_speed = {"velocity", -1e6, 1e6, false, false, "m/s"};
const cs_limit cs_limit_angle = {"angle", -1e12, 1e12, false, false, "rad"};
const cs_limit cs_limit_angular_velocity = {"angular_velocity", -1e6, 1e6, false, false, "rad/s"};
// μ bounds ±μλ: a μ of 1e308 makes 0·μ-style products NaN; 1000 is "never slips".
const cs_limit cs_limit_friction = {"friction", 0.0, 1e3, false, false, ""};
// 1e5 g: beyond it h·g alone exceeds the speed limit within a few steps.
const cs_limit cs_limit_gravity = {"gravity", -1e6, 1e6, false, false, "m/s^2"};
// A microsecond to a second: outside, h² (position correction) or h·v lose the step's meaning.
const cs_limit cs_limit_time_step = {"time_step", 1e-6, 1.0, false, false, "s"};
const cs_limit cs_limit_length = {"length", 0.0, 1e6, false, false, "m"};
const cs_limit cs_limit_restitution_threshold = {"restitution_threshold", 0.0, 1e6, false, false, "m/s"};
// AMGS's Ω = αD and γ multiply A_ii and λ: beyond these the splitting overflows (--alpha 1e308 gave NaN).
const cs_limit cs_limit_alpha = {"alpha", 1e-6, 1e6, false, false, ""};
const cs_limit cs_limit_gamma = {"gamma", 1e-6, 1e6, false, false, ""};
// PSOR converges for 0 < ω < 2 only.
const cs_limit cs_limit_relaxation = {"relaxation", 0.0, 2.0, true, true, ""};
const cs_limit cs_limit_tolerance = {"tolerance", 0.0, 1e300, false, false, ""};

bool cs_limit_ok(const cs_limit* limit, double x)
{
    if (!isfinite(x) || (limit->hi_open ? x >= limit->hi : x > limit->hi))
    {
        return false;
    }
    return limit->lo_open ? x > limit->lo : x >= limit->lo;
}

// The shortest %g rendering that reads back as x: 1e308 prints as 1e+308, the least denormal as 5e-324.
static void format_number(double x, char* buffer, size_t size)
{
    for (int digits = 1; digits <= 17; ++digits)
    {
        snprintf(buffer, size, "%.*g", digits, x);
        if (strtod(buffer, NULL) == x)
        {
            return;
        }
    }
}

void cs_limit_describe(const cs_limit* l, double got, char* buffer, int size)
{
    char number[32];
    format_number(got, number, sizeof number);
    snprintf(buffer, (size_t)size, "must be in %c%g, %g%c%s%s, got %s", l->lo_open ? '(' : '[', l->lo, l->hi,
             l->hi_open ? ')' : ']', l->unit[0] != '\0' ? " " : "", l->unit, number);
}

static bool check(const cs_limit* l, double x, cs_error* err)
{
    bool ok = cs_limit_ok(l, x);
    if (!ok)
    {
        char what[CS_ERROR_MAX];
        cs_limit_describe(l, x, what, (int)sizeof what);
        cs_fail(err, CS_ERR_VALUE, "%s", what);
    }
    return ok;
}

static bool check_vec(const cs_limit* l, cs_vec2 v, cs_error* err)
{
    return check(l, v.x, err) && check(l, v.y, err);
}

const char* cs_circle_def_problem(const cs_circle_def* d, cs_error* err)
{
    if (!check(&cs_limit_radius, d->radius, err))
    {
        return "radius";
    }
    if ((int)d->type < CS_BODY_DYNAMIC || (int)d->type > CS_BODY_KINEMATIC)
    {
        cs_fail(err, CS_ERR_VALUE, "must be dynamic (0), static (1) or kinematic (2), got %d", (int)d->type);
        return "type";
    }
    // A static or kinematic circle's mass is ignored (0 is accepted), but it is still a number.
    if (d->type == CS_BODY_DYNAMIC ? !check(&cs_limit_mass, d->mass, err)
                                   : !(isfinite(d->mass) && d->mass >= 0.0 && d->mass <= cs_limit_mass.hi))
    {
        if (d->type != CS_BODY_DYNAMIC)
        {
            cs_fail(err, CS_ERR_VALUE, "of a static or kinematic circle is ignored but must be in [0, %g] kg",
                    cs_limit_mass.hi);
        }
        return "mass";
    }
    if (!check_vec(&cs_limit_coordinate, d->position, err))
    {
        return "position";
    }
    double far = fmax(fabs(d->position.x), fabs(d->position.y));
    if (far > CS_LIMIT_RADII_ERROR * d->radius)
    {
        cs_fail(
            err, CS_ERR_VALUE,
            "is %.3g radii from the origin, where a double resolves only %.3g m (%.2g of the radius %g m): "
            "at most %g radii; move the scene nearer the origin",
            far / d->radius, far * DBL_EPSILON, far * DBL_EPSILON / d->radius, d->radius,
            CS_LIMIT_RADII_ERROR);
        return "position";
    }
    if (!check_vec(&cs_limit_speed, d->velocity, err))
    {
        return "velocity";
    }
    if (d->type == CS_BODY_STATIC &&
        (d->velocity.x != 0.0 || d->velocity.y != 0.0 || d->angular_velocity != 0.0))
    {
        cs_fail(err, CS_ERR_VALUE,
                "a static circle never moves: its velocity and angular velocity must be zero");
        return "velocity";
    }
    if (!check(&cs_limit_angle, d->angle, err))
    {
        return "angle";
    }
    if (!check(&cs_limit_angular_velocity, d->angular_velocity, err))
    {
        return "angular_velocity";
    }
    if (!check(&cs_limit_friction, d->friction, err))
    {
        return "friction";
    }
    if (!(d->restitution >= 0.0 && d->restitution <= 1.0))
    {
        cs_fail(err, CS_ERR_VALUE, "must be in [0, 1], got %g", d->restitution);
        return "restitution";
    }
    return NULL;
}

bool cs_circle_def_precise(const cs_circle_def* d, cs_error* warning)
{
    double far = fmax(fabs(d->position.x), fabs(d->position.y));
    if (far > CS_LIMIT_RADII_WARN * d->radius)
    {
        cs_fail(warning, CS_ERR_VALUE,
                "%.3g radii from the origin (more than %g): a double resolves only %.2g of the radius "
                "there, so contacts and resting positions lose that much",
                far / d->radius, CS_LIMIT_RADII_WARN, far * DBL_EPSILON / d->radius);
        return false;
    }
    return true;
}

bool cs_wall_point_ok(cs_vec2 p, cs_error* err)
{
    return check_vec(&cs_limit_coordinate, p, err);
}

const char* cs_world_def_problem(const cs_world_def* d, cs_error* err)
{
    const cs_solver_params* p = &d->solver_params;
    struct
    {
        const char* key;
        const cs_limit* limit;
        double value;
    } fields[] = {
        {"world.gravity", &cs_limit_gravity, d->gravity.x},
        {"world.gravity", &cs_limit_gravity, d->gravity.y},
        {"world.time_step", &cs_limit_time_step, d->time_step},
        {"world.speculative_margin", &cs_limit_length, d->speculative_margin},
        {"world.linear_slop", &cs_limit_length, d->linear_slop},
        {"world.max_correction", &cs_limit_length, d->max_correction},
        {"world.position_tolerance", &cs_limit_length, d->position_tolerance},
        {"world.restitution_threshold", &cs_limit_restitution_threshold, d->restitution_threshold},
        {"world.hit_event_threshold", &cs_limit_restitution_threshold, d->hit_event_threshold},
        {"solver.tolerance", &cs_limit_tolerance, p->tolerance},
        {"solver.alpha", &cs_limit_alpha, p->alpha},
        {"solver.gamma", &cs_limit_gamma, p->gamma},
        {"solver.relaxation", &cs_limit_relaxation, p->relaxation},
    };
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; ++k)
    {
        if (!check(fields[k].limit, fields[k].value, err))
        {
            return fields[k].key;
        }
    }
    if (!(d->baumgarte >= 0.0 && d->baumgarte <= 1.0))
    {
        cs_fail(err, CS_ERR_VALUE, "must be in [0, 1], got %g", d->baumgarte);
        return "world.baumgarte";
    }
    if (d->position_iterations < 1 || d->position_iterations > 1000000)
    {
        cs_fail(err, CS_ERR_VALUE, "must be in [1, 1000000], got %d", d->position_iterations);
        return "world.position_iterations";
    }
    if (p->iterations < 1 || p->iterations > 100000000)
    {
        cs_fail(err, CS_ERR_VALUE, "must be in [1, 100000000], got %d", p->iterations);
        return "solver.iterations";
    }
    return NULL;
}
