// circlesim problems with joints through Siconos's MLCP drivers (siconos_mlcp.h).
#include "siconos_mlcp.h"

#include "siconos_problem.h"

#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/MLCP_Solvers.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>
#include <siconos/numerics/mlcp_cst.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sico_mlcp_free(sico_mlcp* x)
{
    free(x->var);
    free(x->var_minus);
    free(x->sign);
    free(x->offset);
    free(x->A);
    free(x->q_rows);
    free(x->M);
    free(x->q);
    for (int k = 0; k < 4; ++k)
    {
        free(x->abcd[k]);
    }
    if (x->nm != NULL)
    {
        x->nm->matrix0 = NULL; // x->M is ours
        NM_free(x->nm);
    }
    *x = (sico_mlcp){0};
}

// Variables: the rods' first (free), then every other row's in row order (a friction row: λ⁺, λ⁻, β).
static bool number_variables(const cs_lcp* p, sico_mlcp* x, char* why, size_t why_size)
{
    for (int i = 0; i < p->row_count; ++i)
    {
        bool rod = p->kind[i] == CS_ROW_BOX && p->lo[i] == -INFINITY && p->hi[i] == INFINITY;
        x->var[i] = rod ? x->n++ : -1;
        x->var_minus[i] = -1;
        x->sign[i] = 1.0;
        x->offset[i] = 0.0;
    }
    int next = x->n;
    for (int i = 0; i < p->row_count; ++i)
    {
        if (x->var[i] >= 0)
        {
            continue;
        }
        x->var[i] = next++;
        if (p->kind[i] == CS_ROW_FRICTION)
        {
            int l = p->link[i];
            if (l < 0 || l >= p->row_count || p->kind[l] != CS_ROW_NORMAL)
            {
                snprintf(why, why_size, "friction row %d: its link %d is not a normal row", i, l);
                return false;
            }
            x->friction = true;
            x->var_minus[i] = next;
            next += 2; // λ⁻, β
        }
        else if (p->kind[i] == CS_ROW_BOX)
        {
            bool lo = isfinite(p->lo[i]), hi = isfinite(p->hi[i]);
            if (lo == hi)
            {
                snprintf(why, why_size, "box row %d has two finite bounds [%g, %g]: no MLCP form", i,
                         p->lo[i], p->hi[i]);
                return false;
            }
            x->sign[i] = lo ? 1.0 : -1.0;
            x->offset[i] = lo ? p->lo[i] : p->hi[i];
        }
    }
    x->m = next - x->n;
    return true;
}

// M and q from A, q_rows and the variables (file comment of siconos_mlcp.h). AT = A T, c = offsets.
static void fill_system(const cs_lcp* p, sico_mlcp* x)
{
    int rows = p->row_count, size = x->n + x->m;
    double* at = calloc((size_t)rows * (size_t)size + 1, sizeof(double));
    double* ac = calloc((size_t)rows + 1, sizeof(double)); // (A c + q)_i
    for (int i = 0; i < rows; ++i)
    {
        ac[i] = x->q_rows[i];
        for (int j = 0; j < rows; ++j)
        {
            double a = x->A[(size_t)i * rows + j];
            at[(size_t)i * size + x->var[j]] += a * x->sign[j];
            if (x->var_minus[j] >= 0)
            {
                at[(size_t)i * size + x->var_minus[j]] -= a;
            }
            ac[i] += a * x->offset[j];
        }
    }
#define M_AT(r, c) x->M[(size_t)(c)*size + (r)]
    for (int i = 0; i < rows; ++i)
    {
        int k = x->var[i];
        double s = x->sign[i];
        for (int c = 0; c < size; ++c)
        {
            M_AT(k, c) = s * at[(size_t)i * size + c];
        }
        x->q[k] = s * ac[i];
        if (x->var_minus[i] < 0)
        {
            continue;
        }
        int minus = x->var_minus[i], beta = minus + 1, normal = x->var[p->link[i]];
        double mu = p->mu[i];
        M_AT(k, beta) = 1.0; // w_t + β
        for (int c = 0; c < size; ++c)
        {
            M_AT(minus, c) = -at[(size_t)i * size + c];
        }
        M_AT(minus, beta) = 1.0; // β − w_t
        x->q[minus] = -ac[i];
        M_AT(beta, normal) = mu; // μ λ_n − λ⁺ − λ⁻ (a normal row: sign 1, offset 0)
        M_AT(beta, k) = -1.0;
        M_AT(beta, minus) = -1.0;
        x->q[beta] = 0.0;
    }
#undef M_AT
    free(at);
    free(ac);
}

