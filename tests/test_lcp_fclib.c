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

// src with `rods` rod rows (a joint's bilateral rows: kind c, [-inf, inf], random Jacobian, bias and warm
// start) added before its rows (first) or after them.
static void with_rods(const cs_lcp* src, cs_lcp* dst, int rods, bool first)
{
    cs_error err;
    int rows = src->row_count + rods, shift = first ? rods : 0;
    assert_true(rows <= MAXR);
    assert_int_equal(cs_lcp_copy(dst, src, &err), CS_OK);
    assert_int_equal(cs_lcp_reserve(dst, src->body_count, rows, &err), CS_OK);
    dst->row_count = rows;
    for (int i = src->row_count - 1; i >= 0; --i) // the contact rows, moved down by shift
    {
        int k = i + shift;
        dst->body_a[k] = src->body_a[i];
        dst->body_b[k] = src->body_b[i];
        memcpy(dst->jac + 6 * k, src->jac + 6 * i, 6 * sizeof(double));
        dst->bias[k] = src->bias[i];
        dst->kind[k] = src->kind[i];
        dst->link[k] = src->link[i] >= 0 ? src->link[i] + shift : -1;
        dst->mu[k] = src->mu[i];
        dst->lo[k] = src->lo[i];
        dst->hi[k] = src->hi[i];
        dst->lambda0[k] = src->lambda0[i];
    }
    for (int r = 0; r < rods; ++r)
    {
        int k = first ? r : src->row_count + r, a = rng_int(src->body_count);
        int b = src->body_count > 1 && rng_int(2) == 0 ? (a + 1) % src->body_count : -1; // -1: the world
        double jac[6];
        for (int j = 0; j < 6; ++j)
        {
            jac[j] = j < 3 || b >= 0 ? rng_uniform(-1.0, 1.0) : 0.0;
        }
        cs_lcp_set_contact_row(dst, k, a, b, jac, rng_uniform(-0.5, 0.5), -1, 0.0, rng_uniform(-0.5, 0.5));
        dst->kind[k] = CS_ROW_BOX;
        dst->lo[k] = -INFINITY;
        dst->hi[k] = INFINITY;
    }
}

// Rows in FCLIB order (each normal row, then its friction row; then the rod rows, FCLIB's G columns) with
// their FCLIB column (G's numbered after H's).
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
    for (int i = 0, k = 0; i < p->row_count; ++i)
    {
        if (p->kind[i] == CS_ROW_BOX)
        {
            rows[n] = i;
            cols[n++] = 2 * contact + k++;
        }
    }
    return n;
}

// q, read from an FCLIB file of r written without /circlesim, is r's problem in FCLIB order (contacts, each
// normal row then its friction row, then the rods): the same kinds, bounds, warm start (FCLIB's initial
// guess), friction, and the same A and q to rounding (inverse masses come back as 1/M, v* as f/M).
static void assert_same_in_fclib_order(const cs_lcp* r, const cs_lcp* q)
{
    int rows[MAXR], cols[MAXR];
    int n = fclib_order(r, rows, cols);
    assert_int_equal(q->row_count, n);
    double A[MAXR][MAXR], b[MAXR], A2[MAXR][MAXR], b2[MAXR];
    dense_problem(r, A, b);
    dense_problem(q, A2, b2);
    for (int i = 0; i < n; ++i)
    {
        assert_int_equal(q->kind[i], r->kind[rows[i]]);
        assert_true(q->kind[i] != CS_ROW_BOX || (q->lo[i] == -INFINITY && q->hi[i] == INFINITY));
        assert_true(q->lambda0[i] == r->lambda0[rows[i]]);
        assert_near(b2[i], b[rows[i]], 1e-14 * (1.0 + fabs(b[rows[i]])));
        for (int j = 0; j < n; ++j)
        {
            assert_near(A2[i][j], A[rows[i]][rows[j]], 1e-14 * (1.0 + fabs(A[rows[i]][rows[j]])));
        }
        if (q->kind[i] == CS_ROW_FRICTION)
        {
            assert_int_equal(q->link[i], i - 1);
            assert_true(q->mu[i] == r->mu[rows[i]]);
        }
    }
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
        assert_same_in_fclib_order(&r, &q);
        cs_lcp_free(&p);
        cs_lcp_free(&r);
        cs_lcp_free(&q);
    }
}

