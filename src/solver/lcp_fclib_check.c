// Checking an FCLIB file's structure with plain HDF5 before libfclib reads it (lcp_fclib_read.c).
//
// libfclib ends the process (exit(1)) when a dataset it expects is missing or has another shape, so every
// dataset fclib_read_global will touch is checked here first, with a reason for the one that is wrong.
#include "solver/lcp_fclib_internal.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <stdio.h>
#include <string.h>

// True when every prefix of the absolute path names a link (H5Lexists needs its parents to exist).
bool cs_fclib_exists(hid_t file, const char* path)
{
    char prefix[256];
    size_t n = strlen(path);
    if (n >= sizeof prefix)
    {
        return false;
    }
    for (size_t k = 1; k <= n; ++k)
    {
        if (k == n || path[k] == '/')
        {
            memcpy(prefix, path, k);
            prefix[k] = '\0';
            if (H5Lexists(file, prefix, H5P_DEFAULT) <= 0)
            {
                return false;
            }
        }
    }
    return true;
}

// Length of a one-dimensional dataset, -1 when it is absent or not one-dimensional.
long long cs_fclib_length(hid_t file, const char* path)
{
    int rank = 0;
    hsize_t dims[1] = {0};
    H5T_class_t type;
    size_t size;
    if (!cs_fclib_exists(file, path) || H5LTget_dataset_ndims(file, path, &rank) < 0 || rank != 1 ||
        H5LTget_dataset_info(file, path, dims, &type, &size) < 0 ||
        (type != H5T_INTEGER && type != H5T_FLOAT))
    {
        return -1;
    }
    return (long long)dims[0];
}

bool cs_fclib_scalar_int(hid_t file, const char* path, int* value)
{
    return cs_fclib_length(file, path) == 1 && H5LTread_dataset_int(file, path, value) >= 0;
}

// Checks that group holds a matrix libfclib can read: the four sizes and p, i, x of matching lengths.
static cs_status check_matrix(hid_t file, const char* path, const char* group, cs_fclib_shape* s,
                              cs_error* err)
{
    char name[128];
    int* fields[4] = {&s->nzmax, &s->m, &s->n, &s->nz};
    const char* keys[4] = {"nzmax", "m", "n", "nz"};
    for (int k = 0; k < 4; ++k)
    {
        snprintf(name, sizeof name, "%s/%s", group, keys[k]);
        if (!cs_fclib_scalar_int(file, name, fields[k]))
        {
            return cs_fail(err, CS_ERR_PARSE, "%s: %s: missing or not one integer", path, name);
        }
    }
    long long want_p = s->nz >= 0 ? s->nz : s->nz == -1 ? (long long)s->n + 1 : (long long)s->m + 1;
    long long want_i = s->nz >= 0 ? s->nz : s->nzmax;
    if (s->nzmax < 0 || s->m < 0 || s->n < 0 || s->nz < -2 || (s->nz >= 0 && s->nz > s->nzmax))
    {
        return cs_fail(err, CS_ERR_PARSE, "%s: %s: sizes nzmax=%d m=%d n=%d nz=%d make no matrix", path,
                       group, s->nzmax, s->m, s->n, s->nz);
    }
    const char* arrays[3] = {"p", "i", "x"};
    long long want[3] = {want_p, want_i, s->nzmax};
    for (int k = 0; k < 3; ++k)
    {
        snprintf(name, sizeof name, "%s/%s", group, arrays[k]);
        if (cs_fclib_length(file, name) != want[k])
        {
            return cs_fail(err, CS_ERR_PARSE, "%s: %s: missing or not of length %lld", path, name, want[k]);
        }
    }
    return CS_OK;
}

static cs_status check_vector(hid_t file, const char* path, const char* name, long long n, cs_error* err)
{
    return cs_fclib_length(file, name) == n
               ? CS_OK
               : cs_fail(err, CS_ERR_PARSE, "%s: %s: missing or not of length %lld", path, name, n);
}

// The structure fclib_read_global relies on; M is nv x nv, H is nv x columns, G (optional) nv x joints.
cs_status cs_fclib_check_structure(hid_t file, const char* path, cs_fclib_shape* M, cs_fclib_shape* H,
                                   cs_fclib_shape* G, cs_error* err)
{
    if (!cs_fclib_exists(file, "/fclib_global"))
    {
        return cs_fclib_exists(file, "/fclib_local")
                   ? cs_fail(
                         err, CS_ERR_VALUE,
                         "%s: a local-only FCLIB problem (W, q, mu): circlesim solves the factored form and "
                         "needs the global one (M, H, f, w)",
                         path)
                   : cs_fail(err, CS_ERR_PARSE,
                             "%s: an HDF5 file without /fclib_global: not an FCLIB problem", path);
    }
    int dim = 0;
    if (!cs_fclib_scalar_int(file, "/fclib_global/spacedim", &dim) || dim != CS_FCLIB_DIM)
    {
        return cs_fail(err, CS_ERR_VALUE, "%s: /fclib_global/spacedim: not 2 (circlesim is 2D)", path);
    }
    bool bilateral = cs_fclib_exists(file, "/fclib_global/G");
    *G = (cs_fclib_shape){0};
    cs_status s = check_matrix(file, path, "/fclib_global/M", M, err);
    s = s == CS_OK ? check_matrix(file, path, "/fclib_global/H", H, err) : s;
    s = s == CS_OK && bilateral ? check_matrix(file, path, "/fclib_global/G", G, err) : s;
    if (s != CS_OK)
    {
        return s;
    }
    if (bilateral && G->m != M->m)
    {
        return cs_fail(err, CS_ERR_VALUE, "%s: /fclib_global/G is %dx%d: need as many rows as M (%d)", path,
                       G->m, G->n, M->m);
    }
    s = bilateral ? check_vector(file, path, "/fclib_global/vectors/b", G->n, err) : CS_OK;
    if (s != CS_OK)
    {
        return s;
    }
    if (M->m != M->n || M->m % 3 != 0 || H->m != M->m || H->n % CS_FCLIB_DIM != 0)
    {
        return cs_fail(
            err, CS_ERR_VALUE,
            "%s: M is %dx%d and H %dx%d: need M square of 3 coordinates per body (vx, vy, omega) and H "
            "with as many rows and two columns per contact",
            path, M->m, M->n, H->m, H->n);
    }
    s = check_vector(file, path, "/fclib_global/vectors/f", M->m, err);
    s = s == CS_OK ? check_vector(file, path, "/fclib_global/vectors/w", H->n, err) : s;
    return s == CS_OK ? check_vector(file, path, "/fclib_global/vectors/mu", H->n / CS_FCLIB_DIM, err) : s;
}
