// fuzz_text.h: the fuzzers' one way to turn libFuzzer's bytes into the NUL-terminated text the readers take.
#ifndef CIRCLESIM_FUZZ_TEXT_H
#define CIRCLESIM_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// A malloc'd copy of data with a NUL after it (the caller frees it), or NULL when out of memory.
static inline char* fuzz_text(const uint8_t* data, size_t size)
{
    char* text = malloc(size + 1);
    if (text != NULL)
    {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

#endif
