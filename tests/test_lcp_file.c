// LCP files (shared LCP-FORMAT.md): bit-exact round trips, and one rejection per malformed kind,
// each checked to name the offending line. Also the row view's storage (reserve, copy, bounds).
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

static double rng_uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng_next() >> 11) / 9007199254740992.0);
}

static int rng_int(int n)
{
    return (int)(rng_next() % (uint64_t)n);
}

// A double that exercises %.17g: wide exponents, signs, signed zero, subnormals.
static double rng_wild(void)
{
    switch (rng_int(8))
    {
        case 0:
            return -0.0;
        case 1:
            return 4.9406564584124654e-324 * (double)(1 + rng_int(1000));
        case 2:
            return rng_uniform(-1.0, 1.0) * pow(10.0, rng_uniform(-300.0, 300.0));
        default:
            return rng_uniform(-10.0, 10.0);
    }
}

// A random problem with all three kinds, static halves and infinite box bounds.
static void random_problem(cs_lcp* p, int bodies, int rows)
{
    cs_error err;
    assert_int_equal(cs_lcp_reserve(p, bodies, rows, &err), CS_OK);
    snprintf(p->name, sizeof p->name, "random-%d", rng_int(1000));
    p->body_count = bodies;
    p->row_count = rows;
    for (int i = 0; i < bodies; ++i)
    {
        p->inv_mass[i] = fabs(rng_wild());
        p->inv_inertia[i] = rng_int(4) == 0 ? 0.0 : rng_uniform(0.0, 5.0);
        for (int k = 0; k < 3; ++k)
        {
            p->v[3 * i + k] = rng_wild();
        }
    }
    int first_normal = 0;
    for (int i = 0; i < rows; ++i)
    {
        int kind = i == first_normal ? CS_ROW_NORMAL : rng_int(3);
        p->kind[i] = (uint8_t)kind;
        p->body_a[i] = rng_int(bodies + 1) - 1;
        p->body_b[i] = rng_int(bodies + 1) - 1;
        for (int k = 0; k < 6; ++k)
        {
            int body = k < 3 ? p->body_a[i] : p->body_b[i];
            p->jac[6 * i + k] = body < 0 ? 0.0 : rng_wild();
        }
        p->bias[i] = rng_wild();
        p->lambda0[i] = rng_wild();
        p->link[i] = -1;
        p->mu[i] = 0.0;
        p->lo[i] = 0.0;
        p->hi[i] = kind == CS_ROW_NORMAL ? INFINITY : 0.0;
        if (kind == CS_ROW_FRICTION)
        {
            p->link[i] = first_normal;
            p->mu[i] = rng_uniform(0.0, 2.0);
        }
        else if (kind == CS_ROW_BOX)
        {
            double a = rng_wild(), b = rng_wild();
            p->lo[i] = rng_int(3) == 0 ? -INFINITY : fmin(a, b);
            p->hi[i] = rng_int(3) == 0 ? INFINITY : fmax(a, b);
        }
    }
}

static void assert_same_bits(const void* a, const void* b, size_t bytes)
{
    assert_int_equal(memcmp(a, b, bytes), 0);
}

static void test_round_trip_bit_exact(void** state)
{
    (void)state;
    for (int trial = 0; trial < 40; ++trial)
    {
        cs_lcp p = {0}, q = {0};
        cs_error err = {0};
        random_problem(&p, 1 + rng_int(6), 1 + rng_int(20));
        if (trial == 0)
        {
            p.name[0] = '\0'; // the optional name line absent
        }
        const char* path = cs_test_temp_path(".lcp");
        assert_int_equal(cs_lcp_write(&p, path, &err), CS_OK);
        cs_status s = cs_lcp_read(path, &q, &err);
        if (s != CS_OK)
        {
            print_error("%s\n", err.message);
        }
        assert_int_equal(s, CS_OK);
        cs_test_assert_problems_equal(&p, &q);
        // A second generation is the same file (writing is a function of the problem only).
        const char* path2 = cs_test_temp_path(".lcp");
        assert_int_equal(cs_lcp_write(&q, path2, &err), CS_OK);
        char cmd[9000];
        snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", path, path2);
        assert_int_equal(cs_test_run(cmd, NULL, 0), 0);
        cs_lcp_free(&p);
        cs_lcp_free(&q);
    }
}

