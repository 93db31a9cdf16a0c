// Shock propagation (Guendelman, Bridson and Fedkiw 2003, "Nonconvex rigid bodies with stacking", §6) as a
// pass after the velocity solve of the relax formulation.
//
// Why: Gauss-Seidel at 20 sweeps carries a load down a chain of N contacts only by O(N²) sweeps. With the
// warm start the unconverged remainder r obeys r_{n+1} = G(2 r_n − r_{n−1}) from step to step (G: the
// sweeps' error operator; the leftover approach velocity of step n is fed back into step n+1), an
// oscillation that decays only as sqrt(ρ(G)) per step: the 150-stack still moved at 0.076 m/s after 60 s.
//
// The pass: bodies get a level, their distance from a static body (a wall or a body of zero inverse mass)
// in the graph of contacts that carried a normal impulse; then, level by level from the ground up, every
// such contact between a lower and an upper level removes the approach the row forbids (vn >= −bias) by
// moving the upper body alone, as if the lower one had infinite mass. So nothing in a supported pile
// approaches its support after the pass, however far the sweeps were from converging; the next step's
// warm start still holds the sweeps' λ, which go on converging across steps.
//
// What it changes: only velocities along a supported contact's normal, only towards separation, only for
// contacts that do not bounce (the restitution pass owns those) and only in clusters that touch something
// static, whose momentum the static body takes anyway. A free cluster (test_conservation) has no level.
#include <string.h>

#include "core/array.h"
#include "world/world_internal.h"

static bool supporting(const cs_contact* c)
{
    return c->normal_impulse > 0.0 && !c->bounce;
}

static bool is_static(const cs_world* w, int body)
{
    return body < 0 || w->inv_mass[body] == 0.0;
}

// A supporting contact as the pass reads it: its normal, bias and bodies, and whether each side is static
// (no inverse mass looked up per visit).
typedef struct cs_shock_edge
{
    double nx, ny, bias;
    int a, b;
    bool static_a, static_b;
} cs_shock_edge;

// One contact: the upper body alone removes the approach its row forbids.
static void support(cs_world* w, const cs_shock_edge* c, int up, int down)
{
    double nx = up == c->b ? c->nx : -c->nx, ny = up == c->b ? c->ny : -c->ny; // from the lower to the upper
    double vx = w->v[3 * up], vy = w->v[3 * up + 1];
    if (down >= 0)
    {
        vx -= w->v[3 * down];
        vy -= w->v[3 * down + 1];
    }
    double approach = -c->bias - (vx * nx + vy * ny);
    if (approach > 0.0)
    {
        w->v[3 * up] += approach * nx;
        w->v[3 * up + 1] += approach * ny;
    }
}

// The graph: the supporting contacts in contact order, into edges (over the last step's, in place). Returns
// whether they are the last step's (the same count, and each the same bodies and static sides; where they
// sit in the contact list does not matter), so that the graph — and the plan it gave — is the last step's.
static bool scan(cs_world* w)
{
    const int count = w->contacts.count;
    const cs_contact* cs = w->contacts.items;
    cs_shock_edge* edges = w->shock_edges;
    const int old = w->shock_edge_count;
    bool same = true;
    int supports = 0;
    for (int k = 0; k < count; ++k)
    {
        const cs_contact* c = cs + k;
        if (!supporting(c))
        {
            continue;
        }
        bool sa = is_static(w, c->a), sb = is_static(w, c->b);
        cs_shock_edge* e = edges + supports++;
        same =
            same && supports <= old && e->a == c->a && e->b == c->b && e->static_a == sa && e->static_b == sb;
        *e = (cs_shock_edge){c->nx, c->ny, c->bias, c->a, c->b, sa, sb};
    }
    w->shock_edge_count = supports;
    return same && supports == old;
}

// How many edges each moving body has (head[i + 1]), and the bodies that touch something static queued at
// level 1 (in edge order). Returns how many were queued.
static int seeds(const cs_world* w, int* level, int* head, int* queue)
{
    const int n = w->body_count;
    memset(head, 0, (size_t)(n + 1) * sizeof(int));
    for (int i = 0; i < n; ++i)
    {
        level[i] = -1;
    }
    int tail = 0;
    for (int e = 0; e < w->shock_edge_count; ++e)
    {
        const cs_shock_edge* c = w->shock_edges + e;
        if (!c->static_a)
        {
            head[c->a + 1] += 1;
        }
        if (!c->static_b)
        {
            head[c->b + 1] += 1;
        }
        int seed = c->static_a && !c->static_b ? c->b : (c->static_b && !c->static_a ? c->a : -1);
        if (seed >= 0 && level[seed] < 0)
        {
            level[seed] = 1;
            queue[tail++] = seed;
        }
    }
    return tail;
}

