// circlesim viewer — duels: the current world forked into 2–4 panes that step in lockstep from the same
// state and warm start, each with its own solver settings (app_fork_panes does the forking).
#ifndef CS_APP_DUEL_H
#define CS_APP_DUEL_H

#include "app/app.h"

// Starts a duel of `count` panes with these registry indices (pane 0 keeps its other settings, the
// others copy them); count < 2 ends the duel. False with a message for an unknown index or no memory.
bool duel_start(app* a, const int* solvers, int count);
// Parses "pgs,amgs[,…]" (2–4 registry names) into indices; false with a message naming the bad name.
bool duel_parse(const char* list, int* solvers, int* count, char* err, size_t err_size);
// The key: off → pane 0's solver against the next one in the registry; on → off.
void duel_toggle(app* a);
// Largest position and velocity difference between any pane and pane 0 over all bodies.
void duel_difference(const app* a, double* dx, double* dv);
// Per body, how far it diverged across the panes, on a log scale in [0, 1]: 0 at 1e-9 of its radius or
// less, 1 at a whole radius. NULL when there is no duel (or no memory).
const double* duel_divergence(app* a);

#endif
