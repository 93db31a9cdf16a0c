// circlesim viewer — running a script's timed actions (script.h parses them) on the model.
#ifndef CS_APP_SCRIPT_RUN_H
#define CS_APP_SCRIPT_RUN_H

#include "app/app.h"

// Runs every action due at the app's current frame.
void script_run_due(app* a);

#endif
