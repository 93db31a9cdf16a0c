// The options of pgs-sm and pgs-kz. Each is noted in `given` by its registry flag, so that
// cs_arg_check_solver_use rejects `--ksm 3 --solver pgs` instead of letting it silently mean nothing.
#include "cli/args.h"

#include <stdio.h>
#include <string.h>

int cs_arg_subspace_option(const char* cmd, int argc, char** argv, int* i, cs_solver_params* params,
                           unsigned* given)
{
    const char* opt = argv[*i];
    if (strcmp(opt, "--kgs") == 0)
    {
        *given |= CS_SOLVER_USES_KGS;
        return cs_arg_next_int(cmd, argc, argv, i, 1, 100000, &params->kgs) ? 1 : -1;
    }
    if (strcmp(opt, "--ksm") == 0)
    {
        *given |= CS_SOLVER_USES_KSM;
        return cs_arg_next_int(cmd, argc, argv, i, 0, 1000, &params->ksm) ? 1 : -1;
    }
    if (strcmp(opt, "--subspace-solver") == 0)
    {
        *given |= CS_SOLVER_USES_SUBSPACE;
        const char* v = cs_arg_value(cmd, argc, argv, i);
        int found = v != NULL ? cs_subspace_solver_find(v) : -1;
        if (v != NULL && found < 0)
        {
            fprintf(stderr, "circlesim-cli %s: %s: expected cholmod or pcg, got '%s'\n", cmd, opt, v);
        }
        params->subspace_solver = found >= 0 ? (cs_subspace_solver)found : params->subspace_solver;
        return found >= 0 ? 1 : -1;
    }
    return 0;
}
