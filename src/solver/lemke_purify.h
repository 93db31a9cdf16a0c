// Purification of an approximate BLCP answer into a basic one (lemke_purify.c). Internal to src/solver.
#ifndef CS_SOLVER_LEMKE_PURIFY_H
#define CS_SOLVER_LEMKE_PURIFY_H

#include "circlesim/lcp.h"
#include "circlesim/solver.h"

// Moves lambda along directions that leave v = v* + M⁻¹Jᵀλ unchanged until the rows off their bounds
// have independent columns, updating sets (−1 lower, 0 free, 1 upper; a friction row whose normal is at 0:
// the side its w_t slips to, read from v). Its arrays are carved from w->purify, grown when too small, so a
// steady state allocates nothing. Returns the steps made, or −1 when out of memory.
int cs_lemke_purify(const cs_lcp* p, const double* v, double* lambda, double* sets, cs_solver_work* w);

#endif
