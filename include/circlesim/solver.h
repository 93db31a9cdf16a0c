// circlesim — contact solvers: one interface over the row view, one registry by name.
#ifndef CIRCLESIM_SOLVER_H
#define CIRCLESIM_SOLVER_H

#include "circlesim/lcp.h"

#ifdef __cplusplus
extern "C"
{
#endif

    typedef enum cs_residual_kind
    {
        CS_RES_NAT = 0, // ‖λ − clamp(λ − w, l, u)‖₂ over all rows (natural BLCP residual)
        CS_RES_LCP = 1, // ‖min(λ, w)‖₂ over normal rows (the AMGS paper's eq. (24))
    } cs_residual_kind;

    typedef struct cs_solver_params
    {
        int iterations;   // iterations per solve (the maximum when tolerance > 0)
        double tolerance; // > 0: stop as soon as the residual named by tolerance_on is <= tolerance
        cs_residual_kind tolerance_on;
        bool warm_start;   // start from lambda0 (true) or from 0
        double alpha;      // AMGS: Ω = αD (default 0.2, any α > 0)
        double gamma;      // AMGS: γ (default 2)
        double relaxation; // PSOR: ω (default 1)
        bool amgs_literal; // AMGS: the paper's literal Method 3.2 for box rows (comparison only)
        // Update runs of four consecutive independent rows (no common body; the coloured row order makes
        // them) with 4-wide vector instructions where the CPU has them (AVX2). The same operations in the
        // same order per row: results are bit for bit those of simd = false (as long as no impulse overflows
        // to ±inf, after which both are garbage, differently). Default true.
        bool simd;
    } cs_solver_params;

    // True when this CPU runs the vector sweeps (x86-64 with AVX2); params.simd is ignored otherwise.
    bool cs_solver_simd_available(void);

    cs_solver_params cs_solver_params_default(void);

    typedef struct cs_solver_stats
    {
        int iterations; // sweeps done
        double res_lcp; // final residuals (computed after the solve, without A)
        double res_nat;
        double seconds;    // wall time of the solve (set-up + sweeps), not counting final residuals
        int history_count; // entries in the work's history arrays (iteration 0 = the start point)
    } cs_solver_stats;

    // Workspace reused across solves: grows geometrically, never shrinks.
    typedef struct cs_solver_work
    {
        int body_capacity;
        int row_capacity;
        double* v;        // [3*bodies] current velocity v = v* + M⁻¹Jᵀλ; the solver's output velocity
        double* mjt;      // [6*rows] M⁻¹Jᵀ column of each row (the paper's \hat M_{*i}), per body half;
                          // filled for methods that form A (CS_SOLVER_DENSE), the sweeps read `packed`
        double* diag;     // [rows] A_ii
        double* inv_diag; // [rows] 1/A_ii (0 for an empty row)
        double* x;        // [rows] method-specific per-row state (AMGS: the modulus variable x)
        double* scratch;  // [rows] method-specific scratch
        double* dense;    // amgs-dense only: A (rows x rows), grown on demand
        int dense_capacity;

        bool record_history;  // when true, residuals are recorded after each sweep
        int history_capacity; // entries in each history array
        double* history_lcp;  // [history_capacity]
        double* history_nat;  // [history_capacity]

        // Internal to src/solver (solve.c): each row packed into one record for the sweeps, row_capacity
        // records. v has one extra body slot, always zero, that static halves point at.
        void* packed;
        // Internal (simd.h): the sweep schedule (runs of rows, and quads of independent rows in lanes) of
        // methods with vector sweeps, when params.simd is on and the CPU has them; schedule_count 0 = none.
        void* quads;        // cs_pair_quad
        void* normal_quads; // cs_normal_quad
        void* schedule;
        int quad_capacity;
        int normal_quad_capacity;
        int schedule_count;
        int schedule_capacity;
    } cs_solver_work;

    void cs_solver_work_free(cs_solver_work* w);
    // Enables residual history with room for max_iterations + 1 entries (allocates; call outside the step).
    cs_status cs_solver_work_set_history(cs_solver_work* w, bool on, int max_iterations, cs_error* err);

    // Registry ----------------------------------------------------------------------------------------
    enum
    {
        CS_SOLVER_USES_ALPHA = 1u << 0,
        CS_SOLVER_USES_GAMMA = 1u << 1,
        CS_SOLVER_USES_RELAXATION = 1u << 2,
        CS_SOLVER_DENSE = 1u << 3, // forms A explicitly (slow; small problems and baselines only)
        CS_SOLVER_SIMD = 1u << 4,  // has vector sweeps (cs_solver_params.simd)
        // A direct pivoting method (lemke): exact, but O(n²) per pivot on a dense basis inverse, so seconds
        // per step beyond a few hundred contacts: a ground truth, not an interactive solver.
        CS_SOLVER_PIVOTING = 1u << 6,
    };

    typedef struct cs_solver_info
    {
        const char* name;        // "pgs", "amgs", …
        const char* label;       // short human label for HUDs and tables
        const char* description; // one sentence
        unsigned flags;
    } cs_solver_info;

    int cs_solver_count(void);
    const cs_solver_info* cs_solver_at(int index);
    int cs_solver_find(const char* name); // -1 when unknown
    // Comma-separated list of every registered name, for messages ("pgs, amgs, …").
    const char* cs_solver_names(void);

    // Solves p with the solver at `solver` (a registry index). lambda is in/out: on entry the start
    // point is taken from p->lambda0 when params->warm_start (else 0) — lambda's entry values are ignored;
    // on return it holds the iterate. work->v holds the matching velocities v* + M⁻¹Jᵀλ.
    cs_status cs_solve(const cs_lcp* p, int solver, const cs_solver_params* params, cs_solver_work* work,
                       double* lambda, cs_solver_stats* stats, cs_error* err);

    // Residuals from velocities (w = J v + b), never from A. v is 3*bodies, as in work->v.
    double cs_residual_lcp(const cs_lcp* p, const double* v, const double* lambda);
    double cs_residual_nat(const cs_lcp* p, const double* v, const double* lambda);
    // Velocities v = v* + M⁻¹Jᵀλ, into v (3*bodies).
    void cs_lcp_velocity(const cs_lcp* p, const double* lambda, double* v);

#ifdef __cplusplus
}
#endif

#endif
