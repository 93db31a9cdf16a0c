// A = J M⁻¹ Jᵀ as an operator: dense entries, matrix-free products, and the input check (operator.h).
#include "solver/operator.h"

#include <math.h>
#include <string.h>

double cs_dense_entry(const cs_lcp* p, const double* mjt, int i, int j)
{
    const double* ji = p->jac + 6 * i;
    const double* mj = mjt + 6 * j;
    const int bi[2] = {p->body_a[i], p->body_b[i]};
    const int bj[2] = {p->body_a[j], p->body_b[j]};
    double s = 0.0;
    for (int hi = 0; hi < 2; ++hi)
    {
        for (int hj = 0; hj < 2; ++hj)
        {
            if (bi[hi] >= 0 && bi[hi] == bj[hj])
            {
                s += ji[3 * hi] * mj[3 * hj] + ji[3 * hi + 1] * mj[3 * hj + 1] +
                     ji[3 * hi + 2] * mj[3 * hj + 2];
            }
        }
    }
    return s;
}

void cs_apply_a(const cs_lcp* p, const double* x, double* u, double* out)
{
    memset(u, 0, 3 * (size_t)p->body_count * sizeof(double));
    for (int i = 0; i < p->row_count; ++i)
    {
        const double* j = p->jac + 6 * i;
        int a = p->body_a[i], b = p->body_b[i];
        double l = x[i];
        if (l == 0.0)
        {
            continue;
        }
        if (a >= 0)
        {
            u[3 * a + 0] += p->inv_mass[a] * j[0] * l;
            u[3 * a + 1] += p->inv_mass[a] * j[1] * l;
            u[3 * a + 2] += p->inv_inertia[a] * j[2] * l;
        }
        if (b >= 0)
        {
            u[3 * b + 0] += p->inv_mass[b] * j[3] * l;
            u[3 * b + 1] += p->inv_mass[b] * j[4] * l;
            u[3 * b + 2] += p->inv_inertia[b] * j[5] * l;
        }
    }
    for (int i = 0; i < p->row_count; ++i)
    {
        out[i] = cs_row_jv(p->jac + 6 * i, p->body_a[i], p->body_b[i], u);
        out[i] += p->reg != NULL ? p->reg[i] * x[i] : 0.0; // (A + Σ)x on SPOOK rows
    }
}
