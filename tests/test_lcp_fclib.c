// FCLIB interchange (lcp_fclib.h): round trips bit for bit with the /circlesim group, the FCLIB data
// alone carries the same problem (W and q compared with dense ones formed here from the definitions),
// the local form libfclib reads back is W = J M⁻¹ Jᵀ, and malformed or inexpressible files are refused
// with a reason instead of ending the process (libfclib exits on a missing dataset).
#include "solver_fixtures.h"

#include "circlesim/lcp_fclib.h"

#include <fclib.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <unistd.h>

// Moves every friction row behind all normal rows (links follow), so that file order differs from
// FCLIB's contact order.
static void friction_last(const cs_lcp* src, cs_lcp* dst)
{
    cs_error err;
    assert_int_equal(cs_lcp_copy(dst, src, &err), CS_OK);
    int order[MAXR], where[MAXR], n = 0;
    for (int pass = 0; pass < 2; ++pass)
    {
        for (int i = 0; i < src->row_count; ++i)
        {
            if ((src->kind[i] == CS_ROW_FRICTION) == (pass == 1))
            {
                where[i] = n;
                order[n++] = i;
            }
        }
    }
    for (int k = 0; k < n; ++k)
    {
        int i = order[k];
        dst->body_a[k] = src->body_a[i];
        dst->body_b[k] = src->body_b[i];
        memcpy(dst->jac + 6 * k, src->jac + 6 * i, 6 * sizeof(double));
        dst->bias[k] = src->bias[i];
        dst->kind[k] = src->kind[i];
        dst->link[k] = src->link[i] >= 0 ? where[src->link[i]] : -1;
        dst->mu[k] = src->mu[i];
        dst->lo[k] = src->lo[i];
        dst->hi[k] = src->hi[i];
        dst->lambda0[k] = src->lambda0[i];
    }
}

static void round_trip(const cs_lcp* p)
{
    cs_lcp q = {0};
    cs_error err = {0};
    // A misleading suffix on purpose: files are told apart by content.
    const char* path = cs_test_temp_path(".lcp");
    assert_int_equal(cs_lcp_write_fclib(p, path, true, &err), CS_OK);
    assert_true(cs_lcp_file_is_hdf5(path));
    cs_status s = cs_lcp_load(path, &q, &err);
    if (s != CS_OK)
    {
        fail_msg("%s", err.message);
    }
    cs_test_assert_problems_equal(p, &q);
    cs_lcp_free(&q);
}

static void test_round_trip_exact(void** state)
{
    (void)state;
    for (int trial = 0; trial < 30; ++trial)
    {
        cs_lcp p = {0}, r = {0};
        random_contacts_any(&p, 1 + rng_int(MAXB), 1 + rng_int(MAXR / 2), trial % 2 == 0);
        snprintf(p.name, sizeof p.name, "random-%d", trial);
        round_trip(&p);
        friction_last(&p, &r);
        round_trip(&r);
        cs_lcp_free(&p);
        cs_lcp_free(&r);
    }
    // A world's own problem: Stacking after 50 steps, with the warm start it was solved from.
    cs_error err = {0};
    cs_world* w = cs_scene_load(cs_test_source_path("scenes/stacking.json"), NULL, &err);
    assert_non_null(w);
    for (int k = 0; k < 50; ++k)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    round_trip(cs_world_last_problem(w));
    cs_world_destroy(w);
}

// Rows in FCLIB order (each normal row, then its friction row) with their FCLIB column.
static int fclib_order(const cs_lcp* p, int* rows, int* cols)
{
    int n = 0, contact = 0;
    for (int i = 0; i < p->row_count; ++i)
    {
        if (p->kind[i] != CS_ROW_NORMAL)
        {
            continue;
        }
        rows[n] = i;
        cols[n++] = 2 * contact;
        for (int k = 0; k < p->row_count; ++k)
        {
            if (p->kind[k] == CS_ROW_FRICTION && p->link[k] == i)
            {
                rows[n] = k;
                cols[n++] = 2 * contact + 1;
            }
        }
        contact += 1;
    }
    return n;
}

