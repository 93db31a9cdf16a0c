// Apex of the first rebound of a disc (r 0.2 m, e given) dropped from rest with its lowest point H above a
// floor, at the default step (1/60 s, 10 iterations, restitution threshold 0), against the closed form e²H.
// Prints "H,impact_phase,apex,relative_error" for H = 0.5 … 5 m in 0.05 m steps. Built and run by
// scripts/plot-physics.sh (against whichever libcirclesim it is given).
//
// The integrator stores at t the mean velocity of the step that ended at t, so "at rest at t = 0" is a
// stored velocity of +g h/2; the apex is read from the parabola through the first rising sample (for a
// disc in free flight the samples lie exactly on it), so it does not depend on where the samples fall.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "circlesim/circlesim.h"

int main(int argc, char** argv)
{
    double e = argc > 1 ? atof(argv[1]) : 0.5;
    const double g = 9.80665, h = 1.0 / 60.0, r = 0.2;
    printf("H,impact_phase,apex,relative_error\n");
    for (int k = 0; k <= 90; ++k)
    {
        double H = 0.5 + 0.05 * k;
        cs_world_def def = cs_world_def_default();
        def.restitution_threshold = 0.0;
        cs_error err;
        cs_world* w = cs_world_create(&def, &err);
        cs_circle_def c = cs_circle_def_default();
        c.radius = r;
        c.restitution = e;
        c.position = (cs_vec2){0.0, r + H};
        c.velocity = (cs_vec2){0.0, 0.5 * g * h};
        if (w == NULL || cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.3, 0.0, &err) < 0 ||
            cs_world_add_circle(w, &c, &err) < 0)
        {
            fprintf(stderr, "bounce_apex: %s\n", err.message);
            return 1;
        }
        double apex = NAN;
        for (int s = 0; s < 2000 && isnan(apex); ++s)
        {
            cs_world_step(w);
            cs_body_state b = cs_world_body(w, 0);
            double u = b.velocity.y - 0.5 * g * h;
            if (u > 0.0)
            {
                apex = (b.position.y - r) + u * u / (2.0 * g);
            }
        }
        double steps = sqrt(2.0 * H / g) / h;
        printf("%.2f,%.3f,%.6f,%.6f\n", H, steps - floor(steps), apex, apex / (e * e * H) - 1.0);
        cs_world_destroy(w);
    }
    return 0;
}