static void test_solution_round_trip(void** state)
{
    (void)state;
    double lambda[37], back[64];
    for (int i = 0; i < 37; ++i)
    {
        lambda[i] = rng_wild();
    }
    cs_error err = {0};
    const char* path = cs_test_temp_path(".sol");
    assert_int_equal(cs_solution_write(path, lambda, 37, &err), CS_OK);
    int rows = -1;
    assert_int_equal(cs_solution_read(path, back, 64, &rows, &err), CS_OK);
    assert_int_equal(rows, 37);
    assert_same_bits(lambda, back, sizeof lambda);
    // Too small a buffer is an error, not an overflow.
    assert_int_not_equal(cs_solution_read(path, back, 36, &rows, &err), CS_OK);
    // Malformed: a non-number value on line 4.
    const char* bad = cs_test_write_temp(".sol", "circlesim-lcp-solution 1\nrows 2\n1.5\nx\n");
    assert_int_not_equal(cs_solution_read(bad, back, 64, &rows, &err), CS_OK);
    assert_non_null(strstr(err.message, ":4:"));
    // Truncated.
    bad = cs_test_write_temp(".sol", "circlesim-lcp-solution 1\nrows 3\n1.5\n2\n");
    assert_int_not_equal(cs_solution_read(bad, back, 64, &rows, &err), CS_OK);
    assert_non_null(strstr(err.message, "truncated"));
}

// A valid file, one record per line so that a test can replace line L (1-based) and know where
// the reader must point.
static const char* const good_lines[] = {
    "circlesim-lcp 1",                          // 1
    "name sample   # comment",                  // 2
    "bodies 2",                                 // 3
    "1 2 0 -1 0",                               // 4
    "0.5 1 0.25 0 0",                           // 5
    "rows 3",                                   // 6
    "n 0 1  -1 0 0  1 0 0  -0.1 0.5",           // 7
    "f 0 1  0 -1 -0.2  0 1 -0.2  0 0.1  0 0.3", // 8
    "c 0 -1  0 1 0  0 0 0  0 0  -inf 2.5",      // 9
};
enum
{
    GOOD_LINES = (int)(sizeof good_lines / sizeof good_lines[0])
};

// Builds the sample with line `line` replaced by `replacement` (NULL: dropped) and, when `extra`
// is not NULL, a line appended; then reads it and checks rejection with "sample.lcp:LINE:" and
// `reason` in the message.
static void expect_reject(int line, const char* replacement, const char* extra, int error_line,
                          const char* reason)
{
    char text[4096] = "";
    for (int i = 0; i < GOOD_LINES; ++i)
    {
        const char* l = (i + 1 == line) ? replacement : good_lines[i];
        if (l != NULL)
        {
            strcat(text, l);
            strcat(text, "\n");
        }
    }
    if (extra != NULL)
    {
        strcat(text, extra);
        strcat(text, "\n");
    }
    cs_lcp p = {0};
    cs_error err = {0};
    cs_status s = cs_lcp_read_string(text, "sample.lcp", &p, &err);
    char where[64];
    snprintf(where, sizeof where, "sample.lcp:%d: ", error_line);
    if (s == CS_OK || strstr(err.message, where) == NULL || strstr(err.message, reason) == NULL)
    {
        print_error("line %d → status %d, message '%s' (wanted '%s' and '%s')\n", line, (int)s, err.message,
                    where, reason);
        fail();
    }
    cs_lcp_free(&p);
}

