#include "app/scene_list.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCENES 512

static int compare_names(const void* a, const void* b)
{
    return strcmp(*(const char* const*)a, *(const char* const*)b);
}

static bool has_json_suffix(const char* name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0 && name[0] != '.';
}

bool scene_list_neighbour(const char* current, const char* fallback_dir, int direction, char* out,
                          size_t out_size)
{
    char dir[4096];
    const char* base = current;
    const char* slash = strrchr(current, '/');
    if (slash != NULL)
    {
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - current), current);
        if (dir[0] == '\0')
        {
            snprintf(dir, sizeof dir, "/");
        }
        base = slash + 1;
    }
    else
    {
        snprintf(dir, sizeof dir, ".");
    }
    DIR* d = current[0] != '\0' ? opendir(dir) : NULL;
    if (d == NULL)
    {
        snprintf(dir, sizeof dir, "%s", fallback_dir);
        d = opendir(dir);
        base = "";
    }
    if (d == NULL)
    {
        return false;
    }
    char* names[MAX_SCENES];
    int count = 0;
    struct dirent* entry;
    while ((entry = readdir(d)) != NULL && count < MAX_SCENES)
    {
        if (has_json_suffix(entry->d_name))
        {
            names[count] = strdup(entry->d_name);
            if (names[count] != NULL)
            {
                count++;
            }
        }
    }
    closedir(d);
    if (count == 0)
    {
        return false;
    }
    qsort(names, (size_t)count, sizeof names[0], compare_names);
    // Position of current in the list, or where it would be inserted.
    int at = 0;
    while (at < count && strcmp(names[at], base) < 0)
    {
        at++;
    }
    bool found = at < count && strcmp(names[at], base) == 0;
    int pick;
    if (direction >= 0)
    {
        pick = found ? at + 1 : at;
    }
    else
    {
        pick = at - 1;
    }
    pick = ((pick % count) + count) % count;
    snprintf(out, out_size, "%s/%s", dir, names[pick]);
    for (int i = 0; i < count; ++i)
    {
        free(names[i]);
    }
    return true;
}

int scene_list_dir(const char* dir, char (*names)[SCENE_NAME_MAX], int max)
{
    DIR* d = opendir(dir);
    if (d == NULL)
    {
        return 0;
    }
    int count = 0;
    struct dirent* entry;
    while ((entry = readdir(d)) != NULL && count < max)
    {
        if (has_json_suffix(entry->d_name) && strlen(entry->d_name) < SCENE_NAME_MAX)
        {
            snprintf(names[count++], SCENE_NAME_MAX, "%s", entry->d_name);
        }
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], (int (*)(const void*, const void*))strcmp);
    return count;
}
