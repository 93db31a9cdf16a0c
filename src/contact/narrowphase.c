#include "contact/narrowphase.h"

#include <math.h>

bool cs_collide_wall(const cs_wall* wall, int wall_index, int b, double bx, double by, double br,
                     double margin, cs_contact* c)
{
    double nx, ny, dist;
    if (wall->kind == CS_WALL_HALF_PLANE)
    {
        nx = wall->normal.x;
        ny = wall->normal.y;
        dist = nx * (bx - wall->p0.x) + ny * (by - wall->p0.y);
    }
    else
    {
        // Closest point of the segment to the centre; the normal points from it to the centre.
        double ex = wall->p1.x - wall->p0.x;
        double ey = wall->p1.y - wall->p0.y;
        double t = ((bx - wall->p0.x) * ex + (by - wall->p0.y) * ey) / (ex * ex + ey * ey);
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        double qx = wall->p0.x + t * ex;
        double qy = wall->p0.y + t * ey;
        double dx = bx - qx;
        double dy = by - qy;
        dist = sqrt(dx * dx + dy * dy);
        if (dist > 0.0)
        {
            nx = dx / dist;
            ny = dy / dist;
        }
        else
        {
            nx = wall->normal.x;
            ny = wall->normal.y;
        }
    }
    double gap = dist - br;
    if (!(gap < margin))
    {
        return false;
    }
    c->key = ((uint64_t)(CS_WALL_KEY_BIT + (uint32_t)wall_index) << 32) | (uint32_t)b;
    c->a = -1;
    c->b = b;
    c->wall = wall_index;
    c->nx = nx;
    c->ny = ny;
    c->gap = gap;
    c->px = bx - nx * (br + 0.5 * gap);
    c->py = by - ny * (br + 0.5 * gap);
    c->ra = 0.0;
    c->rb = br + 0.5 * gap; // to the contact point, as for two circles
    return true;
}

void cs_contact_refresh(cs_contact* c, const cs_wall* walls, const double* px, const double* py,
                        const double* radius)
{
    cs_contact now = *c; // (kept when a position is not finite: the health check reports that)
    int b = c->b;
    if (c->a >= 0)
    {
        cs_collide_circles(c->a, b, px[c->a], py[c->a], radius[c->a], px[b], py[b], radius[b], INFINITY,
                           &now);
    }
    else
    {
        cs_collide_wall(walls + c->wall, c->wall, b, px[b], py[b], radius[b], INFINITY, &now);
    }
    c->nx = now.nx;
    c->ny = now.ny;
    c->px = now.px;
    c->py = now.py;
    c->gap = now.gap;
    c->ra = now.ra;
    c->rb = now.rb;
}
