// Libraries loaded on first use (dlopen) instead of at program start. CHOLMOD (pgs-sm's and ipm's sparse
// Cholesky) brings LAPACK, BLAS and OpenBLAS, whose constructor starts worker threads that spin; FCLIB
// (the .hdf5 problem files) brings HDF5 and with it curl, gnutls, krb5 and friends: 50 shared libraries that
// every run paid for at start (13 ms against 1.6 ms for a one-step run, and ~0.1 s of a spinning thread),
// though only pgs-sm/ipm with --subspace-solver cholmod and the FCLIB import/export use them.
//
// lazy_cholmod.c and lazy_fclib.c define the functions the library calls (cholmod_*, fclib_*, H5*) with
// their own prototypes (the libraries' headers); each forwards to the real one, loaded with its library on
// the first call. A library that cannot be loaded is said once on stderr, and each call then fails as the
// library reports failures (FALSE/NULL/negative), so the caller's error path names the operation.
#ifndef CS_LAZY_LIB_H
#define CS_LAZY_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <threads.h>

// The forwarding functions are not exported from the shared library (a program that links CHOLMOD, FCLIB
// or HDF5 itself keeps the real functions; inside circlesim they are the ones called).
#define CS_LAZY_HIDDEN __attribute__((visibility("hidden")))

typedef struct cs_lazy_lib
{
    const char* soname;       // what dlopen opens (CMake finds it: CS_CHOLMOD_SONAME, CS_FCLIB_SONAME)
    const char* purpose;      // for the message when it cannot be loaded
    const char* const* names; // the functions called through it
    void** functions;         // their addresses, count of them (NULL until loaded)
    int count;
    void (*before_open)(void); // NULL, or what must hold before its constructors run
    once_flag once;
    bool loaded; // every function found
} cs_lazy_lib;

// Loads lib on the first call (once, thread-safe, through load: a function that calls cs_lazy_open(lib),
// as call_once takes no argument) and copies the address of function k into *fn (size bytes: a function
// pointer). False when the library or the function is missing.
bool cs_lazy_function(cs_lazy_lib* lib, void (*load)(void), int k, void* fn, size_t size);
void cs_lazy_open(cs_lazy_lib* lib);

// Whether lib is loaded now (in this process, by anyone): for the tests.
bool cs_lazy_is_loaded(const char* soname);

// BLAS on one thread: OPENBLAS_NUM_THREADS=1 unless the environment sets it (to a non-empty value), before
// OpenBLAS's constructor reads it (CHOLMOD's simplicial factorisation, the one circlesim asks for, calls no
// BLAS at all; a second BLAS thread only spins on the core circlesim's own second thread needs).
void cs_lazy_blas_one_thread(void);

// The rows of a library's X-macro list, X(return type, name, parameters, arguments, result when the
// library is missing), as its names, as indices (CS_AT_name), and as forwarding functions through the
// cs_lazy_lib `lib` loaded by `load`.
#define CS_LAZY_NAME(ret, name, params, args, missing)  #name,
#define CS_LAZY_INDEX(ret, name, params, args, missing) CS_AT_##name,
#define CS_LAZY_FORWARD(lib, load, ret, name, params, args, missing)                                         \
    CS_LAZY_HIDDEN ret name params                                                                           \
    {                                                                                                        \
        ret(*f) params;                                                                                      \
        if (!cs_lazy_function(&(lib), (load), CS_AT_##name, &f, sizeof f))                                   \
        {                                                                                                    \
            return missing;                                                                                  \
        }                                                                                                    \
        return f args;                                                                                       \
    }

// The sonames of the two libraries (the functions the shims forward to).
extern const char cs_cholmod_soname[];
extern const char cs_fclib_soname[];

#endif
