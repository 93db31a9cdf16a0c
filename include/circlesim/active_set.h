// circlesim — the optimal active set of a frozen problem, the Morales–Nocedal–Smelyanskiy paper's Table 2
// measure ("the ratio of active-set components correctly identified after k iterations ... over the total
// number of components in the optimal active set"). `circlesim-cli converge --active-set` prints it and the
// viewer's frozen-step race plots it, from this one definition.
#ifndef CIRCLESIM_ACTIVE_SET_H
#define CIRCLESIM_ACTIVE_SET_H

#include "circlesim/solver.h"

#ifdef __cplusplus
extern "C"
{
#endif

// The iteration counts of the paper's Table 2.
#define CS_ACTIVE_SET_KS_COUNT 5
    extern const int cs_active_set_ks[CS_ACTIVE_SET_KS_COUNT]; // 1, 2, 5, 10, 50

    // With redundant contacts λ is not unique (a pile's A is singular; lemke returns a vertex with more zeros
    // than a Gauss–Seidel limit), so the set is taken from the reference answer's contact velocities, which
    // are unique: a row is in it when w*_i > 0 (its impulse sits at its lower bound in every solution) or,
    // for a box or friction row, w*_i < 0 (at its upper bound).
    typedef struct cs_active_set
    {
        int rows;
        int active;      // rows in the optimal active set
        signed char* at; // per row: −1 lower bound, +1 upper bound, 0 not in the set
        double eps;      // λ within eps of a bound counts as at it (1e-9 of the largest reference |λ|)
        // where the reference came from: ppm's or lemke's answer, or a converged newton-minmap's (with the
        // exact methods' refusals first) — one or two lines
        char source[512];
    } cs_active_set;

    // The reference answer is ppm's (exact, fast on frictional pools), else lemke's, else newton-minmap's
    // from zero to 1e-12 (at most 500 iterations). CS_ERR_VALUE with err set when none gives one;
    // CS_ERR_MEMORY when memory runs out. work is scratch (its velocities hold the reference's on return).
    cs_status cs_active_set_find(const cs_lcp* problem, cs_solver_work* work, cs_active_set* set,
                                 cs_error* err);
    // The same within a budget, for interactive callers (the viewer's race): ppm and then lemke each with at
    // most max_pivots pivots (cs_solver_params.max_pivots; 0 = no budget, cs_active_set_find), and no Newton
    // fallback; when neither finishes, CS_ERR_VALUE with both reasons in err.
    cs_status cs_active_set_find_within(const cs_lcp* problem, cs_solver_work* work, int max_pivots,
                                        cs_active_set* set, cs_error* err);
    // How many rows of the set λ has at the same bound.
    int cs_active_set_identified(const cs_active_set* set, const cs_lcp* problem, const double* lambda);
    // Rows identified by `solver` after each of ks[0..count) iterations from the problem's warm start, with
    // params (its iteration count replaced by k) — −1 where the solve fails. A pivoting method's first
    // answer is its answer: it is solved once. lambda holds problem->row_count values (scratch).
    void cs_active_set_progress(const cs_active_set* set, const cs_lcp* problem, int solver,
                                const cs_solver_params* params, const int* ks, int count,
                                cs_solver_work* work, double* lambda, int* identified);
    void cs_active_set_free(cs_active_set* set);

#ifdef __cplusplus
}
#endif

#endif
