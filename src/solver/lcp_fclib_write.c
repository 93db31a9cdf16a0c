// Writing a frozen problem as an FCLIB 2D frictional contact problem through libfclib (lcp_fclib.h).
//
// The global form is circlesim's own factored form: M v = H r + f, u = Hᵀ v + w with M = diag(m, m, I)
// per body, H = Jᵀ (one column per row, three entries per moving body half), f = M v*, w = bias. The local
// form W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w is formed here the way the solvers form A: per shared body.
#include "circlesim/lcp_fclib.h"
#include "circlesim/solver.h"

#include "solver/lcp_fclib_internal.h"

#include <errno.h>
#include <math.h>
#include <fclib.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A rod row: both bounds infinite, FCLIB's bilateral G row (G^T v + b = 0, its multiplier free).
static bool is_rod(const cs_lcp* p, int i)
{
    return p->kind[i] == CS_ROW_BOX && p->lo[i] == -INFINITY && p->hi[i] == INFINITY;
}

cs_status cs_fclib_columns(const cs_lcp* p, const char* path, int* column, int* contacts, int* joints,
                           cs_error* err)
{
    int count = 0, rods = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        if (p->kind[i] == CS_ROW_BOX && !is_rod(p, i))
        {
            // A rope (-inf..0) or another box with a finite bound: FCLIB has equalities (G, b) and contacts
            // with their Coulomb cones, no one-sided or bounded multiplier of its own.
            bool one_sided = isfinite(p->lo[i]) != isfinite(p->hi[i]);
            return cs_fail(err, CS_ERR_VALUE,
                           "%s: row %d is a fixed-box row (kind c, [%g, %g]: %s): FCLIB has bilateral rows "
                           "(G, b) and contacts, not bounded multipliers, so the problem cannot be written "
                           "as FCLIB without losing it",
                           path, i, p->lo[i], p->hi[i],
                           one_sided ? "one-sided, a rope joint" : "a two-sided box");
        }
        if (p->reg != NULL && p->reg[i] != 0.0)
        {
            return cs_fail(err, CS_ERR_VALUE,
                           "%s: row %d is regularised (reg %g, SPOOK): FCLIB has no field for it (write the "
                           ".lcp, version 2, instead)",
                           path, i, p->reg[i]);
        }
        rods += is_rod(p, i);
        column[i] = p->kind[i] == CS_ROW_NORMAL ? CS_FCLIB_DIM * count++ : -1;
    }
    for (int i = 0, k = 0; i < p->row_count; ++i)
    {
        column[i] = is_rod(p, i) ? CS_FCLIB_DIM * count + k++ : column[i];
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        if (p->kind[i] != CS_ROW_FRICTION)
        {
            continue;
        }
        int tangent = column[p->link[i]] + 1;
        for (int k = 0; k < i; ++k)
        {
            if (p->kind[k] == CS_ROW_FRICTION && column[k] == tangent)
            {
                return cs_fail(
                    err, CS_ERR_VALUE,
                    "%s: rows %d and %d are both friction rows of normal row %d: an FCLIB 2D contact "
                    "has one tangent",
                    path, k, i, p->link[i]);
            }
        }
        column[i] = tangent;
    }
    *contacts = count;
    *joints = rods;
    return CS_OK;
}

// Per-body inverse mass of generalized coordinate k (vx, vy, omega).
static double inverse_mass(const cs_lcp* p, int k)
{
    return k % 3 == 2 ? p->inv_inertia[k / 3] : p->inv_mass[k / 3];
}

static cs_status check_writable(const cs_lcp* p, const char* path, cs_error* err)
{
    for (int b = 0; b < p->body_count; ++b)
    {
        if (!(p->inv_mass[b] > 0.0) || !(p->inv_inertia[b] > 0.0))
        {
            return cs_fail(
                err, CS_ERR_VALUE,
                "%s: body %d has inverse mass %g and inverse inertia %g: FCLIB's M must be positive "
                "definite (no infinite masses)",
                path, b, p->inv_mass[b], p->inv_inertia[b]);
        }
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        if (p->body_a[i] >= 0 && p->body_a[i] == p->body_b[i])
        {
            return cs_fail(err, CS_ERR_VALUE, "%s: row %d couples body %d with itself", path, i,
                           p->body_a[i]);
        }
    }
    // libfclib creates the file itself and only prints when it cannot: try first, for a proper message.
    FILE* f = fopen(path, "wb");
    if (f == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    }
    fclose(f);
    remove(path); // libfclib adds to an existing HDF5 file; start from none
    return CS_OK;
}