// Siconos's ABCD storage of the same M (its PGS and the MLCP → LCP conversion read only that).
static void fill_blocks(sico_mlcp* x)
{
    int n = x->n, m = x->m, size = n + m;
    for (int k = 0; k < 4; ++k)
    {
        x->abcd[k] = calloc((size_t)size * (size_t)size + 1, sizeof(double));
    }
    double *a = x->abcd[0], *b = x->abcd[1], *c = x->abcd[2], *d = x->abcd[3];
    for (int col = 0; col < size; ++col)
    {
        for (int row = 0; row < size; ++row)
        {
            double v = x->M[(size_t)col * size + row];
            if (row < n && col < n)
            {
                a[(size_t)col * n + row] = v;
            }
            else if (row >= n && col >= n)
            {
                b[(size_t)(col - n) * m + (row - n)] = v;
            }
            else if (row < n)
            {
                c[(size_t)(col - n) * n + row] = v;
            }
            else
            {
                d[(size_t)col * m + (row - n)] = v;
            }
        }
    }
    int blocks = 0;
    if (n > 0)
    {
        x->blocks_rows[blocks] = 0;
        x->blocks_comp[blocks++] = 0;
    }
    if (m > 0)
    {
        x->blocks_rows[blocks] = n;
        x->blocks_comp[blocks++] = 1;
    }
    x->blocks_rows[blocks] = size;
    x->nm = NM_new();
    NM_fill(x->nm, NM_DENSE, size, size, x->M);
    x->problem = (MixedLinearComplementarityProblem){
        .isStorageType1 = 1,
        .isStorageType2 = 1,
        .n = n,
        .m = m,
        .blocksRows = x->blocks_rows,
        .blocksIsComp = x->blocks_comp,
        .M = x->nm,
        .q = x->q,
        .A = a,
        .B = b,
        .C = c,
        .D = d,
        .a = x->q,
        .b = x->q + n,
    };
}

bool sico_mlcp_make(const cs_lcp* p, sico_mlcp* x, char* why, size_t why_size)
{
    int rows = p->row_count;
    *x = (sico_mlcp){.rows = rows};
    x->var = malloc(((size_t)rows + 1) * sizeof(int));
    x->var_minus = malloc(((size_t)rows + 1) * sizeof(int));
    x->sign = malloc(((size_t)rows + 1) * sizeof(double));
    x->offset = malloc(((size_t)rows + 1) * sizeof(double));
    if (!number_variables(p, x, why, why_size))
    {
        return false;
    }
    size_t size = (size_t)(x->n + x->m);
    x->A = calloc((size_t)rows * (size_t)rows + 1, sizeof(double));
    x->q_rows = calloc((size_t)rows + 1, sizeof(double));
    x->M = calloc(size * size + 1, sizeof(double));
    x->q = calloc(size + 1, sizeof(double));
    sico_row_matrix(p, x->A, x->q_rows);
    fill_system(p, x);
    fill_blocks(x);
    return true;
}

void sico_mlcp_lambda(const sico_mlcp* x, const double* z, double* lambda)
{
    for (int i = 0; i < x->rows; ++i)
    {
        lambda[i] =
            x->offset[i] + x->sign[i] * z[x->var[i]] - (x->var_minus[i] >= 0 ? z[x->var_minus[i]] : 0.0);
    }
}

void sico_mlcp_row_velocity(const sico_mlcp* x, const double* lambda, double* w)
{
    for (int i = 0; i < x->rows; ++i)
    {
        double s = x->q_rows[i];
        for (int j = 0; j < x->rows; ++j)
        {
            s += x->A[(size_t)i * x->rows + j] * lambda[j];
        }
        w[i] = s;
    }
}

