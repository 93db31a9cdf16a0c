// The solver registry: one table row per method, looked up by name from scenes, the CLI and keys.
#include "circlesim/solver.h"

#include "solver/operator.h"
#include "solver/solver_internal.h"

#include <stdio.h>
#include <string.h>

// The guarantees behind the CS_SOLVER_EXACT / CONVERGES_* flags (solver.h), as `lcp info` prints them.
#define GS_FIXED                                                                                             \
    "fixed bounds, A symmetric PSD, A_ii > 0: every accumulation point solves it (Mangasarian 1977), the "   \
    "unique solution when A is definite (Cryer 1971)"
#define SOR_FIXED   GS_FIXED "; for omega in (0, 2)"
#define BLOCK_FIXED GS_FIXED " (block Gauss-Seidel on the contacts' 2x2 blocks)"
#define APGD_FIXED                                                                                           \
    "fixed bounds, A symmetric PSD: projected gradient with step 1/L converges, Nesterov's momentum with "   \
    "restart keeps it monotone (O'Donoghue & Candes 2015)"
#define SM_FIXED                                                                                             \
    "fixed bounds, A symmetric PSD: k_gs projected Gauss-Seidel sweeps per iteration and a subspace step "   \
    "that never raises the objective (MNS 2008, Alg. 3.1 with safeguard (3.5))"
#define LEMKE_EXACT                                                                                          \
    "pivoting: exact (res_nat ~1e-13) or an error saying why; Lemke with the lexicographic rule processes "  \
    "copositive-plus LCPs and the contact LCP of Anitescu & Potra 1997 (friction via Erleben's beta model)"
#define PPM_EXACT                                                                                            \
    "pivoting: exact (res_nat <= 1e-10 max(1, |q|)) or an error saying why (block-pivot cap: cycling or "    \
    "budget; a singular or inconsistent reduced system); Murty's single pivots are finite for P-matrices "   \
    "only, the contact BLCP with friction has no such theorem: held to it by the agreement tests"
#define AMGS_NOTE                                                                                            \
    "Theorem 4.2's bound is not proven and fails (docs/amgs.md (e)); with alpha*gamma = 1 it is pgs"
#define IPM_FIXED                                                                                            \
    "fixed bounds, A symmetric PSD: the box-constrained convex QP, whose infeasible primal-dual path "       \
    "following converges (Wright 1997, ch. 6 and 8); Mehrotra's heuristic has no proof, the crossover is "   \
    "kept only when it lowers res_nat and its polish is pgs-sm (k_gs 1, k_sm 3)"
#define F32_FLOOR                                                                                            \
    "none to a double tolerance: pgs's sweep in float, so res_nat stops near float round-off of the "        \
    "impulses (~1e-7 relative) and a tighter tolerance ends stagnated or at the iteration limit; held to "   \
    "pgs and lemke at a float tolerance by test_solver_pgs_f32"
#define NEWTON_BOTH                                                                                          \
    "A nonsingular: locally quadratic (semismooth Newton, Qi 1993), globalised by a projected Armijo "       \
    "search; held to it by test_solver_agreement (measured: no global theorem for the min-map); with A "     \
    "singular the Newton system is singular and it can stall"

static const struct
{
    const char* name;
    const char* text;
} guarantees[] = {
    {"pgs", GS_FIXED},          {"amgs", AMGS_NOTE},    {"amgs-omega", AMGS_NOTE},
    {"amgs-dense", AMGS_NOTE},  {"psor", SOR_FIXED},    {"pssor", SOR_FIXED},
    {"pgs-block", BLOCK_FIXED}, {"apgd", APGD_FIXED},   {"pgs-sm", SM_FIXED},
    {"pgs-kz", SM_FIXED},       {"lemke", LEMKE_EXACT}, {"newton-minmap", NEWTON_BOTH},
    {"newton-fb", NEWTON_BOTH}, {"ipm", IPM_FIXED},     {"ppm", PPM_EXACT},
    {"pgs-f32", F32_FLOOR},
};

