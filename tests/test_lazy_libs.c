// CHOLMOD (with LAPACK, BLAS and OpenBLAS) and FCLIB (with HDF5) are loaded on first use, not at program
// start (src/core/lazy_lib.h): a program linked like the CLI starts without them; pgs-sm with CHOLMOD loads
// CHOLMOD and the FCLIB writer loads FCLIB, and both then work; and BLAS stays on one thread, so no
// OpenBLAS worker spins beside circlesim (issue 12: it took ~0.1 s of system time per run and competed
// for the core circlesim's own second thread runs on).
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/lcp_fclib.h"
#include "core/lazy_lib.h"
#include "solver_fixtures.h"

// The threads of this process (/proc/self/task).
static int thread_count(void)
{
    DIR* d = opendir("/proc/self/task");
    assert_non_null(d);
    int n = 0;
    for (struct dirent* e = readdir(d); e != NULL; e = readdir(d))
    {
        n += e->d_name[0] != '.';
    }
    closedir(d);
    return n;
}

// Whether a library whose file name contains `part` is mapped into this process.
static bool mapped(const char* part)
{
    FILE* f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f) != NULL)
    {
        found = strstr(line, part) != NULL;
    }
    fclose(f);
    return found;
}

static void nothing_loaded_at_start(void** state)
{
    (void)state;
    assert_false(cs_lazy_is_loaded(cs_cholmod_soname));
    assert_false(cs_lazy_is_loaded(cs_fclib_soname));
    const char* heavy[] = {"libcholmod", "libblas", "liblapack", "libopenblas",
                           "libfclib",   "libhdf5", "libcurl"};
    for (size_t k = 0; k < sizeof heavy / sizeof heavy[0]; ++k)
    {
        if (mapped(heavy[k]))
        {
            fail_msg("%s is loaded at program start", heavy[k]);
        }
    }
    assert_int_equal(thread_count(), 1);
}

static void cholmod_on_first_use_blas_one_thread(void** state)
{
    (void)state;
    // As a user's shell has it (empty: OpenBLAS's default, all cores): the library must set it itself.
    setenv("OPENBLAS_NUM_THREADS", "", 1);
    cs_lcp p = {0};
    cs_test_frozen_scene("scenes/pool1.json", 300, true, &p);
    cs_solver_params params = cs_solver_params_default();
    params.subspace_solver = CS_SUBSPACE_CHOLMOD;
    params.iterations = 5;
    cs_solver_work work = {0};
    double* lambda = calloc((size_t)p.row_count, sizeof(double));
    assert_non_null(lambda);
    cs_solver_stats stats = {0};
    cs_error err = {0};
    assert_int_equal(cs_solve(&p, cs_solver_find("pgs-sm"), &params, &work, lambda, &stats, &err), CS_OK);
    assert_true(stats.subspace.solves > 0);
    assert_int_equal(stats.subspace.failed, 0);
    assert_true(cs_lazy_is_loaded(cs_cholmod_soname));
    // OpenBLAS came with CHOLMOD; its constructor read the setting and started no worker thread.
    assert_true(mapped("libopenblas") || mapped("libblas"));
    const char* blas_threads = getenv("OPENBLAS_NUM_THREADS");
    assert_non_null(blas_threads);
    assert_string_equal(blas_threads, "1");
    assert_int_equal(thread_count(), 1);
    free(lambda);
    cs_solver_work_free(&work);
    cs_lcp_free(&p);
}

static void fclib_on_first_use(void** state)
{
    (void)state;
    cs_lcp p = {0}, back = {0};
    cs_test_frozen_scene("scenes/pool1.json", 50, true, &p);
    const char* path = cs_test_temp_path(".hdf5");
    cs_error err = {0};
    assert_int_equal(cs_lcp_write_fclib(&p, path, true, &err), CS_OK);
    assert_true(cs_lazy_is_loaded(cs_fclib_soname));
    assert_int_equal(cs_lcp_read_fclib(path, &back, &err), CS_OK);
    assert_int_equal(back.row_count, p.row_count);
    remove(path);
    cs_lcp_free(&back);
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_loaded_at_start), // (first: nothing else has run yet)
        cmocka_unit_test(cholmod_on_first_use_blas_one_thread),
        cmocka_unit_test(fclib_on_first_use),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
