#include "core/array.h"

#include <stdlib.h>

int cs_grow_capacity(int current, int needed)
{
    int cap = current < 16 ? 16 : current;
    while (cap < needed)
    {
        cap = cap > (1 << 29) ? needed : 2 * cap;
    }
    return cap;
}

bool cs_resize(void** p, int count, size_t element_size)
{
    void* q = realloc(*p, (size_t)(count > 0 ? count : 1) * element_size);
    if (q == NULL)
    {
        return false;
    }
    *p = q;
    return true;
}

bool cs_grow(void** p, int* cap, int needed, size_t element_size)
{
    if (needed <= *cap)
    {
        return true;
    }
    int next = cs_grow_capacity(*cap, needed);
    if (!cs_resize(p, next, element_size))
    {
        return false;
    }
    *cap = next;
    return true;
}