// One line per method; the order is the order of menus and key cycling (append new ones).
// clang-format off
static const cs_solver_entry solvers[] = {
    {{"pgs", "PGS", "projected Gauss-Seidel in velocity form (sequential impulses), paper eq. (4)",
      CS_SOLVER_SIMD | CS_SOLVER_CONVERGES_FIXED | CS_SOLVER_CONVERGES_SCENES},
     NULL, cs_pgs_sweep, true, false, cs_pgs_sweeps},
    {{"amgs", "AMGS", "accelerated modulus-based Gauss-Seidel, Method 3.1 in velocity form, Omega = alpha D",
      CS_SOLVER_USES_ALPHA | CS_SOLVER_USES_GAMMA | CS_SOLVER_SIMD | CS_SOLVER_USES_LITERAL | CS_SOLVER_CONVERGES_SCENES},
     cs_amgs_begin, cs_amgs_sweep, true, false, cs_amgs_sweeps},
    {{"amgs-omega", "AMGS-wE", "AMGS with Omega = w E, w = mean(A_ii)/gamma per problem (Remark 4.5)",
      CS_SOLVER_USES_GAMMA | CS_SOLVER_SIMD | CS_SOLVER_CONVERGES_SCENES},
     cs_amgs_omega_begin, cs_amgs_sweep, true, false, cs_amgs_sweeps},
    {{"amgs-dense", "AMGS-dense", "AMGS Method 2.2 on the explicit dense A (the paper's O(m^2) baseline)",
      CS_SOLVER_USES_ALPHA | CS_SOLVER_USES_GAMMA | CS_SOLVER_DENSE | CS_SOLVER_CONVERGES_SCENES},
     cs_amgs_dense_begin, cs_amgs_dense_sweep, false, false, NULL},
    {{"psor", "PSOR", "projected SOR: PGS with the step scaled by omega = --relaxation in (0, 2); "
                      "omega 1 is pgs",
      CS_SOLVER_USES_RELAXATION | CS_SOLVER_SIMD | CS_SOLVER_CONVERGES_FIXED | CS_SOLVER_CONVERGES_SCENES},
     cs_psor_begin, cs_psor_sweep, true, false, cs_psor_sweeps},
    {{"pssor", "PSSOR", "symmetric projected SOR: a forward then a backward PSOR sweep per iteration",
      CS_SOLVER_USES_RELAXATION | CS_SOLVER_SIMD | CS_SOLVER_CONVERGES_FIXED | CS_SOLVER_CONVERGES_SCENES},
     cs_psor_begin, cs_pssor_sweep, false, false, NULL},
    {{"pgs-block", "PGS-block", "blocked Gauss-Seidel: each contact's normal and friction rows solved together, "
                                "exactly (Lacoursiere Alg. 3.1, eqs. (18)-(21))",
      CS_SOLVER_CONVERGES_FIXED | CS_SOLVER_CONVERGES_SCENES},
     cs_pgs_block_begin, cs_pgs_block_sweep, false, false, NULL},
    {{"jacobi", "Jacobi", "projected Jacobi, every row from the same velocities, damped by "
                          "omega / (rows on its busiest body)",
      CS_SOLVER_USES_RELAXATION},
     cs_jacobi_begin, cs_jacobi_sweep, false, false, NULL},
    {{"apgd", "APGD", "accelerated projected gradient (Nesterov momentum with adaptive restart) "
                      "in the mass-split metric",
      CS_SOLVER_CONVERGES_FIXED},
     cs_apgd_begin, cs_apgd_sweep, false, false, NULL},
    {{"pgs-sm", "PGS-SM", "Morales-Nocedal-Smelyanskiy Algorithm 3.1: per iteration k_gs PGS sweeps, then up to k_sm subspace minimisations",
      CS_SOLVER_SIMD | CS_SOLVER_USES_KGS | CS_SOLVER_USES_KSM | CS_SOLVER_USES_SUBSPACE | CS_SOLVER_CONVERGES_FIXED | CS_SOLVER_CONVERGES_SCENES},
     cs_pgs_sm_begin, cs_pgs_sm_sweep, false, false, NULL},
    {{"pgs-kz", "PGS-KZ", "Kocvara-Zowe: per iteration k_gs PGS sweeps, one subspace minimisation, backtracking (MNS eq. 3.5)",
      CS_SOLVER_SIMD | CS_SOLVER_USES_KGS | CS_SOLVER_USES_SUBSPACE | CS_SOLVER_CONVERGES_FIXED | CS_SOLVER_CONVERGES_SCENES},
     cs_pgs_kz_begin, cs_pgs_sm_sweep, false, false, NULL},
    {{"amgs-adaptive", "AMGS-adapt", "AMGS with Omega = alpha D, alpha adapted from the sweeps' displacement ratios (adaptive SOR, docs/amgs.md)",
      CS_SOLVER_USES_GAMMA | CS_SOLVER_SIMD | CS_SOLVER_CONVERGES_SCENES},
     cs_amgs_adaptive_begin, cs_amgs_adaptive_sweep, true, false, NULL},
    {{"lemke", "Lemke", "Lemke's pivoting on the BLCP as an LCP (friction: Erleben's contact LCP model); exact, dense",
      CS_SOLVER_DENSE | CS_SOLVER_PIVOTING | CS_SOLVER_EXACT},
     cs_lemke_begin, cs_lemke_sweep, false, false, NULL},
    {{"newton-minmap", "Newton-min", "generalised Newton on the min-map (mid-map) reformulation, GMRES, projected Armijo",
      CS_SOLVER_CONVERGES_NONSINGULAR | CS_SOLVER_NEWTON_STEPS},
     cs_newton_minmap_begin, cs_newton_sweep, false, false, NULL},
    {{"newton-fb", "Newton-FB", "generalised Newton on the Fischer-Burmeister (Billups box) reformulation, GMRES, projected Armijo",
      CS_SOLVER_CONVERGES_NONSINGULAR | CS_SOLVER_NEWTON_STEPS},
     cs_newton_fb_begin, cs_newton_sweep, false, false, NULL},
    {{"ipm", "IPM", "primal-dual interior point (Mehrotra predictor-corrector, CHOLMOD on A + D), crossover to an exact active-set solve (MNS 2008 section 4)",
      CS_SOLVER_USES_SUBSPACE | CS_SOLVER_CONVERGES_FIXED | CS_SOLVER_NEWTON_STEPS},
     cs_ipm_begin, cs_ipm_sweep, false, false, NULL},
    {{"ppm", "PPM", "block principal pivoting (Judice-Pires, Murty fallback) on the frictional BLCP, crash-started from PGS; exact, dense",
      CS_SOLVER_DENSE | CS_SOLVER_PIVOTING | CS_SOLVER_EXACT},
     cs_ppm_begin, cs_ppm_sweep, false, false, NULL},
    {{"pgs-f32", "PGS-f32", "pgs swept in single precision on the velocity deltas (double v0 and start steps), "
                            "eight AVX2 float lanes; residuals floor at float round-off",
      CS_SOLVER_SIMD | CS_SOLVER_SINGLE},
     cs_pgs_f32_begin, cs_pgs_f32_sweep, false, true, NULL},
};
// clang-format on

