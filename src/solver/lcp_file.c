// LCP snapshot files (.lcp) and solution files (.sol): shared LCP-FORMAT.md, version 1.
//
// The reader is strict on purpose: a frozen problem is evidence in a solver comparison, so a file
// that is not exactly what it claims to be (wrong counts, dangling links, NaNs) is rejected with
// "PATH:LINE: reason" instead of being half-read. Arrays grow as lines arrive, never from the
// counts in the header, so a lying header cannot make the reader allocate a huge block.
#include "circlesim/lcp.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
    MAX_TOKENS = 16, // longest record has 13 fields; two more let us name the first extra one
    MAX_COUNT = 1 << 26,
};

typedef struct reader
{
    const char* path;
    const char* text;
    size_t length;
    size_t pos;
    int line;     // line number of the current record (1-based)
    char* buffer; // copy of the current line, tokens point into it
    size_t buffer_capacity;
    char* tok[MAX_TOKENS];
    int ntok; // number of tokens on the line (may exceed MAX_TOKENS; only the first are kept)
    cs_error* err;
} reader;

static cs_status fail_at(reader* r, cs_status status, const char* what, const char* detail)
{
    return cs_fail(r->err, status, "%s:%d: %s%s", r->path, r->line, what, detail != NULL ? detail : "");
}

// Advances to the next line that holds a token. Returns 1 when a record was found, 0 at the end
// of the text, -1 on error (err filled).
static int next_record(reader* r)
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
        size_t n = end - start;
        if (memchr(r->text + start, '\0', n) != NULL)
        {
            fail_at(r, CS_ERR_PARSE, "binary data (NUL byte) in a text file", NULL);
            return -1;
        }
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
                cs_fail(r->err, CS_ERR_MEMORY, "%s:%d: out of memory", r->path, r->line);
                return -1;
            }
            r->buffer = q;
            r->buffer_capacity = cap;
        }
        memcpy(r->buffer, r->text + start, n);
        r->buffer[n] = '\0';
        char* hash = strchr(r->buffer, '#');
        if (hash != NULL)
        {
            *hash = '\0';
        }
        r->ntok = 0;
        char* s = r->buffer;
        for (;;)
        {
            while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f')
            {
                ++s;
            }
            if (*s == '\0')
            {
                break;
            }
            if (r->ntok < MAX_TOKENS)
            {
                r->tok[r->ntok] = s;
            }
            r->ntok += 1;
            while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\v' && *s != '\f')
            {
                ++s;
            }
            if (*s != '\0')
            {
                *s++ = '\0';
            }
        }
        if (r->ntok > 0)
        {
            return 1;
        }
    }
    return 0;
}

static cs_status expect_fields(reader* r, int expected, const char* record)
{
    if (r->ntok < expected)
    {
        char detail[160];
        snprintf(detail, sizeof detail, "%s: expected %d fields, found %d", record, expected, r->ntok);
        return fail_at(r, CS_ERR_PARSE, detail, NULL);
    }
    if (r->ntok > expected)
    {
        char detail[160];
        snprintf(detail, sizeof detail, "%s: trailing garbage '%.40s'", record, r->tok[expected]);
        return fail_at(r, CS_ERR_PARSE, detail, NULL);
    }
    return CS_OK;
}

static cs_status parse_int(reader* r, int index, const char* key, long min, long max, int* out)
{
    const char* t = r->tok[index];
    char* end = NULL;
    errno = 0;
    long value = strtol(t, &end, 10);
    if (end == t || *end != '\0' || errno == ERANGE)
    {
        return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: %s: expected an integer, found '%.40s'", r->path,
                       r->line, key, t);
    }
    if (value < min || value > max)
    {
        return cs_fail(r->err, CS_ERR_VALUE, "%s:%d: %s %ld out of range [%ld, %ld]", r->path, r->line, key,
                       value, min, max);
    }
    *out = (int)value;
    return CS_OK;
}

// Parses a strtod number; `finite` rejects inf/nan, otherwise only nan is rejected.
static cs_status parse_double(reader* r, int index, const char* key, bool finite, double* out)
{
    const char* t = r->tok[index];
    char* end = NULL;
    double value = strtod(t, &end);
    if (end == t || *end != '\0')
    {
        return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: %s: expected a number, found '%.40s'", r->path, r->line,
                       key, t);
    }
    if (isnan(value) || (finite && !isfinite(value)))
    {
        return cs_fail(r->err, CS_ERR_VALUE, "%s:%d: %s: %s number '%.40s' not allowed", r->path, r->line,
                       key, finite ? "non-finite" : "NaN", t);
    }
    *out = value;
    return CS_OK;
}

