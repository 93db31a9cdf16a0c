// Reading an FCLIB 2D global problem into circlesim's factored form (lcp_fclib.h). FCLIB's bilateral rows
// (G, b: Gᵀ v + b = 0) become rod rows (kind c, [-inf, inf]) after the contacts' rows.
//
// libfclib ends the process (exit(1)) when a dataset it expects is missing or malformed, so the file's
// structure is checked first (lcp_fclib_check.c); only a file that passes is handed to fclib_read_global.
// Then M must be per-body diag(m, m, I), every H column must touch at most two bodies (a circlesim row
// couples two bodies), and every number must be finite.
#include "circlesim/lcp_fclib.h"

#include "solver/lcp_fclib_internal.h"

#include <fclib.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cs_lcp_file_is_hdf5(const char* path)
{
    static const unsigned char signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char head[8];
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        return false;
    }
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return got == sizeof head && memcmp(head, signature, sizeof head) == 0;
}

cs_status cs_lcp_load(const char* path, cs_lcp* out, cs_error* err)
{
    return cs_lcp_file_is_hdf5(path) ? cs_lcp_read_fclib(path, out, err) : cs_lcp_read(path, out, err);
}

// Calls fn(row, column, value) for every stored entry of a triplet, CSC or CSR matrix; fails on indices
// out of range or pointers out of order.
typedef cs_status (*entry_fn)(void* ctx, int row, int col, double x, cs_error* err);

static cs_status each_entry(const struct fclib_matrix* a, const char* path, const char* what, entry_fn fn,
                            void* ctx, cs_error* err)
{
    int outer = a->nz == -1 ? a->n : a->nz == -2 ? a->m : 1;
    for (int o = 0; o < outer; ++o)
    {
        int begin = a->nz >= 0 ? 0 : a->p[o], end = a->nz >= 0 ? a->nz : a->p[o + 1];
        if (begin < 0 || end < begin || end > a->nzmax)
        {
            return cs_fail(err, CS_ERR_VALUE, "%s: %s: pointer %d out of order", path, what, o);
        }
        for (int k = begin; k < end; ++k)
        {
            int row = a->nz >= 0 ? a->p[k] : a->nz == -1 ? a->i[k] : o;
            int col = a->nz >= 0 ? a->i[k] : a->nz == -1 ? o : a->i[k];
            if (row < 0 || row >= a->m || col < 0 || col >= a->n || !isfinite(a->x[k]))
            {
                return cs_fail(err, CS_ERR_VALUE, "%s: %s: entry %d (%d, %d) out of range or not finite",
                               path, what, k, row, col);
            }
            cs_status s = fn(ctx, row, col, a->x[k], err);
            if (s != CS_OK)
            {
                return s;
            }
        }
    }
    return CS_OK;
}

// H and M gathered per column and per coordinate; G's columns are numbered after H's.
typedef struct gathered
{
    int columns;         // H's and G's
    int contact_columns; // H's
    int col_offset;      // added to the column of the matrix being gathered (G: contact_columns)
    double* mass;        // [nv] diagonal of M, 0 = not given
    int* col_body;       // [2 * columns] the (at most two) bodies of each H column, lower first; -1 = none
    double* col_jac;     // [6 * columns] their three entries each
    uint8_t* seen;       // [6 * columns]
    const char* path;
} gathered;

static cs_status take_mass(void* ctx, int row, int col, double x, cs_error* err)
{
    gathered* g = ctx;
    if (row != col || !(x > 0.0) || g->mass[row] != 0.0)
    {
        return cs_fail(
            err, CS_ERR_VALUE,
            "%s: /fclib_global/M: entry (%d, %d) = %g: circlesim needs a positive diagonal M, each "
            "entry once",
            g->path, row, col, x);
    }
    g->mass[row] = x;
    return CS_OK;
}

