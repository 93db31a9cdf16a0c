// The line layer shared by the .lcp and .sol readers (shared LCP-FORMAT.md): records of
// whitespace-separated tokens, '#' comments, typed fields, and errors as "PATH:LINE: reason".
#ifndef CS_LCP_TOKENIZER_H
#define CS_LCP_TOKENIZER_H

#include <stdbool.h>
#include <stddef.h>

#include "circlesim/base.h"

enum
{
    CS_LCP_MAX_TOKENS = 16, // longest record has 13 fields; two more let us name the first extra one
    CS_LCP_MAX_COUNT = 1 << 26,
};

typedef struct cs_lcp_reader
{
    const char* path;
    const char* text;
    size_t length;
    size_t pos;
    int line;     // line number of the current record (1-based)
    char* buffer; // copy of the current line, tokens point into it
    size_t buffer_capacity;
    char* tok[CS_LCP_MAX_TOKENS];
    int ntok;   // number of tokens on the line (may exceed CS_LCP_MAX_TOKENS; only the first are kept)
    char* file; // the text, when the reader read it from a file (owned)
    cs_error* err;
    cs_error local; // where errors go when the caller passed no cs_error
} cs_lcp_reader;

// Reads text[0, length) shown as path in messages; errors go to err (or nowhere when NULL).
void cs_lcp_reader_init(cs_lcp_reader* r, const char* path, const char* text, size_t length, cs_error* err);
// Reads the whole file at path into memory and initialises r over it.
cs_status cs_lcp_reader_open(cs_lcp_reader* r, const char* path, cs_error* err);
void cs_lcp_reader_free(cs_lcp_reader* r);

// Advances to the next line that holds a token. Returns 1 when a record was found, 0 at the end
// of the text, -1 on error (err filled).
int cs_lcp_next_record(cs_lcp_reader* r);

// Fills err with "PATH:LINE: " and the formatted reason; returns status.
cs_status cs_lcp_fail(cs_lcp_reader* r, cs_status status, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
// "truncated: expected N WHAT, found K".
cs_status cs_lcp_truncated(cs_lcp_reader* r, const char* what, int expected, int found);

// Reads the first record and checks that it is "MAGIC 1".
cs_status cs_lcp_expect_magic(cs_lcp_reader* r, const char* magic);
// The magic line of a format with versions 1..max_version; *version gets the file's.
cs_status cs_lcp_expect_magic_version(cs_lcp_reader* r, const char* magic, int max_version, int* version);
// Checks that the current record has exactly `expected` tokens; `record` names it in messages.
cs_status cs_lcp_expect_fields(cs_lcp_reader* r, int expected, const char* record);
// Token `index` of the current record as an integer in [min, max]; `key` names it in messages.
cs_status cs_lcp_parse_int(cs_lcp_reader* r, int index, const char* key, long min, long max, int* out);
// Token `index` as a strtod number; `finite` rejects inf/nan, otherwise only nan is rejected.
cs_status cs_lcp_parse_double(cs_lcp_reader* r, int index, const char* key, bool finite, double* out);
// A "KEYWORD COUNT" header line (bodies N, rows M) with 0 <= COUNT <= CS_LCP_MAX_COUNT.
cs_status cs_lcp_parse_count(cs_lcp_reader* r, const char* keyword, int* out);

#endif
