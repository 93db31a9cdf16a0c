// Internal to the FCLIB reader and writer (lcp_fclib_read.c, lcp_fclib_write.c): the layout both agree on.
#ifndef CS_LCP_FCLIB_INTERNAL_H
#define CS_LCP_FCLIB_INTERNAL_H

#include "circlesim/lcp.h"

// FCLIB 2D: contact c owns H columns (and W rows) 2c (normal) and 2c + 1 (tangent).
enum
{
    CS_FCLIB_DIM = 2,
};

// The group that carries what FCLIB does not (docs/LCP-FORMAT.md) and its format tag.
#define CS_FCLIB_EXTRAS        "/circlesim"
#define CS_FCLIB_EXTRAS_FORMAT "circlesim-lcp 1"

// column[i] = the FCLIB column of row i: normal rows are the contacts in row order, a friction row takes
// the tangent of the contact its link names, and a rod row (kind c, [-inf, inf]: a bilateral joint row)
// takes column 2 * contacts + k, the k-th column of FCLIB's G in row order. *contacts and *joints receive
// the counts. Fails, naming the row, for a box row with a finite bound (a rope, a two-sided box), a
// regularised row and a second friction row on one contact. column holds row_count entries.
cs_status cs_fclib_columns(const cs_lcp* p, const char* path, int* column, int* contacts, int* joints,
                           cs_error* err);

// HDF5 structure checks (lcp_fclib_check.c); file is an open HDF5 file, paths are absolute.
#include <hdf5.h>

typedef struct cs_fclib_shape
{
    int nzmax, m, n, nz; // as libfclib stores a matrix (nz: triplet count, -1 CSC, -2 CSR)
} cs_fclib_shape;

// True when every prefix of path names a link.
bool cs_fclib_exists(hid_t file, const char* path);
// Length of a one-dimensional numeric dataset, -1 when absent or of another shape.
long long cs_fclib_length(hid_t file, const char* path);
bool cs_fclib_scalar_int(hid_t file, const char* path, int* value);
// Everything fclib_read_global reads, present and of consistent lengths; M, H and G receive their sizes
// (G all 0 when the file has no bilateral rows).
cs_status cs_fclib_check_structure(hid_t file, const char* path, cs_fclib_shape* M, cs_fclib_shape* H,
                                   cs_fclib_shape* G, cs_error* err);

#endif
