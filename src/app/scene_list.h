// circlesim viewer — N/P: the scene files next to the current one, in name order.
#ifndef CS_APP_SCENE_LIST_H
#define CS_APP_SCENE_LIST_H

#include <stdbool.h>
#include <stddef.h>

// Writes into out the *.json file after (direction > 0) or before (direction < 0) current in current's
// directory, wrapping around; fallback_dir is used when current has no readable directory. A current
// file that is not in the list (deleted, or an error) still gets its alphabetical neighbour.
bool scene_list_neighbour(const char* current, const char* fallback_dir, int direction, char* out,
                          size_t out_size);

#define SCENE_NAME_MAX 128

// The *.json file names in dir, sorted; returns how many (0 when dir cannot be read).
int scene_list_dir(const char* dir, char (*names)[SCENE_NAME_MAX], int max);

#endif
