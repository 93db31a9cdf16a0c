// circlesim — JSON scene files → a world.
#ifndef CIRCLESIM_SCENE_H
#define CIRCLESIM_SCENE_H

#include "circlesim/world.h"

#ifdef __cplusplus
extern "C"
{
#endif

#define CS_SCENE_WARNINGS_KEPT 4

    typedef struct cs_scene_info
    {
        char name[64]; // "name" key, else the file's base name without .json
        char description[256];
        int steps; // suggested run length ("steps", default 600)
        // Extreme but valid values (docs/SCENES.md "Ranges"): each warning is one line
        // "FILE:LINE:COL: PATH: warning: what will go wrong". warning_count counts them all; the first
        // CS_SCENE_WARNINGS_KEPT are kept.
        int warning_count;
        char warnings[CS_SCENE_WARNINGS_KEPT][CS_ERROR_MAX];
    } cs_scene_info;

    // Loads a scene file. On any error returns NULL and err->message is one line
    // "FILE:LINE:COL: message naming the key"; nothing half-loaded is returned.
    cs_world* cs_scene_load(const char* path, cs_scene_info* info, cs_error* err);
    // Same from memory; display_name is used in messages.
    cs_world* cs_scene_load_string(const char* text, const char* display_name, cs_scene_info* info,
                                   cs_error* err);

#ifdef __cplusplus
}
#endif

#endif