enum
{
    SOLVER_COUNT = (int)(sizeof solvers / sizeof solvers[0])
};

int cs_solver_count(void)
{
    return SOLVER_COUNT;
}

const cs_solver_entry* cs_solver_entry_at(int index)
{
    return index >= 0 && index < SOLVER_COUNT ? &solvers[index] : NULL;
}

const cs_solver_info* cs_solver_at(int index)
{
    const cs_solver_entry* e = cs_solver_entry_at(index);
    return e != NULL ? &e->info : NULL;
}

int cs_solver_find(const char* name)
{
    if (name == NULL)
    {
        return -1;
    }
    for (int i = 0; i < SOLVER_COUNT; ++i)
    {
        if (strcmp(solvers[i].info.name, name) == 0)
        {
            return i;
        }
    }
    return -1;
}

// The names of the solvers whose flags include `flags`, comma-separated, into out.
static const char* names_with(unsigned flags, char* out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < SOLVER_COUNT && used < size; ++i)
    {
        if ((solvers[i].info.flags & flags) != flags)
        {
            continue;
        }
        int n = snprintf(out + used, size - used, "%s%s", used > 0 ? ", " : "", solvers[i].info.name);
        if (n < 0)
        {
            break;
        }
        used += (size_t)n;
    }
    return used > 0 ? out : "none";
}

const char* cs_solver_names(void)
{
    // Built on every call from the constant table, so concurrent callers write the same bytes.
    static char names[512];
    return names_with(0u, names, sizeof names);
}

const char* cs_solver_names_with(unsigned flags)
{
    static _Thread_local char names[512];
    return names_with(flags, names, sizeof names);
}

const char* cs_solver_guarantee(int index)
{
    const cs_solver_info* info = cs_solver_at(index);
    for (size_t k = 0; info != NULL && k < sizeof guarantees / sizeof guarantees[0]; ++k)
    {
        if (strcmp(guarantees[k].name, info->name) == 0)
        {
            return guarantees[k].text;
        }
    }
    return NULL;
}

const char* cs_solver_flag_name(unsigned flag)
{
    switch (flag)
    {
        case CS_SOLVER_USES_ALPHA:
            return "alpha";
        case CS_SOLVER_USES_GAMMA:
            return "gamma";
        case CS_SOLVER_USES_RELAXATION:
            return "relaxation";
        case CS_SOLVER_USES_LITERAL:
            return "literal";
        case CS_SOLVER_USES_KGS:
            return "kgs";
        case CS_SOLVER_USES_KSM:
            return "ksm";
        case CS_SOLVER_USES_SUBSPACE:
            return "subspace-solver";
        default:
            return NULL;
    }
}
