// Circlesim problems through Siconos's dense drivers (siconos_problem.h).
#include "siconos_problem.h"

#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc2d_compute_error.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sico_dense_free(sico_dense* d)
{
    free(d->order);
    free(d->W);
    free(d->q);
    free(d->mu);
}

void sico_row_matrix(const cs_lcp* p, double* A, double* q)
{
    int m = p->row_count;
    for (int i = 0; i < m; ++i)
    {
        q[i] = p->bias[i];
        for (int side = 0; side < 2; ++side)
        {
            int body = side == 0 ? p->body_a[i] : p->body_b[i];
            if (body < 0)
            {
                continue;
            }
            const double* ji = p->jac + 6 * i + 3 * side;
            q[i] += ji[0] * p->v[3 * body] + ji[1] * p->v[3 * body + 1] + ji[2] * p->v[3 * body + 2];
            for (int j = 0; j < m; ++j)
            {
                for (int jside = 0; jside < 2; ++jside)
                {
                    if ((jside == 0 ? p->body_a[j] : p->body_b[j]) != body)
                    {
                        continue;
                    }
                    const double* jj = p->jac + 6 * j + 3 * jside;
                    A[(size_t)i * m + j] += ji[0] * p->inv_mass[body] * jj[0] +
                                            ji[1] * p->inv_mass[body] * jj[1] +
                                            ji[2] * p->inv_inertia[body] * jj[2];
                }
            }
        }
        A[(size_t)i * m + i] += p->reg != NULL ? p->reg[i] : 0.0; // A + Σ
    }
}

bool sico_dense_make(const cs_lcp* p, sico_dense* d, char* why, size_t why_size)
{
    int m = p->row_count;
    d->order = malloc(((size_t)m + 1) * sizeof(int));
    d->mu = malloc(((size_t)m + 1) * sizeof(double));
    d->n = d->contacts = 0;
    d->friction = false;
    for (int i = 0; i < m; ++i)
    {
        d->friction = d->friction || p->kind[i] == CS_ROW_FRICTION;
    }
    for (int i = 0; i < m; ++i)
    {
        if (p->kind[i] == CS_ROW_BOX)
        {
            // Dropping a joint's row would pose Siconos another problem.
            snprintf(why, why_size, "row %d is a box row (a joint): an MLCP, not an LCP or fc2d problem", i);
            return false;
        }
    }
    for (int i = 0; i < m; ++i)
    {
        if (p->kind[i] != CS_ROW_NORMAL)
        {
            continue;
        }
        d->order[d->n++] = i;
        int t = -1;
        for (int k = 0; d->friction && k < m; ++k)
        {
            t = p->kind[k] == CS_ROW_FRICTION && p->link[k] == i ? k : t;
        }
        if (d->friction && t < 0)
        {
            snprintf(why, why_size, "normal row %d has no friction row: not an fc2d problem", i);
            return false;
        }
        if (d->friction)
        {
            d->order[d->n++] = t;
            d->mu[d->contacts] = p->mu[t];
        }
        d->contacts += 1;
    }
    int n = d->n;
    d->W = calloc((size_t)n * (size_t)n + 1, sizeof(double));
    d->q = calloc((size_t)n + 1, sizeof(double));
    double* A = calloc((size_t)m * (size_t)m + 1, sizeof(double));
    double* q = calloc((size_t)m + 1, sizeof(double));
    sico_row_matrix(p, A, q);
    for (int a = 0; a < n; ++a)
    {
        for (int b = 0; b < n; ++b)
        {
            d->W[(size_t)a * n + b] = A[(size_t)d->order[a] * m + d->order[b]];
        }
        d->q[a] = q[d->order[a]];
    }
    free(A);
    free(q);
    return true;
}

void sico_velocity(const sico_dense* d, const double* r, double* u)
{
    for (int a = 0; a < d->n; ++a)
    {
        double s = d->q[a];
        for (int b = 0; b < d->n; ++b)
        {
            s += d->W[(size_t)a * d->n + b] * r[b];
        }
        u[a] = s;
    }
}

double sico_residual(const sico_dense* d, const double* r, const double* u)
{
    double s = 0.0;
    for (int a = 0; a < d->n; ++a)
    {
        bool tangent = d->friction && a % 2 == 1;
        double lo = tangent ? -d->mu[a / 2] * r[a - 1] : 0.0,
               hi = tangent ? d->mu[a / 2] * r[a - 1] : INFINITY;
        double x = r[a] - u[a];
        x = x < lo ? lo : x > hi ? hi : x;
        s += (r[a] - x) * (r[a] - x);
    }
    return sqrt(s);
}

