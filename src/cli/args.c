#include "cli/args.h"

#include "circlesim/world.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cs_arg_int(const char* cmd, const char* opt, const char* text, int min, int max, int* out)
{
    char* end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < min || v > max)
    {
        fprintf(stderr, "circlesim-cli %s: %s: expected an integer in [%d, %d], got '%s'\n", cmd, opt, min,
                max, text);
        return false;
    }
    *out = (int)v;
    return true;
}

bool cs_arg_double(const char* cmd, const char* opt, const char* text, double min_exclusive, double* out)
{
    char* end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || !(v > min_exclusive))
    {
        fprintf(stderr, "circlesim-cli %s: %s: expected a finite number > %g, got '%s'\n", cmd, opt,
                min_exclusive, text);
        return false;
    }
    *out = v;
    return true;
}

bool cs_arg_limited(const char* cmd, const char* opt, const char* text, const cs_limit* limit, double* out)
{
    char* end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !cs_limit_ok(limit, v))
    {
        fprintf(stderr, "circlesim-cli %s: %s: expected a number in %c%g, %g%c, got '%s'\n", cmd, opt,
                limit->lo_open ? '(' : '[', limit->lo, limit->hi, limit->hi_open ? ')' : ']', text);
        return false;
    }
    *out = v;
    return true;
}

bool cs_arg_next_limited(const char* cmd, int argc, char** argv, int* i, const cs_limit* limit, double* out)
{
    const char* opt = argv[*i];
    const char* v = cs_arg_value(cmd, argc, argv, i);
    return v != NULL && cs_arg_limited(cmd, opt, v, limit, out);
}

bool cs_arg_solver(const char* cmd, const char* opt, const char* text, int* out)
{
    int index = cs_solver_find(text);
    if (index < 0)
    {
        fprintf(stderr, "circlesim-cli %s: %s: unknown solver '%s' (solvers: %s)\n", cmd, opt, text,
                cs_solver_names());
        return false;
    }
    *out = index;
    return true;
}

