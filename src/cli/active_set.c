// `converge --active-set`: how fast each method finds the optimal active set (MNS paper, Table 2: "the
// ratio of active-set components correctly identified after k iterations ... over the total number of
// components in the optimal active set"). With redundant contacts λ is not unique (a pile's A is singular;
// lemke returns a vertex with more zeros than a Gauss–Seidel limit), so the optimal active set is taken from
// the contact velocities, which are: a row is in it when w*_i > 0 (its impulse must sit at its lower bound in
// every solution) or, for a box or friction row, w*_i < 0 (at its upper bound). An iterate has identified
// the row when its impulse sits at that same bound.
#include "cli/active_set.h"

#include "circlesim/lemke.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const int ks[] = {1, 2, 5, 10, 50};
enum
{
    K_COUNT = (int)(sizeof ks / sizeof ks[0])
};

// −1 at the lower bound, +1 at the upper, 0 inside, within eps.
static int row_status(const cs_lcp* p, const double* lambda, int i, double eps)
{
    double lo, hi;
    cs_lcp_bounds(p, lambda, i, &lo, &hi);
    if (lambda[i] <= lo + eps)
    {
        return -1;
    }
    if (lambda[i] >= hi - eps)
    {
        return 1;
    }
    return 0;
}

// The reference answer into `best` (and its velocities into work->v); prints where it came from. false when
// there is none.
static bool reference(const cs_lcp* p, cs_solver_work* work, double* best)
{
    cs_lemke_stats st;
    cs_error err = {CS_OK, ""};
    if (cs_lemke_solve(p, work, best, &st, &err) == CS_OK)
    {
        printf("optimal active set from lemke (%d pivots on %d variables, res_nat %.1e)\n", st.pivots,
               st.variables, st.res_nat);
        return true;
    }
    printf("%s\n", err.message);
    cs_solver_params params = cs_solver_params_default();
    params.warm_start = false;
    params.iterations = 500;
    params.tolerance = 1e-12;
    cs_solver_stats stats;
    int newton = cs_solver_find("newton-minmap");
    if (newton < 0 || cs_solve(p, newton, &params, work, best, &stats, &err) != CS_OK)
    {
        fprintf(stderr, "no reference answer: %s\n", err.message);
        return false;
    }
    printf("optimal active set from newton-minmap instead (%d iterations, res_nat %.1e%s)\n",
           stats.iterations, stats.res_nat, stats.res_nat <= 1e-12 ? "" : ", NOT converged");
    return true;
}

int cs_active_set_table(const cs_lcp* problem, const char* scene, const cs_variant* variants, int count,
                        double gamma, bool simd, const char* csv_path)
{
    int m = problem->row_count;
    double* best = malloc((size_t)(m > 0 ? m : 1) * sizeof(double));
    double* lambda = malloc((size_t)(m > 0 ? m : 1) * sizeof(double));
    int* status = malloc((size_t)(m > 0 ? m : 1) * sizeof(int));
    cs_solver_work work = {0};
    FILE* csv = NULL;
    int exit_status = 0;
    if (best == NULL || lambda == NULL || status == NULL || !reference(problem, &work, best))
    {
        exit_status = 1;
        goto done;
    }
    if (csv_path != NULL && (csv = fopen(csv_path, "w")) == NULL)
    {
        fprintf(stderr, "%s: cannot open for writing\n", csv_path);
        exit_status = 1;
        goto done;
    }
    double scale = 1.0, w_scale = 1.0;
    for (int i = 0; i < m; ++i)
    {
        scale = fmax(scale, fabs(best[i]));
        w_scale = fmax(w_scale, fabs(cs_lcp_row_velocity(problem, work.v, i)));
    }
    double eps = 1e-9 * scale, w_eps = 1e-9 * w_scale;
    int active = 0;
    for (int i = 0; i < m; ++i)
    {
        double w = cs_lcp_row_velocity(problem, work.v, i);
        status[i] = w > w_eps ? -1 : (w < -w_eps && problem->kind[i] != CS_ROW_NORMAL ? 1 : 0);
        active += status[i] != 0;
    }
    printf("fraction of the %d active rows (of %d) identified after k iterations (MNS Table 2)\n", active, m);
    printf("%-22s", "solver");
    for (int k = 0; k < K_COUNT; ++k)
    {
        printf(" %7s%-3d", "k=", ks[k]);
    }
    printf("\n");
    if (csv)
    {
        fprintf(csv, "scene,solver,alpha,k,identified,active\n");
    }
    for (int v = 0; v < count; ++v)
    {
        const cs_variant* var = variants + v;
        char label[96];
        printf("%-22s", cs_variant_label(var, label, sizeof label));
        // A pivoting method's first iteration is its answer (seconds of pivots): solved once, reused.
        bool pivoting = (cs_solver_at(var->solver)->flags & CS_SOLVER_PIVOTING) != 0;
        bool solved = false;
        for (int k = 0; k < K_COUNT; ++k)
        {
            cs_solver_params params = cs_solver_params_default();
            params.alpha = var->alpha;
            params.gamma = gamma;
            params.simd = simd;
            params.iterations = ks[k];
            cs_error err = {CS_OK, ""};
            if (!(pivoting && k > 0))
            {
                solved = cs_solve(problem, var->solver, &params, &work, lambda, NULL, &err) == CS_OK;
            }
            if (!solved)
            {
                printf(" %10s", "failed");
                continue;
            }
            int found = 0;
            for (int i = 0; i < m; ++i)
            {
                found += status[i] != 0 && row_status(problem, lambda, i, eps) == status[i];
            }
            printf(" %10.3f", active > 0 ? (double)found / active : 1.0);
            if (csv)
            {
                fprintf(csv, "%s,%s,", scene, cs_solver_at(var->solver)->name);
                cs_variant_print_alpha(csv, var);
                fprintf(csv, ",%d,%d,%d\n", ks[k], found, active);
            }
        }
        printf("\n");
    }
done:
    if (csv != NULL && fclose(csv) != 0)
    {
        exit_status = 1;
    }
    cs_solver_work_free(&work);
    free(best);
    free(lambda);
    free(status);
    return exit_status;
}
