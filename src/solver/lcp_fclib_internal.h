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
// the tangent of the contact its link names. *contacts receives the contact count. Fails for fixed-box
// rows and for a second friction row on one contact. column holds row_count entries.
cs_status cs_fclib_columns(const cs_lcp* p, const char* path, int* column, int* contacts, cs_error* err);

#endif
