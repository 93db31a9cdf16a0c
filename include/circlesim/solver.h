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

    typedef enum cs_subspace_solver
    {
        CS_SUBSPACE_CHOLMOD = 0, // sparse Cholesky (SuiteSparse CHOLMOD) of the assembled A_FF
        CS_SUBSPACE_PCG = 1,     // matrix-free conjugate gradients, Jacobi preconditioner (A never formed)
    } cs_subspace_solver;

    // "cholmod", "pcg"; NULL for a value out of range. Find: -1 when unknown.
    const char* cs_subspace_solver_name(cs_subspace_solver s);
    int cs_subspace_solver_find(const char* name);

    typedef struct cs_solver_params
    {
        int iterations;   // iterations per solve (the maximum when tolerance > 0)
        double tolerance; // > 0: stop as soon as the residual named by tolerance_on is <= tolerance
        // > 0: also stop as soon as that residual is <= tolerance_rel × its value at the start point
        // (whichever of the two is met first: r <= max(tolerance, tolerance_rel·r₀)).
        double tolerance_rel;
        cs_residual_kind tolerance_on;
        // With a tolerance: stop as stagnated when the best residual of the last stagnation_window iterations
        // is not a relative CS_STAGNATION_PROGRESS below the best of the stagnation_window before (tested at
        // every multiple of the window, so never before 2 windows; 0: never). Default 2000: PGS can sit on a
        // plateau for ~1000 sweeps and then converge once the active set settles (Pool 1 step 150 with
        // friction: res_nat 7.0e-5 from sweep 300 to 1300, 1e-9 at 1559).
        int stagnation_window;
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
        // pgs-sm / pgs-kz (Morales–Nocedal–Smelyanskiy Algorithm 3.1, src/solver/pgs_sm.c): PGS sweeps per
        // iteration (k_gs, default 5), subspace minimisations per iteration (k_sm, default 3; pgs-kz: 1)
        // and how the reduced system A_FF δ = −w_F is solved.
        int kgs;
        int ksm;
        cs_subspace_solver subspace_solver;
        // Pivoting methods (CS_SOLVER_PIVOTING): their own budget, in place of iterations; 0 = the method's
        // default (lemke: 20 pivots per LCP variable + 100; ppm: 100 block pivots per attempt). Running out
        // is an error.
        int max_pivots;
    } cs_solver_params;

    // True when this CPU runs the vector sweeps (x86-64 with AVX2); params.simd is ignored otherwise.
    bool cs_solver_simd_available(void);

    cs_solver_params cs_solver_params_default(void);

    // Why a solve stopped (cs_solver_stats.stop). Only a solve with a tolerance can converge, stagnate or
    // hit the iteration limit; without one it runs its budget. Divergence and bad problems are detected
    // either way (divergence per iteration with a tolerance or a history, else on the final iterate).
    typedef enum cs_solve_stop
    {
        CS_STOP_BUDGET = 0,      // no tolerance was asked: ran the requested iterations
        CS_STOP_CONVERGED,       // residual <= max(tolerance, tolerance_rel·r₀)
        CS_STOP_ITERATION_LIMIT, // the iteration cap came first
        CS_STOP_STAGNATED,       // no progress from one params.stagnation_window iterations to the next
        CS_STOP_DIVERGED,        // non-finite iterate or residual, or residual > CS_DIVERGENCE_RATIO·r₀
        CS_STOP_BAD_PROBLEM,     // data no method can solve: see stop_reason and stop_row; no sweep was run
    } cs_solve_stop;

    enum
    {
        CS_STOP_COUNT = CS_STOP_BAD_PROBLEM + 1
    };

