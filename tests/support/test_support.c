#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "solver/fuse.h"
#include "solver/split.h"

const char* cs_test_source_path(const char* relative)
{
    static char buffer[4096];
    snprintf(buffer, sizeof buffer, "%s/%s", CS_SOURCE_DIR, relative);
    return buffer;
}

const char* cs_test_temp_path(const char* suffix)
{
    static char ring[8][4096];
    static int next = 0;
    static int counter = 0;
    char* buffer = ring[next];
    next = (next + 1) % 8;
    snprintf(buffer, 4096, "%s/test-tmp/%d-%d%s", CS_BINARY_DIR, (int)getpid(), counter++, suffix);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/test-tmp", CS_BINARY_DIR);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd) != 0)
    {
        fprintf(stderr, "cannot create %s\n", dir);
    }
    return buffer;
}

const char* cs_test_write_temp(const char* suffix, const char* text)
{
    const char* path = cs_test_temp_path(suffix);
    FILE* f = fopen(path, "wb");
    if (f == NULL)
    {
        return NULL;
    }
    fputs(text, f);
    fclose(f);
    return path;
}

size_t cs_test_read_text(const char* path, char* text, size_t size)
{
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        fail_msg("%s: cannot open", path);
    }
    size_t length = fread(text, 1, size - 1, f);
    bool whole = length < size - 1 && feof(f);
    fclose(f);
    if (!whole)
    {
        fail_msg("%s: cannot read, or larger than %zu bytes", path, size - 1);
    }
    text[length] = '\0';
    return length;
}

int cs_test_run(const char* command, char* out, size_t out_size)
{
    char full[8192];
    snprintf(full, sizeof full, "%s 2>&1", command);
    FILE* p = popen(full, "r");
    if (p == NULL)
    {
        return -1;
    }
    size_t used = 0;
    if (out != NULL && out_size > 0)
    {
        out[0] = '\0';
    }
    char chunk[1024];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
    {
        if (out != NULL && used + 1 < out_size)
        {
            size_t room = out_size - 1 - used;
            size_t take = n < room ? n : room;
            memcpy(out + used, chunk, take);
            used += take;
            out[used] = '\0';
        }
    }
    int status = pclose(p);
    if (WIFEXITED(status))
    {
        return WEXITSTATUS(status);
    }
    return -1;
}

void cs_test_init(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
}

int cs_test_add_disc(cs_world* w, cs_vec2 x, cs_vec2 v, double omega, double r, double m, double mu, double e)
{
    cs_circle_def c = cs_circle_def_default();
    c.position = x;
    c.velocity = v;
    c.angular_velocity = omega;
    c.radius = r;
    c.mass = m;
    c.friction = mu;
    c.restitution = e;
    cs_error err;
    int id = cs_world_add_circle(w, &c, &err);
    assert_true(id >= 0);
    return id;
}

int cs_test_join(cs_world* w, int a, int b, cs_vec2 anchor_a, double length, bool rope)
{
    cs_distance_joint_def j = cs_distance_joint_def_default();
    j.body_a = a;
    j.body_b = b;
    j.local_anchor_a = anchor_a;
    j.length = length;
    j.rope = rope;
    cs_error err;
    int index = cs_world_add_distance_joint(w, &j, &err);
    if (index < 0)
    {
        fail_msg("%s", err.message);
    }
    return index;
}

void cs_test_frozen_scene(const char* scene, int steps, bool friction, cs_lcp* out)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_scene_load(cs_test_source_path(scene), NULL, &err);
    if (w == NULL)
    {
        fail_msg("%s: %s", scene, err.message);
    }
    cs_world_set_frictionless(w, !friction);
    for (int s = 0; s < steps; ++s)
    {
        assert_int_equal(cs_world_step(w), CS_OK);
    }
    assert_int_equal(cs_lcp_copy(out, cs_world_last_problem(w), &err), CS_OK);
    cs_world_destroy(w);
}

cs_world* cs_test_pool(int count, int columns)
{
    cs_world_def def = cs_world_def_default();
    return cs_test_pool_def(count, columns, &def);
}

cs_vec2 cs_test_pool_position(int i, int columns)
{
    double half = 0.5 * (columns * 0.44 + 0.28);
    int row = i / columns, k = i % columns;
    return (cs_vec2){-half + 0.25 + k * 0.44 + ((row & 1) != 0 ? 0.22 : 0.0), 0.22 + row * 0.45};
}

