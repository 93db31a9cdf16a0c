// A tour of queries, events, sensors and filters: a small pile on the ground, a ray, a box and a point
// query, the contact events of a ball dropped onto the pile, and a sensor that counts what passes.
//   cc tour.c $(pkg-config --cflags --libs circlesim) -lm -o tour && ./tour
#include <circlesim/circlesim.h>
#include <math.h>
#include <stdio.h>

static int fail(const char* what)
{
    fprintf(stderr, "FAILED: %s\n", what);
    return 1;
}

static double print_hit(const cs_ray_hit* hit, void* context)
{
    (void)context;
    printf("  hit %s %d at (%.3f, %.3f), normal (%.3f, %.3f), fraction %.4f\n",
           hit->body >= 0 ? "body" : "wall", hit->body >= 0 ? hit->body : hit->wall, hit->point.x,
           hit->point.y, hit->normal.x, hit->normal.y, hit->fraction);
    return 1.0; // go on: every hit
}

int main(void)
{
    cs_error err;
    cs_world_def def = cs_world_def_default();
    cs_world* w = cs_world_create(&def, &err);
    if (w == NULL)
    {
        return fail(err.message);
    }
    cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.5, 0.0, &err);

    // A row of five balls resting on the ground, and a sensor hoop above them.
    cs_circle_def c = cs_circle_def_default();
    c.radius = 0.25;
    c.restitution = 0.0;
    int row[5];
    for (int i = 0; i < 5; ++i)
    {
        c.position = (cs_vec2){0.5 * i, 0.25};
        row[i] = cs_world_add_circle(w, &c, &err);
    }
    cs_circle_def hoop = cs_circle_def_default();
    hoop.type = CS_BODY_STATIC;
    hoop.sensor = true;
    hoop.position = (cs_vec2){1.0, 1.5};
    hoop.radius = 0.3;
    int sensor = cs_world_add_circle(w, &hoop, &err);
    // A ghost: category 2, and its mask leaves out category 1, so it falls through the row.
    cs_circle_def ghost = c;
    ghost.position = (cs_vec2){2.0, 3.0};
    ghost.category_bits = 2;
    ghost.mask_bits = ~1u;
    int ghost_id = cs_world_add_circle(w, &ghost, &err);
    for (int s = 0; s < 30; ++s)
    {
        cs_world_step(w);
    }

    printf("queries on %d bodies:\n", cs_world_body_count(w));
    int ids[8];
    int n = cs_world_query_aabb(w, (cs_vec2){0.4, 0.0}, (cs_vec2){1.1, 0.5}, ids, 8);
    printf("  box [0.4, 1.1] x [0, 0.5] overlaps %d bodies\n", n);
    int picked = cs_world_query_point(w, (cs_vec2){1.05, 0.3});
    printf("  the point (1.05, 0.3) is in body %d\n", picked);
    cs_ray_hit hit;
    bool any = cs_world_ray_cast_closest(w, (cs_vec2){-1.0, 0.25}, (cs_vec2){4.0, 0.0}, &hit);
    printf("  the closest ray hit: body %d at x = %.3f\n", any ? hit.body : -1, any ? hit.point.x : 0.0);
    printf("  all hits of a ray down through the middle ball:\n");
    int hits = cs_world_ray_cast(w, (cs_vec2){1.0, 3.0}, (cs_vec2){0.0, -4.0}, cs_query_filter_default(),
                                 print_hit, NULL);
    if (n != 2 || picked != row[2] || !any || hit.body != row[0] || hits != 2) // ball 2 and the ground
    {
        return fail("queries");
    }

    // Drop a ball through the hoop onto the middle of the row: one sensor begin and end, and contact events.
    c.position = (cs_vec2){1.0, 2.5};
    c.velocity = (cs_vec2){0.0, 0.0};
    int ball = cs_world_add_circle(w, &c, &err);
    int begins = 0, ends = 0, hit_count = 0, sensed = 0;
    for (int s = 0; s < 120; ++s)
    {
        cs_world_step(w);
        cs_contact_events e = cs_world_contact_events(w);
        for (int k = 0; k < e.hit_count; ++k)
        {
            printf("  hit: body %d on body %d at %.2f m/s\n", e.hit[k].body_b, e.hit[k].body_a,
                   e.hit[k].approach_speed);
        }
        begins += e.begin_count;
        ends += e.end_count;
        hit_count += e.hit_count;
        cs_sensor_events se = cs_world_sensor_events(w);
        for (int k = 0; k < se.begin_count; ++k)
        {
            printf("  body %d entered sensor %d\n", se.begin[k].body_b, se.begin[k].body_a);
            sensed += se.begin[k].body_a == sensor && se.begin[k].body_b == ball;
        }
    }
    printf("events while the ball landed: %d begin, %d end, %d hit\n", begins, ends, hit_count);
    printf("the ghost (category 2) is at y = %.3f: through the row, on the ground\n",
           cs_world_body(w, ghost_id).position.y);
    if (sensed != 1 || hit_count < 1 || fabs(cs_world_body(w, ghost_id).position.y - 0.25) > 0.01)
    {
        return fail("events");
    }
    printf("ok\n");
    cs_world_destroy(w);
    return 0;
}
