// Hello world: a ball dropped onto the ground, its height printed every half second.
//   cc hello.c $(pkg-config --cflags --libs circlesim) -o hello && ./hello
#include <circlesim/circlesim.h>
#include <stdio.h>

int main(void)
{
    cs_error err;
    cs_world_def def = cs_world_def_default();
    cs_world* world = cs_world_create(&def, &err);
    if (world == NULL)
    {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    cs_world_add_half_plane(world, (cs_vec2){0.0, 0.0}, (cs_vec2){0.0, 1.0}, 0.5, 0.0, &err);

    cs_circle_def ball = cs_circle_def_default();
    ball.position = (cs_vec2){0.0, 4.0};
    ball.radius = 0.5;
    int id = cs_world_add_circle(world, &ball, &err);
    if (id < 0)
    {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }

    for (int step = 0; step <= 120; ++step)
    {
        if (step % 30 == 0)
        {
            cs_body_state s = cs_world_body(world, id);
            printf("t = %4.2f s  y = %.3f m  vy = %+.3f m/s\n", cs_world_stats(world)->time, s.position.y,
                   s.velocity.y);
        }
        if (cs_world_step(world) != CS_OK)
        {
            fprintf(stderr, "%s\n", cs_world_last_error(world));
            return 1;
        }
    }
    // At rest on the ground: the centre one radius up (less the linear slop the solver leaves).
    cs_body_state s = cs_world_body(world, id);
    int ok = s.position.y > 0.49 && s.position.y < 0.51;
    printf("%s: the ball rests at y = %.4f m\n", ok ? "ok" : "FAILED", s.position.y);
    cs_world_destroy(world);
    return ok ? 0 : 1;
}
