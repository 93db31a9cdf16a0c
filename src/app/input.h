// circlesim viewer — keys and mouse → model changes. One table lists every key for the help overlay,
// --help and the README.
#ifndef CS_APP_INPUT_H
#define CS_APP_INPUT_H

#include "app/app.h"

typedef struct app_key_help
{
    const char* keys;
    const char* action;
} app_key_help;

const app_key_help* app_key_help_table(int* count);
void app_handle_key(app* a, SDL_Keycode key, Uint16 mod);
void app_handle_event(app* a, const SDL_Event* e);
// What the mouse does, for scripts: Shift+click spawns a circle at a world point (in every pane); a left
// press grabs the circle there with the spring (false: none there) until released.
void app_spawn_circle(app* a, cs_vec2 p);
bool app_grab_at(app* a, cs_vec2 p);
void app_release_grab(app* a);

#endif
