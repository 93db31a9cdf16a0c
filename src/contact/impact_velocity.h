// Relative velocities along a contact's normal, shared by the contact instant (impact.c) and the
// restitution pass (restitution.c). v holds three values per body (vx, vy, ω); a wall half (-1) is at rest.
#ifndef CS_CONTACT_IMPACT_VELOCITY_H
#define CS_CONTACT_IMPACT_VELOCITY_H

#include "contact/contact.h"

static inline double dot3(const double* v, int body, double x, double y)
{
    return body >= 0 ? x * v[3 * body] + y * v[3 * body + 1] : 0.0;
}

// Relative normal velocity of b with respect to a along (nx, ny).
static inline double normal_velocity(const cs_contact* c, const double* v, double nx, double ny)
{
    return dot3(v, c->b, nx, ny) - dot3(v, c->a, nx, ny);
}

#endif