// The arrays of one write; everything freed by free_arrays.
typedef struct fclib_arrays
{
    int* column;  // [rows] FCLIB column of each row (G's columns after H's)
    int* row_of;  // [2 * contacts + joints] row of each column, -1 for an absent tangent
    int* m_index; // [3 * bodies] diagonal M: p = i = 0..n
    double* m_x;
    double* f;
    int* h_p; // H: CSC, nv x 2 contacts
    int* h_i;
    double* h_x;
    double* w;
    double* mu;
    int* g_p; // G: CSC, nv x joints
    int* g_i;
    double* g_x;
    double* b;
    int* w_p; // W: CSC, 2 contacts square
    int* w_i;
    double* w_x;
    double* q;
    int* body_rows_start; // body -> rows touching it (CSR)
    int* body_rows;
    double* scratch; // [2 * contacts] one column of W
    int* touched;    // [2 * contacts] its rows, in the order found
    int* mark;       // [2 * contacts] the column that last touched each row (-1: none)
} fclib_arrays;

static void free_arrays(fclib_arrays* a)
{
    void* all[] = {a->column,
                   a->row_of,
                   a->m_index,
                   a->m_x,
                   a->f,
                   a->h_p,
                   a->h_i,
                   a->h_x,
                   a->w,
                   a->mu,
                   a->g_p,
                   a->g_i,
                   a->g_x,
                   a->b,
                   a->w_p,
                   a->w_i,
                   a->w_x,
                   a->q,
                   a->body_rows_start,
                   a->body_rows,
                   a->scratch,
                   a->touched,
                   a->mark};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
    {
        free(all[k]);
    }
}

static int compare_int(const void* x, const void* y)
{
    int a = *(const int*)x, b = *(const int*)y;
    return (a > b) - (a < b);
}

// Row i's Jacobian as one CSC column of H or G: the lower body's three entries first (rows ascending).
static void put_column(const cs_lcp* p, int i, int* index, double* value, int* nz)
{
    int halves[2] = {0, 3};
    if (p->body_b[i] >= 0 && (p->body_a[i] < 0 || p->body_b[i] < p->body_a[i]))
    {
        halves[0] = 3;
        halves[1] = 0;
    }
    for (int h = 0; h < 2; ++h)
    {
        int body = halves[h] == 0 ? p->body_a[i] : p->body_b[i];
        for (int k = 0; body >= 0 && k < 3; ++k)
        {
            index[*nz] = 3 * body + k;
            value[*nz] = p->jac[6 * i + halves[h] + k];
            *nz += 1;
        }
    }
}

// M, f; H = Jᵀ of the contact rows with w = their bias; G = Jᵀ of the rod rows with b = their bias
// (circlesim's w = J v + bias = 0 on a rod row is FCLIB's Gᵀ v + b = 0, its free multiplier FCLIB's λ).
static void fill_global(const cs_lcp* p, int columns, int joints, fclib_arrays* a)
{
    int nv = 3 * p->body_count;
    for (int k = 0; k < nv; ++k)
    {
        a->m_index[k] = k;
        a->m_x[k] = 1.0 / inverse_mass(p, k);
        a->f[k] = p->v[k] / inverse_mass(p, k);
    }
    a->m_index[nv] = nv;
    int nz = 0;
    for (int c = 0; c < columns; ++c)
    {
        a->h_p[c] = nz;
        int i = a->row_of[c];
        a->w[c] = i >= 0 ? p->bias[i] : 0.0;
        if (c % CS_FCLIB_DIM == 0)
        {
            int t = a->row_of[c + 1];
            a->mu[c / CS_FCLIB_DIM] = t >= 0 ? p->mu[t] : 0.0;
        }
        if (i >= 0)
        {
            put_column(p, i, a->h_i, a->h_x, &nz);
        }
    }
    a->h_p[columns] = nz;
    nz = 0;
    for (int k = 0; k < joints; ++k)
    {
        int i = a->row_of[columns + k];
        a->g_p[k] = nz;
        a->b[k] = p->bias[i];
        put_column(p, i, a->g_i, a->g_x, &nz);
    }
    a->g_p[joints] = nz;
}