static void test_sample_is_valid(void** state)
{
    (void)state;
    char text[4096] = "";
    for (int i = 0; i < GOOD_LINES; ++i)
    {
        strcat(text, good_lines[i]);
        strcat(text, "\n");
    }
    cs_lcp p = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_read_string(text, "sample.lcp", &p, &err), CS_OK);
    assert_string_equal(p.name, "sample");
    assert_int_equal(p.body_count, 2);
    assert_int_equal(p.row_count, 3);
    assert_int_equal(p.kind[1], CS_ROW_FRICTION);
    assert_int_equal(p.link[1], 0);
    assert_true(p.lo[2] == -INFINITY && p.hi[2] == 2.5);
    assert_true(p.bias[0] == -0.1 && p.lambda0[0] == 0.5 && p.mu[1] == 0.3);
    assert_true(p.v[3] == 0.25 && p.inv_mass[1] == 0.5);
    cs_lcp_free(&p);
}

static void test_reject_bad_magic(void** state)
{
    (void)state;
    expect_reject(1, "circlesim-lpc 1", NULL, 1,
                  "bad magic 'circlesim-lpc', expected 'circlesim-lcp 1' ... 'circlesim-lcp 2'");
}

static void test_reject_bad_version(void** state)
{
    (void)state;
    expect_reject(1, "circlesim-lcp 3", NULL, 1, "version");
}

static void test_reject_body_count_too_big(void** state)
{
    (void)state;
    expect_reject(3, "bodies 3", NULL, 6, "counts do not match");
}

static void test_reject_body_count_too_small(void** state)
{
    (void)state;
    expect_reject(3, "bodies 1", NULL, 5, "counts do not match");
}

static void test_reject_row_count_too_big(void** state)
{
    (void)state;
    expect_reject(6, "rows 4", NULL, 9, "truncated");
}

static void test_reject_row_count_too_small(void** state)
{
    (void)state;
    expect_reject(6, "rows 2", NULL, 9, "counts do not match");
}

static void test_reject_body_index_out_of_range(void** state)
{
    (void)state;
    expect_reject(7, "n 0 2  -1 0 0  1 0 0  -0.1 0.5", NULL, 7, "body b");
    expect_reject(7, "n -2 1  -1 0 0  1 0 0  -0.1 0.5", NULL, 7, "body a");
}

static void test_reject_link_not_normal(void** state)
{
    (void)state;
    expect_reject(8, "f 0 1  0 -1 -0.2  0 1 -0.2  0 0.1  2 0.3", NULL, 8, "link 2");
    expect_reject(8, "f 0 1  0 -1 -0.2  0 1 -0.2  0 0.1  1 0.3", NULL, 8, "link 1");
    expect_reject(8, "f 0 1  0 -1 -0.2  0 1 -0.2  0 0.1  7 0.3", NULL, 8, "link");
}

static void test_reject_non_finite(void** state)
{
    (void)state;
    expect_reject(7, "n 0 1  nan 0 0  1 0 0  -0.1 0.5", NULL, 7, "jax");
    expect_reject(7, "n 0 1  -1 0 0  1 0 0  inf 0.5", NULL, 7, "bias");
    expect_reject(5, "0.5 1 0.25 -inf 0", NULL, 5, "vy");
    expect_reject(9, "c 0 -1  0 1 0  0 0 0  0 0  nan 2.5", NULL, 9, "lo");
}

static void test_reject_negative_inverse_mass(void** state)
{
    (void)state;
    expect_reject(4, "-1 2 0 -1 0", NULL, 4, "inv_mass");
    expect_reject(5, "0.5 -1e-9 0.25 0 0", NULL, 5, "inv_inertia");
}

static void test_reject_negative_mu(void** state)
{
    (void)state;
    expect_reject(8, "f 0 1  0 -1 -0.2  0 1 -0.2  0 0.1  0 -0.3", NULL, 8, "mu");
}

static void test_reject_empty_box(void** state)
{
    (void)state;
    expect_reject(9, "c 0 -1  0 1 0  0 0 0  0 0  3 2.5", NULL, 9, "empty box");
    expect_reject(9, "c 0 -1  0 1 0  0 0 0  0 0  inf inf", NULL, 9, "empty box");
}