// Without /circlesim the reader rebuilds inverse masses as 1/M and v* as f/M: the same A and q to rounding.
static void test_fclib_alone_same_problem(void** state)
{
    (void)state;
    for (int trial = 0; trial < 30; ++trial)
    {
        cs_lcp p = {0}, r = {0}, q = {0};
        cs_error err = {0};
        random_contacts_any(&p, 1 + rng_int(MAXB), 1 + rng_int(MAXR / 2), trial % 2 == 1);
        friction_last(&p, &r);
        const char* path = cs_test_temp_path(".hdf5");
        assert_int_equal(cs_lcp_write_fclib(&r, path, false, &err), CS_OK);
        assert_int_equal(cs_lcp_load(path, &q, &err), CS_OK);
        int rows[MAXR], cols[MAXR];
        int n = fclib_order(&r, rows, cols);
        assert_int_equal(q.row_count, n);
        double A[MAXR][MAXR], b[MAXR], A2[MAXR][MAXR], b2[MAXR];
        dense_problem(&r, A, b);
        dense_problem(&q, A2, b2);
        for (int i = 0; i < n; ++i)
        {
            assert_int_equal(q.kind[i], r.kind[rows[i]]);
            assert_true(q.lambda0[i] == r.lambda0[rows[i]]); // carried as FCLIB's initial guess
            assert_near(b2[i], b[rows[i]], 1e-14 * (1.0 + fabs(b[rows[i]])));
            for (int j = 0; j < n; ++j)
            {
                assert_near(A2[i][j], A[rows[i]][rows[j]], 1e-14 * (1.0 + fabs(A[rows[i]][rows[j]])));
            }
            if (q.kind[i] == CS_ROW_FRICTION)
            {
                assert_int_equal(q.link[i], i - 1);
                assert_true(q.mu[i] == r.mu[rows[i]]);
            }
        }
        cs_lcp_free(&p);
        cs_lcp_free(&r);
        cs_lcp_free(&q);
    }
}

// The local form as libfclib reads it: W = A and q in FCLIB order; frictionless tangents empty, mu 0.
static void test_local_form_is_w_q(void** state)
{
    (void)state;
    for (int trial = 0; trial < 20; ++trial)
    {
        cs_lcp p = {0};
        cs_error err = {0};
        random_contacts_any(&p, 1 + rng_int(MAXB), 1 + rng_int(MAXR / 2), trial % 2 == 0);
        const char* path = cs_test_temp_path(".hdf5");
        assert_int_equal(cs_lcp_write_fclib(&p, path, true, &err), CS_OK);
        struct fclib_local* local = fclib_read_local(path);
        assert_non_null(local);
        int rows[MAXR], cols[MAXR];
        int n = fclib_order(&p, rows, cols);
        int contacts = 0;
        for (int i = 0; i < p.row_count; ++i)
        {
            contacts += p.kind[i] == CS_ROW_NORMAL;
        }
        assert_int_equal(local->W->m, 2 * contacts);
        assert_int_equal(local->W->nz, -1);
        double A[MAXR][MAXR], b[MAXR], W[2 * MAXR][2 * MAXR] = {{0}};
        dense_problem(&p, A, b);
        for (int c = 0; c < local->W->n; ++c)
        {
            for (int k = local->W->p[c]; k < local->W->p[c + 1]; ++k)
            {
                W[local->W->i[k]][c] = local->W->x[k];
            }
        }
        bool has_row[2 * MAXR] = {false};
        for (int i = 0; i < n; ++i)
        {
            has_row[cols[i]] = true;
            assert_near(local->q[cols[i]], b[rows[i]], 1e-14 * (1.0 + fabs(b[rows[i]])));
            for (int j = 0; j < n; ++j)
            {
                assert_near(W[cols[i]][cols[j]], A[rows[i]][rows[j]],
                            1e-14 * (1.0 + fabs(A[rows[i]][rows[j]])));
            }
        }
        for (int c = 0; c < 2 * contacts; ++c)
        {
            for (int k = 0; !has_row[c] && k < 2 * contacts; ++k)
            {
                assert_true(W[c][k] == 0.0 && W[k][c] == 0.0 && local->q[c] == 0.0);
            }
            if (!has_row[c])
            {
                assert_true(local->mu[c / 2] == 0.0);
            }
        }
        fclib_delete_local(local);
        free(local);
        cs_lcp_free(&p);
    }
}