// W = J M⁻¹ Jᵀ and q = J v* + b in FCLIB order: column c gathers the rows sharing a body with row_of[c],
// each product summed body a's half first, as the solvers' A_ij.
static void fill_local(const cs_lcp* p, int columns, fclib_arrays* a)
{
    int nz = 0;
    for (int c = 0; c < columns; ++c)
    {
        a->w_p[c] = nz;
        a->q[c] = 0.0;
        int j = a->row_of[c];
        if (j < 0)
        {
            continue;
        }
        int touched = 0;
        double q = 0.0;
        for (int side = 0; side < 2; ++side)
        {
            int body = side == 0 ? p->body_a[j] : p->body_b[j];
            if (body < 0)
            {
                continue;
            }
            const double* jj = p->jac + 6 * j + 3 * side;
            q += jj[0] * p->v[3 * body] + jj[1] * p->v[3 * body + 1] + jj[2] * p->v[3 * body + 2];
            for (int r = a->body_rows_start[body]; r < a->body_rows_start[body + 1]; ++r)
            {
                int i = a->body_rows[r];
                int ci = a->column[i];
                const double* ji = p->jac + 6 * i + (p->body_a[i] == body ? 0 : 3);
                double s = ji[0] * p->inv_mass[body] * jj[0] + ji[1] * p->inv_mass[body] * jj[1] +
                           ji[2] * p->inv_inertia[body] * jj[2];
                if (a->mark[ci] != c)
                {
                    a->mark[ci] = c;
                    a->touched[touched++] = ci;
                    a->scratch[ci] = 0.0;
                }
                a->scratch[ci] += s;
            }
        }
        a->q[c] = q + p->bias[j];
        qsort(a->touched, (size_t)touched, sizeof(int), compare_int);
        for (int t = 0; t < touched; ++t)
        {
            a->w_i[nz] = a->touched[t];
            a->w_x[nz] = a->scratch[a->touched[t]];
            nz += 1;
        }
    }
    a->w_p[columns] = nz;
}

// Allocates every array of one write and the body -> rows lists; false when memory runs out.
static bool alloc_arrays(const cs_lcp* p, int columns, int joints, fclib_arrays* a)
{
    int rows = p->row_count, bodies = p->body_count, nv = 3 * bodies;
    size_t cols = (size_t)columns + 1;
    a->row_of = malloc((cols + (size_t)joints) * sizeof(int));
    a->g_p = malloc(((size_t)joints + 1) * sizeof(int));
    a->g_i = malloc(((size_t)joints * 6 + 1) * sizeof(int));
    a->g_x = malloc(((size_t)joints * 6 + 1) * sizeof(double));
    a->b = malloc(((size_t)joints + 1) * sizeof(double));
    a->m_index = malloc(((size_t)nv + 1) * sizeof(int));
    a->m_x = malloc(((size_t)nv + 1) * sizeof(double));
    a->f = malloc(((size_t)nv + 1) * sizeof(double));
    a->h_p = malloc(cols * sizeof(int));
    a->h_i = malloc(((size_t)rows * 6 + 1) * sizeof(int));
    a->h_x = malloc(((size_t)rows * 6 + 1) * sizeof(double));
    a->w = malloc(cols * sizeof(double));
    a->mu = malloc(cols * sizeof(double));
    a->q = malloc(cols * sizeof(double));
    a->w_p = malloc(cols * sizeof(int));
    a->scratch = malloc(cols * sizeof(double));
    a->touched = malloc(cols * sizeof(int));
    a->mark = malloc(cols * sizeof(int));
    a->body_rows_start = calloc((size_t)bodies + 2, sizeof(int));
    a->body_rows = malloc(((size_t)rows * 2 + 1) * sizeof(int));
    if (!a->row_of || !a->m_index || !a->m_x || !a->f || !a->h_p || !a->h_i || !a->h_x || !a->w || !a->mu ||
        !a->q || !a->w_p || !a->scratch || !a->touched || !a->mark || !a->body_rows_start || !a->body_rows ||
        !a->g_p || !a->g_i || !a->g_x || !a->b)
    {
        return false;
    }
    // Counting sort of (body, row) pairs; W's column j then holds at most sum over j's bodies of their rows.
    for (int i = 0; i < rows; ++i)
    {
        a->body_rows_start[p->body_a[i] + 1] += p->body_a[i] >= 0;
        a->body_rows_start[p->body_b[i] + 1] += p->body_b[i] >= 0;
    }
    for (int b = 0; b < bodies; ++b)
    {
        a->body_rows_start[b + 1] += a->body_rows_start[b];
    }
    int* cursor = malloc(((size_t)bodies + 1) * sizeof(int));
    if (cursor == NULL)
    {
        return false;
    }
    memcpy(cursor, a->body_rows_start, ((size_t)bodies + 1) * sizeof(int));
    for (int i = 0; i < rows; ++i)
    {
        if (p->body_a[i] >= 0)
        {
            a->body_rows[cursor[p->body_a[i]]++] = i;
        }
        if (p->body_b[i] >= 0)
        {
            a->body_rows[cursor[p->body_b[i]]++] = i;
        }
    }
    free(cursor);
    size_t w_nnz = 1;
    for (int i = 0; i < rows; ++i)
    {
        for (int side = 0; side < 2; ++side)
        {
            int body = side == 0 ? p->body_a[i] : p->body_b[i];
            if (body >= 0)
            {
                w_nnz += (size_t)(a->body_rows_start[body + 1] - a->body_rows_start[body]);
            }
        }
    }
    a->w_i = malloc(w_nnz * sizeof(int));
    a->w_x = malloc(w_nnz * sizeof(double));
    return a->w_i != NULL && a->w_x != NULL;
}

