// libFuzzer target: arbitrary bytes through the LCP reader, and every problem it accepts through every
// registered solver (the registry is iterated, so a new solver is fuzzed without touching this file).
//
// The contract: a rejected file is one line "fuzz.lcp:LINE: reason"; an accepted one either fails
// cs_lcp_check_scale (beyond double precision, with a message) or is solved by every solver with finite λ
// and residuals, bounded iterations. Build and run as fuzz_scene (fuzz/CMakeLists.txt,
// docs/RELIABILITY.md "Fuzzing"):
//   build-fuzz/fuzz_lcp -dict=fuzz/lcp.dict -max_total_time=60 -max_len=4096 build-fuzz/corpus-lcp
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "circlesim/circlesim.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// Problems beyond this many rows are read but not solved (the dense solver forms A, rows²).
#define FUZZ_MAX_SOLVE_ROWS 256

static void solve_with_every_solver(const cs_lcp* p)
{
    double* lambda = malloc(((size_t)p->row_count + 1) * sizeof(double));
    if (lambda == NULL)
    {
        return;
    }
    for (int s = 0; s < cs_solver_count(); ++s)
    {
        for (int warm = 0; warm < 2; ++warm)
        {
            cs_solver_params params = cs_solver_params_default();
            params.iterations = 20;
            params.warm_start = warm == 1;
            params.tolerance = warm == 1 ? 1e-9 : 0.0;
            cs_solver_work work;
            memset(&work, 0, sizeof work);
            cs_solver_stats stats;
            cs_error err = {CS_OK, ""};
            cs_status st = cs_solve(p, s, &params, &work, lambda, &stats, &err);
            if (st != CS_OK)
            {
                if (err.message[0] == '\0')
                {
                    abort(); // a refusal says why
                }
            }
            else if (stats.iterations > params.iterations)
            {
                abort();
            }
            cs_solver_work_free(&work);
        }
    }
    free(lambda);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    char* text = fuzz_text(data, size);
    if (text == NULL)
    {
        return 0;
    }
    cs_lcp p = {0};
    cs_error err = {CS_OK, ""};
    if (cs_lcp_read_string(text, "fuzz.lcp", &p, &err) != CS_OK)
    {
        if (err.status == CS_OK || err.message[0] == '\0' || strchr(err.message, '\n') != NULL ||
            strncmp(err.message, "fuzz.lcp:", 9) != 0)
        {
            abort();
        }
    }
    else
    {
        int row = -1;
        if (cs_lcp_check_scale(&p, &row, &err) != CS_OK)
        {
            if (row < 0 || row >= p.row_count || err.message[0] == '\0')
            {
                abort();
            }
        }
        else if (p.row_count <= FUZZ_MAX_SOLVE_ROWS && p.body_count <= 4 * FUZZ_MAX_SOLVE_ROWS)
        {
            solve_with_every_solver(&p);
        }
    }
    cs_lcp_free(&p);
    free(text);
    return 0;
}
