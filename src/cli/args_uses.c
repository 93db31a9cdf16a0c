// Options that only some solvers read, and the check that rejects them for a solver that would ignore
// them (a usage error naming the option and the solvers that do read it), so that `--ksm 3 --solver pgs`
// fails instead of silently meaning nothing.
#include "cli/args.h"

#include <stdio.h>
#include <string.h>

void cs_arg_uses_note(cs_arg_uses* uses, unsigned flag, const char* option)
{
    for (int bit = 0; bit < 32; ++bit)
    {
        if (flag == 1u << bit)
        {
            uses->flags |= flag;
            uses->option[bit] = option;
        }
    }
}

// "pgs-sm, pgs-kz": the registered solvers with the flag.
static void solvers_with(unsigned flag, char* out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int s = 0; s < cs_solver_count() && used < size; ++s)
    {
        const cs_solver_info* info = cs_solver_at(s);
        if (info->flags & flag)
        {
            int n = snprintf(out + used, size - used, "%s%s", used > 0 ? ", " : "", info->name);
            used += n > 0 ? (size_t)n : 0;
        }
    }
}

bool cs_arg_uses_check(const char* cmd, const cs_arg_uses* uses, const int* solvers, int count)
{
    for (int bit = 0; bit < 32; ++bit)
    {
        unsigned flag = 1u << bit;
        if (!(uses->flags & flag))
        {
            continue;
        }
        bool read = false;
        for (int k = 0; k < count && !read; ++k)
        {
            read = (cs_solver_at(solvers[k])->flags & flag) != 0;
        }
        if (!read)
        {
            char names[256];
            solvers_with(flag, names, sizeof names);
            if (count == 1)
            {
                fprintf(stderr, "circlesim-cli %s: %s: solver %s does not use it (solvers that do: %s)\n",
                        cmd, uses->option[bit], cs_solver_at(solvers[0])->name, names);
            }
            else
            {
                fprintf(stderr,
                        "circlesim-cli %s: %s: none of the solvers given uses it (solvers that do: %s)\n",
                        cmd, uses->option[bit], names);
            }
            return false;
        }
    }
    return true;
}

int cs_arg_subspace_option(const char* cmd, int argc, char** argv, int* i, cs_solver_params* params,
                           cs_arg_uses* uses)
{
    const char* opt = argv[*i];
    if (strcmp(opt, "--kgs") == 0)
    {
        cs_arg_uses_note(uses, CS_SOLVER_USES_KGS, opt);
        return cs_arg_next_int(cmd, argc, argv, i, 1, 100000, &params->kgs) ? 1 : -1;
    }
    if (strcmp(opt, "--ksm") == 0)
    {
        cs_arg_uses_note(uses, CS_SOLVER_USES_KSM, opt);
        return cs_arg_next_int(cmd, argc, argv, i, 0, 1000, &params->ksm) ? 1 : -1;
    }
    if (strcmp(opt, "--subspace-solver") == 0)
    {
        cs_arg_uses_note(uses, CS_SOLVER_USES_SUBSPACE, opt);
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
