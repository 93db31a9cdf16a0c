// A Galton board: balls fall through ten rows of static pegs; each ball that leaves the board at the
// bottom is counted into a bin and removed, and a new one is spawned at the top (ids of the balls still
// falling never change). Prints the histogram as text; the counts follow a binomial-like bell.
//   cc galton.c $(pkg-config --cflags --libs circlesim) -lm -o galton && ./galton
#include <circlesim/circlesim.h>
#include <math.h>
#include <stdio.h>

enum
{
    rows = 10,
    balls = 400,
    bins = 13
};

static const double spacing = 0.3; // between pegs in a row
static const double row_height = 0.26;

// A small deterministic generator: the same board every run.
static double jitter(unsigned* state)
{
    *state = *state * 1664525u + 1013904223u;
    return ((*state >> 8) / 16777216.0 - 0.5) * 0.02;
}

static int add_circle(cs_world* w, cs_body_type type, double x, double y, double r)
{
    cs_error err;
    cs_circle_def c = cs_circle_def_default();
    c.type = type;
    c.position = (cs_vec2){x, y};
    c.radius = r;
    c.mass = type == CS_BODY_DYNAMIC ? 0.05 : 0.0;
    c.restitution = 0.1;
    c.friction = 0.05;
    int id = cs_world_add_circle(w, &c, &err);
    if (id < 0)
    {
        fprintf(stderr, "%s\n", err.message);
    }
    return id;
}

int main(void)
{
    cs_error err;
    cs_world_def def = cs_world_def_default();
    cs_world* w = cs_world_create(&def, &err);
    if (w == NULL)
    {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    // Pegs in staggered rows between two side walls; balls enter above the middle peg of the first row.
    double half_width = (bins / 2 + 0.5) * spacing;
    for (int k = 0; k < rows; ++k)
    {
        double offset = k % 2 == 0 ? 0.0 : 0.5 * spacing;
        for (double x = -(bins / 2) * spacing + offset; x < half_width - 0.1; x += spacing)
        {
            if (add_circle(w, CS_BODY_STATIC, x, -k * row_height, 0.05) < 0)
            {
                return 1;
            }
        }
    }
    double bottom = -rows * row_height;
    if (cs_world_add_segment(w, (cs_vec2){-half_width, bottom}, (cs_vec2){-half_width, 1.0}, 0.05, 0.1,
                             &err) < 0 ||
        cs_world_add_segment(w, (cs_vec2){half_width, bottom}, (cs_vec2){half_width, 1.0}, 0.05, 0.1, &err) <
            0)
    {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    int histogram[bins] = {0};
    int spawned = 0, counted = 0;
    unsigned seed = 12345u;
    for (int step = 0; step < 20000 && counted < balls; ++step)
    {
        if (step % 12 == 0 && spawned < balls)
        {
            if (add_circle(w, CS_BODY_DYNAMIC, jitter(&seed), 0.5, 0.06) < 0)
            {
                return 1;
            }
            spawned += 1;
        }
        if (cs_world_step(w) != CS_OK)
        {
            fprintf(stderr, "%s\n", cs_world_last_error(w));
            return 1;
        }
        // Balls below the last row: bin by x, then remove (iterate backwards: removal reorders the tail).
        for (int k = cs_world_body_count(w) - 1; k >= 0; --k)
        {
            int id = cs_world_body_id(w, k);
            cs_body_state b = cs_world_body(w, id);
            if (cs_world_body_type(w, id) == CS_BODY_DYNAMIC && b.position.y < bottom)
            {
                int bin = (int)lround(b.position.x / spacing) + bins / 2;
                histogram[bin < 0 ? 0 : (bin >= bins ? bins - 1 : bin)] += 1;
                counted += 1;
                cs_world_remove_circle(w, id);
            }
        }
    }
    int most = 1;
    double mean = 0.0;
    for (int i = 0; i < bins; ++i)
    {
        most = histogram[i] > most ? histogram[i] : most;
        mean += (i - bins / 2) * (double)histogram[i];
    }
    mean /= counted > 0 ? counted : 1;
    for (int i = 0; i < bins; ++i)
    {
        printf("%+5.2f m %4d ", (i - bins / 2) * spacing, histogram[i]);
        for (int j = 0; j < 50 * histogram[i] / most; ++j)
        {
            putchar('#');
        }
        putchar('\n');
    }
    int centre = histogram[bins / 2 - 1] + histogram[bins / 2] + histogram[bins / 2 + 1];
    int edges = histogram[0] + histogram[1] + histogram[bins - 2] + histogram[bins - 1];
    bool ok = counted == balls && fabs(mean) < 1.0 && centre > edges;
    printf("%s: %d balls binned, mean bin %+.2f, centre three bins %d, outer four %d\n", ok ? "ok" : "FAILED",
           counted, mean, centre, edges);
    cs_world_destroy(w);
    return ok ? 0 : 1;
}
