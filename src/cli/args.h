// Small, strict option parsing shared by the CLI subcommands: a bad value is a usage error (exit 2)
// with a message naming the option.
#ifndef CS_CLI_ARGS_H
#define CS_CLI_ARGS_H

#include <stdbool.h>

#include "circlesim/solver.h"
#include "world/limits.h"

// Parsing helpers print "circlesim-cli CMD: --opt: reason" to stderr and return false on error.
bool cs_arg_int(const char* cmd, const char* opt, const char* text, int min, int max, int* out);
bool cs_arg_double(const char* cmd, const char* opt, const char* text, double min_exclusive, double* out);
// A number within limit (world/limits.h: the ranges scenes and the library check too).
bool cs_arg_limited(const char* cmd, const char* opt, const char* text, const cs_limit* limit, double* out);
bool cs_arg_next_limited(const char* cmd, int argc, char** argv, int* i, const cs_limit* limit, double* out);
bool cs_arg_solver(const char* cmd, const char* opt, const char* text, int* out);
// The value after an option: argv[*i + 1], advancing *i; NULL (with a message) when missing.
const char* cs_arg_value(const char* cmd, int argc, char** argv, int* i);
// "--opt VALUE" at argv[*i]: cs_arg_value, then the parser above for that type, naming --opt in
// messages. False (with a message) when the value is missing or bad.
bool cs_arg_next_int(const char* cmd, int argc, char** argv, int* i, int min, int max, int* out);
bool cs_arg_next_double(const char* cmd, int argc, char** argv, int* i, double min_exclusive, double* out);

// "--row-order coloured|key" at argv[*i] (cs_row_order, world.h).
bool cs_arg_next_row_order(const char* cmd, int argc, char** argv, int* i, int* out);

// World options of the commands that run scenes (run, converge, table2), applied on top of the scene's:
// --frictionless, --row-order ORDER, --no-simd, --formulation NAME.
typedef struct cs_world_options
{
    bool frictionless;
    int row_order; // -1: the scene's
    bool no_simd;
    int formulation; // -1: the scene's
} cs_world_options;

#define CS_WORLD_OPTIONS_NONE                                                                                \
    {                                                                                                        \
        false, -1, false, -1                                                                                 \
    }

// "--formulation split|spook" at argv[*i] (cs_formulation, world.h).
bool cs_arg_next_formulation(const char* cmd, int argc, char** argv, int* i, int* out);

// 1 when argv[*i] was one of them (consumed), 0 when not, -1 on a usage error (message printed).
int cs_arg_world_option(const char* cmd, int argc, char** argv, int* i, cs_world_options* options);
// Applies the options given to w (its solver params included, for --no-simd).
struct cs_world;
void cs_world_options_apply(struct cs_world* w, const cs_world_options* options);
#define CS_ARG_ROW_ORDER_HELP                                                                                \
    "  --row-order ORDER   coloured or key: the order the sweeps take the contacts in (default: the\n"       \
    "                      scene's world.row_order, else coloured)\n"

#define CS_ARG_FORMULATION_HELP                                                                              \
    "  --formulation F     relax, split, spook or soft: how contacts are pushed apart (docs/PHYSICS.md;\n"   \
    "                      default: the scene's world.formulation, else relax)\n"

#define CS_ARG_NO_SIMD_HELP                                                                                  \
    "  --no-simd           sweep one row at a time (no vector lanes; the same results)\n"

// True for "--help" and "-h".
bool cs_arg_is_help(const char* arg);
// The last case of a command's option loop: arg is none of its options, so it must be the one
// SCENE argument. An unknown option or a second scene prints a usage error and returns false
// (exit 2); name_both names both scenes in that message.
bool cs_arg_scene(const char* cmd, const char* arg, const char** scene, bool name_both);

// Solver options common to every command that runs a solver:
// --solver NAME --iterations K --alpha A --gamma G --relaxation W --literal --no-warm-start --no-simd
// Returns 1 when argv[*i] was one of them (consumed), 0 when not, -1 on a usage error. *given collects the
// CS_SOLVER_USES_* flag of each method parameter given (--alpha, --gamma, --relaxation, --literal).
int cs_arg_solver_option(const char* cmd, int argc, char** argv, int* i, int* solver,
                         cs_solver_params* params, unsigned* given);
// False, with "circlesim-cli CMD: --OPT does nothing for solver NAME (used by: …)" on stderr (exit 2), when a
// method parameter in `given` (CS_SOLVER_USES_* flags) is not used by any of the `count` solvers.
bool cs_arg_check_solver_use(const char* cmd, unsigned given, const int* solvers, int count);
// The same for one option `opt` (e.g. "--alphas") standing for the parameter of CS_SOLVER_USES_* `flag`.
bool cs_arg_check_use(const char* cmd, const char* opt, unsigned flag, const int* solvers, int count);
// Comma-separated lists: "pgs,amgs" → registry indices; "0.5,0.2" → AMGS α values (cs_limit_alpha).
// At most max entries.
// Return the count, or -1 (with a message) on an unknown name, a bad number or an empty/too long list.
int cs_arg_solver_list(const char* cmd, const char* opt, const char* text, int* out, int max);
int cs_arg_double_list(const char* cmd, const char* opt, const char* text, double* out, int max);
// "--opt LIST" at argv[*i] (as cs_arg_next_int): sets *count to the list's length on success.
bool cs_arg_next_solver_list(const char* cmd, int argc, char** argv, int* i, int* out, int max, int* count);
bool cs_arg_next_double_list(const char* cmd, int argc, char** argv, int* i, double* out, int max,
                             int* count);

// One-line help text for the options above.
const char* cs_arg_solver_help(void);

// pgs-sm / pgs-kz (args_subspace.c): --kgs K, --ksm K, --subspace-solver cholmod|pcg, each noted in *given
// (CS_SOLVER_USES_KGS/KSM/SUBSPACE) for cs_arg_check_solver_use. 1 consumed, 0 not one of them, -1 usage
// error.
int cs_arg_subspace_option(const char* cmd, int argc, char** argv, int* i, cs_solver_params* params,
                           unsigned* given);
#define CS_ARG_SUBSPACE_HELP                                                                                 \
    "  --kgs K             pgs-sm, pgs-kz: PGS sweeps per iteration (default 5)\n"                           \
    "  --ksm K             pgs-sm: subspace minimisations per iteration (default 3; 0 = PGS)\n"              \
    "  --subspace-solver S pgs-sm, pgs-kz, ipm: cholmod (sparse Cholesky) or pcg (matrix-free CG)\n"

#endif
