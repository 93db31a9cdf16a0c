// FCLIB's functions and the HDF5 functions the FCLIB reader and writer call themselves, loaded with
// libfclib (which brings HDF5 and its high-level library) on the first call (lazy_lib.h); the prototypes
// are fclib.h's and HDF5's. A failed load makes each call fail as the library says failure: NULL, 0 from
// fclib's writers, a negative herr_t/hid_t from HDF5.
#include <fclib.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include "core/lazy_lib.h"

// X(return type, name, parameters, arguments, result when the library is missing)
#define CS_FCLIB_FUNCTIONS(X)                                                                                \
    X(int, fclib_write_global, (struct fclib_global * p, const char* path), (p, path), 0)                    \
    X(int, fclib_write_local, (struct fclib_local * p, const char* path), (p, path), 0)                      \
    X(int, fclib_write_guesses, (int n, struct fclib_solution* g, const char* path), (n, g, path), 0)        \
    X(struct fclib_global*, fclib_read_global, (const char* path), (path), NULL)                             \
    X(herr_t, H5open, (void), (), -1)                                                                        \
    X(herr_t, H5check_version, (unsigned major, unsigned minor, unsigned release), (major, minor, release),  \
      -1)                                                                                                    \
    X(herr_t, H5Eget_auto2, (hid_t stack, H5E_auto2_t * func, void** data), (stack, func, data), -1)         \
    X(herr_t, H5Eset_auto2, (hid_t stack, H5E_auto2_t func, void* data), (stack, func, data), -1)            \
    X(hid_t, H5Fopen, (const char* name, unsigned flags, hid_t fapl), (name, flags, fapl), -1)               \
    X(herr_t, H5Fclose, (hid_t file), (file), -1)                                                            \
    X(hid_t, H5Gcreate2, (hid_t loc, const char* name, hid_t lcpl, hid_t gcpl, hid_t gapl),                  \
      (loc, name, lcpl, gcpl, gapl), -1)                                                                     \
    X(herr_t, H5Gclose, (hid_t group), (group), -1)                                                          \
    X(htri_t, H5Lexists, (hid_t loc, const char* name, hid_t lapl), (loc, name, lapl), -1)                   \
    X(herr_t, H5LTget_dataset_ndims, (hid_t loc, const char* name, int* rank), (loc, name, rank), -1)        \
    X(herr_t, H5LTget_dataset_info,                                                                          \
      (hid_t loc, const char* name, hsize_t* dims, H5T_class_t* type_class, size_t* type_size),              \
      (loc, name, dims, type_class, type_size), -1)                                                          \
    X(herr_t, H5LTmake_dataset_double,                                                                       \
      (hid_t loc, const char* name, int rank, const hsize_t* dims, const double* buffer),                    \
      (loc, name, rank, dims, buffer), -1)                                                                   \
    X(herr_t, H5LTmake_dataset_int,                                                                          \
      (hid_t loc, const char* name, int rank, const hsize_t* dims, const int* b),                            \
      (loc, name, rank, dims, b), -1)                                                                        \
    X(herr_t, H5LTmake_dataset_string, (hid_t loc, const char* name, const char* buffer),                    \
      (loc, name, buffer), -1)                                                                               \
    X(herr_t, H5LTread_dataset_double, (hid_t loc, const char* name, double* buffer), (loc, name, buffer),   \
      -1)                                                                                                    \
    X(herr_t, H5LTread_dataset_int, (hid_t loc, const char* name, int* buffer), (loc, name, buffer), -1)     \
    X(herr_t, H5LTread_dataset_string, (hid_t loc, const char* name, char* buffer), (loc, name, buffer), -1)

static const char* const names[] = {CS_FCLIB_FUNCTIONS(CS_LAZY_NAME) "fclib_delete_global"};
enum
{
    CS_FCLIB_FUNCTIONS(CS_LAZY_INDEX) CS_AT_fclib_delete_global,
    CS_FCLIB_COUNT
};
static void* functions[CS_FCLIB_COUNT];
static cs_lazy_lib fclib = {
    cs_fclib_soname, "FCLIB problem files", names, functions, CS_FCLIB_COUNT, NULL, ONCE_FLAG_INIT, false};

static void load(void)
{
    cs_lazy_open(&fclib);
}

#define CS_FORWARD(ret, name, params, args, missing)                                                         \
    CS_LAZY_FORWARD(fclib, load, ret, name, params, args, missing)
CS_FCLIB_FUNCTIONS(CS_FORWARD)

// (fclib_delete_global returns nothing: a missing library has nothing to free.)
CS_LAZY_HIDDEN void fclib_delete_global(struct fclib_global* p)
{
    void (*f)(struct fclib_global*);
    if (cs_lazy_function(&fclib, load, CS_AT_fclib_delete_global, &f, sizeof f))
    {
        f(p);
    }
}
