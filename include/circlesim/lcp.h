// circlesim — the frozen contact problem: the row view every solver works on.
//
// A problem is the data of one time step's box-constrained LCP (BLCP) in factored form:
// bodies (inverse mass, inverse inertia, velocity v*) and rows (two bodies, a 1x6 Jacobian,
// a bias, a kind and its bounds). A = J M⁻¹ Jᵀ and q = J v* + b are never formed here.
// File format: shared LCP-FORMAT.md (version 1), implemented by lcp_read.c and lcp_write.c.
#ifndef CIRCLESIM_LCP_H
#define CIRCLESIM_LCP_H

#include "circlesim/base.h"

#ifdef __cplusplus
extern "C"
{
#endif

    typedef enum cs_row_kind
    {
        CS_ROW_NORMAL = 0,   // 0 <= λ ⟂ w >= 0                      (file letter 'n')
        CS_ROW_FRICTION = 1, // |λ| <= mu * λ[link], BLCP conditions  (file letter 'f')
        CS_ROW_BOX = 2,      // lo <= λ <= hi, BLCP conditions        (file letter 'c')
    } cs_row_kind;

    // Structure of arrays; every array has at least *_capacity entries (x3 or x6 where noted).
    typedef struct cs_lcp
    {
        char name[64]; // optional, one token ("" when absent)

        int body_count;
        int body_capacity;
        double* inv_mass;    // [body_count]
        double* inv_inertia; // [body_count]
        double* v;           // [3*body_count]: vx, vy, omega of v* (before any constraint impulse)

        int row_count;
        int row_capacity;
        int* body_a;     // [row_count] body index or -1 (static: its three Jacobian numbers are 0)
        int* body_b;     // [row_count]
        double* jac;     // [6*row_count]: jax jay jaw jbx jby jbw
        double* bias;    // [row_count]
        uint8_t* kind;   // [row_count] cs_row_kind
        int* link;       // [row_count] friction: index of its normal row; otherwise -1
        double* mu;      // [row_count] friction: coefficient; otherwise 0
        double* lo;      // [row_count] box: lower bound; normal: 0; friction: unused (0)
        double* hi;      // [row_count] box: upper bound; normal: +inf; friction: unused (0)
        double* lambda0; // [row_count] warm start; does not change the problem
        // Optional, NULL when absent (then every row is hard): ε_i >= 0 added to A_ii, a regularised row
        // (Lacoursière's Σ, eqs. (1)-(3); the world's SPOOK formulation): w = (A + diag(reg))λ + q.
        // Normal and box rows only (a friction row's must be 0). Not part of LCP-FORMAT version 1:
        // cs_lcp_write refuses a problem with a nonzero entry. Allocated by cs_lcp_reserve_reg.
        double* reg; // [row_count]
    } cs_lcp;

    // Zero-initialise with `cs_lcp p = {0};` then reserve; arrays grow geometrically and are reused,
    // so a problem rebuilt every step allocates nothing in the steady state.
    cs_status cs_lcp_reserve(cs_lcp* p, int bodies, int rows, cs_error* err);
    void cs_lcp_free(cs_lcp* p);
    // Gives p its reg array (row_capacity entries, kept as rows grow), or with on = false drops it.
    cs_status cs_lcp_reserve_reg(cs_lcp* p, bool on, cs_error* err);
    // Copies src into dst (reserving as needed).
    cs_status cs_lcp_copy(cs_lcp* dst, const cs_lcp* src, cs_error* err);

    // Reads/writes LCP-FORMAT.md version 1. Readers reject malformed files with "PATH:LINE: reason".
    cs_status cs_lcp_read(const char* path, cs_lcp* out, cs_error* err);
    cs_status cs_lcp_read_string(const char* text, const char* display_name, cs_lcp* out, cs_error* err);
    cs_status cs_lcp_write(const cs_lcp* p, const char* path, cs_error* err);
    cs_status cs_solution_write(const char* path, const double* lambda, int rows, cs_error* err);
    // Reads a .sol file; *rows_out receives the row count, lambda must hold capacity entries.
    cs_status cs_solution_read(const char* path, double* lambda, int capacity, int* rows_out, cs_error* err);

    // CS_OK when every row is within double precision: A_ii = J M⁻¹ Jᵀ finite with a finite inverse, the
    // unconstrained step |J v* + b| / A_ii and |lambda0| at most 1e150. Otherwise CS_ERR_VALUE, *row the
    // first row that is not and "row N: why" in err. Well-formed files can fail (inverse masses of 5e-324).
    cs_status cs_lcp_check_scale(const cs_lcp* p, int* row, cs_error* err);
    // Sets row `row` (< row_capacity): a normal row when link < 0, else a friction row of normal row `link`
    // with coefficient mu; jac is jax jay jaw jbx jby jbw (a static half's three numbers 0).
    void cs_lcp_set_contact_row(cs_lcp* p, int row, int a, int b, const double jac[6], double bias, int link,
                                double mu, double lambda0);

    // The first row whose regularisation cs_solve refuses — not finite and >= 0, or nonzero on a friction row
    // — or -1 when none is (a problem without reg has none).
    int cs_lcp_bad_reg_row(const cs_lcp* p);

    // Bounds of row i given the current iterate (friction bounds move with λ[link]).
    void cs_lcp_bounds(const cs_lcp* p, const double* lambda, int i, double* lo, double* hi);

#ifdef __cplusplus
}
#endif

#endif