void sico_problem_make(const sico_dense* d, sico_problem* s)
{
    s->M = NM_create(NM_DENSE, d->n, d->n);
    memcpy(s->M->matrix0, d->W, (size_t)d->n * (size_t)d->n * sizeof(double));
    s->lcp = (LinearComplementarityProblem){.size = d->n, .M = s->M, .q = d->q};
    s->fc = calloc(1, sizeof *s->fc);
    s->fc->dimension = 2;
    s->fc->numberOfContacts = d->contacts;
    s->fc->M = s->M;
    s->fc->q = d->q;
    s->fc->mu = d->mu;
}

void sico_problem_free(sico_problem* s)
{
    if (s->M != NULL) // NM_free aborts on NULL: a problem that was never made
    {
        NM_free(s->M);
    }
    free(s->fc);
    *s = (sico_problem){0};
}

double sico_error(const sico_dense* d, sico_problem* s, const double* r)
{
    // The tolerance passed below only sets the functions' return status; the error itself is what counts.
    double* z = malloc(((size_t)d->n + 1) * sizeof(double));
    double* u = malloc(((size_t)d->n + 1) * sizeof(double));
    memcpy(z, r, (size_t)d->n * sizeof(double));
    sico_velocity(d, z, u);
    double error = INFINITY;
    if (d->friction)
    {
        fc2d_compute_error(s->fc, z, u, 1e-8, 1.0, &error);
    }
    else
    {
        lcp_compute_error(&s->lcp, z, u, 1e-8, &error);
    }
    free(z);
    free(u);
    return error;
}

int sico_solve(const sico_dense* d, sico_problem* s, int id, double tol, int max_iterations, double* r,
               double* u, int* iterations)
{
    SolverOptions* options = solver_options_create(id);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
    options->dparam[SICONOS_DPARAM_TOL] = tol;
    memset(u, 0, (size_t)d->n * sizeof(double));
    int info = d->friction ? fc2d_driver(s->fc, r, u, options)
                           : linearComplementarity_driver(&s->lcp, r, u, options);
    *iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(options);
    return info;
}

static double uniform(uint64_t* rng, double lo, double hi)
{
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    return lo + (hi - lo) * ((double)(*rng >> 11) / 9007199254740992.0);
}

// A seeded random pile: discs on a chain of random contacts (each body touches the next and a wall),
// normal rows with random unit normals and, with friction, tangent rows right after them.
cs_status sico_random_problem(cs_lcp* p, int bodies, bool friction, uint64_t* rng, cs_error* err)
{
    int contacts = 2 * bodies - 1, rows = contacts * (friction ? 2 : 1);
    cs_status s = cs_lcp_reserve(p, bodies, rows, err);
    if (s != CS_OK)
    {
        return s;
    }
    p->body_count = bodies;
    p->row_count = rows;
    snprintf(p->name, sizeof p->name, "random");
    for (int b = 0; b < bodies; ++b)
    {
        double m = uniform(rng, 0.5, 3.0), r = uniform(rng, 0.2, 1.0);
        p->inv_mass[b] = 1.0 / m;
        p->inv_inertia[b] = 1.0 / (0.5 * m * r * r);
        for (int k = 0; k < 3; ++k)
        {
            p->v[3 * b + k] = uniform(rng, -1.0, 1.0);
        }
    }
    int row = 0;
    for (int c = 0; c < contacts; ++c)
    {
        int a = c < bodies ? c : c - bodies, b = c < bodies ? -1 : c - bodies + 1; // wall, or the next disc
        double angle = uniform(rng, 0.0, 6.283185307179586), nx = cos(angle), ny = sin(angle);
        double jn[6] = {-nx, -ny, 0.0, nx, ny, 0.0}, jt[6] = {ny, -nx, -0.3, -ny, nx, -0.3};
        for (int k = 3; b < 0 && k < 6; ++k)
        {
            jn[k] = jt[k] = 0.0;
        }
        int normal = row;
        cs_lcp_set_contact_row(p, row++, a, b, jn, uniform(rng, -1.0, 0.3), -1, 0.0, 0.0);
        if (friction)
        {
            cs_lcp_set_contact_row(p, row++, a, b, jt, 0.0, normal, uniform(rng, 0.1, 0.8), 0.0);
        }
    }
    return CS_OK;
}