// "KEYWORD COUNT" header lines: bodies N, rows M.
static cs_status parse_count(reader* r, const char* keyword, int* out)
{
    if (strcmp(r->tok[0], keyword) != 0)
    {
        return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: expected '%s COUNT', found '%.40s'", r->path, r->line,
                       keyword, r->tok[0]);
    }
    cs_status s = expect_fields(r, 2, keyword);
    if (s != CS_OK)
    {
        return s;
    }
    return parse_int(r, 1, keyword, 0, MAX_COUNT, out);
}

static cs_status truncated(reader* r, const char* what, int expected, int found)
{
    return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: truncated: expected %d %s, found %d", r->path, r->line,
                   expected, what, found);
}

static const char* const jac_keys[6] = {"jax", "jay", "jaw", "jbx", "jby", "jbw"};

static cs_status parse_row(reader* r, cs_lcp* p, int i, int rows)
{
    const char* letter = r->tok[0];
    cs_row_kind kind;
    int fields;
    if (strcmp(letter, "n") == 0)
    {
        kind = CS_ROW_NORMAL;
        fields = 11;
    }
    else if (strcmp(letter, "f") == 0)
    {
        kind = CS_ROW_FRICTION;
        fields = 13;
    }
    else if (strcmp(letter, "c") == 0)
    {
        kind = CS_ROW_BOX;
        fields = 13;
    }
    else
    {
        return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: unknown row kind '%.40s' (expected n, f or c)", r->path,
                       r->line, letter);
    }
    char record[32];
    snprintf(record, sizeof record, "row %d ('%s')", i, letter);
    cs_status s = expect_fields(r, fields, record);
    if (s == CS_OK)
    {
        s = parse_int(r, 1, "body a", -1, p->body_count - 1L, &p->body_a[i]);
    }
    if (s == CS_OK)
    {
        s = parse_int(r, 2, "body b", -1, p->body_count - 1L, &p->body_b[i]);
    }
    double* jac = p->jac + 6 * i;
    for (int k = 0; k < 6 && s == CS_OK; ++k)
    {
        s = parse_double(r, 3 + k, jac_keys[k], true, &jac[k]);
    }
    if (s == CS_OK)
    {
        s = parse_double(r, 9, "bias", true, &p->bias[i]);
    }
    if (s == CS_OK)
    {
        s = parse_double(r, 10, "lambda0", true, &p->lambda0[i]);
    }
    if (s != CS_OK)
    {
        return s;
    }
    // A static half has no columns: nonzero numbers there would be silently dropped by every
    // solver, so they are an error in the file rather than data.
    for (int half = 0; half < 2; ++half)
    {
        int body = half == 0 ? p->body_a[i] : p->body_b[i];
        for (int k = 0; k < 3 && body < 0; ++k)
        {
            if (jac[3 * half + k] != 0.0)
            {
                return cs_fail(r->err, CS_ERR_VALUE,
                               "%s:%d: %s: body %c is static (-1) but its Jacobian %s is %.17g", r->path,
                               r->line, record, half == 0 ? 'a' : 'b', jac_keys[3 * half + k],
                               jac[3 * half + k]);
            }
        }
    }
    p->kind[i] = (uint8_t)kind;
    p->link[i] = -1;
    p->mu[i] = 0.0;
    p->lo[i] = 0.0;
    p->hi[i] = 0.0;
    if (kind == CS_ROW_NORMAL)
    {
        p->hi[i] = INFINITY;
    }
    else if (kind == CS_ROW_FRICTION)
    {
        s = parse_int(r, 11, "link", 0, rows - 1L, &p->link[i]);
        if (s == CS_OK)
        {
            s = parse_double(r, 12, "mu", true, &p->mu[i]);
        }
        if (s == CS_OK && p->mu[i] < 0.0)
        {
            return cs_fail(r->err, CS_ERR_VALUE, "%s:%d: mu %.17g is negative", r->path, r->line, p->mu[i]);
        }
    }
    else
    {
        s = parse_double(r, 11, "lo", false, &p->lo[i]);
        if (s == CS_OK)
        {
            s = parse_double(r, 12, "hi", false, &p->hi[i]);
        }
        if (s == CS_OK && (p->lo[i] > p->hi[i] || p->lo[i] == INFINITY || p->hi[i] == -INFINITY))
        {
            return cs_fail(r->err, CS_ERR_VALUE, "%s:%d: empty box: lo %.17g, hi %.17g", r->path, r->line,
                           p->lo[i], p->hi[i]);
        }
    }
    return s;
}