static cs_status take_jacobian(void* ctx, int row, int col, double x, cs_error* err)
{
    gathered* g = ctx;
    col += g->col_offset;
    int body = row / 3, *slots = g->col_body + 2 * col;
    int slot = slots[0] == body || slots[0] < 0 ? 0 : slots[1] == body || slots[1] < 0 ? 1 : -1;
    if (slot < 0)
    {
        return cs_fail(
            err, CS_ERR_VALUE,
            "%s: /fclib_global/%s: column %d touches bodies %d, %d and %d: a circlesim row couples two",
            g->path, g->col_offset > 0 ? "G" : "H", col - g->col_offset, slots[0], slots[1], body);
    }
    int k = 6 * col + 3 * slot + row % 3;
    if (g->seen[k])
    {
        return cs_fail(err, CS_ERR_VALUE, "%s: /fclib_global/%s: entry (%d, %d) given twice", g->path,
                       g->col_offset > 0 ? "G" : "H", row, col - g->col_offset);
    }
    slots[slot] = body;
    g->seen[k] = 1;
    g->col_jac[k] = x;
    return CS_OK;
}

// Orders each column's two bodies lower first (triplet and CSR input can name them in any order).
static void order_bodies(gathered* g)
{
    for (int c = 0; c < g->columns; ++c)
    {
        int* b = g->col_body + 2 * c;
        if (b[1] >= 0 && b[1] < b[0])
        {
            int t = b[0];
            b[0] = b[1];
            b[1] = t;
            for (int k = 0; k < 3; ++k)
            {
                double x = g->col_jac[6 * c + k];
                g->col_jac[6 * c + k] = g->col_jac[6 * c + 3 + k];
                g->col_jac[6 * c + 3 + k] = x;
            }
        }
    }
}

static cs_status gather(const struct fclib_global* fc, gathered* g, cs_error* err)
{
    cs_status s = each_entry(fc->M, g->path, "/fclib_global/M", take_mass, g, err);
    s = s == CS_OK ? each_entry(fc->H, g->path, "/fclib_global/H", take_jacobian, g, err) : s;
    g->col_offset = g->contact_columns;
    s = s == CS_OK && fc->G != NULL ? each_entry(fc->G, g->path, "/fclib_global/G", take_jacobian, g, err)
                                    : s;
    g->col_offset = 0;
    if (s != CS_OK)
    {
        return s;
    }
    for (int b = 0; 3 * b < fc->M->m; ++b)
    {
        double* m = g->mass + 3 * b;
        if (m[0] == 0.0 || m[2] == 0.0 || m[0] != m[1])
        {
            return cs_fail(
                err, CS_ERR_VALUE,
                "%s: /fclib_global/M: body %d has diagonal (%g, %g, %g): circlesim needs (m, m, I) > 0",
                g->path, b, m[0], m[1], m[2]);
        }
    }
    for (int k = 0; fc->G != NULL && k < fc->G->n; ++k)
    {
        if (!isfinite(fc->b[k]))
        {
            return cs_fail(err, CS_ERR_VALUE, "%s: /fclib_global/vectors/b: entry %d not finite", g->path, k);
        }
    }
    for (int c = 0; c < g->contact_columns; ++c)
    {
        double w = fc->w[c], mu = fc->mu[c / CS_FCLIB_DIM];
        if (!isfinite(w) || !isfinite(mu) || mu < 0.0)
        {
            return cs_fail(err, CS_ERR_VALUE,
                           "%s: /fclib_global/vectors: w or mu of column %d not finite, or mu < 0", g->path,
                           c);
        }
    }
    for (int k = 0; k < fc->M->m; ++k)
    {
        if (!isfinite(fc->f[k]))
        {
            return cs_fail(err, CS_ERR_VALUE, "%s: /fclib_global/vectors/f: entry %d not finite", g->path, k);
        }
    }
    order_bodies(g);
    return CS_OK;
}

// A contact has a friction row when its tangent column says anything: entries, a bias or a friction.
static bool has_tangent(const struct fclib_global* fc, const gathered* g, int contact)
{
    int t = CS_FCLIB_DIM * contact + 1;
    return g->col_body[2 * t] >= 0 || fc->w[t] != 0.0 || fc->mu[contact] != 0.0;
}