static void test_reject_trailing_garbage(void** state)
{
    (void)state;
    expect_reject(7, "n 0 1  -1 0 0  1 0 0  -0.1 0.5 extra", NULL, 7, "trailing garbage 'extra'");
    expect_reject(0, NULL, "hello", 10, "trailing garbage");
    expect_reject(4, "1 2 0 -1 0x", NULL, 4, "omega");
}

static void test_reject_unknown_row_letter(void** state)
{
    (void)state;
    expect_reject(7, "x 0 1  -1 0 0  1 0 0  -0.1 0.5", NULL, 7, "unknown row kind 'x'");
}

static void test_reject_truncated(void** state)
{
    (void)state;
    char text[512] = "";
    for (int i = 0; i < 5; ++i)
    {
        strcat(text, good_lines[i]);
        strcat(text, "\n");
    }
    cs_lcp p = {0};
    cs_error err = {0};
    assert_int_not_equal(cs_lcp_read_string(text, "t.lcp", &p, &err), CS_OK);
    assert_non_null(strstr(err.message, "t.lcp:5: "));
    assert_non_null(strstr(err.message, "truncated"));
    // A row line cut short.
    expect_reject(9, "c 0 -1  0 1 0  0 0 0  0 0", NULL, 9, "expected 13 fields");
    // Empty input.
    assert_int_not_equal(cs_lcp_read_string("", "e.lcp", &p, &err), CS_OK);
    assert_non_null(strstr(err.message, "e.lcp:1: "));
    cs_lcp_free(&p);
}

static void test_reject_static_half_with_jacobian(void** state)
{
    (void)state;
    expect_reject(9, "c 0 -1  0 1 0  0 0.5 0  0 0  -inf 2.5", NULL, 9, "static");
}

static void test_missing_file(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    const char* path = "/nonexistent-dir/none.lcp";
    assert_int_equal(cs_lcp_read(path, &p, &err), CS_ERR_IO);
    assert_non_null(strstr(err.message, "/nonexistent-dir/none.lcp: cannot open: "));
}

static void test_reserve_keeps_contents_and_never_shrinks(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    assert_int_equal(cs_lcp_reserve(&p, 3, 5, &err), CS_OK);
    assert_true(p.body_capacity >= 3 && p.row_capacity >= 5);
    for (int i = 0; i < 5; ++i)
    {
        p.bias[i] = i + 0.5;
        p.jac[6 * i + 5] = -i;
    }
    p.v[8] = 42.0;
    int rows_cap = p.row_capacity;
    assert_int_equal(cs_lcp_reserve(&p, 1, 2, &err), CS_OK);
    assert_int_equal(p.row_capacity, rows_cap); // never shrinks
    assert_int_equal(cs_lcp_reserve(&p, 1000, 5000, &err), CS_OK);
    assert_true(p.body_capacity >= 1000 && p.row_capacity >= 5000);
    for (int i = 0; i < 5; ++i)
    {
        assert_true(p.bias[i] == i + 0.5 && p.jac[6 * i + 5] == -i);
    }
    assert_true(p.v[8] == 42.0);
    // Growth is geometric: a sequence of +1 requests reallocates O(log n) times.
    cs_lcp g = {0};
    int changes = 0;
    int last = 0;
    for (int n = 1; n <= 100000; ++n)
    {
        assert_int_equal(cs_lcp_reserve(&g, 0, n, &err), CS_OK);
        changes += g.row_capacity != last;
        last = g.row_capacity;
    }
    assert_true(changes <= 20);
    cs_lcp_free(&g);
    cs_lcp_free(&p);
    assert_null(p.jac);
}

static void test_copy(void** state)
{
    (void)state;
    cs_lcp p = {0}, q = {0};
    cs_error err = {0};
    random_problem(&p, 4, 11);
    assert_int_equal(cs_lcp_copy(&q, &p, &err), CS_OK);
    cs_test_assert_problems_equal(&p, &q);
    assert_ptr_not_equal(p.jac, q.jac);
    cs_lcp_free(&p);
    cs_lcp_free(&q);
}

