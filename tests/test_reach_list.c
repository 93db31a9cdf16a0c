// The restitution pass's reach (contact/impact_reach.c): on random contact sets, the roots cs_reach_begin
// gives each contact are its component's lowest body (as union-find with a find per contact gives them), and
// every list cs_reach_rebuild builds — the seeds' by a scan, each grown one from the components the sweep
// reached — is every contact of a reached component in key order, edge flags right, with the contacts that
// joined it as fresh.
#include "test_support.h"

#include "contact/impact_reach.h"
#include "core/union_find.h"
#include "test_reach.h"

#include <stdlib.h>
#include <string.h>

#define BODIES   60
#define CONTACTS 150

static uint64_t rng = 0x2545f4914f6cdd1dull;

static int below(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

static int compare_keys(const void* x, const void* y)
{
    uint64_t a = *(const uint64_t*)x, b = *(const uint64_t*)y;
    return (a > b) - (a < b);
}

// Random contacts in key order (a < b, walls first), some linking (load, touching or bouncing), some not;
// bodies of zero inverse mass (static) link nothing.
static void make_contacts(cs_contact* c, double* inv_mass)
{
    for (int i = 0; i < BODIES; ++i)
    {
        inv_mass[i] = below(8) == 0 ? 0.0 : 1.0;
    }
    uint64_t keys[CONTACTS];
    for (int k = 0; k < CONTACTS; ++k)
    {
        int a = below(6) == 0 ? -1 : below(BODIES), b = below(BODIES);
        if (a == b)
        {
            b = (b + 1) % BODIES;
        }
        if (a > b)
        {
            int t = a;
            a = b;
            b = t;
        }
        keys[k] = (uint64_t)(a + 1) << 32 | (uint64_t)b;
    }
    qsort(keys, CONTACTS, sizeof keys[0], compare_keys);
    for (int k = 0; k < CONTACTS; ++k)
    {
        memset(c + k, 0, sizeof c[k]);
        c[k].a = (int)(keys[k] >> 32) - 1;
        c[k].b = (int)(keys[k] & 0xffffffffu);
        c[k].gap = below(3) == 0 ? 0.0 : 0.01;
        c[k].normal_impulse = below(4) == 0 ? 1.0 : 0.0;
        c[k].bounce = below(10) == 0;
    }
}

static bool dynamic(const double* inv_mass, int body)
{
    return body >= 0 && inv_mass[body] > 0.0;
}

// The list cs_reach_rebuild must hold now: every contact with a reached root, in key order.
static void check_list(const cs_impact_reach* r, const bool* was_listed)
{
    int n = 0, fresh = 0;
    for (int k = 0; k < CONTACTS; ++k)
    {
        int ra = r->roots[2 * k], rb = r->roots[2 * k + 1];
        bool in =
            (ra >= 0 && (r->flags[ra] & CS_REACH_REACHED)) || (rb >= 0 && (r->flags[rb] & CS_REACH_REACHED));
        if (!in)
        {
            continue;
        }
        bool edge = ra >= 0 && rb >= 0 && ra != rb;
        assert_int_equal(r->list[n++], k << 1 | (edge ? CS_REACH_EDGE : 0));
        if (!was_listed[k])
        {
            assert_int_equal(r->fresh[fresh++], k);
        }
    }
    assert_int_equal(r->count, n);
    assert_int_equal(r->fresh_count, fresh);
}

static void lists_are_the_reached_components(void** state)
{
    (void)state;
    static int expect_parent[BODIES];
    cs_impact_reach storage = cs_test_reach(BODIES, CONTACTS);
    cs_contact contacts[CONTACTS];
    double inv_mass[BODIES];
    int grown_lists = 0;
    for (int trial = 0; trial < 200; ++trial)
    {
        make_contacts(contacts, inv_mass);
        cs_impact_reach r = storage; // (every trial starts from a reach that has built nothing)
        cs_reach_begin(&r, contacts, CONTACTS, inv_mass);
        // The roots: each dynamic body's component's lowest body, found the long way.
        for (int i = 0; i < BODIES; ++i)
        {
            expect_parent[i] = i;
        }
        for (int k = 0; k < CONTACTS; ++k)
        {
            const cs_contact* c = contacts + k;
            if (dynamic(inv_mass, c->a) && dynamic(inv_mass, c->b) &&
                (c->normal_impulse > 0.0 || c->gap <= 0.0 || c->bounce))
            {
                cs_uf_unite(expect_parent, c->a, c->b);
            }
        }
        for (int k = 0; k < CONTACTS; ++k)
        {
            const cs_contact* c = contacts + k;
            bool da = dynamic(inv_mass, c->a), db = dynamic(inv_mass, c->b);
            assert_int_equal(r.roots[2 * k], da ? cs_uf_find(expect_parent, c->a) : -1);
            assert_int_equal(r.roots[2 * k + 1], db || !da ? cs_uf_find(expect_parent, c->b) : -1);
        }
        // Seeds, then sweeps that reach more components through edge contacts.
        bool was_listed[CONTACTS] = {false};
        for (int s = 0; s < 1 + below(3); ++s)
        {
            cs_reach_seed(&r, below(CONTACTS));
        }
        cs_reach_rebuild(&r, CONTACTS);
        check_list(&r, was_listed);
        for (int sweep = 0; sweep < 4; ++sweep)
        {
            memset(was_listed, 0, sizeof was_listed);
            for (int i = 0; i < r.count; ++i)
            {
                was_listed[r.list[i] >> 1] = true;
            }
            for (int i = 0; i < r.count; ++i)
            {
                if ((r.list[i] & CS_REACH_EDGE) != 0 && below(3) == 0)
                {
                    cs_reach_link(&r, r.list[i] >> 1);
                }
            }
            if (r.grown)
            {
                cs_reach_rebuild(&r, CONTACTS);
                check_list(&r, was_listed);
                grown_lists += 1;
            }
        }
    }
    cs_test_reach_free(&storage);
    print_message("%d grown lists checked\n", grown_lists);
    assert_true(grown_lists > 100);
}

int main(void)
{
    cs_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_are_the_reached_components),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