// The /circlesim group: what FCLIB does not carry, so that reading the file back gives p bit for bit.
static cs_status write_extras(const cs_lcp* p, const char* path, const int* column, cs_error* err)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (file < 0)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot reopen to add " CS_FCLIB_EXTRAS, path);
    }
    hid_t group = H5Gcreate2(file, CS_FCLIB_EXTRAS, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t nb = (hsize_t)p->body_count, nv = 3 * nb, nr = (hsize_t)p->row_count;
    bool ok = group >= 0;
    ok = ok && H5LTmake_dataset_string(group, "format", CS_FCLIB_EXTRAS_FORMAT) >= 0;
    ok = ok && H5LTmake_dataset_string(group, "name", p->name) >= 0;
    ok = ok && H5LTmake_dataset_double(group, "inv_mass", 1, &nb, p->inv_mass) >= 0;
    ok = ok && H5LTmake_dataset_double(group, "inv_inertia", 1, &nb, p->inv_inertia) >= 0;
    ok = ok && H5LTmake_dataset_double(group, "v", 1, &nv, p->v) >= 0;
    ok = ok && H5LTmake_dataset_int(group, "column", 1, &nr, column) >= 0;
    ok = ok && H5LTmake_dataset_int(group, "body_a", 1, &nr, p->body_a) >= 0;
    ok = ok && H5LTmake_dataset_int(group, "body_b", 1, &nr, p->body_b) >= 0;
    ok = ok && H5LTmake_dataset_double(group, "lambda0", 1, &nr, p->lambda0) >= 0;
    if (group >= 0)
    {
        ok = H5Gclose(group) >= 0 && ok;
    }
    ok = H5Fclose(file) >= 0 && ok;
    return ok ? CS_OK : cs_fail(err, CS_ERR_IO, "%s: writing " CS_FCLIB_EXTRAS " failed", path);
}

// The global form always; the local form FC(W, q, mu) only without rod rows: it has no equalities, and
// eliminating them (a Schur complement of the G block) would make W dense and no longer the rows' own.
static cs_status write_problems(const cs_lcp* p, const char* path, int columns, int joints, fclib_arrays* a,
                                cs_error* err)
{
    int nv = 3 * p->body_count;
    struct fclib_matrix M = {
        .nzmax = nv, .m = nv, .n = nv, .p = a->m_index, .i = a->m_index, .x = a->m_x, .nz = -1};
    struct fclib_matrix H = {
        .nzmax = a->h_p[columns], .m = nv, .n = columns, .p = a->h_p, .i = a->h_i, .x = a->h_x, .nz = -1};
    struct fclib_matrix W = {.nzmax = a->w_p[columns],
                             .m = columns,
                             .n = columns,
                             .p = a->w_p,
                             .i = a->w_i,
                             .x = a->w_x,
                             .nz = -1};
    struct fclib_matrix G = {
        .nzmax = a->g_p[joints], .m = nv, .n = joints, .p = a->g_p, .i = a->g_i, .x = a->g_x, .nz = -1};
    char title[80];
    snprintf(title, sizeof title, "%s", p->name[0] != '\0' ? p->name : "circlesim");
    char description[] = "circlesim frozen contact problem of one time step (docs/LCP-FORMAT.md)";
    char math_info[] = "2D; per contact [normal, tangent]; M = diag(m, m, I) per body, H = J^T, f = M v*, "
                       "w = bias; joint rods: G = J^T, b = bias";
    struct fclib_info info = {.title = title, .description = description, .math_info = math_info};
    struct fclib_global global = {.M = &M,
                                  .H = &H,
                                  .G = joints > 0 ? &G : NULL,
                                  .mu = a->mu,
                                  .f = a->f,
                                  .b = joints > 0 ? a->b : NULL,
                                  .w = a->w,
                                  .spacedim = CS_FCLIB_DIM,
                                  .info = &info};
    struct fclib_local local = {.W = &W, .mu = a->mu, .q = a->q, .spacedim = CS_FCLIB_DIM, .info = &info};
    // libfclib prints its own reason and returns 0 on failure.
    if (fclib_write_global(&global, path) != 1 || (joints == 0 && fclib_write_local(&local, path) != 1))
    {
        return cs_fail(err, CS_ERR_IO, "%s: libfclib could not write the problem", path);
    }
    return CS_OK;
}

