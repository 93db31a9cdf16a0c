// `converge --active-set`: how fast each method finds the optimal active set (MNS paper, Table 2), as
// defined once in the library (circlesim/active_set.h).
#include "cli/active_set.h"

#include "cli/diagnostics.h"

#include <stdio.h>
#include <stdlib.h>

// The table's title and column heads (k = each of cs_active_set_ks), and the CSV's header.
static void print_header(FILE* table, FILE* csv, const cs_active_set* set, int m)
{
    fprintf(table, "fraction of the %d active rows (of %d) identified after k iterations (MNS Table 2)\n",
            set->active, m);
    if (set->active == 0)
    {
        fprintf(table, "the optimal active set is empty: there is no fraction to measure ('-')\n");
    }
    fprintf(table, "%-22s", "solver");
    for (int k = 0; k < CS_ACTIVE_SET_KS_COUNT; ++k)
    {
        fprintf(table, " %7s%-3d", "k=", cs_active_set_ks[k]);
    }
    fprintf(table, "\n");
    if (csv)
    {
        fprintf(csv, "scene,solver,alpha,k,identified,active\n");
    }
}

// One variant's row: the fraction of the active set it identified after each k, and its CSV lines.
static void report_variant(const cs_lcp* problem, const char* scene, const cs_variant* var, double gamma,
                           bool simd, const cs_active_set* set, cs_solver_work* work, double* lambda,
                           FILE* csv, FILE* table)
{
    char label[96];
    fprintf(table, "%-22s", cs_variant_label(var, label, sizeof label));
    cs_solver_params params = cs_solver_params_default();
    params.alpha = var->alpha;
    params.gamma = gamma;
    params.simd = simd;
    int found[CS_ACTIVE_SET_KS_COUNT];
    cs_active_set_progress(set, problem, var->solver, &params, cs_active_set_ks, CS_ACTIVE_SET_KS_COUNT, work,
                           lambda, found);
    for (int k = 0; k < CS_ACTIVE_SET_KS_COUNT; ++k)
    {
        if (found[k] < 0)
        {
            fprintf(table, " %10s", "failed");
            continue;
        }
        if (set->active > 0)
        {
            fprintf(table, " %10.3f", (double)found[k] / set->active);
        }
        else
        {
            fprintf(table, " %10s", "-");
        }
        if (csv)
        {
            fprintf(csv, "%s,%s,", scene, cs_solver_at(var->solver)->name);
            cs_variant_print_alpha(csv, var);
            fprintf(csv, ",%d,%d,%d\n", cs_active_set_ks[k], found[k], set->active);
        }
    }
    fprintf(table, "\n");
}

// The optimal active set first (its source on the table), then the header and a row per variant.
int cs_active_set_table(const cs_lcp* problem, const char* scene, const cs_variant* variants, int count,
                        double gamma, bool simd, const char* csv_path, FILE* table)
{
    int m = problem->row_count;
    double* lambda = malloc((size_t)(m > 0 ? m : 1) * sizeof(double));
    cs_solver_work work = {0};
    cs_active_set set = {0};
    cs_error err = {CS_OK, ""};
    FILE* csv = NULL;
    int exit_status = 0;
    if (lambda == NULL || cs_active_set_find(problem, &work, &set, &err) != CS_OK)
    {
        fprintf(stderr, "%s\n", lambda == NULL ? "out of memory" : err.message);
        exit_status = 1;
        goto done;
    }
    fprintf(table, "%s\n", set.source);
    if (csv_path != NULL && (csv = cs_cli_open_output(csv_path)) == NULL)
    {
        exit_status = 1;
        goto done;
    }
    print_header(table, csv, &set, m);
    for (int v = 0; v < count; ++v)
    {
        report_variant(problem, scene, variants + v, gamma, simd, &set, &work, lambda, csv, table);
    }
done:
    if (!cs_cli_close_output(csv))
    {
        exit_status = 1;
    }
    cs_active_set_free(&set);
    cs_solver_work_free(&work);
    free(lambda);
    return exit_status;
}
