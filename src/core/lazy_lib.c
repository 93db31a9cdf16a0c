#include "core/lazy_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cs_cholmod_soname[] = CS_CHOLMOD_SONAME;
const char cs_fclib_soname[] = CS_FCLIB_SONAME;

void cs_lazy_blas_one_thread(void)
{
    const char* set = getenv("OPENBLAS_NUM_THREADS");
    if (set == NULL || set[0] == '\0') // (an explicit setting stays; an empty one is OpenBLAS's default)
    {
        setenv("OPENBLAS_NUM_THREADS", "1", 1);
    }
}

void cs_lazy_open(cs_lazy_lib* lib)
{
    if (lib->before_open != NULL)
    {
        lib->before_open();
    }
    // RTLD_LOCAL: the library's symbols stay out of the global scope (only these shims call it).
    void* handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL)
    {
        fprintf(stderr, "circlesim: cannot load %s (%s): %s\n", lib->soname, lib->purpose, dlerror());
        return;
    }
    for (int k = 0; k < lib->count; ++k)
    {
        lib->functions[k] = dlsym(handle, lib->names[k]);
        if (lib->functions[k] == NULL)
        {
            fprintf(stderr, "circlesim: %s has no function %s (%s)\n", lib->soname, lib->names[k],
                    lib->purpose);
            return; // (the handle stays open: the functions found so far are not called)
        }
    }
    lib->loaded = true;
}

bool cs_lazy_function(cs_lazy_lib* lib, void (*load)(void), int k, void* fn, size_t size)
{
    call_once(&lib->once, load);
    if (!lib->loaded)
    {
        return false;
    }
    memcpy(fn, &lib->functions[k], size); // (a void* from dlsym into a function pointer, as POSIX allows)
    return true;
}

bool cs_lazy_is_loaded(const char* soname)
{
    void* handle = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (handle == NULL)
    {
        return false;
    }
    dlclose(handle); // (NOLOAD took a reference)
    return true;
}
