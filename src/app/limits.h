// circlesim viewer — the ranges of the settings the keys, the panel, scripts and options change (a leaf).
#ifndef CS_APP_LIMITS_H
#define CS_APP_LIMITS_H

#define APP_PATH_MAX       4096
#define APP_MIN_ITERATIONS 1
#define APP_MAX_ITERATIONS 4096
#define APP_ALPHA_STEP     0.1
#define APP_ALPHA_MAX      2.0

#endif