// The warm start as FCLIB's initial guess (/guesses/1): r = lambda0 per H column, l = lambda0 per G column,
// v = v* + M⁻¹ (H r + G l), u = Hᵀ v + w; written only when lambda0 is not all zero.
static cs_status write_guess(const cs_lcp* p, const char* path, int columns, int joints,
                             const fclib_arrays* a, cs_error* err)
{
    bool any = false;
    for (int i = 0; i < p->row_count; ++i)
    {
        any = any || p->lambda0[i] != 0.0;
    }
    if (!any)
    {
        return CS_OK;
    }
    double* v = malloc(((size_t)p->body_count * 3 + 1) * sizeof(double));
    double* u = calloc((size_t)columns + (size_t)joints + 1, sizeof(double));
    double* r = calloc((size_t)columns + (size_t)joints + 1, sizeof(double));
    cs_status status = CS_OK;
    if (v == NULL || u == NULL || r == NULL)
    {
        status = cs_fail(err, CS_ERR_MEMORY, "%s: out of memory", path);
    }
    else
    {
        cs_lcp_velocity(p, p->lambda0, v);
        for (int i = 0; i < p->row_count; ++i)
        {
            int c = a->column[i];
            r[c] = p->lambda0[i];
            for (int side = 0; side < 2; ++side)
            {
                int body = side == 0 ? p->body_a[i] : p->body_b[i];
                for (int k = 0; body >= 0 && k < 3; ++k)
                {
                    u[c] += p->jac[6 * i + 3 * side + k] * v[3 * body + k];
                }
            }
            u[c] += p->bias[i];
        }
        // r and u hold the G columns after the H ones: l is r's tail (u's tail, G^T v + b, is not written).
        struct fclib_solution guess = {.v = v, .u = u, .r = r, .l = joints > 0 ? r + columns : NULL};
        if (fclib_write_guesses(1, &guess, path) != 1)
        {
            status = cs_fail(err, CS_ERR_IO, "%s: libfclib could not write the warm start as a guess", path);
        }
    }
    free(v);
    free(u);
    free(r);
    return status;
}

cs_status cs_lcp_write_fclib(const cs_lcp* p, const char* path, bool extras, cs_error* err)
{
    cs_status status = check_writable(p, path, err);
    if (status != CS_OK)
    {
        return status;
    }
    fclib_arrays a = {0};
    int contacts = 0, joints = 0;
    a.column = malloc(((size_t)p->row_count + 1) * sizeof(int));
    status = a.column != NULL ? cs_fclib_columns(p, path, a.column, &contacts, &joints, err)
                              : cs_fail(err, CS_ERR_MEMORY, "%s: out of memory", path);
    if (status == CS_OK && contacts == 0)
    {
        // libfclib ends the process ("contact constraints must be present") on a global problem without H.
        status =
            cs_fail(err, CS_ERR_VALUE,
                    "%s: no contact rows (%d joint rows): an FCLIB problem needs at least one contact, so "
                    "the problem cannot be written as FCLIB (write the .lcp instead)",
                    path, joints);
    }
    int columns = CS_FCLIB_DIM * contacts;
    if (status == CS_OK && !alloc_arrays(p, columns, joints, &a))
    {
        status = cs_fail(err, CS_ERR_MEMORY, "%s: out of memory", path);
    }
    if (status == CS_OK)
    {
        for (int c = 0; c < columns + joints; ++c)
        {
            a.row_of[c] = -1;
        }
        for (int c = 0; c < columns; ++c)
        {
            a.mark[c] = -1;
        }
        for (int i = 0; i < p->row_count; ++i)
        {
            a.row_of[a.column[i]] = i;
        }
        fill_global(p, columns, joints, &a);
        if (joints == 0)
        {
            fill_local(p, columns, &a);
        }
        status = write_problems(p, path, columns, joints, &a, err);
    }
    if (status == CS_OK)
    {
        status = write_guess(p, path, columns, joints, &a, err);
    }
    if (status == CS_OK && extras)
    {
        status = write_extras(p, path, a.column, err);
    }
    free_arrays(&a);
    return status;
}