double sico_mlcp_residual(const sico_mlcp* x, const cs_lcp* p, const double* lambda)
{
    double* w = malloc(((size_t)x->rows + 1) * sizeof(double));
    sico_mlcp_row_velocity(x, lambda, w);
    double sum = 0.0;
    for (int i = 0; i < x->rows; ++i)
    {
        double lo, hi;
        cs_lcp_bounds(p, lambda, i, &lo, &hi);
        double y = lambda[i] - w[i];
        y = y < lo ? lo : y > hi ? hi : y;
        sum += (lambda[i] - y) * (lambda[i] - y);
    }
    free(w);
    return sqrt(sum);
}

double sico_mlcp_error(sico_mlcp* x, const double* z)
{
    size_t size = (size_t)(x->n + x->m);
    double* zc = malloc((size + 1) * sizeof(double));
    double* w = malloc((size + 1) * sizeof(double));
    memcpy(zc, z, size * sizeof(double));
    double error = INFINITY;
    mlcp_compute_error(&x->problem, zc, w, 1e-8, &error); // the tolerance only sets its return status
    free(zc);
    free(w);
    return error;
}

double sico_mlcp_miss(const sico_mlcp* x, const double* z, int* row, double* norm_z)
{
    int size = x->n + x->m;
    double worst = 0.0, scale = 0.0, zmax = 0.0;
    *row = 0;
    for (int k = 0; k < size; ++k)
    {
        double w = x->q[k];
        for (int c = 0; c < size; ++c)
        {
            w += x->M[(size_t)c * size + k] * z[c];
        }
        double e = k < x->n ? fabs(w) : fabs(fmin(z[k], w));
        if (!(e <= worst)) // (a NaN is the worst)
        {
            worst = e;
            *row = k;
        }
        scale = fmax(scale, fabs(x->q[k]));
        zmax = fmax(zmax, fabs(z[k]));
    }
    *norm_z = zmax;
    return worst / (1.0 + scale);
}

const char* sico_mlcp_solver_name(int id)
{
    switch (id)
    {
        case SICONOS_MLCP_LCP_LEMKE:
            return "MLCP Lemke (Schur complement, lexicographic Lemke)";
        case SICONOS_MLCP_ENUM:
            return "MLCP enumeration";
        case SICONOS_MLCP_PGS:
            return "MLCP PGS";
        case SICONOS_MLCP_DIRECT_ENUM:
            return "MLCP direct + enumeration";
        case SICONOS_MLCP_FB:
            return "MLCP Fischer-Burmeister Newton";
        default:
            return "MLCP solver";
    }
}

int sico_mlcp_solve(sico_mlcp* x, int id, double tol, int max_iterations, double* z, int* iterations)
{
    size_t size = (size_t)(x->n + x->m);
    double* w = calloc(size + 1, sizeof(double));
    int info;
    if (x->n == 0 && id == SICONOS_MLCP_LCP_LEMKE)
    {
        // No free variable: the MLCP is an LCP, and Siconos's conversion would factor a 0 × 0 matrix.
        LinearComplementarityProblem lcp = {.size = x->m, .M = x->nm, .q = x->q};
        SolverOptions* options = solver_options_create(SICONOS_LCP_LEMKE);
        options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
        options->dparam[SICONOS_DPARAM_TOL] = tol;
        info = linearComplementarity_driver(&lcp, z, w, options);
        *iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(options);
    }
    else
    {
        // Without complementarity variables the MLCP is one linear system, which is what the Schur step of
        // MLCP Lemke solves: enumeration's single case (Lemke itself would start on an empty LCP).
        bool linear = x->m == 0 && id == SICONOS_MLCP_LCP_LEMKE;
        SolverOptions* options = solver_options_create(linear ? SICONOS_MLCP_ENUM : id);
        options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
        options->dparam[SICONOS_DPARAM_TOL] = tol;
        mlcp_driver_init(&x->problem, options);
        info = mlcp_driver(&x->problem, z, w, options);
        *iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
        mlcp_driver_reset(&x->problem, options);
        solver_options_delete(options);
    }
    free(w);
    return info;
}