static void expect_read_error(const char* path, const char* expected)
{
    cs_lcp q = {0};
    cs_error err = {0};
    assert_int_not_equal(cs_lcp_load(path, &q, &err), CS_OK);
    if (strstr(err.message, expected) == NULL || strstr(err.message, path) == NULL)
    {
        fail_msg("expected '%s' naming %s, got '%s'", expected, path, err.message);
    }
    cs_lcp_free(&q);
}

// Writes a fresh FCLIB file of a random frictional problem and opens it for editing.
static hid_t edit_fresh(const char** path)
{
    cs_lcp p = {0};
    cs_error err = {0};
    random_contacts_any(&p, 4, 3, true);
    *path = cs_test_temp_path(".hdf5");
    assert_int_equal(cs_lcp_write_fclib(&p, *path, true, &err), CS_OK);
    cs_lcp_free(&p);
    hid_t file = H5Fopen(*path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(file >= 0);
    return file;
}

static void test_rejects_with_reason(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    random_contacts_any(&p, 3, 2, true);
    p.kind[1] = CS_ROW_BOX;
    p.link[1] = -1;
    assert_int_equal(cs_lcp_write_fclib(&p, cs_test_temp_path(".hdf5"), true, &err), CS_ERR_VALUE);
    assert_non_null(strstr(err.message, "row 1 is a fixed-box row"));
    p.lo[1] = -INFINITY; // a joint's rows (issue 17): said, never dropped
    p.hi[1] = INFINITY;
    assert_int_equal(cs_lcp_write_fclib(&p, cs_test_temp_path(".hdf5"), true, &err), CS_ERR_VALUE);
    assert_non_null(strstr(err.message, "a rod joint): circlesim writes FCLIB contacts only"));
    p.hi[1] = 0.0;
    assert_int_equal(cs_lcp_write_fclib(&p, cs_test_temp_path(".hdf5"), true, &err), CS_ERR_VALUE);
    assert_non_null(strstr(err.message, "one-sided, a rope joint"));
    p.lo[1] = 0.0;
    p.kind[1] = CS_ROW_FRICTION;
    p.link[1] = 0;
    p.inv_mass[0] = 0.0;
    assert_int_equal(cs_lcp_write_fclib(&p, cs_test_temp_path(".hdf5"), true, &err), CS_ERR_VALUE);
    assert_non_null(strstr(err.message, "positive definite"));
    cs_lcp_free(&p);

    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const char* path;
    hid_t file = edit_fresh(&path); // a dataset libfclib needs is missing: refused, the process lives on
    assert_true(H5Ldelete(file, "/fclib_global/vectors/w", H5P_DEFAULT) >= 0);
    H5Fclose(file);
    expect_read_error(path, "/fclib_global/vectors/w: missing");

    file = edit_fresh(&path); // only the local form left
    assert_true(H5Ldelete(file, "/fclib_global", H5P_DEFAULT) >= 0);
    H5Fclose(file);
    expect_read_error(path, "local-only");

    file = edit_fresh(&path); // the extras edited: they no longer agree with M
    double wrong[4] = {1.0, 2.0, 3.0, 4.0};
    hsize_t four = 4;
    assert_true(H5Ldelete(file, "/circlesim/inv_mass", H5P_DEFAULT) >= 0);
    assert_true(H5LTmake_dataset_double(file, "/circlesim/inv_mass", 1, &four, wrong) >= 0);
    H5Fclose(file);
    expect_read_error(path, "disagrees");

    file = edit_fresh(&path); // M with a y mass different from its x mass
    double mx[12];
    assert_true(H5LTread_dataset_double(file, "/fclib_global/M/x", mx) >= 0);
    mx[1] *= 2.0;
    hsize_t twelve = 12;
    assert_true(H5Ldelete(file, "/fclib_global/M/x", H5P_DEFAULT) >= 0);
    assert_true(H5LTmake_dataset_double(file, "/fclib_global/M/x", 1, &twelve, mx) >= 0);
    H5Fclose(file);
    expect_read_error(path, "(m, m, I)");

    path = cs_test_temp_path(".hdf5"); // an HDF5 file that is no FCLIB problem
    file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Fclose(file);
    expect_read_error(path, "not an FCLIB problem");
}

// The CLI reads FCLIB wherever it reads .lcp; export says what FCLIB alone does not carry.
static void test_cli(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    random_contacts_any(&p, 5, 4, true);
    const char* lcp = cs_test_temp_path(".lcp");
    assert_int_equal(cs_lcp_write(&p, lcp, &err), CS_OK);
    const char* h5 = cs_test_temp_path(".data");
    char cmd[9000], out1[4096], out2[4096];
    snprintf(cmd, sizeof cmd, "lcp export %s --fclib %s", lcp, h5);
    cs_test_cli_expect(cmd, 0, "");
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli lcp solve %s --tol 1e-12 | cut -d' ' -f1-3", CS_BINARY_DIR,
             lcp);
    assert_int_equal(cs_test_run(cmd, out1, sizeof out1), 0);
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli lcp solve %s --tol 1e-12 | cut -d' ' -f1-3", CS_BINARY_DIR,
             h5);
    assert_int_equal(cs_test_run(cmd, out2, sizeof out2), 0);
    assert_string_equal(out1, out2);
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli lcp info %s | grep -v '^file='", CS_BINARY_DIR, lcp);
    assert_int_equal(cs_test_run(cmd, out1, sizeof out1), 0);
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli lcp info %s | grep -v '^file='", CS_BINARY_DIR, h5);
    assert_int_equal(cs_test_run(cmd, out2, sizeof out2), 0);
    assert_string_equal(out1, out2);
    cs_lcp r = {0};
    friction_last(&p, &r);
    const char* reordered = cs_test_temp_path(".lcp");
    assert_int_equal(cs_lcp_write(&r, reordered, &err), CS_OK);
    snprintf(cmd, sizeof cmd, "lcp export %s --fclib %s --no-extras", reordered, cs_test_temp_path(".hdf5"));
    cs_test_cli_expect(cmd, 0,
                       "friction rows not right after their normal row (read back in FCLIB contact order)");
    cs_lcp_free(&r);
    // A step of the heavy chain holds its rods: export refuses it, naming the row, and writes no file.
    const char* chain = cs_test_temp_path(".lcp");
    snprintf(cmd, sizeof cmd, "run %s --steps 1 --quiet --dump-lcp 1:%s",
             cs_test_source_path("scenes/chain.json"), chain);
    cs_test_cli_expect(cmd, 0, "");
    const char* chain_h5 = cs_test_temp_path(".hdf5");
    snprintf(cmd, sizeof cmd, "lcp export %s --fclib %s", chain, chain_h5);
    cs_test_cli_expect(cmd, 1, "row 0 is a fixed-box row (kind c, [-inf, inf]: a rod joint)");
    assert_int_equal(access(chain_h5, F_OK), -1);
    snprintf(cmd, sizeof cmd, "lcp export %s", lcp);
    cs_test_cli_expect(cmd, 2, "exactly one of --fclib OUT, --lcp OUT");
    snprintf(cmd, sizeof cmd, "lcp export %s --lcp %s --no-extras", lcp, cs_test_temp_path(".lcp"));
    cs_test_cli_expect(cmd, 2, "--no-extras goes with --fclib");
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_exact),
        cmocka_unit_test(test_fclib_alone_same_problem),
        cmocka_unit_test(test_local_form_is_w_q),
        cmocka_unit_test(test_rejects_with_reason),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
