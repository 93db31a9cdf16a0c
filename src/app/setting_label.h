// circlesim viewer — a solver setting's full name (a leaf: the library only).
#ifndef CS_APP_SETTING_LABEL_H
#define CS_APP_SETTING_LABEL_H

#include <stdbool.h>
#include <stddef.h>

#include "circlesim/circlesim.h"

// "amgs α=0.2 k=10 cold frictionless key-order" for legends, pane titles and CSV headers.
void setting_label(const cs_solver_params* params, int solver, bool frictionless, cs_row_order order,
                   char* out, size_t size);

#endif