cs_world* cs_test_pool_def(int count, int columns, const cs_world_def* def)
{
    cs_error err = {CS_OK, ""};
    cs_world* w = cs_world_create(def, &err);
    assert_non_null(w);
    double half = 0.5 * (columns * 0.44 + 0.28);
    cs_vec2 o = {0.0, 0.0}, up = {0.0, 1.0}, l = {-half, 0.0}, right = {1.0, 0.0}, r = {half, 0.0},
            left = {-1.0, 0.0};
    assert_true(cs_world_add_half_plane(w, o, up, 0.1, 0.2, &err) >= 0);
    assert_true(cs_world_add_half_plane(w, l, right, 0.1, 0.2, &err) >= 0);
    assert_true(cs_world_add_half_plane(w, r, left, 0.1, 0.2, &err) >= 0);
    cs_circle_def d = cs_circle_def_default();
    d.radius = 0.21;
    d.mass = 2.0;
    for (int i = 0; i < count; ++i)
    {
        d.position = cs_test_pool_position(i, columns);
        assert_true(cs_world_add_circle(w, &d, &err) >= 0);
    }
    return w;
}

void cs_test_cli_expect(const char* args, int code, const char* expected)
{
    char cmd[4096], out[8192];
    snprintf(cmd, sizeof cmd, "%s/circlesim-cli %s", CS_BINARY_DIR, args);
    int got = cs_test_run(cmd, out, sizeof out);
    if (got != code || strstr(out, expected) == NULL)
    {
        fail_msg("'circlesim-cli %s' exited %d with '%s' (expected %d and '%s')", args, got, out, code,
                 expected);
    }
}

cs_world* cs_test_ground_world(void)
{
    cs_world_def def = cs_world_def_default();
    cs_error err;
    cs_world* w = cs_world_create(&def, &err);
    assert_non_null(w);
    assert_true(cs_world_add_half_plane(w, (cs_vec2){0, 0}, (cs_vec2){0, 1}, 0.1, 0.0, &err) >= 0);
    return w;
}

int cs_test_add(cs_world* w, cs_body_type type, double x, double y, double r, double m)
{
    cs_circle_def c = cs_circle_def_default();
    c.type = type;
    c.position = (cs_vec2){x, y};
    c.radius = r;
    c.mass = m;
    cs_error err;
    int id = cs_world_add_circle(w, &c, &err);
    if (id < 0)
    {
        fail_msg("cs_world_add_circle: %s", err.message);
    }
    return id;
}

static void assert_same_bits(const void* a, const void* b, size_t bytes)
{
    assert_int_equal(memcmp(a, b, bytes), 0);
}

void cs_test_assert_problems_equal(const cs_lcp* a, const cs_lcp* b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->body_count, b->body_count);
    assert_int_equal(a->row_count, b->row_count);
    size_t nb = (size_t)a->body_count, nr = (size_t)a->row_count;
    assert_same_bits(a->inv_mass, b->inv_mass, nb * sizeof(double));
    assert_same_bits(a->inv_inertia, b->inv_inertia, nb * sizeof(double));
    assert_same_bits(a->v, b->v, 3 * nb * sizeof(double));
    assert_same_bits(a->body_a, b->body_a, nr * sizeof(int));
    assert_same_bits(a->body_b, b->body_b, nr * sizeof(int));
    assert_same_bits(a->jac, b->jac, 6 * nr * sizeof(double));
    assert_same_bits(a->bias, b->bias, nr * sizeof(double));
    assert_same_bits(a->kind, b->kind, nr);
    assert_same_bits(a->link, b->link, nr * sizeof(int));
    assert_same_bits(a->mu, b->mu, nr * sizeof(double));
    assert_same_bits(a->lambda0, b->lambda0, nr * sizeof(double));
    for (size_t i = 0; i < nr; ++i)
    {
        if (a->kind[i] == CS_ROW_BOX)
        {
            assert_same_bits(&a->lo[i], &b->lo[i], sizeof(double));
            assert_same_bits(&a->hi[i], &b->hi[i], sizeof(double));
        }
        // The regularisation, absent (NULL) meaning 0 on every row.
        double ra = a->reg != NULL ? a->reg[i] : 0.0, rb = b->reg != NULL ? b->reg[i] : 0.0;
        assert_same_bits(&ra, &rb, sizeof(double));
    }
}

static int saved_fuse_min_rows, saved_split_own_min_rows;

int cs_test_save_sweep_knobs(void** state)
{
    (void)state;
    saved_fuse_min_rows = cs_fuse_min_rows;
    saved_split_own_min_rows = cs_split_own_min_rows;
    return 0;
}

int cs_test_restore_sweep_knobs(void** state)
{
    (void)state;
    cs_fuse_min_rows = saved_fuse_min_rows;
    cs_split_own_min_rows = saved_split_own_min_rows;
    return 0;
}