// Row i from H column col, with the given bodies (which must be the column's, in either order).
static cs_status set_row(cs_lcp* out, int i, int col, int a, int b, int link, const struct fclib_global* fc,
                         const gathered* g, cs_error* err)
{
    const int* cb = g->col_body + 2 * col;
    bool same = (cb[0] == a && cb[1] == b) || (cb[0] == b && cb[1] == a) ||
                (cb[1] < 0 && ((cb[0] == a && b < 0) || (cb[0] == b && a < 0)));
    if (!same)
    {
        return cs_fail(err, CS_ERR_VALUE,
                       "%s: " CS_FCLIB_EXTRAS
                       " names bodies %d, %d for row %d, /fclib_global/H column %d has %d, %d",
                       g->path, a, b, i, col, cb[0], cb[1]);
    }
    out->body_a[i] = a;
    out->body_b[i] = b;
    for (int side = 0; side < 2; ++side)
    {
        int body = side == 0 ? a : b;
        int slot = body >= 0 && cb[1] == body ? 1 : 0;
        for (int k = 0; k < 3; ++k)
        {
            out->jac[6 * i + 3 * side + k] = body >= 0 ? g->col_jac[6 * col + 3 * slot + k] : 0.0;
        }
    }
    out->lambda0[i] = 0.0;
    if (col >= g->contact_columns) // a G column: Gᵀ v + b = 0, its multiplier free
    {
        out->kind[i] = CS_ROW_BOX;
        out->link[i] = -1;
        out->mu[i] = 0.0;
        out->lo[i] = -INFINITY;
        out->hi[i] = INFINITY;
        out->bias[i] = fc->b[col - g->contact_columns];
        return CS_OK;
    }
    bool friction = col % CS_FCLIB_DIM == 1;
    out->kind[i] = friction ? CS_ROW_FRICTION : CS_ROW_NORMAL;
    out->link[i] = friction ? link : -1;
    out->mu[i] = friction ? fc->mu[col / CS_FCLIB_DIM] : 0.0;
    out->lo[i] = 0.0;
    out->hi[i] = friction ? 0.0 : INFINITY;
    out->bias[i] = fc->w[col];
    return CS_OK;
}

