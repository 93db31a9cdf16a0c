// circlesim viewer — drawing the HUD, the plot column, the help overlay, the error banner and the
// status line over the world.
#ifndef CS_APP_HUD_H
#define CS_APP_HUD_H

#include "app/app.h"

void hud_draw(app* a);

#endif
