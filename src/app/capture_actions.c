// The viewer's capture actions: screenshots, video, LCP dumps and plot CSVs, named after the scene in the
// capture directory. They know the model (app.h) and the writers (capture.h).
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/capture_actions.h"
#include "app/plots.h"

void app_capture_path(app* a, const char* suffix, char* out, size_t out_size)
{
    char stamp[64];
    time_t now = time(NULL);
    struct tm tm_now;
    localtime_r(&now, &tm_now);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm_now);
    const char* scene = a->info.name[0] != '\0' ? a->info.name : "scene";
    capture_make_dirs(a->capture_dir, true);
    app_format(out, out_size, "%s/%s-%s%s", a->capture_dir, scene, stamp, suffix);
    // Two captures within a second get distinct names.
    for (int n = 2; access(out, F_OK) == 0 && n < 1000; ++n)
    {
        app_format(out, out_size, "%s/%s-%s-%d%s", a->capture_dir, scene, stamp, n, suffix);
    }
}

void app_request_screenshot(app* a, const char* path)
{
    if (path != NULL)
    {
        app_format(a->pending_screenshot, sizeof a->pending_screenshot, "%s", path);
    }
    else
    {
        app_capture_path(a, ".png", a->pending_screenshot, sizeof a->pending_screenshot);
    }
}

void app_toggle_recording(app* a, const char* path)
{
    char msg[CS_ERROR_MAX] = "";
    if (a->capture.recording)
    {
        if (!capture_record_stop(&a->capture, msg, sizeof msg))
        {
            a->exit_status = 1;
        }
        app_message(a, "%s", msg[0] == ';' ? msg + 2 : msg);
        return;
    }
    char generated[APP_PATH_MAX];
    if (path == NULL)
    {
        app_capture_path(a, ".mp4", generated, sizeof generated);
        path = generated;
    }
    // The video runs at the simulation's rate: one frame per step, 1/h frames per second.
    double h = a->world != NULL ? cs_world_get_def(a->world)->time_step : 1.0 / 60.0;
    int fps = h > 0.0 && 1.0 / h < 1000.0 ? (int)lround(1.0 / h) : 60;
    if (!capture_record_start(&a->capture, path, a->fb_w, a->fb_h, fps < 1 ? 1 : fps, msg, sizeof msg))
    {
        a->exit_status = 1;
    }
    app_message(a, "%s", msg);
}

void app_dump_lcp(app* a)
{
    if (a->world == NULL)
    {
        app_message(a, "no world to dump");
        return;
    }
    char suffix[64], path[APP_PATH_MAX];
    app_format(suffix, sizeof suffix, "-step%lld.lcp", (long long)cs_world_stats(a->world)->step);
    app_capture_path(a, suffix, path, sizeof path);
    cs_error err = {0};
    if (cs_lcp_write(cs_world_last_problem(a->world), path, &err) != CS_OK)
    {
        app_message(a, "%s", err.message);
        return;
    }
    app_message(a, "saved %s (%d rows)", path, cs_world_last_problem(a->world)->row_count);
}

static bool ensure_pixels(app* a)
{
    size_t need = (size_t)a->fb_w * (size_t)a->fb_h * 4;
    if (need > a->pixel_bytes)
    {
        unsigned char* p = realloc(a->pixels, need);
        if (p == NULL)
        {
            return false;
        }
        a->pixels = p;
        a->pixel_bytes = need;
    }
    return true;
}

void app_capture_frame(app* a)
{
    if (a->pending_screenshot[0] == '\0' && (!a->capture.recording || a->steps_last_frame == 0))
    {
        return;
    }
    if (!ensure_pixels(a) || !render_read_pixels(a->renderer, a->pixels))
    {
        app_message(a, "cannot read the frame back");
        a->exit_status = 1;
        a->pending_screenshot[0] = '\0';
        return;
    }
    char msg[CS_ERROR_MAX] = "";
    if (a->pending_screenshot[0] != '\0')
    {
        if (!capture_write_png(a->pending_screenshot, a->fb_w, a->fb_h, a->pixels, msg, sizeof msg))
        {
            a->exit_status = 1;
        }
        app_message(a, "%s", msg);
        a->pending_screenshot[0] = '\0';
    }
    // A frame that took three steps is three video frames, a paused frame none: the video shows
    // simulated time at its own rate whatever the display did.
    for (int k = 0; a->capture.recording && k < a->steps_last_frame; ++k)
    {
        if (!capture_record_frame(&a->capture, a->pixels, a->fb_w, a->fb_h, msg, sizeof msg))
        {
            a->exit_status = 1;
            app_message(a, "%s", msg);
        }
    }
}

void app_export_plots(app* a, const char* path)
{
    char generated[APP_PATH_MAX];
    if (path == NULL)
    {
        app_capture_path(a, "-plots.csv", generated, sizeof generated);
        path = generated;
    }
    render_plot_desc plots[PLOTS_MAX];
    int count = plots_describe(a, plots, PLOTS_MAX);
    char msg[CS_ERROR_MAX] = "";
    if (!plots_write_csv(path, plots, count, msg, sizeof msg))
    {
        a->exit_status = 1;
    }
    app_message(a, "%s", msg);
}
