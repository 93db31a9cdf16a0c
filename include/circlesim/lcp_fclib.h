// circlesim — FCLIB interchange: a frozen problem as an FCLIB (HDF5) 2D frictional contact problem.
//
// FCLIB is the field's exchange format for frictional contact problems (Acary, Brémond, Huber et al.;
// read and written here through libfclib). circlesim writes the global form (M, H, G, f, w, b, μ), which is
// the factored form circlesim solves (M = diag of the bodies' masses, H = Jᵀ of the contact rows, f = M v*,
// w = bias; joint rods as G = Jᵀ of the rod rows, b = bias), and, without rods, the local form
// (W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w, μ) beside it for readers that take only that (it has no equalities).
// Per contact FCLIB holds [normal, tangent]; a contact without a friction row has an empty tangent column
// and μ = 0.
// What FCLIB cannot hold goes into a group /circlesim of the same file (the warm start, the exact inverse
// masses, the row and body order); docs/LCP-FORMAT.md says which and why.
#ifndef CIRCLESIM_LCP_FCLIB_H
#define CIRCLESIM_LCP_FCLIB_H

#include "circlesim/lcp.h"

#ifdef __cplusplus
extern "C"
{
#endif

    // Writes p to path (replacing the file). With extras, the /circlesim group makes the round trip
    // bit-exact; without, the file holds only FCLIB data. Fails with a reason (the row named) for what
    // FCLIB cannot express: box rows with a finite bound (ropes), regularised rows (springs), a problem
    // without contacts, a body of zero inverse mass or inertia (M must be positive definite), two friction
    // rows on one contact, a row coupling a body with itself.
    cs_status cs_lcp_write_fclib(const cs_lcp* p, const char* path, bool extras, cs_error* err);

    // Reads an FCLIB global 2D problem (as written by any FCLIB writer, or by cs_lcp_write_fclib). When
    // the /circlesim group is present it restores what FCLIB does not carry, after checking that it agrees
    // with the FCLIB data. Without it: inverse masses are 1/M, v* = M⁻¹ f, rows in FCLIB contact order,
    // body_a the lower body index, lambda0 from the first initial guess (else 0), G's columns as rod rows
    // after the contacts' rows. Rejects, with a reason: local-only problems (circlesim needs the factored
    // form), 3D problems, M that is not a diagonal of per-body [m, m, I] blocks, H or G columns touching
    // more than two bodies, non-finite numbers.
    cs_status cs_lcp_read_fclib(const char* path, cs_lcp* out, cs_error* err);

    // True when the file starts with the HDF5 signature (FCLIB files are HDF5 files).
    bool cs_lcp_file_is_hdf5(const char* path);

    // Reads a problem from an .lcp text file or an FCLIB file, told apart by content (the HDF5 signature),
    // not by the file name.
    cs_status cs_lcp_load(const char* path, cs_lcp* out, cs_error* err);

#ifdef __cplusplus
}
#endif

#endif
