// Records, fields and typed values of the LCP text formats (shared LCP-FORMAT.md, version 1).
//
// The line buffer grows with the longest line seen, never from a count in the file, so a lying
// header cannot make the reader allocate a huge block.
#include "solver/lcp_tokenizer.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"

void cs_lcp_reader_init(cs_lcp_reader* r, const char* path, const char* text, size_t length, cs_error* err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->text = text;
    r->length = length;
    r->err = err != NULL ? err : &r->local;
}

cs_status cs_lcp_reader_open(cs_lcp_reader* r, const char* path, cs_error* err)
{
    char* text = NULL;
    size_t length = 0;
    cs_status s = cs_read_text_file(path, CS_LCP_MAX_FILE_BYTES, &text, &length, err);
    if (s != CS_OK)
    {
        return s;
    }
    cs_lcp_reader_init(r, path, text, length, err);
    r->file = text;
    return CS_OK;
}

void cs_lcp_reader_free(cs_lcp_reader* r)
{
    free(r->buffer);
    free(r->file);
    r->buffer = NULL;
    r->file = NULL;
}

cs_status cs_lcp_fail(cs_lcp_reader* r, cs_status status, const char* fmt, ...)
{
    char reason[CS_ERROR_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    return cs_fail(r->err, status, "%s:%d: %s", r->path, r->line, reason);
}

cs_status cs_lcp_truncated(cs_lcp_reader* r, const char* what, int expected, int found)
{
    return cs_lcp_fail(r, CS_ERR_PARSE, "truncated: expected %d %s, found %d", expected, what, found);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// Copies the line [start, end) into the reader's buffer, growing it as needed.
static bool copy_line(cs_lcp_reader* r, size_t start, size_t end)
{
    size_t n = end - start;
    if (n + 1 > r->buffer_capacity)
    {
        size_t cap = r->buffer_capacity > 0 ? r->buffer_capacity : 256;
        while (cap < n + 1)
        {
            cap *= 2;
        }
        char* q = realloc(r->buffer, cap);
        if (q == NULL)
        {
            cs_lcp_fail(r, CS_ERR_MEMORY, "out of memory");
            return false;
        }
        r->buffer = q;
        r->buffer_capacity = cap;
    }
    memcpy(r->buffer, r->text + start, n);
    r->buffer[n] = '\0';
    return true;
}

// Splits the buffer at blanks, after cutting off a '#' comment.
static void split_tokens(cs_lcp_reader* r)
{
    char* hash = strchr(r->buffer, '#');
    if (hash != NULL)
    {
        *hash = '\0';
    }
    r->ntok = 0;
    char* s = r->buffer;
    for (;;)
    {
        while (is_blank(*s))
        {
            ++s;
        }
        if (*s == '\0')
        {
            break;
        }
        if (r->ntok < CS_LCP_MAX_TOKENS)
        {
            r->tok[r->ntok] = s;
        }
        r->ntok += 1;
        while (*s != '\0' && !is_blank(*s))
        {
            ++s;
        }
        if (*s != '\0')
        {
            *s++ = '\0';
        }
    }
}

int cs_lcp_next_record(cs_lcp_reader* r)
{
    while (r->pos < r->length)
    {
        size_t start = r->pos;
        size_t end = start;
        while (end < r->length && r->text[end] != '\n')
        {
            ++end;
        }
        r->pos = end < r->length ? end + 1 : end;
        r->line += 1;
        if (memchr(r->text + start, '\0', end - start) != NULL)
        {
            cs_lcp_fail(r, CS_ERR_PARSE, "binary data (NUL byte) in a text file");
            return -1;
        }
        if (!copy_line(r, start, end))
        {
            return -1;
        }
        split_tokens(r);
        if (r->ntok > 0)
        {
            return 1;
        }
    }
    return 0;
}

cs_status cs_lcp_expect_magic_version(cs_lcp_reader* r, const char* magic, int max_version, int* version)
{
    int got = cs_lcp_next_record(r);
    if (got < 0)
    {
        return r->err->status;
    }
    // What a good first line is: "'circlesim-lcp 1'", or with later versions "'circlesim-lcp 1' …
    // 'circlesim-lcp 2'".
    char expected[128];
    if (max_version > 1)
    {
        snprintf(expected, sizeof expected, "'%s 1' ... '%s %d'", magic, magic, max_version);
    }
    else
    {
        snprintf(expected, sizeof expected, "'%s 1'", magic);
    }
    if (got == 0)
    {
        r->line = r->line > 0 ? r->line : 1;
        return cs_lcp_fail(r, CS_ERR_PARSE, "empty file, expected %s", expected);
    }
    if (strcmp(r->tok[0], magic) != 0)
    {
        return cs_lcp_fail(r, CS_ERR_PARSE, "bad magic '%.40s', expected %s", r->tok[0], expected);
    }
    *version = 1;
    if (r->ntok >= 2)
    {
        const char* v = r->tok[1];
        *version = v[0] >= '1' && v[0] <= '9' && v[1] == '\0' ? v[0] - '0' : 0;
        if (*version < 1 || *version > max_version)
        {
            if (max_version == 1)
            {
                return cs_lcp_fail(r, CS_ERR_PARSE,
                                   "unsupported version '%.40s' (this reader knows version 1)", v);
            }
            return cs_lcp_fail(r, CS_ERR_PARSE,
                               "unsupported version '%.40s' (this reader knows versions 1 to %d)", v,
                               max_version);
        }
    }
    return cs_lcp_expect_fields(r, 2, "magic line");
}

cs_status cs_lcp_expect_magic(cs_lcp_reader* r, const char* magic)
{
    int version;
    return cs_lcp_expect_magic_version(r, magic, 1, &version);
}

cs_status cs_lcp_expect_fields(cs_lcp_reader* r, int expected, const char* record)
{
    if (r->ntok < expected)
    {
        return cs_lcp_fail(r, CS_ERR_PARSE, "%s: expected %d fields, found %d", record, expected, r->ntok);
    }
    if (r->ntok > expected)
    {
        return cs_lcp_fail(r, CS_ERR_PARSE, "%s: trailing garbage '%.40s'", record, r->tok[expected]);
    }
    return CS_OK;
}

cs_status cs_lcp_parse_int(cs_lcp_reader* r, int index, const char* key, long min, long max, int* out)
{
    const char* t = r->tok[index];
    char* end = NULL;
    errno = 0;
    long value = strtol(t, &end, 10);
    if (end == t || *end != '\0' || errno == ERANGE)
    {
        return cs_lcp_fail(r, CS_ERR_PARSE, "%s: expected an integer, found '%.40s'", key, t);
    }
    if (value < min || value > max)
    {
        return cs_lcp_fail(r, CS_ERR_VALUE, "%s %ld out of range [%ld, %ld]", key, value, min, max);
    }
    *out = (int)value;
    return CS_OK;
}

cs_status cs_lcp_parse_double(cs_lcp_reader* r, int index, const char* key, bool finite, double* out)
{
    const char* t = r->tok[index];
    char* end = NULL;
    double value = strtod(t, &end);
    if (end == t || *end != '\0')
    {
        return cs_lcp_fail(r, CS_ERR_PARSE, "%s: expected a number, found '%.40s'", key, t);
    }
    if (isnan(value) || (finite && !isfinite(value)))
    {
        return cs_lcp_fail(r, CS_ERR_VALUE, "%s: %s number '%.40s' not allowed", key,
                           finite ? "non-finite" : "NaN", t);
    }
    *out = value;
    return CS_OK;
}

cs_status cs_lcp_parse_count(cs_lcp_reader* r, const char* keyword, int* out)
{
    if (strcmp(r->tok[0], keyword) != 0)
    {
        return cs_lcp_fail(r, CS_ERR_PARSE, "expected '%s COUNT', found '%.40s'", keyword, r->tok[0]);
    }
    cs_status s = cs_lcp_expect_fields(r, 2, keyword);
    if (s != CS_OK)
    {
        return s;
    }
    return cs_lcp_parse_int(r, 1, keyword, 0, CS_LCP_MAX_COUNT, out);
}