static cs_status parse_lcp(reader* r, cs_lcp* out, int** row_line)
{
    int got = next_record(r);
    if (got < 0)
    {
        return r->err != NULL ? r->err->status : CS_ERR_PARSE;
    }
    if (got == 0)
    {
        r->line = r->line > 0 ? r->line : 1;
        return fail_at(r, CS_ERR_PARSE, "empty file, expected 'circlesim-lcp 1'", NULL);
    }
    if (strcmp(r->tok[0], "circlesim-lcp") != 0)
    {
        return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: bad magic '%.40s', expected 'circlesim-lcp 1'", r->path,
                       r->line, r->tok[0]);
    }
    if (r->ntok >= 2 && strcmp(r->tok[1], "1") != 0)
    {
        return cs_fail(r->err, CS_ERR_PARSE,
                       "%s:%d: unsupported version '%.40s' (this reader knows version 1)", r->path, r->line,
                       r->tok[1]);
    }
    cs_status s = expect_fields(r, 2, "magic line");
    if (s != CS_OK)
    {
        return s;
    }

    out->name[0] = '\0';
    out->body_count = 0;
    out->row_count = 0;
    got = next_record(r);
    if (got > 0 && strcmp(r->tok[0], "name") == 0)
    {
        if ((s = expect_fields(r, 2, "name")) != CS_OK)
        {
            return s;
        }
        if (strlen(r->tok[1]) >= sizeof out->name)
        {
            return cs_fail(r->err, CS_ERR_VALUE, "%s:%d: name longer than %d characters", r->path, r->line,
                           (int)sizeof out->name - 1);
        }
        strcpy(out->name, r->tok[1]);
        got = next_record(r);
    }
    if (got < 0)
    {
        return r->err->status;
    }
    if (got == 0)
    {
        return fail_at(r, CS_ERR_PARSE, "truncated: missing 'bodies N'", NULL);
    }
    int bodies = 0;
    if ((s = parse_count(r, "bodies", &bodies)) != CS_OK)
    {
        return s;
    }
    for (int i = 0; i < bodies; ++i)
    {
        got = next_record(r);
        if (got < 0)
        {
            return r->err->status;
        }
        if (got == 0)
        {
            return truncated(r, "body lines", bodies, i);
        }
        if (strcmp(r->tok[0], "rows") == 0)
        {
            return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: counts do not match: 'bodies %d' but %d body lines",
                           r->path, r->line, bodies, i);
        }
        if ((s = cs_lcp_reserve(out, i + 1, 0, r->err)) != CS_OK)
        {
            return s;
        }
        if ((s = expect_fields(r, 5, "body")) != CS_OK)
        {
            return s;
        }
        double* v = out->v + 3 * i;
        if ((s = parse_double(r, 0, "inv_mass", true, &out->inv_mass[i])) != CS_OK ||
            (s = parse_double(r, 1, "inv_inertia", true, &out->inv_inertia[i])) != CS_OK ||
            (s = parse_double(r, 2, "vx", true, &v[0])) != CS_OK ||
            (s = parse_double(r, 3, "vy", true, &v[1])) != CS_OK ||
            (s = parse_double(r, 4, "omega", true, &v[2])) != CS_OK)
        {
            return s;
        }
        if (out->inv_mass[i] < 0.0 || out->inv_inertia[i] < 0.0)
        {
            return cs_fail(r->err, CS_ERR_VALUE, "%s:%d: body %d: negative %s", r->path, r->line, i,
                           out->inv_mass[i] < 0.0 ? "inv_mass" : "inv_inertia");
        }
        out->body_count = i + 1;
    }

    got = next_record(r);
    if (got < 0)
    {
        return r->err->status;
    }
    if (got == 0)
    {
        return fail_at(r, CS_ERR_PARSE, "truncated: missing 'rows M'", NULL);
    }
    if (strcmp(r->tok[0], "rows") != 0 && r->ntok == 5)
    {
        return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: counts do not match: more body lines than 'bodies %d'",
                       r->path, r->line, bodies);
    }
    int rows = 0;
    if ((s = parse_count(r, "rows", &rows)) != CS_OK)
    {
        return s;
    }
    int line_capacity = 0;
    for (int i = 0; i < rows; ++i)
    {
        got = next_record(r);
        if (got < 0)
        {
            return r->err->status;
        }
        if (got == 0)
        {
            return truncated(r, "row lines", rows, i);
        }
        if ((s = cs_lcp_reserve(out, 0, i + 1, r->err)) != CS_OK)
        {
            return s;
        }
        if (i >= line_capacity)
        {
            int cap = line_capacity > 0 ? 2 * line_capacity : 64;
            int* q = realloc(*row_line, (size_t)cap * sizeof(int));
            if (q == NULL)
            {
                return cs_fail(r->err, CS_ERR_MEMORY, "%s:%d: out of memory", r->path, r->line);
            }
            *row_line = q;
            line_capacity = cap;
        }
        (*row_line)[i] = r->line;
        if ((s = parse_row(r, out, i, rows)) != CS_OK)
        {
            return s;
        }
        out->row_count = i + 1;
    }
    got = next_record(r);
    if (got < 0)
    {
        return r->err->status;
    }
    if (got > 0)
    {
        bool row_like =
            strcmp(r->tok[0], "n") == 0 || strcmp(r->tok[0], "f") == 0 || strcmp(r->tok[0], "c") == 0;
        return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: %s '%.40s'", r->path, r->line,
                       row_like ? "counts do not match: more row lines than 'rows' says, at"
                                : "trailing garbage",
                       r->tok[0]);
    }
    // Links can point forward, so they are checked once every row's kind is known.
    for (int i = 0; i < rows; ++i)
    {
        if (out->kind[i] == CS_ROW_FRICTION && out->kind[out->link[i]] != CS_ROW_NORMAL)
        {
            r->line = (*row_line)[i];
            return cs_fail(r->err, CS_ERR_VALUE, "%s:%d: link %d does not name an 'n' row", r->path, r->line,
                           out->link[i]);
        }
    }
    return CS_OK;
}

