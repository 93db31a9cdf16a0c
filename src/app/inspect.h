// circlesim viewer — reading the world under the mouse, and the colour scale of the body colouring:
// hover a contact for its λn, λt and gap, a body for its velocity and load.
#ifndef CS_APP_INSPECT_H
#define CS_APP_INSPECT_H

#include "app/app.h"

// "contact 12–13  λn 1.23e-01 N·s …" for what is under framebuffer (x, y); false when nothing is (or the
// point is on a panel).
bool inspect_text(app* a, double x, double y, char* out, size_t size);
// Draws the hover readout at the mouse and the colour scale of the current body colouring.
void inspect_draw(app* a);

#endif
