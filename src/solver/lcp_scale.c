// Whether a well-formed problem is within what double precision can solve (cs_lcp_check_scale).
#include <math.h>

#include "circlesim/lcp.h"

// Beyond this an impulse's square (in the residuals) overflows.
#define CS_LCP_MAX_STEP 1e150

// Finite numbers can still be beyond double precision: inverse masses of 5e-324 make A_ii denormal and
// 1/A_ii infinite, a Jacobian of 1e308 makes A_ii overflow. Either turns every solve into NaN.
cs_status cs_lcp_check_scale(const cs_lcp* p, int* row, cs_error* err)
{
    for (int i = 0; i < p->row_count; ++i)
    {
        *row = i;
        const double* j = p->jac + 6 * i;
        double a = 0.0, q = p->bias[i];
        for (int half = 0; half < 2; ++half)
        {
            int body = half == 0 ? p->body_a[i] : p->body_b[i];
            if (body < 0)
            {
                continue;
            }
            const double* jh = j + 3 * half;
            a += (jh[0] * jh[0] + jh[1] * jh[1]) * p->inv_mass[body] + jh[2] * jh[2] * p->inv_inertia[body];
            q += jh[0] * p->v[3 * body] + jh[1] * p->v[3 * body + 1] + jh[2] * p->v[3 * body + 2];
        }
        if (!isfinite(a) || (a > 0.0 && !isfinite(1.0 / a)))
        {
            return cs_fail(err, CS_ERR_VALUE,
                           "row %d: A_ii = J M^-1 J^T = %.3g is beyond double precision (|J| or the inverse "
                           "masses are too large or too small)",
                           i, a);
        }
        if (!isfinite(q) || (a > 0.0 && !(fabs(q) / a <= CS_LCP_MAX_STEP)))
        {
            return cs_fail(err, CS_ERR_VALUE,
                           "row %d: q = J v* + b = %.3g over A_ii = %.3g asks for an impulse beyond %g: the "
                           "problem is beyond double precision",
                           i, q, a, CS_LCP_MAX_STEP);
        }
        if (!(fabs(p->lambda0[i]) <= CS_LCP_MAX_STEP))
        {
            return cs_fail(err, CS_ERR_VALUE, "row %d: lambda0 %.3g is beyond %g", i, p->lambda0[i],
                           CS_LCP_MAX_STEP);
        }
    }
    *row = -1;
    return CS_OK;
}