static cs_status read_lcp_text(const char* text, size_t length, const char* name, cs_lcp* out, cs_error* err)
{
    cs_error local;
    reader r = {0};
    r.path = name != NULL ? name : "<string>";
    r.text = text;
    r.length = length;
    r.err = err != NULL ? err : &local;
    int* row_line = NULL;
    cs_status s = parse_lcp(&r, out, &row_line);
    free(row_line);
    free(r.buffer);
    if (s != CS_OK)
    {
        out->body_count = 0;
        out->row_count = 0;
    }
    return s;
}

cs_status cs_lcp_read_string(const char* text, const char* display_name, cs_lcp* out, cs_error* err)
{
    return read_lcp_text(text, strlen(text), display_name, out, err);
}

// Reads a whole file into a NUL-terminated buffer (*length excludes the terminator).
static cs_status slurp(const char* path, char** text, size_t* length, cs_error* err)
{
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    size_t capacity = 1 << 16;
    size_t used = 0;
    char* buffer = malloc(capacity);
    while (buffer != NULL)
    {
        if (used + 1 >= capacity)
        {
            char* q = realloc(buffer, capacity * 2);
            if (q == NULL)
            {
                free(buffer);
                buffer = NULL;
                break;
            }
            buffer = q;
            capacity *= 2;
        }
        size_t n = fread(buffer + used, 1, capacity - 1 - used, f);
        used += n;
        if (n == 0)
        {
            break;
        }
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (buffer == NULL)
    {
        return cs_fail(err, CS_ERR_MEMORY, "%s: out of memory reading the file", path);
    }
    if (bad)
    {
        free(buffer);
        return cs_fail(err, CS_ERR_IO, "%s: read error", path);
    }
    buffer[used] = '\0';
    *text = buffer;
    *length = used;
    return CS_OK;
}

cs_status cs_lcp_read(const char* path, cs_lcp* out, cs_error* err)
{
    char* text = NULL;
    size_t length = 0;
    cs_status s = slurp(path, &text, &length, err);
    if (s != CS_OK)
    {
        return s;
    }
    s = read_lcp_text(text, length, path, out, err);
    free(text);
    return s;
}

static bool is_token(const char* s)
{
    if (s[0] == '\0')
    {
        return false;
    }
    for (; *s != '\0'; ++s)
    {
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '#' || *s == '\v' || *s == '\f')
        {
            return false;
        }
    }
    return true;
}

static cs_status finish_write(FILE* f, const char* path, cs_error* err)
{
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
    {
        return cs_fail(err, CS_ERR_IO, "%s: write failed", path);
    }
    return CS_OK;
}

