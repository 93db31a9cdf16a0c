// A restitution reach (contact/impact_reach.h) over zeroed heap arrays sized as the world sizes them, for the
// tests that drive the reach or the pass by hand (test_reach_list, test_restitution_pack).
#ifndef CS_TEST_REACH_H
#define CS_TEST_REACH_H

#include <stdlib.h>

#include "contact/impact_reach.h"

static inline cs_impact_reach cs_test_reach(int bodies, int contacts)
{
    size_t b = (size_t)bodies, c = (size_t)contacts;
    cs_impact_reach r = {.body_count = bodies,
                         .parent = calloc(b, sizeof(int)),
                         .flags = calloc(b, 1),
                         .roots = calloc(2 * c, sizeof(int)),
                         .list = calloc(2 * c, sizeof(int)),
                         .spare = calloc(2 * c, sizeof(int)),
                         .next = calloc(2 * c, sizeof(int)),
                         .listed = calloc(c, 1)};
    assert_true(r.parent && r.flags && r.roots && r.list && r.spare && r.next && r.listed);
    return r;
}

static inline void cs_test_reach_free(cs_impact_reach* r)
{
    free(r->parent);
    free(r->flags);
    free(r->roots);
    free(r->list);
    free(r->spare);
    free(r->next);
    free(r->listed);
}

#endif
