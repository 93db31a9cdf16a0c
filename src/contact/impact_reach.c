// The restitution pass's reach (impact_reach.h): union-find over the step's links, and the list of the
// contacts in the components that hold an impact, in key order.
#include "contact/impact_reach.h"

#include "core/union_find.h"

#include <string.h>

static inline bool dynamic(const double* inv_mass, int body)
{
    return body >= 0 && inv_mass[body] > 0.0;
}

// A link: two dynamic bodies held together by a load, by touching (a row at gap 0 acts on any approach) or
// by a bounce. A speculative contact that carries nothing links nothing until it acts (cs_reach_link).
static bool links(const cs_contact* c, const double* inv_mass)
{
    return dynamic(inv_mass, c->a) && dynamic(inv_mass, c->b) &&
           (c->normal_impulse > 0.0 || c->gap <= 0.0 || c->bounce);
}

static inline bool reached(const cs_impact_reach* r, int root)
{
    return root >= 0 && (r->flags[root] & CS_REACH_REACHED) != 0;
}

void cs_reach_begin(cs_impact_reach* r, const cs_contact* contacts, int count, const double* inv_mass)
{
    int n = r->body_count;
    for (int i = 0; i < n; ++i)
    {
        r->parent[i] = i;
        r->flags[i] = 0;
    }
    for (int k = 0; k < count; ++k)
    {
        if (links(contacts + k, inv_mass))
        {
            cs_uf_unite(r->parent, contacts[k].a, contacts[k].b);
        }
    }
    // Every parent made its root, in one ascending pass: a union hangs the higher root under the lower
    // and path halving only lowers a parent, so parent[i] <= i, and the parent of i is a root by the time i
    // is reached. (The same roots as finding each contact's: a component's lowest body.)
    for (int i = 0; i < n; ++i)
    {
        r->parent[i] = r->parent[r->parent[i]];
    }
    // The roots of each contact's dynamic bodies; a contact without one has b's own (its own bounce
    // reaches it).
    for (int k = 0; k < count; ++k)
    {
        const cs_contact* c = contacts + k;
        bool da = dynamic(inv_mass, c->a), db = dynamic(inv_mass, c->b);
        r->roots[2 * k] = da ? r->parent[c->a] : -1;
        r->roots[2 * k + 1] = db || !da ? r->parent[c->b] : -1;
    }
    memset(r->listed, 0, (size_t)count);
    r->count = 0;
    r->grown = false;
}

void cs_reach_seed(cs_impact_reach* r, int k)
{
    int root = r->roots[2 * k + 1] >= 0 ? r->roots[2 * k + 1] : r->roots[2 * k];
    r->flags[root] |= CS_REACH_REACHED;
}

void cs_reach_link(cs_impact_reach* r, int k)
{
    for (int side = 0; side < 2; ++side)
    {
        int root = r->roots[2 * k + side];
        if (!reached(r, root))
        {
            r->flags[root] |= CS_REACH_REACHED;
            r->grown = true;
        }
    }
}

void cs_reach_rebuild(cs_impact_reach* r, int count)
{
    int n = 0, fresh = 0;
    int* built = r->spare;
    for (int k = 0; k < count; ++k)
    {
        int ra = r->roots[2 * k], rb = r->roots[2 * k + 1];
        if (!reached(r, ra) && !reached(r, rb))
        {
            continue;
        }
        if (!r->listed[k]) // (a component once reached stays: the list only grows)
        {
            r->listed[k] = 1;
            built[count + fresh++] = k; // (after the list: it holds count entries at most)
        }
        bool edge = ra >= 0 && rb >= 0 && ra != rb;
        built[n++] = k << 1 | (edge ? CS_REACH_EDGE : 0);
    }
    r->spare = r->list;
    r->list = built;
    r->count = n;
    r->fresh = built + count;
    r->fresh_count = fresh;
    r->grown = false;
}
