// circlesim viewer — the frozen-step race: this step's velocity LCP, with the warm start it was solved
// from, solved by every registered solver to a tolerance, as `circlesim-cli converge` does (the same
// parameters: defaults with the focused pane's α and γ; res_lcp, the paper's eq. 24, when friction is
// off, res_nat otherwise). The results are plotted against iterations and against time.
#ifndef CS_APP_RACE_H
#define CS_APP_RACE_H

#include "app/app.h"

#define RACE_TOLERANCE      1e-4
#define RACE_MAX_ITERATIONS 20000
// Solvers that form A densely are left out above this many rows (seconds of a frozen window);
// the legend says so.
#define RACE_DENSE_MAX_ROWS 400
// The reference for the active-set share (ppm, then lemke) gets at most this many pivots each (ppm's
// block pivots are ~10 ms on Pool 1, lemke's a few ms): past it the race shows without the share and the
// HUD says why.
#define RACE_REFERENCE_PIVOTS 50

// Runs the race on the focused pane's last step (replacing an earlier one); false with a message when
// there is no problem yet or memory runs out.
bool race_run(app* a, double tolerance);
void race_clear(app* a);
// The key: run, or clear when shown.
void race_toggle(app* a);
// Entry k's results (NULL past the end); count of entries.
int race_count(const app* a);
const app_race_entry* race_entry(const app* a, int k);

#endif
