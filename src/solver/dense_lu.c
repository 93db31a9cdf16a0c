// Dense LU with partial pivoting (dense_lu.h).
#include "solver/dense_lu.h"

#include <math.h>
#include <stddef.h>

// In-place LU with partial pivoting of the k×k row-major a: P a = L U, piv[i] = the row swapped into i.
// Returns false when a pivot is below tol (the basis is numerically singular).
bool cs_dense_lu_factor(double* a, int k, int* piv, double tol)
{
    for (int c = 0; c < k; ++c)
    {
        int p = c;
        for (int i = c + 1; i < k; ++i)
        {
            if (fabs(a[(size_t)i * k + c]) > fabs(a[(size_t)p * k + c]))
            {
                p = i;
            }
        }
        piv[c] = p;
        if (!(fabs(a[(size_t)p * k + c]) > tol))
        {
            return false;
        }
        if (p != c)
        {
            for (int j = 0; j < k; ++j)
            {
                double t = a[(size_t)p * k + j];
                a[(size_t)p * k + j] = a[(size_t)c * k + j];
                a[(size_t)c * k + j] = t;
            }
        }
        double inv = 1.0 / a[(size_t)c * k + c];
        for (int i = c + 1; i < k; ++i)
        {
            double* ri = a + (size_t)i * k;
            double f = ri[c] * inv;
            if (f == 0.0)
            {
                continue;
            }
            ri[c] = f;
            const double* rc = a + (size_t)c * k;
            for (int j = c + 1; j < k; ++j)
            {
                ri[j] -= f * rc[j];
            }
        }
    }
    return true;
}

// Both solves (dense_lu.h): w right-hand sides, row-major, each column through the same operations in the
// same order — a single solve is w = 1 (the compiler folds the inner loops away).
static inline __attribute__((always_inline)) void solve_rows(const double* a, int k, const int* piv,
                                                             double* x, int w)
{
    for (int c = 0; c < k; ++c)
    {
        if (piv[c] == c)
        {
            continue;
        }
        double* xc = x + (size_t)c * w;
        double* xp = x + (size_t)piv[c] * w;
        for (int t = 0; t < w; ++t)
        {
            double s = xp[t];
            xp[t] = xc[t];
            xc[t] = s;
        }
    }
    // Row i: x_i − Σ_{j<i} a_ij x_j, the terms in increasing j.
    for (int i = 1; i < k; ++i)
    {
        const double* ri = a + (size_t)i * k;
        double* xi = x + (size_t)i * w;
        for (int j = 0; j < i; ++j)
        {
            const double f = ri[j];
            const double* xj = x + (size_t)j * w;
            for (int t = 0; t < w; ++t)
            {
                xi[t] -= f * xj[t];
            }
        }
    }
    // Row i from the last: (x_i − Σ_{j>i} a_ij x_j) / a_ii, the terms in increasing j.
    for (int i = k - 1; i >= 0; --i)
    {
        const double* ri = a + (size_t)i * k;
        double* xi = x + (size_t)i * w;
        for (int j = i + 1; j < k; ++j)
        {
            const double f = ri[j];
            const double* xj = x + (size_t)j * w;
            for (int t = 0; t < w; ++t)
            {
                xi[t] -= f * xj[t];
            }
        }
        const double d = ri[i];
        for (int t = 0; t < w; ++t)
        {
            xi[t] /= d;
        }
    }
}

void cs_dense_lu_solve(const double* a, int k, const int* piv, double* x)
{
    solve_rows(a, k, piv, x, 1);
}

void cs_dense_lu_solve_rows(const double* a, int k, const int* piv, double* x, int w)
{
    solve_rows(a, k, piv, x, w);
}
