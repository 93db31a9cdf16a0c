// circlesim viewer — capture actions on the model: screenshots, video, LCP dumps, plot CSVs.
#ifndef CS_APP_CAPTURE_ACTIONS_H
#define CS_APP_CAPTURE_ACTIONS_H

#include "app/app.h"

// captures/<scene>-<timestamp><suffix>, creating the directory.
void app_capture_path(app* a, const char* suffix, char* out, size_t out_size);
void app_request_screenshot(app* a, const char* path); // NULL: captures/<scene>-<timestamp>.png
void app_toggle_recording(app* a, const char* path);   // NULL: captures/<scene>-<timestamp>.mp4
void app_dump_lcp(app* a);
// Every series of every plot shown (plots.h) as CSV; NULL: captures/<scene>-<timestamp>-plots.csv.
void app_export_plots(app* a, const char* path);
// After drawing a frame: pending screenshot, and the frame once per simulation step taken in it (the
// video runs at the simulation's rate, 1/h frames per simulated second, whatever the display's rate).
void app_capture_frame(app* a);

#endif