// Joints (issue 17): rod rows go to FCLIB's global form as G (Jᵀ of the rows) and b (their bias), their
// warm start as the guess's l; the local form, which has no equalities, is then not written. With
// /circlesim the round trip is bit for bit wherever the rods sit; without it the rods come back after the
// contacts with the same A and q to rounding (test_fclib_alone_same_problem's check, rods included).
static void test_joints_as_g_and_b(void** state)
{
    (void)state;
    for (int trial = 0; trial < 30; ++trial)
    {
        cs_lcp p = {0}, j = {0}, q = {0};
        cs_error err = {0};
        random_contacts_any(&p, 1 + rng_int(MAXB), 1 + rng_int(2), trial % 2 == 0);
        int rods = 1 + rng_int(3);
        with_rods(&p, &j, rods, trial % 4 < 2);
        snprintf(j.name, sizeof j.name, "joints-%d", trial);
        round_trip(&j);
        const char* path = cs_test_temp_path(".hdf5");
        assert_int_equal(cs_lcp_write_fclib(&j, path, trial % 3 == 0, &err), CS_OK);
        struct fclib_global* g = fclib_read_global(path);
        assert_non_null(g);
        assert_non_null(g->G);
        assert_int_equal(g->G->n, rods);
        assert_int_equal(g->G->m, 3 * j.body_count);
        int rows[MAXR], cols[MAXR], n = fclib_order(&j, rows, cols);
        for (int k = 0; k < n; ++k)
        {
            if (cols[k] >= g->H->n) // b = the rod's bias; Gᵀ v* = J v* (the velocity part of q)
            {
                int c = cols[k] - g->H->n, i = rows[k];
                assert_true(g->b[c] == j.bias[i]);
                double gv = 0.0, jv = 0.0;
                for (int e = g->G->p[c]; e < g->G->p[c + 1]; ++e)
                {
                    gv += g->G->x[e] * j.v[g->G->i[e]];
                }
                for (int side = 0; side < 2; ++side)
                {
                    int body = side == 0 ? j.body_a[i] : j.body_b[i];
                    for (int d = 0; body >= 0 && d < 3; ++d)
                    {
                        jv += j.jac[6 * i + 3 * side + d] * j.v[3 * body + d];
                    }
                }
                assert_near(gv, jv, 1e-14 * (1.0 + fabs(jv)));
            }
        }
        fclib_delete_global(g);
        free(g);
        hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        assert_true(file >= 0);
        assert_true(H5Lexists(file, "/fclib_local", H5P_DEFAULT) == 0);
        H5Fclose(file);
        if (trial % 3 != 0) // FCLIB data alone: same problem, rods after the contacts
        {
            assert_int_equal(cs_lcp_load(path, &q, &err), CS_OK);
            assert_same_in_fclib_order(&j, &q);
        }
        cs_lcp_free(&p);
        cs_lcp_free(&j);
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
    assert_non_null(strstr(err.message, "a two-sided box): FCLIB has bilateral rows (G, b) and contacts"));
    p.lo[1] = -INFINITY; // a rod (issue 17): FCLIB's G, b (test_joints_as_g_and_b)
    p.hi[1] = INFINITY;
    assert_int_equal(cs_lcp_write_fclib(&p, cs_test_temp_path(".hdf5"), true, &err), CS_OK);
    p.hi[1] = 0.0; // a rope: a one-sided multiplier FCLIB has no place for, said, never dropped
    assert_int_equal(cs_lcp_write_fclib(&p, cs_test_temp_path(".hdf5"), true, &err), CS_ERR_VALUE);
    assert_non_null(
        strstr(err.message, "row 1 is a fixed-box row (kind c, [-inf, 0]: one-sided, a rope joint)"));
    p.hi[1] = INFINITY;
    assert_int_equal(cs_lcp_reserve_reg(&p, true, &err), CS_OK);
    p.reg[1] = 1e-3; // a spring: SPOOK's regularisation
    assert_int_equal(cs_lcp_write_fclib(&p, cs_test_temp_path(".hdf5"), true, &err), CS_ERR_VALUE);
    assert_non_null(strstr(err.message, "row 1 is regularised (reg 0.001, SPOOK)"));
    assert_int_equal(cs_lcp_reserve_reg(&p, false, &err), CS_OK);
    p.row_count = 1; // joints alone: libfclib would end the process on a problem without contacts
    p.kind[0] = CS_ROW_BOX;
    p.lo[0] = -INFINITY;
    p.hi[0] = INFINITY;
    const char* none = cs_test_temp_path(".hdf5");
    assert_int_equal(cs_lcp_write_fclib(&p, none, true, &err), CS_ERR_VALUE);
    assert_non_null(strstr(err.message, "no contact rows (1 joint rows)"));
    assert_int_equal(access(none, F_OK), -1);
    p.row_count = 2;
    p.kind[0] = CS_ROW_NORMAL;
    p.lo[0] = 0.0;
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
    cs_test_cli_expect(cmd, 0, "rows out of FCLIB order: friction not right after its normal row");
    cs_lcp_free(&r);
    // Newton's cradle at step 10: five rods (G, b) and the balls' contacts. Solve and info read the FCLIB
    // file as the .lcp it came from.
    const char* cradle = cs_test_temp_path(".lcp");
    snprintf(cmd, sizeof cmd, "run %s --steps 10 --quiet --dump-lcp 10:%s",
             cs_test_source_path("scenes/cradle.json"), cradle);
    cs_test_cli_expect(cmd, 0, "");
    const char* cradle_h5 = cs_test_temp_path(".hdf5");
    snprintf(cmd, sizeof cmd, "lcp export %s --fclib %s", cradle, cradle_h5);
    cs_test_cli_expect(cmd, 0, "");
    for (int k = 0; k < 2; ++k)
    {
        const char* verb =
            k == 0 ? "solve %s --solver lemke | cut -d' ' -f1-3" : "info %s | grep -v '^file='";
        char line[256];
        snprintf(line, sizeof line, "%%s/circlesim-cli lcp %s", verb);
        snprintf(cmd, sizeof cmd, line, CS_BINARY_DIR, cradle);
        assert_int_equal(cs_test_run(cmd, out1, sizeof out1), 0);
        snprintf(cmd, sizeof cmd, line, CS_BINARY_DIR, cradle_h5);
        assert_int_equal(cs_test_run(cmd, out2, sizeof out2), 0);
        assert_string_equal(out1, out2);
        assert_non_null(strstr(out1, k == 0 ? "res_nat" : "rows_box=5"));
    }
    // The heavy chain is joints alone, the bridge hangs on ropes: refused, the reason named, no file.
    const char* chain = cs_test_temp_path(".lcp");
    snprintf(cmd, sizeof cmd, "run %s --steps 1 --quiet --dump-lcp 1:%s",
             cs_test_source_path("scenes/chain.json"), chain);
    cs_test_cli_expect(cmd, 0, "");
    const char* chain_h5 = cs_test_temp_path(".hdf5");
    snprintf(cmd, sizeof cmd, "lcp export %s --fclib %s", chain, chain_h5);
    cs_test_cli_expect(cmd, 1, "no contact rows (11 joint rows)");
    assert_int_equal(access(chain_h5, F_OK), -1);
    const char* bridge = cs_test_temp_path(".lcp");
    snprintf(cmd, sizeof cmd, "run %s --steps 1 --quiet --dump-lcp 1:%s",
             cs_test_source_path("scenes/bridge.json"), bridge);
    cs_test_cli_expect(cmd, 0, "");
    snprintf(cmd, sizeof cmd, "lcp export %s --fclib %s", bridge, chain_h5);
    cs_test_cli_expect(cmd, 1, "(kind c, [-inf, 0]: one-sided, a rope joint)");
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
        cmocka_unit_test(test_round_trip_exact),    cmocka_unit_test(test_fclib_alone_same_problem),
        cmocka_unit_test(test_joints_as_g_and_b),   cmocka_unit_test(test_local_form_is_w_q),
        cmocka_unit_test(test_rejects_with_reason), cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
