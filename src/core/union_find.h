// Union-find over int slots (parent[i] == i at a root), for the step's islands (world/sleep.c) and the
// restitution pass's components (contact/impact_reach.c).
#ifndef CS_UNION_FIND_H
#define CS_UNION_FIND_H

static inline int cs_uf_find(int* parent, int x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]]; // (path halving)
        x = parent[x];
    }
    return x;
}

// The lower slot is the root: the same sets give the same roots whatever the order of the unions.
static inline void cs_uf_unite(int* parent, int x, int y)
{
    x = cs_uf_find(parent, x);
    y = cs_uf_find(parent, y);
    if (x != y)
    {
        parent[x < y ? y : x] = x < y ? x : y;
    }
}

// Every slot pointed straight at its root, in one ascending pass: cs_uf_unite hangs the higher root under the
// lower and path halving only lowers a parent, so parent[i] <= i, and the parent of i is a root by the time
// i is reached. (The roots cs_uf_find gives: each set's lowest slot.)
static inline void cs_uf_flatten(int* parent, int n)
{
    for (int i = 0; i < n; ++i)
    {
        parent[i] = parent[parent[i]];
    }
}

#endif
