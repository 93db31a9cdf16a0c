// Narrow phase: exact circle–circle and circle–wall distances → contacts within the speculative margin.
#ifndef CS_NARROWPHASE_H
#define CS_NARROWPHASE_H

#include <math.h>
#include <stdbool.h>

#include "circlesim/wall.h"
#include "contact/contact.h"

// The unit normal from a circle's centre to another's, (dx, dy) at distance d = |(dx, dy)|.
static inline void cs_circles_normal(double dx, double dy, double d, double* nx, double* ny)
{
    *nx = 0.0; // coincident centres: any fixed direction keeps the step deterministic
    *ny = 1.0;
    if (d > 0.0)
    {
        *nx = dx / d;
        *ny = dy / d;
    }
}

// Fills c for circles a and b; returns false when the gap is not below margin. (Inline: the narrow phase
// calls it ~570 times a Pool 1 step with eight arguments; out of line the calls cost ~7 M instructions per
// 1 000 steps.)
static inline bool cs_collide_circles(int a, int b, double ax, double ay, double ar, double bx, double by,
                                      double br, double margin, cs_contact* c)
{
    double dx = bx - ax;
    double dy = by - ay;
    double d = sqrt(dx * dx + dy * dy);
    double gap = d - ar - br;
    if (!(gap < margin))
    {
        return false;
    }
    double nx, ny;
    cs_circles_normal(dx, dy, d, &nx, &ny);
    c->key = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
    c->a = a;
    c->b = b;
    c->wall = -1;
    c->nx = nx;
    c->ny = ny;
    c->gap = gap;
    c->px = ax + nx * (ar + 0.5 * gap);
    c->py = ay + ny * (ar + 0.5 * gap);
    // Lever arms to the midpoint of the gap or overlap: both reach the same point, so a friction impulse
    // pair has no net moment about any origin (angular momentum is kept; with the radii as arms the two
    // points differ by the gap and every friction impulse added gap × impulse).
    c->ra = ar + 0.5 * gap;
    c->rb = br + 0.5 * gap;
    return true;
}
// Whether circles (ax, ay, ar) and (bx, by, br) come within margin: cs_collide_circles's own test (the
// same operations, so the same answer), for a narrow phase that first counts its contacts.
static inline bool cs_circles_meet(double ax, double ay, double ar, double bx, double by, double br,
                                   double margin)
{
    double dx = bx - ax;
    double dy = by - ay;
    double gap = sqrt(dx * dx + dy * dy) - ar - br;
    return gap < margin;
}
// Fills c for a wall (as body a = -1) and circle b; returns false when the gap is not below margin.
bool cs_collide_wall(const cs_wall* wall, int wall_index, int b, double bx, double by, double br,
                     double margin, cs_contact* c);
// Whether circle (bx, by, br) is certainly not within margin of the half-plane wall through (x0, y0) with
// normal (nx, ny): cs_collide_wall's own first test (the same operations), inline so that the step's loop
// over walls × circles skips the call for the many circles far from each wall.
static inline bool cs_half_plane_beyond(double nx, double ny, double x0, double y0, double bx, double by,
                                        double br, double margin)
{
    double dist = nx * (bx - x0) + ny * (by - y0);
    return !(dist - br < margin);
}

// Re-measures c's geometry (normal, gap, contact point, lever arms) with the circles at (px, py); its key,
// bodies, impulses and contact instant stay. Impulses along the refreshed normals and arms act at one
// point of the new configuration, so they keep angular momentum about any origin there.
void cs_contact_refresh(cs_contact* c, const cs_wall* walls, const double* px, const double* py,
                        const double* radius);

#endif
