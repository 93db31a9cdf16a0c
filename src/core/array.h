// Growable arrays: geometric growth, never shrink, so steady-state steps allocate nothing.
#ifndef CS_ARRAY_H
#define CS_ARRAY_H

#include <stdbool.h>
#include <stddef.h>

// A capacity >= needed: at least double the current one (and at least 16).
int cs_grow_capacity(int current, int needed);
// realloc to count elements; on failure the old block is kept and false returned.
bool cs_resize(void** p, int count, size_t element_size);
// Grows *p (with capacity *cap) to hold needed elements; updates *cap.
bool cs_grow(void** p, int* cap, int needed, size_t element_size);

#define CS_RESIZE(p, n)         cs_resize((void**)&(p), (n), sizeof *(p))
#define CS_GROW(p, cap, needed) ((needed) <= (cap) || cs_grow((void**)&(p), &(cap), (needed), sizeof *(p)))

#endif
