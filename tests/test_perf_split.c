// The world solves its split-impulse position problem on the rows the velocity solve already packed
// (cs_solve_split) instead of building and packing a second problem. That is only a shortcut if it gives
// the same numbers: here the normal rows of real Pool 1 problems are written out as a problem of their own
// (v* = 0, λ⁰ = 0, new biases) and solved with cs_solve and pgs, and both answers must agree bit for bit.
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "solver/split.h"

enum
{
    SWEEPS = 20
};

// The normal rows of vp, in order, with the given biases, as a problem of their own.
static void extract_normal_rows(const cs_lcp* vp, const double* bias, cs_lcp* pp)
{
    cs_error err;
    int count = 0;
    for (int i = 0; i < vp->row_count; ++i)
    {
        count += vp->kind[i] == CS_ROW_NORMAL;
    }
    assert_int_equal(cs_lcp_reserve(pp, vp->body_count, count, &err), CS_OK);
    pp->body_count = vp->body_count;
    memcpy(pp->inv_mass, vp->inv_mass, (size_t)vp->body_count * sizeof(double));
    memcpy(pp->inv_inertia, vp->inv_inertia, (size_t)vp->body_count * sizeof(double));
    memset(pp->v, 0, 3 * (size_t)vp->body_count * sizeof(double));
    int k = 0;
    for (int i = 0; i < vp->row_count; ++i)
    {
        if (vp->kind[i] != CS_ROW_NORMAL)
        {
            continue;
        }
        pp->body_a[k] = vp->body_a[i];
        pp->body_b[k] = vp->body_b[i];
        memcpy(pp->jac + 6 * k, vp->jac + 6 * i, 6 * sizeof(double));
        pp->bias[k] = bias[k];
        pp->kind[k] = CS_ROW_NORMAL;
        pp->link[k] = -1;
        pp->mu[k] = 0.0;
        pp->lo[k] = 0.0;
        pp->hi[k] = INFINITY;
        pp->lambda0[k] = 0.0;
        k += 1;
    }
    pp->row_count = count;
}

static void check_split_matches_pgs(bool frictionless, int at_step)
{
    cs_error err = {CS_OK, ""};
    cs_scene_info info;
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/pool1.json"), &info, &err);
    assert_non_null(w);
    cs_world_set_frictionless(w, frictionless);
    for (int s = 0; s < at_step; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    cs_lcp vp = {0}, pp = {0};
    assert_int_equal(cs_lcp_copy(&vp, cs_world_last_problem(w), &err), CS_OK);
    int stride = frictionless ? 1 : 2;
    int count = vp.row_count / stride;
    assert_true(count > 100);

    // Biases of both signs, so that some rows separate (λ clamped at 0) and some push.
    double* bias = calloc((size_t)count, sizeof(double));
    double* split_bias = calloc((size_t)count, sizeof(double));
    uint64_t state = 12345;
    for (int k = 0; k < count; ++k)
    {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        bias[k] = ((double)(state >> 11) / 9007199254740992.0 - 0.6) * 0.5;
        split_bias[k] = bias[k];
    }
    extract_normal_rows(&vp, bias, &pp);
    assert_int_equal(pp.row_count, count);

    // Reference: the rows as a problem of their own, PGS from 0.
    cs_solver_params params = cs_solver_params_default();
    params.iterations = SWEEPS;
    params.warm_start = false;
    params.simd = false; // one row at a time: the reference for the vector lanes too
    cs_solver_work ref_work = {0};
    double* ref_lambda = calloc((size_t)count, sizeof(double));
    assert_int_equal(cs_solve(&pp, cs_solver_find("pgs"), &params, &ref_work, ref_lambda, NULL, &err), CS_OK);

    // The shortcut: the velocity problem packed by its own solve, then the split solve on its rows.
    cs_solver_work work = {0};
    double* lambda = calloc((size_t)vp.row_count, sizeof(double));
    params.iterations = 3;
    params.warm_start = true;
    params.simd = true;
    assert_int_equal(cs_solve(&vp, cs_solver_find("pgs"), &params, &work, lambda, NULL, &err), CS_OK);
    double* split_lambda = calloc((size_t)count, sizeof(double));
    double* v = calloc(3 * (size_t)vp.body_count + 3, sizeof(double));
    cs_split_work split_work = {0};
    assert_int_equal(cs_split_work_reserve(&split_work, &work, true, 0, stride, count, &err), CS_OK);
    assert_int_equal(cs_solve_split(&work, vp.body_count, 0, stride, count, split_bias, SWEEPS, 0.0, true,
                                    &split_work, split_lambda, v),
                     SWEEPS);

    int moved = 0;
    for (int k = 0; k < count; ++k)
    {
        moved += ref_lambda[k] > 0.0;
    }
    print_message("%s, step %d: %d of %d rows push\n", frictionless ? "frictionless" : "frictional", at_step,
                  moved, count);
    assert_true(moved > count / 10 && moved < count); // both kinds of rows take part
    assert_memory_equal(split_lambda, ref_lambda, (size_t)count * sizeof(double));
    assert_memory_equal(v, ref_work.v, 3 * (size_t)vp.body_count * sizeof(double));

    free(bias);
    free(split_bias);
    free(ref_lambda);
    free(lambda);
    free(split_lambda);
    cs_split_work_free(&split_work);
    free(v);
    cs_solver_work_free(&ref_work);
    cs_solver_work_free(&work);
    cs_lcp_free(&vp);
    cs_lcp_free(&pp);
    cs_world_destroy(w);
}

static void split_on_frictional_rows_matches_pgs(void** state)
{
    (void)state;
    check_split_matches_pgs(false, 40);  // falling, few contacts
    check_split_matches_pgs(false, 300); // settled
}

static void split_on_frictionless_rows_matches_pgs(void** state)
{
    (void)state;
    check_split_matches_pgs(true, 300);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_on_frictional_rows_matches_pgs),
        cmocka_unit_test(split_on_frictionless_rows_matches_pgs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