// Each moving body's supporting contacts (CSR: head[i] .. head[i + 1] in adj, edge indices) from seeds'
// counts.
static void adjacency(const cs_world* w, int* head, int* adj)
{
    const int n = w->body_count;
    const cs_shock_edge* edges = w->shock_edges;
    for (int i = 0; i < n; ++i)
    {
        head[i + 1] += head[i];
    }
    for (int e = 0; e < w->shock_edge_count; ++e)
    {
        const cs_shock_edge* c = edges + e;
        if (!c->static_a)
        {
            adj[head[c->a]++] = e;
        }
        if (!c->static_b)
        {
            adj[head[c->b]++] = e;
        }
    }
    for (int i = n; i > 0; --i)
    {
        head[i] = head[i - 1]; // back to the starts
    }
    head[0] = 0;
}

// Breadth-first, so the queue is in level order: when a body leaves it, every body one level below is final
// (its own supports came before), and the body is pushed off each of them (or off a static one). Each push is
// recorded in the plan (edge, upper body, lower body; at most one per edge).
static void propagate(cs_world* w, int* level, const int* head, const int* adj, int* queue, int tail)
{
    const cs_shock_edge* edges = w->shock_edges;
    int* plan = w->shock_plan;
    int calls = 0;
    for (int q = 0; q < tail; ++q)
    {
        int i = queue[q];
        for (int e = head[i]; e < head[i + 1]; ++e)
        {
            const cs_shock_edge* c = edges + adj[e];
            bool down_static = c->b == i ? c->static_a : c->static_b;
            int j = c->b == i ? c->a : c->b;
            if (down_static || level[j] == level[i] - 1)
            {
                support(w, c, i, j);
                plan[3 * calls] = adj[e];
                plan[3 * calls + 1] = i;
                plan[3 * calls + 2] = j;
                calls += 1;
            }
            else if (level[j] < 0)
            {
                level[j] = level[i] + 1;
                queue[tail++] = j;
            }
        }
    }
    w->shock_plan_count = calls;
}

// The plan. The pushes a graph gives are a function of the graph alone (its edges' bodies and static sides,
// in contact order: the levels, the queue and the adjacency are built from nothing else), so a step whose
// graph is the last step's makes the same pushes in the same order by replaying them with this step's normals
// and biases — the same bits as building the graph again, for the scan alone. A settled pile keeps its graph
// from step to step (Pool 1 under relax: the pass 78 → 53 k instructions a step); a churning one rebuilds,
// as before. (No other state is needed: a world starts with no edges, so its first graph with any is a
// change.)
cs_status cs_shock_propagate(cs_world* w, cs_error* err)
{
    const int n = w->body_count, count = w->contacts.count;
    if (!CS_GROW(w->shock_ints, w->shock_capacity, 3 * n + 1 + 2 * count) ||
        !CS_GROW(w->shock_edges, w->shock_edge_capacity, count) ||
        !CS_GROW(w->shock_plan, w->shock_plan_capacity, 3 * count))
    {
        return cs_fail(err, CS_ERR_MEMORY, "step: out of memory");
    }
    int* level = w->shock_ints;
    int* head = level + n; // n + 1
    int* queue = head + n + 1;
    int* adj = queue + n; // 2·count
    if (w->shock_no_plan)
    {
        w->shock_edge_count = 0; // (no last graph: every edge is scanned as new, the plan never replayed)
    }
    bool same = scan(w);
    if (w->shock_edge_count == 0)
    {
        return CS_OK; // nothing supports anything (and the next graph with edges is a change)
    }
    if (same)
    {
        const int* plan = w->shock_plan;
        for (int c = 0; c < w->shock_plan_count; ++c)
        {
            support(w, w->shock_edges + plan[3 * c], plan[3 * c + 1], plan[3 * c + 2]);
        }
        w->shock_replays += 1;
        return CS_OK;
    }
    w->shock_builds += 1;
    int tail = seeds(w, level, head, queue);
    adjacency(w, head, adj);
    propagate(w, level, head, adj, queue, tail);
    return CS_OK;
}
