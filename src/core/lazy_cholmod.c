// CHOLMOD's functions, loaded with libcholmod on the first call (lazy_lib.h); the prototypes are
// cholmod.h's. A failed load sets Common->status to CHOLMOD_NOT_INSTALLED where a call has the common.
#include <cholmod.h>

#include "core/lazy_lib.h"

// X(return type, name, parameters, arguments, result when the library is missing)
#define CS_CHOLMOD_FUNCTIONS(X)                                                                              \
    X(int, cholmod_start, (cholmod_common * c), (c), missing_int(c))                                         \
    X(int, cholmod_finish, (cholmod_common * c), (c), missing_int(c))                                        \
    X(cholmod_factor*, cholmod_analyze, (cholmod_sparse * a, cholmod_common * c), (a, c),                    \
      (missing_int(c), NULL))                                                                                \
    X(int, cholmod_factorize, (cholmod_sparse * a, cholmod_factor * l, cholmod_common * c), (a, l, c),       \
      missing_int(c))                                                                                        \
    X(int, cholmod_free_factor, (cholmod_factor * *l, cholmod_common * c), (l, c), missing_int(c))           \
    X(int, cholmod_free_dense, (cholmod_dense * *x, cholmod_common * c), (x, c), missing_int(c))             \
    X(int, cholmod_solve2,                                                                                   \
      (int sys, cholmod_factor* l, cholmod_dense* b, cholmod_sparse* bset, cholmod_dense** x,                \
       cholmod_sparse** xset, cholmod_dense** y, cholmod_dense** e, cholmod_common* c),                      \
      (sys, l, b, bset, x, xset, y, e, c), missing_int(c))

static const char* const names[] = {CS_CHOLMOD_FUNCTIONS(CS_LAZY_NAME)};
enum
{
    CS_CHOLMOD_FUNCTIONS(CS_LAZY_INDEX) CS_CHOLMOD_COUNT
};
static void* functions[CS_CHOLMOD_COUNT];
static cs_lazy_lib cholmod = {cs_cholmod_soname,
                              "pgs-sm and ipm with --subspace-solver cholmod",
                              names,
                              functions,
                              CS_CHOLMOD_COUNT,
                              cs_lazy_blas_one_thread,
                              ONCE_FLAG_INIT,
                              false};

static void load(void)
{
    cs_lazy_open(&cholmod);
}

static int missing_int(cholmod_common* c)
{
    c->status = CHOLMOD_NOT_INSTALLED;
    return 0; // (FALSE)
}

#define CS_FORWARD(ret, name, params, args, missing)                                                         \
    CS_LAZY_FORWARD(cholmod, load, ret, name, params, args, missing)
CS_CHOLMOD_FUNCTIONS(CS_FORWARD)
