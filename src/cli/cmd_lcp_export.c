// circlesim-cli lcp export: a frozen problem (.lcp or FCLIB, told apart by content) into FCLIB or .lcp.
//   lcp export FILE --fclib OUT.hdf5 [--no-extras]   FCLIB global + local 2D problem (lcp_fclib.h)
//   lcp export FILE --lcp OUT.lcp                    the text format (LCP-FORMAT.md)
#include <stdio.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "circlesim/lcp_fclib.h"
#include "cli/args.h"
#include "cli/commands.h"

static void usage_export(FILE* out)
{
    fprintf(out,
            "usage: circlesim-cli lcp export FILE (--fclib OUT | --lcp OUT) [--no-extras]\n"
            "Writes the problem in FILE (.lcp text or FCLIB HDF5, recognised by content) as\n"
            "  --fclib OUT   an FCLIB 2D problem: global form (M, H, f, w, mu; joint rods as G, b) and,\n"
            "                without rods, local form (W, q, mu), plus a /circlesim group with what\n"
            "                FCLIB cannot hold (warm start, exact\n"
            "                inverse masses, row and body order): reading OUT back gives FILE's problem\n"
            "  --lcp OUT     the circlesim-lcp 1 text format\n"
            "  --no-extras   FCLIB data only; says on stderr what is then not carried\n");
}

// What an FCLIB file without /circlesim does not reproduce of p, one stderr line each (the warm start it
// does carry, as FCLIB's initial guess).
static void warn_lost(const cs_lcp* p, const char* out)
{
    int inexact = 0, reordered = 0, swapped = 0;
    bool rod_seen = false;
    for (int b = 0; b < p->body_count; ++b)
    {
        inexact += 1.0 / (1.0 / p->inv_mass[b]) != p->inv_mass[b] ||
                   1.0 / (1.0 / p->inv_inertia[b]) != p->inv_inertia[b];
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        int a = p->body_a[i], b = p->body_b[i];
        swapped += (b >= 0 && (a < 0 || b < a));
        // FCLIB order: each normal row followed by its friction row; the rods (G) after every contact.
        bool in_order = p->kind[i] == CS_ROW_BOX      ? true
                        : p->kind[i] == CS_ROW_NORMAL ? !rod_seen
                                                      : p->link[i] == i - 1 && !rod_seen;
        rod_seen = rod_seen || p->kind[i] == CS_ROW_BOX;
        reordered += !in_order;
    }
    const char* what[4] = {
        "rows with a nonzero warm start lambda0 (read back as 0)",
        "bodies whose inverse mass or inertia does not survive 1/(1/x) (read back within 1 ulp)",
        "rows out of FCLIB order: friction not right after its normal row, or a contact after a joint rod "
        "(read back in FCLIB contact order, rods last)",
        "rows whose body_a is not the lower body index (read back swapped)"};
    int counts[3] = {inexact, reordered, swapped};
    for (int k = 0; k < 3; ++k)
    {
        if (counts[k] > 0)
        {
            fprintf(stderr, "circlesim-cli lcp export: %s: not carried by FCLIB alone: %d %s\n", out,
                    counts[k], what[k]);
        }
    }
}

int cs_cmd_lcp_export(int argc, char** argv)
{
    const char* file = NULL;
    const char* fclib_out = NULL;
    const char* lcp_out = NULL;
    bool extras = true;
    for (int i = 1; i < argc; ++i)
    {
        const char* arg = argv[i];
        if (cs_arg_is_help(arg))
        {
            usage_export(stdout);
            return 0;
        }
        bool ok = true;
        if (strcmp(arg, "--fclib") == 0)
        {
            ok = (fclib_out = cs_arg_value("lcp export", argc, argv, &i)) != NULL;
        }
        else if (strcmp(arg, "--lcp") == 0)
        {
            ok = (lcp_out = cs_arg_value("lcp export", argc, argv, &i)) != NULL;
        }
        else if (strcmp(arg, "--no-extras") == 0)
        {
            extras = false;
        }
        else if ((arg[0] == '-' && arg[1] != '\0') || file != NULL)
        {
            fprintf(stderr, "circlesim-cli lcp export: unexpected argument '%s' (see 'lcp export --help')\n",
                    arg);
            return 2;
        }
        else
        {
            file = arg;
        }
        if (!ok)
        {
            return 2;
        }
    }
    if (file == NULL || (fclib_out == NULL) == (lcp_out == NULL))
    {
        fprintf(stderr, "circlesim-cli lcp export: need FILE and exactly one of --fclib OUT, --lcp OUT\n");
        usage_export(stderr);
        return 2;
    }
    if (lcp_out != NULL && !extras)
    {
        fprintf(stderr, "circlesim-cli lcp export: --no-extras goes with --fclib\n");
        return 2;
    }
    cs_error err = {0};
    cs_lcp p = {0};
    int code = 1;
    if (cs_lcp_load(file, &p, &err) == CS_OK &&
        (fclib_out != NULL ? cs_lcp_write_fclib(&p, fclib_out, extras, &err)
                           : cs_lcp_write(&p, lcp_out, &err)) == CS_OK)
    {
        if (fclib_out != NULL && !extras)
        {
            warn_lost(&p, fclib_out);
        }
        code = 0;
    }
    else
    {
        fprintf(stderr, "%s\n", err.message);
    }
    cs_lcp_free(&p);
    return code;
}