const char* cs_arg_value(const char* cmd, int argc, char** argv, int* i)
{
    if (*i + 1 >= argc)
    {
        fprintf(stderr, "circlesim-cli %s: %s needs a value\n", cmd, argv[*i]);
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

bool cs_arg_next_int(const char* cmd, int argc, char** argv, int* i, int min, int max, int* out)
{
    const char* opt = argv[*i];
    const char* v = cs_arg_value(cmd, argc, argv, i);
    return v != NULL && cs_arg_int(cmd, opt, v, min, max, out);
}

bool cs_arg_next_double(const char* cmd, int argc, char** argv, int* i, double min_exclusive, double* out)
{
    const char* opt = argv[*i];
    const char* v = cs_arg_value(cmd, argc, argv, i);
    return v != NULL && cs_arg_double(cmd, opt, v, min_exclusive, out);
}

bool cs_arg_next_row_order(const char* cmd, int argc, char** argv, int* i, int* out)
{
    const char* opt = argv[*i];
    const char* v = cs_arg_value(cmd, argc, argv, i);
    if (v == NULL)
    {
        return false;
    }
    int order = cs_row_order_find(v);
    if (order < 0)
    {
        fprintf(stderr, "circlesim-cli %s: %s: unknown row order '%s' (coloured, key)\n", cmd, opt, v);
        return false;
    }
    *out = order;
    return true;
}

bool cs_arg_next_formulation(const char* cmd, int argc, char** argv, int* i, int* out)
{
    const char* opt = argv[*i];
    const char* v = cs_arg_value(cmd, argc, argv, i);
    if (v == NULL)
    {
        return false;
    }
    int f = cs_formulation_find(v);
    if (f < 0)
    {
        fprintf(stderr, "circlesim-cli %s: %s: unknown formulation '%s' (split, spook, soft, relax)\n", cmd,
                opt, v);
        return false;
    }
    *out = f;
    return true;
}

int cs_arg_world_option(const char* cmd, int argc, char** argv, int* i, cs_world_options* options)
{
    const char* opt = argv[*i];
    if (strcmp(opt, "--frictionless") == 0)
    {
        options->frictionless = true;
        return 1;
    }
    if (strcmp(opt, "--no-simd") == 0)
    {
        options->no_simd = true;
        return 1;
    }
    if (strcmp(opt, "--row-order") == 0)
    {
        return cs_arg_next_row_order(cmd, argc, argv, i, &options->row_order) ? 1 : -1;
    }
    if (strcmp(opt, "--formulation") == 0)
    {
        return cs_arg_next_formulation(cmd, argc, argv, i, &options->formulation) ? 1 : -1;
    }
    return 0;
}

void cs_world_options_apply(cs_world* w, const cs_world_options* options)
{
    if (options->frictionless)
    {
        cs_world_set_frictionless(w, true);
    }
    if (options->row_order >= 0)
    {
        cs_world_set_row_order(w, (cs_row_order)options->row_order);
    }
    if (options->formulation >= 0)
    {
        cs_world_set_formulation(w, (cs_formulation)options->formulation);
    }
    if (options->no_simd)
    {
        cs_solver_params params = *cs_world_solver_params(w);
        params.simd = false;
        cs_world_set_solver_params(w, &params);
    }
}

bool cs_arg_is_help(const char* arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

bool cs_arg_scene(const char* cmd, const char* arg, const char** scene, bool name_both)
{
    if (arg[0] == '-' && arg[1] != '\0')
    {
        fprintf(stderr, "circlesim-cli %s: unknown option '%s' (see --help)\n", cmd, arg);
        return false;
    }
    if (*scene == NULL)
    {
        *scene = arg;
        return true;
    }
    if (name_both)
    {
        fprintf(stderr, "circlesim-cli %s: more than one scene given ('%s' and '%s')\n", cmd, *scene, arg);
    }
    else
    {
        fprintf(stderr, "circlesim-cli %s: more than one scene given\n", cmd);
    }
    return false;
}

// The option --NAME of a method parameter (CS_SOLVER_USES_*), or 0.
static unsigned method_option(const char* opt)
{
    const unsigned flags[] = {CS_SOLVER_USES_ALPHA, CS_SOLVER_USES_GAMMA, CS_SOLVER_USES_RELAXATION,
                              CS_SOLVER_USES_LITERAL};
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; ++k)
    {
        if (strncmp(opt, "--", 2) == 0 && strcmp(opt + 2, cs_solver_flag_name(flags[k])) == 0)
        {
            return flags[k];
        }
    }
    return 0u;
}

bool cs_arg_check_use(const char* cmd, const char* opt, unsigned flag, const int* solvers, int count)
{
    char names[512];
    size_t used = 0;
    names[0] = '\0';
    for (int k = 0; k < count; ++k)
    {
        const cs_solver_info* info = cs_solver_at(solvers[k]);
        if (info->flags & flag)
        {
            return true;
        }
        int n = snprintf(names + used, sizeof names - used, "%s%s", k > 0 ? ", " : "", info->name);
        used = n > 0 && used + (size_t)n < sizeof names ? used + (size_t)n : used;
    }
    fprintf(stderr, "circlesim-cli %s: %s does nothing for %s %s (used by: %s)\n", cmd, opt,
            count == 1 ? "solver" : "the solvers", names, cs_solver_names_with(flag));
    return false;
}

bool cs_arg_check_solver_use(const char* cmd, unsigned given, const int* solvers, int count)
{
    for (unsigned flag = 1u; flag != 0u && flag <= given; flag <<= 1)
    {
        char opt[32];
        snprintf(opt, sizeof opt, "--%s", (given & flag) ? cs_solver_flag_name(flag) : "");
        if ((given & flag) && !cs_arg_check_use(cmd, opt, flag, solvers, count))
        {
            return false;
        }
    }
    return true;
}

int cs_arg_solver_option(const char* cmd, int argc, char** argv, int* i, int* solver,
                         cs_solver_params* params, unsigned* given)
{
    const char* opt = argv[*i];
    *given |= method_option(opt);
    if (strcmp(opt, "--solver") == 0)
    {
        const char* v = cs_arg_value(cmd, argc, argv, i);
        return v != NULL && cs_arg_solver(cmd, opt, v, solver) ? 1 : -1;
    }
    if (strcmp(opt, "--iterations") == 0)
    {
        return cs_arg_next_int(cmd, argc, argv, i, 1, 100000000, &params->iterations) ? 1 : -1;
    }
    if (strcmp(opt, "--alpha") == 0)
    {
        return cs_arg_next_limited(cmd, argc, argv, i, &cs_limit_alpha, &params->alpha) ? 1 : -1;
    }
    if (strcmp(opt, "--gamma") == 0)
    {
        return cs_arg_next_limited(cmd, argc, argv, i, &cs_limit_gamma, &params->gamma) ? 1 : -1;
    }
    if (strcmp(opt, "--relaxation") == 0)
    {
        return cs_arg_next_limited(cmd, argc, argv, i, &cs_limit_relaxation, &params->relaxation) ? 1 : -1;
    }
    if (strcmp(opt, "--literal") == 0)
    {
        params->amgs_literal = true;
        return 1;
    }
    if (strcmp(opt, "--no-warm-start") == 0)
    {
        params->warm_start = false;
        return 1;
    }
    if (strcmp(opt, "--no-simd") == 0)
    {
        params->simd = false;
        return 1;
    }
    return 0;
}

const char* cs_arg_solver_help(void)
{
    return "  --solver NAME       solver from the registry (circlesim-cli solvers lists them)\n"
           "  --iterations K      iterations per solve (>= 1)\n"
           "  --alpha A           AMGS: Omega = alpha D, in [1e-6, 1e6]\n"
           "  --gamma G           AMGS: gamma, in [1e-6, 1e6]\n"
           "  --relaxation W      psor, pssor, jacobi: relaxation factor omega, in (0, 2)\n"
           "  --literal           AMGS: the paper's literal Method 3.2 for box rows\n"
           "  --no-warm-start     start every solve from lambda = 0\n"
           "  --no-simd           sweep one row at a time (no vector lanes; the same results)\n";
}

// Parses one list entry into element `index` of out; false (with a message) when it is bad.
typedef bool (*token_parser)(const char* cmd, const char* opt, const char* token, void* out, int index);

// Splits text at commas into tokens of at most 63 characters; calls parse on each.
static int parse_list(const char* cmd, const char* opt, const char* text, int max, void* out,
                      token_parser parse)
{
    int count = 0;
    const char* p = text;
    for (;;)
    {
        const char* comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        char token[64];
        if (len == 0 || len >= sizeof token || count == max)
        {
            fprintf(stderr,
                    "circlesim-cli %s: %s: expected a comma-separated list of at most %d entries, got '%s'\n",
                    cmd, opt, max, text);
            return -1;
        }
        memcpy(token, p, len);
        token[len] = '\0';
        if (!parse(cmd, opt, token, out, count))
        {
            return -1;
        }
        count += 1;
        if (comma == NULL)
        {
            return count;
        }
        p = comma + 1;
    }
}

static bool parse_solver_token(const char* cmd, const char* opt, const char* token, void* out, int index)
{
    return cs_arg_solver(cmd, opt, token, (int*)out + index);
}

static bool parse_double_token(const char* cmd, const char* opt, const char* token, void* out, int index)
{
    return cs_arg_limited(cmd, opt, token, &cs_limit_alpha, (double*)out + index);
}

int cs_arg_solver_list(const char* cmd, const char* opt, const char* text, int* out, int max)
{
    if (strcmp(text, "all") == 0) // every registered method, in registry order
    {
        int count = 0;
        for (int k = 0; k < cs_solver_count() && count < max; ++k)
        {
            out[count++] = k;
        }
        return count;
    }
    return parse_list(cmd, opt, text, max, out, parse_solver_token);
}

int cs_arg_double_list(const char* cmd, const char* opt, const char* text, double* out, int max)
{
    return parse_list(cmd, opt, text, max, out, parse_double_token);
}

// "--opt LIST" at argv[*i]; *count changes only when the whole list parsed.
static bool next_list(const char* cmd, int argc, char** argv, int* i, int max, void* out, int* count,
                      token_parser parse)
{
    const char* opt = argv[*i];
    const char* v = cs_arg_value(cmd, argc, argv, i);
    int n = v != NULL ? parse_list(cmd, opt, v, max, out, parse) : -1;
    if (n < 0)
    {
        return false;
    }
    *count = n;
    return true;
}

bool cs_arg_next_solver_list(const char* cmd, int argc, char** argv, int* i, int* out, int max, int* count)
{
    const char* opt = argv[*i];
    const char* v = cs_arg_value(cmd, argc, argv, i);
    int n = v != NULL ? cs_arg_solver_list(cmd, opt, v, out, max) : -1; // a list, or 'all'
    if (n < 0)
    {
        return false;
    }
    *count = n;
    return true;
}

bool cs_arg_next_double_list(const char* cmd, int argc, char** argv, int* i, double* out, int max, int* count)
{
    return next_list(cmd, argc, argv, i, max, out, count, parse_double_token);
}