#define CS_STAGNATION_PROGRESS 1e-4 // relative drop of the best residual a window must show
#define CS_DIVERGENCE_RATIO    1e10 // residual growth over the start point's that counts as divergence

    // "budget", "converged", "iteration-limit", "stagnated", "diverged", "bad-problem" ("?" out of range).
    const char* cs_solve_stop_name(cs_solve_stop stop);
    // True for the stops that mean the answer is not to be trusted (iteration limit, stagnated,
    // diverged, bad problem): what `lcp solve` turns into exit code 3.
    bool cs_solve_stop_failed(cs_solve_stop stop);
    // What the subspace phase of pgs-sm / pgs-kz did in one solve (zero for every other method).
    typedef struct cs_subspace_stats
    {
        int pgs_sweeps;    // PGS sweeps (k_gs per iteration)
        int solves;        // reduced systems solved (CHOLMOD factorisations or PCG runs)
        int cg_iterations; // PCG: iterations over all solves (each costs about one PGS sweep)
        int regularised;   // CHOLMOD: factorisations of A_FF + βD_FF because A_FF was singular
        int failed;        // solves that gave no usable step (the iteration kept its PGS point)
        int safeguard;     // iterations that took the backtracking point z^b (eq. 3.5) over z^s
        double beta;       // the largest β used (0: none)
    } cs_subspace_stats;

    typedef struct cs_solver_stats
    {
        int iterations; // sweeps done
        double res_lcp; // final residuals (computed after the solve, without A)
        double res_nat;
        double seconds;    // wall time of the solve (set-up + sweeps), not counting final residuals
        int history_count; // entries in the work's history arrays (iteration 0 = the start point)
        cs_solve_stop stop;
        // CS_STOP_BAD_PROBLEM: what is wrong ("lo > hi", …); a CS_SOLVER_SINGLE method that stagnated or hit
        // its limit: that its residual floors at float round-off; otherwise ""
        const char* stop_reason;
        int stop_row;  // CS_STOP_BAD_PROBLEM: the first offending row (-1: a body's data)
        int stop_body; // CS_STOP_BAD_PROBLEM: the offending body, or -1
        cs_subspace_stats subspace;
        int pivots; // pivoting methods: the pivots made (lemke: complementary; ppm: block pivots); else 0
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
        double* dense; // the method's own buffer, grown on demand (amgs-dense: A, rows x rows; jacobi, apgd)
        int dense_capacity;

        bool record_history;  // when true, residuals are recorded after each sweep
        int history_capacity; // entries in each history array
        double* history_lcp;  // [history_capacity]
        double* history_nat;  // [history_capacity]
        // [history_capacity] wall seconds from the solve's start to each entry, without the time spent
        // computing history residuals (so that time axes compare methods on their own work)
        double* history_seconds;

        // Internal to src/solver (solve.c): each row packed into one record for the sweeps, row_capacity
        // records. v has one extra body slot, always zero, that static halves point at.
        void* packed;
        // Internal (simd.h): the sweep schedule (runs of rows, and quads of independent rows in lanes) of
        // methods with vector sweeps, when params.simd is on and the CPU has them; schedule_count 0 = none.
        void* quads;        // cs_pair_quad
        void* normal_quads; // cs_normal_quad
        void* schedule;
        void* schedule_runs; // int32_t: the schedule's runs of quads (simd.h, cs_schedule_runs)
        int quad_capacity;
        int normal_quad_capacity;
        int schedule_count;
        int schedule_capacity;
        int schedule_runs_capacity;
        bool lanes_only; // the rows in quads have no packed record (schedule.c, cs_pack_lanes)
        // Internal (fuse.h): the segments and deps that let several sweeps run in one pass over the
        // schedule (a cs_fuse_plan, allocated on first use; NULL or no segments: sweeps one by one).
        void* fuse;
        // Internal (subspace.h): pgs-sm's state (free set, reduced system, CHOLMOD factor), NULL until used.
        void* subspace;
        // Internal (lemke_purify.c): the purification's arrays, grown on demand like dense.
        double* purify;
        int purify_capacity;
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
        CS_SOLVER_DENSE = 1u << 3,        // forms A explicitly (slow; small problems and baselines only)
        CS_SOLVER_SIMD = 1u << 4,         // has vector sweeps (cs_solver_params.simd)
        CS_SOLVER_USES_LITERAL = 1u << 5, // reads cs_solver_params.amgs_literal
        // A direct pivoting method (lemke): exact, but O(n²) per pivot on a dense basis inverse, so seconds
        // per step beyond a few hundred contacts: a ground truth, not an interactive solver.
        CS_SOLVER_PIVOTING = 1u << 6,
        CS_SOLVER_USES_KGS = 1u << 8,       // cs_solver_params.kgs
        CS_SOLVER_USES_KSM = 1u << 9,       // cs_solver_params.ksm
        CS_SOLVER_USES_SUBSPACE = 1u << 10, // cs_solver_params.subspace_solver
        // What the method is held to (cs_solver_guarantee says why; `lcp info` prints it and the
        // agreement and referee tests assert it): ---------------------------------------------------
        // finite and exact: an answer to round-off (res_nat ~1e-13) or an error saying why (ray, cycling).
        CS_SOLVER_EXACT = 1u << 11,
        // converges on fixed-bounds problems (no friction rows) with A symmetric positive semidefinite and
        // A_ii > 0 (to the unique solution when A is definite).
        CS_SOLVER_CONVERGES_FIXED = 1u << 12,
        // converges when A is nonsingular, with fixed bounds and with friction bounds mu*lambda_n alike.
        CS_SOLVER_CONVERGES_NONSINGULAR = 1u << 13,
        // no theorem on friction rows, but measured to converge on the shipped scenes' problems, friction
        // included (test_siconos_referee holds it there).
        CS_SOLVER_CONVERGES_SCENES = 1u << 15,
        // an iteration is a Newton step (a Krylov or direct solve): tens of iterations, whose count does not
        // grow with the conditioning the way sweep counts do.
        CS_SOLVER_NEWTON_STEPS = 1u << 14,
        // sweeps in single precision (pgs-f32): its residuals floor at float round-off (~1e-7 relative), so
        // it is held to float-level tolerances, never to the double ones above.
        CS_SOLVER_SINGLE = 1u << 16,
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
    // The same for the solvers whose flags include all of `flags` ("none" when there is none).
    const char* cs_solver_names_with(unsigned flags);
    // The theorem (or measurement) behind a method's CS_SOLVER_EXACT / CONVERGES_* flags, or a note on why it
    // has none; NULL when nothing is recorded.
    const char* cs_solver_guarantee(int index);
    // The parameter that a CS_SOLVER_USES_* flag stands for, as the CLI and scene files name it
    // ("alpha", "gamma", "relaxation", "literal"); NULL for other flags.
    const char* cs_solver_flag_name(unsigned flag);

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
    // Row i's contact velocity w_i = J_i v + b_i for body velocities v (3*bodies).
    double cs_lcp_row_velocity(const cs_lcp* p, const double* v, int i);

#ifdef __cplusplus
}
#endif

#endif
