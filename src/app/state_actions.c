// Snapshots from the viewer (app.h: app_save_state, app_load_state): F5 and F8, the panel's "save state"
// and "load state", a script's `save-state` / `load-state`, and `circlesim --state-in FILE`. A snapshot
// is the library's (cs_world_save_state): a world loaded from it steps on bit for bit, so a duel forked
// from it is what `circlesim-cli run --state-in FILE --solver S` gives for each pane.
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "app/capture.h"

static const char* default_path(app* a, const char* path, char* out, size_t size)
{
    if (path != NULL)
    {
        return path;
    }
    capture_make_dirs(a->capture_dir, true);
    app_format(out, size, "%s/snapshot.json", a->capture_dir);
    return out;
}

bool app_save_state(app* a, const char* path)
{
    char buffer[APP_PATH_MAX + 32];
    path = default_path(a, path, buffer, sizeof buffer);
    const cs_world* w = app_pane_world(a, a->focus);
    cs_error err = {0};
    if (w == NULL)
    {
        app_message(a, "no world to save");
        return false;
    }
    if (cs_world_save_state(w, path, &err) != CS_OK)
    {
        app_message(a, "%s", err.message);
        return false;
    }
    app_message(a, "saved %s (step %lld)", path, (long long)cs_world_stats(w)->step);
    return true;
}

bool app_load_state(app* a, const char* path)
{
    char buffer[APP_PATH_MAX + 32];
    path = default_path(a, path, buffer, sizeof buffer);
    cs_error err = {0};
    cs_world* world = cs_world_load_state(path, &err);
    if (world == NULL)
    {
        // The last good world stays; without one (a bad --state-in) the error is the window's message.
        app_message(a, "%s", err.message);
        if (a->world == NULL)
        {
            app_format(a->error, sizeof a->error, "%s", err.message);
        }
        return false;
    }
    if (path != a->state_path)
    {
        app_format(a->state_path, sizeof a->state_path, "%s", path);
    }
    cs_scene_info info;
    memset(&info, 0, sizeof info);
    const char* slash = strrchr(path, '/');
    app_format(info.name, sizeof info.name, "%s", slash != NULL ? slash + 1 : path);
    app_format(info.description, sizeof info.description, "snapshot %s at step %lld", path,
               (long long)cs_world_stats(world)->step);
    app_install_world(a, world, &info);
    app_message(a, "loaded %s (step %lld)", path, (long long)cs_world_stats(world)->step);
    return true;
}