cs_status cs_lcp_write(const cs_lcp* p, const char* path, cs_error* err)
{
    if (p->name[0] != '\0' && !is_token(p->name))
    {
        return cs_fail(err, CS_ERR_VALUE, "%s: problem name '%s' is not one token", path, p->name);
    }
    FILE* f = fopen(path, "w");
    if (f == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    }
    static const char letters[3] = {'n', 'f', 'c'};
    fprintf(f, "circlesim-lcp 1\n");
    if (p->name[0] != '\0')
    {
        fprintf(f, "name %s\n", p->name);
    }
    fprintf(f, "bodies %d\n", p->body_count);
    for (int i = 0; i < p->body_count; ++i)
    {
        const double* v = p->v + 3 * i;
        fprintf(f, "%.17g %.17g %.17g %.17g %.17g\n", p->inv_mass[i], p->inv_inertia[i], v[0], v[1], v[2]);
    }
    fprintf(f, "rows %d\n", p->row_count);
    for (int i = 0; i < p->row_count; ++i)
    {
        const double* j = p->jac + 6 * i;
        int kind = p->kind[i] <= CS_ROW_BOX ? p->kind[i] : CS_ROW_NORMAL;
        fprintf(f, "%c %d %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", letters[kind], p->body_a[i],
                p->body_b[i], j[0], j[1], j[2], j[3], j[4], j[5], p->bias[i], p->lambda0[i]);
        if (kind == CS_ROW_FRICTION)
        {
            fprintf(f, " %d %.17g", p->link[i], p->mu[i]);
        }
        else if (kind == CS_ROW_BOX)
        {
            fprintf(f, " %.17g %.17g", p->lo[i], p->hi[i]);
        }
        fputc('\n', f);
    }
    return finish_write(f, path, err);
}

cs_status cs_solution_write(const char* path, const double* lambda, int rows, cs_error* err)
{
    FILE* f = fopen(path, "w");
    if (f == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    }
    fprintf(f, "circlesim-lcp-solution 1\nrows %d\n", rows);
    for (int i = 0; i < rows; ++i)
    {
        fprintf(f, "%.17g\n", lambda[i]);
    }
    return finish_write(f, path, err);
}

static cs_status parse_solution(reader* r, double* lambda, int capacity, int* rows_out)
{
    int got = next_record(r);
    if (got < 0)
    {
        return r->err->status;
    }
    if (got == 0)
    {
        r->line = r->line > 0 ? r->line : 1;
        return fail_at(r, CS_ERR_PARSE, "empty file, expected 'circlesim-lcp-solution 1'", NULL);
    }
    if (strcmp(r->tok[0], "circlesim-lcp-solution") != 0)
    {
        return cs_fail(r->err, CS_ERR_PARSE, "%s:%d: bad magic '%.40s', expected 'circlesim-lcp-solution 1'",
                       r->path, r->line, r->tok[0]);
    }
    if (r->ntok >= 2 && strcmp(r->tok[1], "1") != 0)
    {
        return cs_fail(r->err, CS_ERR_PARSE,
                       "%s:%d: unsupported version '%.40s' (this reader knows version 1)", r->path, r->line,
                       r->tok[1]);
    }
    cs_status s = expect_fields(r, 2, "magic line");
    if (s != CS_OK)
    {
        return s;
    }
    got = next_record(r);
    if (got <= 0)
    {
        return got < 0 ? r->err->status : fail_at(r, CS_ERR_PARSE, "truncated: missing 'rows M'", NULL);
    }
    int rows = 0;
    if ((s = parse_count(r, "rows", &rows)) != CS_OK)
    {
        return s;
    }
    if (rows > capacity)
    {
        return cs_fail(r->err, CS_ERR_VALUE, "%s:%d: %d rows, but the caller has room for %d", r->path,
                       r->line, rows, capacity);
    }
    for (int i = 0; i < rows; ++i)
    {
        got = next_record(r);
        if (got <= 0)
        {
            return got < 0 ? r->err->status : truncated(r, "values", rows, i);
        }
        if ((s = expect_fields(r, 1, "lambda")) != CS_OK ||
            (s = parse_double(r, 0, "lambda", true, &lambda[i])) != CS_OK)
        {
            return s;
        }
    }
    got = next_record(r);
    if (got != 0)
    {
        return got < 0 ? r->err->status
                       : fail_at(r, CS_ERR_PARSE, "trailing garbage after the last value", NULL);
    }
    *rows_out = rows;
    return CS_OK;
}

cs_status cs_solution_read(const char* path, double* lambda, int capacity, int* rows_out, cs_error* err)
{
    char* text = NULL;
    size_t length = 0;
    cs_status s = slurp(path, &text, &length, err);
    if (s != CS_OK)
    {
        return s;
    }
    cs_error local;
    reader r = {0};
    r.path = path;
    r.text = text;
    r.length = length;
    r.err = err != NULL ? err : &local;
    s = parse_solution(&r, lambda, capacity, rows_out);
    free(r.buffer);
    free(text);
    return s;
}
