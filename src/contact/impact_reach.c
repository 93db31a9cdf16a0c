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
    cs_uf_flatten(r->parent, n); // (each body's parent its root: one load a lookup below)
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
    r->members = false;
    r->reached = 0;
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
            r->spare[r->reached++] = root; // (the list's next build starts there: spare is free till then)
        }
    }
}

// The list of the reached components' contacts, by a scan of every contact (the first build).
static void rebuild_by_scan(cs_impact_reach* r, int count)
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
    r->fresh_count = fresh;
    r->count = n;
}

// Each component's contacts, as lists of sides 2k + s threaded through next from the component's first side
// in parent (free after cs_reach_begin: nothing reads the union-find after it), in key order. An edge
// contact is on both its components' lists, any other on one.
static void build_members(cs_impact_reach* r, int count)
{
    int* head = r->parent;
    for (int k = 0; k < 2 * count; ++k)
    {
        if (r->roots[k] >= 0)
        {
            head[r->roots[k]] = -1;
        }
    }
    for (int k = count - 1; k >= 0; --k)
    {
        int ra = r->roots[2 * k], rb = r->roots[2 * k + 1];
        if (rb >= 0)
        {
            r->next[2 * k + 1] = head[rb];
            head[rb] = 2 * k + 1;
        }
        if (ra >= 0 && ra != rb)
        {
            r->next[2 * k] = head[ra];
            head[ra] = 2 * k;
        }
    }
    r->members = true;
}

// The contacts a grown list gathered (fresh, marked 2 in listed) in key order, marked listed (1): one
// component's come in key order, a handful by insertion, more by a look at every contact's mark (no
// allocation in the step: not qsort).
static void sort_fresh(cs_impact_reach* r, int count, int* fresh, int fresh_count)
{
    if (r->reached == 1)
    {
        for (int i = 0; i < fresh_count; ++i)
        {
            r->listed[fresh[i]] = 1;
        }
        return;
    }
    if (fresh_count <= 32)
    {
        for (int i = 0; i < fresh_count; ++i)
        {
            int k = fresh[i], j = i - 1;
            for (; j >= 0 && fresh[j] > k; --j)
            {
                fresh[j + 1] = fresh[j];
            }
            fresh[j + 1] = k;
            r->listed[k] = 1;
        }
        return;
    }
    int n = 0;
    for (int k = 0; k < count; ++k)
    {
        if (r->listed[k] == 2)
        {
            r->listed[k] = 1;
            fresh[n++] = k;
        }
    }
}

// A grown list: the contacts of the components the sweep reached (r->spare[0 .. reached)) that were not
// listed, sorted, merged into the list in key order — the list the scan would build, without a look at
// every contact.
static void rebuild_by_members(cs_impact_reach* r, int count)
{
    int* built = r->spare;
    int* fresh = built + count;
    int fresh_count = 0;
    for (int i = 0; i < r->reached; ++i)
    {
        for (int side = r->parent[built[i]]; side >= 0; side = r->next[side])
        {
            int k = side >> 1;
            if (!r->listed[k])
            {
                r->listed[k] = 2;
                fresh[fresh_count++] = k;
            }
        }
    }
    sort_fresh(r, count, fresh, fresh_count);
    // Merged from the back (built's entries before fresh, which starts at count: n <= count, so no write
    // overtakes a read).
    int n = r->count + fresh_count, i = r->count - 1, j = fresh_count - 1;
    for (int at = n - 1; at >= 0; --at)
    {
        if (j < 0 || (i >= 0 && r->list[i] >> 1 > fresh[j]))
        {
            built[at] = r->list[i--];
            continue;
        }
        int k = fresh[j--], ra = r->roots[2 * k], rb = r->roots[2 * k + 1];
        built[at] = k << 1 | (ra >= 0 && rb >= 0 && ra != rb ? CS_REACH_EDGE : 0);
    }
    r->fresh_count = fresh_count;
    r->count = n;
}

void cs_reach_rebuild(cs_impact_reach* r, int count)
{
    if (r->count == 0) // (the first build: the seeds' components)
    {
        rebuild_by_scan(r, count);
    }
    else
    {
        if (!r->members)
        {
            build_members(r, count);
        }
        rebuild_by_members(r, count);
    }
    int* built = r->spare;
    r->spare = r->list;
    r->list = built;
    r->fresh = built + count;
    r->grown = false;
    r->reached = 0;
}
