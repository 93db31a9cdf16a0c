// The generators' formulas (generator_formulas.h): plain C and libm only — the peer programs compile this
// file without the library.
#include "scene/generator_formulas.h"

#include <math.h>
#include <stdlib.h>

uint64_t cs_gen_splitmix64(uint64_t* state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double cs_gen_uniform(uint64_t* state, double lo, double hi)
{
    double u = (double)(cs_gen_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

void cs_gen_grid_point(double origin_x, double origin_y, double spacing_x, double spacing_y,
                       double row_offset, double jitter, int r, int k, uint64_t* state, double* x, double* y)
{
    *x = origin_x + k * spacing_x + ((r & 1) != 0 ? row_offset : 0.0);
    *y = origin_y + r * spacing_y;
    if (jitter > 0.0)
    {
        *x += cs_gen_uniform(state, -jitter, jitter);
        *y += cs_gen_uniform(state, -jitter, jitter);
    }
}

double cs_gen_row_mass(int r, int rows, double lowest, double highest)
{
    double t = rows > 1 ? (double)r / (double)(rows - 1) : 0.0;
    return lowest + (highest - lowest) * t;
}

double cs_gen_stack_y(double base_y, double radius, double gap, int k)
{
    return base_y + radius + k * (2.0 * radius + gap);
}

// A uniform grid over the region so that each try checks only nearby discs: a cell spans a pair's reach
// (2 rmax), so the 3 × 3 block around the try holds every disc it can touch.
typedef struct pile_grid
{
    double x0, y0, cell;
    int nx, ny;
    int* head; // [nx*ny] first disc in the cell, -1 when empty
    int* next; // [count]
} pile_grid;

static void pile_cell(const pile_grid* p, double x, double y, int* ix, int* iy)
{
    double fx = floor((x - p->x0) / p->cell), fy = floor((y - p->y0) / p->cell);
    *ix = fx < 0.0 ? 0 : (fx >= (double)p->nx ? p->nx - 1 : (int)fx);
    *iy = fy < 0.0 ? 0 : (fy >= (double)p->ny ? p->ny - 1 : (int)fy);
}

static bool pile_free(const pile_grid* p, const double* px, const double* py, const double* pr, double x,
                      double y, double r)
{
    int ix, iy;
    pile_cell(p, x, y, &ix, &iy);
    for (int j = iy - 1; j <= iy + 1; ++j)
    {
        for (int i = ix - 1; i <= ix + 1; ++i)
        {
            if (i < 0 || j < 0 || i >= p->nx || j >= p->ny)
            {
                continue;
            }
            for (int k = p->head[j * p->nx + i]; k >= 0; k = p->next[k])
            {
                double dx = x - px[k], dy = y - py[k], reach = r + pr[k];
                if (dx * dx + dy * dy < reach * reach)
                {
                    return false;
                }
            }
        }
    }
    return true;
}

cs_gen_pile_status cs_gen_pile_place(const cs_gen_pile* pile, double* x, double* y, double* r, int* placed)
{
    const double* region = pile->region;
    double rmax = pile->ranged ? pile->radius_range[1] : pile->radius;
    double width = region[2] - region[0], height = region[3] - region[1];
    pile_grid p = {.x0 = region[0], .y0 = region[1]};
    // The cell also grows so that the grid has at most about 4 cells per disc plus 4096 per side, whatever
    // the region's shape or size.
    double per_disc =
        sqrt(width) * sqrt(height / (4.0 * pile->count)); // sqrt(area / 4 count) without overflow
    if (!isfinite(per_disc))
    {
        per_disc = 0.0;
    }
    p.cell = fmax(2.0 * rmax, fmax(per_disc, fmax(width, height) / 4096.0));
    p.nx = (int)(width / p.cell) + 1;
    p.ny = (int)(height / p.cell) + 1;
    p.head = malloc((size_t)p.nx * (size_t)p.ny * sizeof *p.head);
    p.next = malloc((size_t)pile->count * sizeof *p.next);
    *placed = 0;
    if (p.head == NULL || p.next == NULL)
    {
        free(p.head);
        free(p.next);
        return CS_GEN_PILE_MEMORY;
    }
    for (int i = 0; i < p.nx * p.ny; ++i)
    {
        p.head[i] = -1;
    }
    uint64_t state = pile->seed;
    cs_gen_pile_status status = CS_GEN_PILE_OK;
    for (int n = 0; n < pile->count && status == CS_GEN_PILE_OK; ++n)
    {
        double rn = pile->ranged ? cs_gen_uniform(&state, pile->radius_range[0], pile->radius_range[1])
                                 : pile->radius;
        bool done = false;
        for (int t = 0; t < pile->tries && !done; ++t)
        {
            double xt = cs_gen_uniform(&state, region[0] + rn, region[2] - rn);
            double yt = cs_gen_uniform(&state, region[1] + rn, region[3] - rn);
            if (pile_free(&p, x, y, r, xt, yt, rn))
            {
                int ix, iy;
                pile_cell(&p, xt, yt, &ix, &iy);
                x[n] = xt;
                y[n] = yt;
                r[n] = rn;
                p.next[n] = p.head[iy * p.nx + ix];
                p.head[iy * p.nx + ix] = n;
                *placed = n + 1;
                done = true;
            }
        }
        status = done ? CS_GEN_PILE_OK : CS_GEN_PILE_FULL;
    }
    free(p.head);
    free(p.next);
    return status;
}

uint64_t cs_gen_velocity_seed(uint64_t seed)
{
    return seed ^ 0x5DEECE66Dull;
}

void cs_gen_pile_velocity(uint64_t* stream, double slowest, double fastest, double base_x, double base_y,
                          double* vx, double* vy)
{
    double speed = cs_gen_uniform(stream, slowest, fastest);
    double angle = cs_gen_uniform(stream, 0.0, 6.283185307179586); // 2π
    *vx = base_x + speed * cos(angle);
    *vy = base_y + speed * sin(angle);
}