// Name from FCLIB's title: one token of at most 63 characters (blanks become '_').
static void set_name(cs_lcp* out, const char* title)
{
    snprintf(out->name, sizeof out->name, "%s", title != NULL ? title : "");
    for (char* c = out->name; *c != '\0'; ++c)
    {
        *c = (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r' || *c == '#' || *c == '\v' || *c == '\f')
                 ? '_'
                 : *c;
    }
}

// One vector of FCLIB's first initial guess into x (length n, finite), or CS_OK without reading when n is 0.
static cs_status read_guess_vector(hid_t file, const char* path, const char* name, int n, double* x,
                                   cs_error* err)
{
    if (n == 0)
    {
        return CS_OK;
    }
    if (cs_fclib_length(file, name) != n)
    {
        return cs_fail(err, CS_ERR_PARSE, "%s: %s: missing or not of length %d", path, name, n);
    }
    if (H5LTread_dataset_double(file, name, x) < 0)
    {
        return cs_fail(err, CS_ERR_IO, "%s: %s: read failed", path, name);
    }
    for (int k = 0; k < n; ++k)
    {
        if (!isfinite(x[k]))
        {
            return cs_fail(err, CS_ERR_VALUE, "%s: %s: entry %d not finite", path, name, k);
        }
    }
    return CS_OK;
}

// The warm start from FCLIB's first initial guess (/guesses/1: r on H's columns, l on G's), when the file has
// one. Read with HDF5 directly: fclib_read_guesses opens the file for writing, which fails on a read-only
// file (and on one this reader already holds open).
static cs_status read_guess(hid_t file, const char* path, const struct fclib_global* fc, const gathered* g,
                            cs_lcp* out, cs_error* err)
{
    int count = 0;
    if (!cs_fclib_scalar_int(file, "/guesses/number_of_guesses", &count) || count < 1)
    {
        return CS_OK;
    }
    double* r = malloc(((size_t)g->columns + 1) * sizeof(double));
    if (r == NULL)
    {
        return cs_fail(err, CS_ERR_MEMORY, "%s: out of memory", path);
    }
    cs_status s = read_guess_vector(file, path, "/guesses/1/r", g->contact_columns, r, err);
    s = s == CS_OK ? read_guess_vector(file, path, "/guesses/1/l", g->columns - g->contact_columns,
                                       r + g->contact_columns, err)
                   : s;
    // The rows in the order convert_plain laid them out: per contact the normal, then a present tangent;
    // then G's columns.
    for (int c = 0, i = 0; s == CS_OK && c < g->columns; ++c)
    {
        if (c >= g->contact_columns || c % CS_FCLIB_DIM == 0 || has_tangent(fc, g, c / CS_FCLIB_DIM))
        {
            out->lambda0[i++] = r[c];
        }
    }
    free(r);
    return s;
}

// Without /circlesim: inverse masses 1/M, v* = f/M, per contact the normal row and its friction row.
static cs_status convert_plain(hid_t file, const struct fclib_global* fc, const gathered* g, cs_lcp* out,
                               cs_error* err)
{
    int contacts = g->contact_columns / CS_FCLIB_DIM, rows = g->columns - g->contact_columns;
    int bodies = fc->M->m / 3;
    for (int c = 0; c < contacts; ++c)
    {
        rows += 1 + has_tangent(fc, g, c);
    }
    cs_status s = cs_lcp_reserve(out, bodies, rows, err);
    if (s != CS_OK)
    {
        return s;
    }
    out->body_count = bodies;
    out->row_count = rows;
    for (int k = 0; k < fc->M->m; ++k)
    {
        double inv = 1.0 / g->mass[k];
        if (k % 3 == 2)
        {
            out->inv_inertia[k / 3] = inv;
        }
        else
        {
            out->inv_mass[k / 3] = inv;
        }
        out->v[k] = fc->f[k] / g->mass[k];
    }
    int i = 0;
    for (int c = 0; c < contacts && s == CS_OK; ++c)
    {
        int col = CS_FCLIB_DIM * c, normal = i;
        s = set_row(out, i++, col, g->col_body[2 * col], g->col_body[2 * col + 1], -1, fc, g, err);
        if (s == CS_OK && has_tangent(fc, g, c))
        {
            s = set_row(out, i++, col + 1, g->col_body[2 * col + 2], g->col_body[2 * col + 3], normal, fc, g,
                        err);
        }
    }
    for (int col = g->contact_columns; col < g->columns && s == CS_OK; ++col)
    {
        s = set_row(out, i++, col, g->col_body[2 * col], g->col_body[2 * col + 1], -1, fc, g, err);
    }
    set_name(out, fc->info != NULL ? fc->info->title : NULL);
    return s == CS_OK ? read_guess(file, g->path, fc, g, out, err) : s;
}

// The /circlesim group's arrays (lcp_fclib_write.c writes them).
typedef struct extras
{
    int bodies, rows;
    double *inv_mass, *inv_inertia, *v, *lambda0;
    int *column, *body_a, *body_b;
    char name[64];
} extras;

static void free_extras(extras* e)
{
    free(e->inv_mass);
    free(e->inv_inertia);
    free(e->v);
    free(e->lambda0);
    free(e->column);
    free(e->body_a);
    free(e->body_b);
}

static cs_status read_extras(hid_t file, const char* path, extras* e, cs_error* err)
{
    char format[32] = "";
    hsize_t dims[1];
    H5T_class_t type;
    size_t size = 0;
    bool ok =
        cs_fclib_exists(file, CS_FCLIB_EXTRAS "/format") && cs_fclib_exists(file, CS_FCLIB_EXTRAS "/name") &&
        H5LTget_dataset_info(file, CS_FCLIB_EXTRAS "/format", dims, &type, &size) >= 0 &&
        size <= sizeof format && H5LTread_dataset_string(file, CS_FCLIB_EXTRAS "/format", format) >= 0 &&
        strcmp(format, CS_FCLIB_EXTRAS_FORMAT) == 0 &&
        H5LTget_dataset_info(file, CS_FCLIB_EXTRAS "/name", dims, &type, &size) >= 0 &&
        size <= sizeof e->name && H5LTread_dataset_string(file, CS_FCLIB_EXTRAS "/name", e->name) >= 0;
    long long nb = cs_fclib_length(file, CS_FCLIB_EXTRAS "/inv_mass"),
              nr = cs_fclib_length(file, CS_FCLIB_EXTRAS "/column");
    ok = ok && nb >= 0 && nr >= 0 && cs_fclib_length(file, CS_FCLIB_EXTRAS "/inv_inertia") == nb &&
         cs_fclib_length(file, CS_FCLIB_EXTRAS "/v") == 3 * nb &&
         cs_fclib_length(file, CS_FCLIB_EXTRAS "/body_a") == nr &&
         cs_fclib_length(file, CS_FCLIB_EXTRAS "/body_b") == nr &&
         cs_fclib_length(file, CS_FCLIB_EXTRAS "/lambda0") == nr;
    if (!ok)
    {
        return cs_fail(err, CS_ERR_PARSE,
                       "%s: " CS_FCLIB_EXTRAS ": not the group circlesim writes (format '%s')", path,
                       CS_FCLIB_EXTRAS_FORMAT);
    }
    e->bodies = (int)nb;
    e->rows = (int)nr;
    e->inv_mass = malloc(((size_t)nb + 1) * sizeof(double));
    e->inv_inertia = malloc(((size_t)nb + 1) * sizeof(double));
    e->v = malloc(((size_t)nb * 3 + 1) * sizeof(double));
    e->lambda0 = malloc(((size_t)nr + 1) * sizeof(double));
    e->column = malloc(((size_t)nr + 1) * sizeof(int));
    e->body_a = malloc(((size_t)nr + 1) * sizeof(int));
    e->body_b = malloc(((size_t)nr + 1) * sizeof(int));
    if (!e->inv_mass || !e->inv_inertia || !e->v || !e->lambda0 || !e->column || !e->body_a || !e->body_b)
    {
        return cs_fail(err, CS_ERR_MEMORY, "%s: out of memory", path);
    }
    ok = H5LTread_dataset_double(file, CS_FCLIB_EXTRAS "/inv_mass", e->inv_mass) >= 0 &&
         H5LTread_dataset_double(file, CS_FCLIB_EXTRAS "/inv_inertia", e->inv_inertia) >= 0 &&
         H5LTread_dataset_double(file, CS_FCLIB_EXTRAS "/v", e->v) >= 0 &&
         H5LTread_dataset_double(file, CS_FCLIB_EXTRAS "/lambda0", e->lambda0) >= 0 &&
         H5LTread_dataset_int(file, CS_FCLIB_EXTRAS "/column", e->column) >= 0 &&
         H5LTread_dataset_int(file, CS_FCLIB_EXTRAS "/body_a", e->body_a) >= 0 &&
         H5LTread_dataset_int(file, CS_FCLIB_EXTRAS "/body_b", e->body_b) >= 0;
    return ok ? CS_OK : cs_fail(err, CS_ERR_IO, "%s: " CS_FCLIB_EXTRAS ": read failed", path);
}

// Relative agreement of a value FCLIB holds after a division with the exact one circlesim kept.
static bool agrees(double exact, double divided)
{
    return fabs(exact - divided) <= 1e-12 * (fabs(exact) + fabs(divided));
}

// With /circlesim: the exact inverse masses, v*, row and body order and warm start, checked against the
// FCLIB data they must agree with (a file edited by another FCLIB tool is rejected, not half-trusted).
static cs_status convert_exact(const struct fclib_global* fc, const gathered* g, const extras* e, cs_lcp* out,
                               cs_error* err)
{
    int contacts = g->contact_columns / CS_FCLIB_DIM, rows = g->columns - g->contact_columns;
    for (int c = 0; c < contacts; ++c)
    {
        rows += 1 + has_tangent(fc, g, c);
    }
    if (e->bodies * 3 != fc->M->m || e->rows != rows)
    {
        return cs_fail(err, CS_ERR_VALUE,
                       "%s: " CS_FCLIB_EXTRAS " has %d bodies and %d rows, /fclib_global %d and %d", g->path,
                       e->bodies, e->rows, fc->M->m / 3, rows);
    }
    for (int k = 0; k < fc->M->m; ++k)
    {
        double inv = k % 3 == 2 ? e->inv_inertia[k / 3] : e->inv_mass[k / 3];
        if (!agrees(inv, 1.0 / g->mass[k]) || !agrees(e->v[k], fc->f[k] / g->mass[k]))
        {
            return cs_fail(err, CS_ERR_VALUE,
                           "%s: " CS_FCLIB_EXTRAS
                           " disagrees with /fclib_global M or f at coordinate %d (body %d); "
                           "delete the group to read the FCLIB data alone",
                           g->path, k, k / 3);
        }
    }
    cs_status s = cs_lcp_reserve(out, e->bodies, rows, err);
    if (s != CS_OK)
    {
        return s;
    }
    out->body_count = e->bodies;
    out->row_count = rows;
    memcpy(out->inv_mass, e->inv_mass, (size_t)e->bodies * sizeof(double));
    memcpy(out->inv_inertia, e->inv_inertia, (size_t)e->bodies * sizeof(double));
    memcpy(out->v, e->v, (size_t)e->bodies * 3 * sizeof(double));
    // row_at[col] = the row on each column; every normal column and every present tangent exactly once.
    int* row_at = malloc(((size_t)g->columns + 1) * sizeof(int));
    if (row_at == NULL)
    {
        return cs_fail(err, CS_ERR_MEMORY, "%s: out of memory", g->path);
    }
    for (int c = 0; c < g->columns; ++c)
    {
        row_at[c] = -1;
    }
    for (int i = 0; i < rows && s == CS_OK; ++i)
    {
        int col = e->column[i];
        bool valid =
            col >= 0 && col < g->columns && row_at[col] < 0 &&
            (col >= g->contact_columns || col % CS_FCLIB_DIM == 0 || has_tangent(fc, g, col / CS_FCLIB_DIM));
        if (!valid || !isfinite(e->lambda0[i]))
        {
            s = cs_fail(err, CS_ERR_VALUE, "%s: " CS_FCLIB_EXTRAS ": row %d: column %d or lambda0 invalid",
                        g->path, i, col);
        }
        else
        {
            row_at[col] = i;
        }
    }
    for (int i = 0; i < rows && s == CS_OK; ++i)
    {
        int col = e->column[i];
        bool tangent = col < g->contact_columns && col % CS_FCLIB_DIM == 1;
        s = set_row(out, i, col, e->body_a[i], e->body_b[i], tangent ? row_at[col - 1] : -1, fc, g, err);
        out->lambda0[i] = e->lambda0[i];
    }
    free(row_at);
    set_name(out, e->name);
    return s;
}

static cs_status read_global(hid_t file, const char* path, cs_lcp* out, cs_error* err)
{
    cs_fclib_shape M, H, G;
    cs_status s = cs_fclib_check_structure(file, path, &M, &H, &G, err);
    if (s != CS_OK)
    {
        return s;
    }
    struct fclib_global* fc = fclib_read_global(path);
    if (fc == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: libfclib could not read /fclib_global", path);
    }
    gathered g = {.columns = H.n + G.n, .contact_columns = H.n, .path = path};
    g.mass = calloc((size_t)M.m + 1, sizeof(double));
    g.col_body = malloc(((size_t)g.columns * 2 + 1) * sizeof(int));
    g.col_jac = calloc((size_t)g.columns * 6 + 1, sizeof(double));
    g.seen = calloc((size_t)g.columns * 6 + 1, 1);
    if (!g.mass || !g.col_body || !g.col_jac || !g.seen)
    {
        s = cs_fail(err, CS_ERR_MEMORY, "%s: out of memory", path);
    }
    for (int k = 0; s == CS_OK && k < 2 * g.columns; ++k)
    {
        g.col_body[k] = -1;
    }
    s = s == CS_OK ? gather(fc, &g, err) : s;
    if (s == CS_OK && cs_fclib_exists(file, CS_FCLIB_EXTRAS))
    {
        extras e = {0};
        s = read_extras(file, path, &e, err);
        s = s == CS_OK ? convert_exact(fc, &g, &e, out, err) : s;
        free_extras(&e);
    }
    else if (s == CS_OK)
    {
        s = convert_plain(file, fc, &g, out, err);
    }
    free(g.mass);
    free(g.col_body);
    free(g.col_jac);
    free(g.seen);
    fclib_delete_global(fc);
    free(fc);
    return s;
}

cs_status cs_lcp_read_fclib(const char* path, cs_lcp* out, cs_error* err)
{
    // HDF5 prints an error stack for every failed probe; the reasons given here replace it.
    H5E_auto2_t old_fn = NULL;
    void* old_data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    cs_status s;
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0)
    {
        s = cs_fail(err, CS_ERR_IO, "%s: cannot open as an HDF5 (FCLIB) file", path);
    }
    else
    {
        s = read_global(file, path, out, err);
        H5Fclose(file);
    }
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    return s;
}