static void test_bounds(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {0};
    const char* text = "circlesim-lcp 1\nbodies 1\n1 1 0 0 0\nrows 3\n"
                       "n 0 -1 1 0 0 0 0 0 0 0\n"
                       "f 0 -1 0 1 0 0 0 0 0 0 0 0.25\n"
                       "c -1 0 0 0 0 1 1 0 0 0 -3 inf\n";
    assert_int_equal(cs_lcp_read_string(text, "b.lcp", &p, &err), CS_OK);
    double lambda[3] = {2.0, 0.1, 0.0};
    double lo, hi;
    cs_lcp_bounds(&p, lambda, 0, &lo, &hi);
    assert_true(lo == 0.0 && hi == INFINITY);
    cs_lcp_bounds(&p, lambda, 1, &lo, &hi);
    assert_true(lo == -0.5 && hi == 0.5); // mu * λ[link] from the λ passed in
    lambda[0] = 4.0;
    cs_lcp_bounds(&p, lambda, 1, &lo, &hi);
    assert_true(lo == -1.0 && hi == 1.0);
    cs_lcp_bounds(&p, lambda, 2, &lo, &hi);
    assert_true(lo == -3.0 && hi == INFINITY);
    cs_lcp_free(&p);
}

// Every reader has a size limit: a device or a binary file fails at its first NUL byte, a regular file over
// the limit before a byte of it is read (the reader used to read /dev/zero until memory ran out).
static void test_size_limits(void** state)
{
    (void)state;
    cs_lcp p = {0};
    cs_error err = {CS_OK, ""};
    assert_int_equal(cs_lcp_read("/dev/zero", &p, &err), CS_ERR_PARSE);
    assert_non_null(strstr(err.message, "/dev/zero: byte 1 is NUL"));
    assert_int_not_equal(cs_lcp_read("/dev/urandom", &p, &err), CS_OK);
    assert_non_null(strstr(err.message, "/dev/urandom:"));
    double lambda[4];
    int rows = 0;
    assert_int_equal(cs_solution_read("/dev/zero", lambda, 4, &rows, &err), CS_ERR_PARSE);
    // A sparse 300 MiB file (no disk used): refused from its size.
    const char* big = cs_test_temp_path(".lcp");
    FILE* f = fopen(big, "w");
    assert_non_null(f);
    assert_int_equal(fputs("circlesim-lcp 1\n", f) >= 0, 1);
    assert_int_equal(fseek(f, 300L * 1024 * 1024, SEEK_SET), 0);
    assert_int_equal(fputc('\n', f), '\n');
    fclose(f);
    assert_int_equal(cs_lcp_read(big, &p, &err), CS_ERR_IO);
    assert_non_null(strstr(err.message, "larger than 256 MiB"));
    remove(big);
    cs_lcp_free(&p);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_bit_exact),
        cmocka_unit_test(test_solution_round_trip),
        cmocka_unit_test(test_sample_is_valid),
        cmocka_unit_test(test_reject_bad_magic),
        cmocka_unit_test(test_reject_bad_version),
        cmocka_unit_test(test_reject_body_count_too_big),
        cmocka_unit_test(test_reject_body_count_too_small),
        cmocka_unit_test(test_reject_row_count_too_big),
        cmocka_unit_test(test_reject_row_count_too_small),
        cmocka_unit_test(test_reject_body_index_out_of_range),
        cmocka_unit_test(test_reject_link_not_normal),
        cmocka_unit_test(test_reject_non_finite),
        cmocka_unit_test(test_reject_negative_inverse_mass),
        cmocka_unit_test(test_reject_negative_mu),
        cmocka_unit_test(test_reject_empty_box),
        cmocka_unit_test(test_reject_trailing_garbage),
        cmocka_unit_test(test_reject_unknown_row_letter),
        cmocka_unit_test(test_reject_truncated),
        cmocka_unit_test(test_reject_static_half_with_jacobian),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_reserve_keeps_contents_and_never_shrinks),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_size_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
