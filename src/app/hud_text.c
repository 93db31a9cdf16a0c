// The HUD's lines and the settings' names, from the model.
#include <stdio.h>
#include <string.h>

#include "app/hud_text.h"

static const char* speed_label(int index)
{
    static const char* labels[APP_SPEED_COUNT] = {"×¼", "×½", "×1", "×2", "×4"};
    return index >= 0 && index < APP_SPEED_COUNT ? labels[index] : "?";
}

int hud_lines(const app* a, char lines[][HUD_LINE_MAX], int max_lines)
{
    int n = 0;
#define LINE(...)                                                                                            \
    do                                                                                                       \
    {                                                                                                        \
        if (n < max_lines)                                                                                   \
        {                                                                                                    \
            app_format(lines[n++], HUD_LINE_MAX, __VA_ARGS__);                                               \
        }                                                                                                    \
    } while (0)

    LINE("scene  %s", a->world != NULL ? a->info.name : "(none)");
    const cs_solver_info* info = cs_solver_at(a->solver);
    char extra[96] = "";
    if (info != NULL)
    {
        size_t used = 0;
        if ((info->flags & CS_SOLVER_USES_ALPHA) != 0)
        {
            used += (size_t)snprintf(extra + used, sizeof extra - used, "  α %.2f", a->params.alpha);
        }
        if ((info->flags & CS_SOLVER_USES_GAMMA) != 0 && used < sizeof extra)
        {
            used += (size_t)snprintf(extra + used, sizeof extra - used, "  γ %.2f", a->params.gamma);
        }
        if ((info->flags & CS_SOLVER_USES_RELAXATION) != 0 && used < sizeof extra)
        {
            app_format(extra + used, sizeof extra - used, "  ω %.2f", a->params.relaxation);
        }
    }
    LINE("solver %d/%d %s%s", a->solver + 1, cs_solver_count(), info != NULL ? info->name : "?", extra);
    LINE("iterations %d/step  warm start %s", a->params.iterations, a->params.warm_start ? "on" : "off");
    if (a->world != NULL)
    {
        const cs_step_stats* s = cs_world_stats(a->world);
        LINE("bodies %d  contacts %d  rows %d", cs_world_body_count(a->world), s->contacts, s->rows);
        // "AVX2 lanes" when the sweeps update four rows per instruction (the same results, only faster).
        bool lanes =
            a->params.simd && cs_solver_simd_available() && info != NULL && (info->flags & CS_SOLVER_SIMD);
        LINE("row order %s%s", cs_row_order_name(cs_world_get_def(a->world)->row_order),
             lanes ? "  AVX2 lanes" : "");
        LINE("res_lcp %.3e  res_nat %.3e", s->res_lcp, s->res_nat);
        LINE("step %.2f ms  solver %.2f ms", a->step_ms, a->solver_ms);
        LINE("t %.2f s  step %lld  %.0f FPS", s->time, (long long)s->step, a->fps);
        if (cs_world_get_def(a->world)->frictionless)
        {
            LINE("frictionless");
        }
    }
    LINE("speed %s%s%s", speed_label(a->speed_index), a->paused ? "  PAUSED" : "",
         a->behind ? "  slower than real time" : "");
    if (a->capture.recording)
    {
        LINE("● REC %d frames", a->capture.frames);
    }
    LINE("H: help");
#undef LINE
    return n;
}
