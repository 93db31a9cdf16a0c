// Reading LCP snapshot files (.lcp) and solution files (.sol): shared LCP-FORMAT.md, version 1.
//
// The reader is strict on purpose: a frozen problem is evidence in a solver comparison, so a file
// that is not exactly what it claims to be (wrong counts, dangling links, NaNs) is rejected with
// "PATH:LINE: reason" instead of being half-read. Arrays grow as lines arrive, never from the
// counts in the header, so a lying header cannot make the reader allocate a huge block.
#include "circlesim/lcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/lcp_tokenizer.h"

static const char* const jac_keys[6] = {"jax", "jay", "jaw", "jbx", "jby", "jbw"};

// Rows: "n A B J6 BIAS LAMBDA0", "f … LINK MU", "c … LO HI" ------------------------------------------

// The fields every row kind shares: bodies, Jacobian, bias and warm start.
static cs_status parse_row_common(cs_lcp_reader* r, cs_lcp* p, int i)
{
    cs_status s = cs_lcp_parse_int(r, 1, "body a", -1, p->body_count - 1L, &p->body_a[i]);
    if (s == CS_OK)
    {
        s = cs_lcp_parse_int(r, 2, "body b", -1, p->body_count - 1L, &p->body_b[i]);
    }
    double* jac = p->jac + 6 * i;
    for (int k = 0; k < 6 && s == CS_OK; ++k)
    {
        s = cs_lcp_parse_double(r, 3 + k, jac_keys[k], true, &jac[k]);
    }
    if (s == CS_OK)
    {
        s = cs_lcp_parse_double(r, 9, "bias", true, &p->bias[i]);
    }
    if (s == CS_OK)
    {
        s = cs_lcp_parse_double(r, 10, "lambda0", true, &p->lambda0[i]);
    }
    return s;
}

// A static half has no columns: nonzero numbers there would be silently dropped by every solver,
// so they are an error in the file rather than data.
static cs_status check_static_halves(cs_lcp_reader* r, const cs_lcp* p, int i, const char* record)
{
    const double* jac = p->jac + 6 * i;
    for (int half = 0; half < 2; ++half)
    {
        int body = half == 0 ? p->body_a[i] : p->body_b[i];
        for (int k = 0; k < 3 && body < 0; ++k)
        {
            if (jac[3 * half + k] != 0.0)
            {
                return cs_lcp_fail(r, CS_ERR_VALUE, "%s: body %c is static (-1) but its Jacobian %s is %.17g",
                                   record, half == 0 ? 'a' : 'b', jac_keys[3 * half + k], jac[3 * half + k]);
            }
        }
    }
    return CS_OK;
}

static cs_status parse_row(cs_lcp_reader* r, cs_lcp* p, int i, int rows)
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
        return cs_lcp_fail(r, CS_ERR_PARSE, "unknown row kind '%.40s' (expected n, f or c)", letter);
    }
    char record[32];
    snprintf(record, sizeof record, "row %d ('%s')", i, letter);
    cs_status s = cs_lcp_expect_fields(r, fields, record);
    if (s == CS_OK)
    {
        s = parse_row_common(r, p, i);
    }
    if (s == CS_OK)
    {
        s = check_static_halves(r, p, i, record);
    }
    if (s != CS_OK)
    {
        return s;
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
        s = cs_lcp_parse_int(r, 11, "link", 0, rows - 1L, &p->link[i]);
        if (s == CS_OK)
        {
            s = cs_lcp_parse_double(r, 12, "mu", true, &p->mu[i]);
        }
        if (s == CS_OK && p->mu[i] < 0.0)
        {
            return cs_lcp_fail(r, CS_ERR_VALUE, "mu %.17g is negative", p->mu[i]);
        }
    }
    else
    {
        s = cs_lcp_parse_double(r, 11, "lo", false, &p->lo[i]);
        if (s == CS_OK)
        {
            s = cs_lcp_parse_double(r, 12, "hi", false, &p->hi[i]);
        }
        if (s == CS_OK && (p->lo[i] > p->hi[i] || p->lo[i] == INFINITY || p->hi[i] == -INFINITY))
        {
            return cs_lcp_fail(r, CS_ERR_VALUE, "empty box: lo %.17g, hi %.17g", p->lo[i], p->hi[i]);
        }
    }
    return s;
}

// Sections of a .lcp file ------------------------------------------------------------------------------

// The optional "name NAME" line; leaves the reader on the first record after it.
static cs_status parse_name(cs_lcp_reader* r, cs_lcp* out, int* got)
{
    *got = cs_lcp_next_record(r);
    if (*got <= 0 || strcmp(r->tok[0], "name") != 0)
    {
        return CS_OK;
    }
    cs_status s = cs_lcp_expect_fields(r, 2, "name");
    if (s != CS_OK)
    {
        return s;
    }
    if (strlen(r->tok[1]) >= sizeof out->name)
    {
        return cs_lcp_fail(r, CS_ERR_VALUE, "name longer than %d characters", (int)sizeof out->name - 1);
    }
    strcpy(out->name, r->tok[1]);
    *got = cs_lcp_next_record(r);
    return CS_OK;
}

// "bodies N" (the current record) and the N body lines after it.
static cs_status parse_bodies(cs_lcp_reader* r, cs_lcp* out, int* bodies)
{
    cs_status s = cs_lcp_parse_count(r, "bodies", bodies);
    for (int i = 0; i < *bodies && s == CS_OK; ++i)
    {
        int got = cs_lcp_next_record(r);
        if (got <= 0)
        {
            return got < 0 ? r->err->status : cs_lcp_truncated(r, "body lines", *bodies, i);
        }
        if (strcmp(r->tok[0], "rows") == 0)
        {
            return cs_lcp_fail(r, CS_ERR_PARSE, "counts do not match: 'bodies %d' but %d body lines", *bodies,
                               i);
        }
        if ((s = cs_lcp_reserve(out, i + 1, 0, r->err)) != CS_OK ||
            (s = cs_lcp_expect_fields(r, 5, "body")) != CS_OK)
        {
            return s;
        }
        double* v = out->v + 3 * i;
        if ((s = cs_lcp_parse_double(r, 0, "inv_mass", true, &out->inv_mass[i])) != CS_OK ||
            (s = cs_lcp_parse_double(r, 1, "inv_inertia", true, &out->inv_inertia[i])) != CS_OK ||
            (s = cs_lcp_parse_double(r, 2, "vx", true, &v[0])) != CS_OK ||
            (s = cs_lcp_parse_double(r, 3, "vy", true, &v[1])) != CS_OK ||
            (s = cs_lcp_parse_double(r, 4, "omega", true, &v[2])) != CS_OK)
        {
            return s;
        }
        if (out->inv_mass[i] < 0.0 || out->inv_inertia[i] < 0.0)
        {
            return cs_lcp_fail(r, CS_ERR_VALUE, "body %d: negative %s", i,
                               out->inv_mass[i] < 0.0 ? "inv_mass" : "inv_inertia");
        }
        out->body_count = i + 1;
    }
    return s;
}

// "rows M" (the current record) and the M row lines after it; row_line[i] keeps each row's line
// number for the link check that can only run once every row is known.
static cs_status parse_rows(cs_lcp_reader* r, cs_lcp* out, int** row_line)
{
    int rows = 0;
    cs_status s = cs_lcp_parse_count(r, "rows", &rows);
    int line_capacity = 0;
    for (int i = 0; i < rows && s == CS_OK; ++i)
    {
        int got = cs_lcp_next_record(r);
        if (got <= 0)
        {
            return got < 0 ? r->err->status : cs_lcp_truncated(r, "row lines", rows, i);
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
                return cs_lcp_fail(r, CS_ERR_MEMORY, "out of memory");
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
    return s;
}

// Version 2's "reg K" (the current record) and its K lines "ROW EPS": the regularised rows, each once, EPS
// finite and > 0 on a normal or box row (w = (A + diag(reg))λ + q; rows not listed have 0).
static cs_status parse_reg(cs_lcp_reader* r, cs_lcp* out)
{
    int count = 0;
    cs_status s = cs_lcp_parse_count(r, "reg", &count);
    if (s == CS_OK && (s = cs_lcp_reserve_reg(out, true, r->err)) == CS_OK)
    {
        memset(out->reg, 0, (size_t)out->row_count * sizeof(double));
    }
    for (int k = 0; k < count && s == CS_OK; ++k)
    {
        int got = cs_lcp_next_record(r);
        if (got <= 0)
        {
            return got < 0 ? r->err->status : cs_lcp_truncated(r, "reg lines", count, k);
        }
        int row = 0;
        double eps = 0.0;
        if ((s = cs_lcp_expect_fields(r, 2, "reg line")) != CS_OK ||
            (s = cs_lcp_parse_int(r, 0, "row", 0, out->row_count - 1, &row)) != CS_OK ||
            (s = cs_lcp_parse_double(r, 1, "reg", true, &eps)) != CS_OK)
        {
            return s;
        }
        if (!(eps > 0.0) || out->kind[row] == CS_ROW_FRICTION || out->reg[row] != 0.0)
        {
            return cs_lcp_fail(r, CS_ERR_VALUE, "row %d: %s", row,
                               !(eps > 0.0)           ? "reg must be > 0"
                               : out->reg[row] != 0.0 ? "listed twice"
                                                      : "a friction row cannot be regularised");
        }
        out->reg[row] = eps;
    }
    return s;
}

static cs_status parse_lcp(cs_lcp_reader* r, cs_lcp* out, int** row_line)
{
    int version = 1;
    cs_status s = cs_lcp_expect_magic_version(r, "circlesim-lcp", 2, &version);
    if (s != CS_OK)
    {
        return s;
    }
    out->name[0] = '\0';
    out->body_count = 0;
    out->row_count = 0;
    int got = 0;
    if ((s = parse_name(r, out, &got)) != CS_OK)
    {
        return s;
    }
    if (got <= 0)
    {
        return got < 0 ? r->err->status : cs_lcp_fail(r, CS_ERR_PARSE, "truncated: missing 'bodies N'");
    }
    int bodies = 0;
    if ((s = parse_bodies(r, out, &bodies)) != CS_OK)
    {
        return s;
    }

    got = cs_lcp_next_record(r);
    if (got <= 0)
    {
        return got < 0 ? r->err->status : cs_lcp_fail(r, CS_ERR_PARSE, "truncated: missing 'rows M'");
    }
    if (strcmp(r->tok[0], "rows") != 0 && r->ntok == 5)
    {
        return cs_lcp_fail(r, CS_ERR_PARSE, "counts do not match: more body lines than 'bodies %d'", bodies);
    }
    if ((s = parse_rows(r, out, row_line)) != CS_OK || (s = cs_lcp_reserve_reg(out, false, r->err)) != CS_OK)
    {
        return s;
    }
    got = cs_lcp_next_record(r);
    if (got < 0)
    {
        return r->err->status;
    }
    if (got > 0 && version >= 2 && strcmp(r->tok[0], "reg") == 0)
    {
        if ((s = parse_reg(r, out)) != CS_OK || (got = cs_lcp_next_record(r)) < 0)
        {
            return got < 0 ? r->err->status : s;
        }
    }
    if (got > 0)
    {
        bool row_like =
            strcmp(r->tok[0], "n") == 0 || strcmp(r->tok[0], "f") == 0 || strcmp(r->tok[0], "c") == 0;
        return cs_lcp_fail(r, CS_ERR_PARSE, "%s '%.40s'",
                           row_like ? "counts do not match: more row lines than 'rows' says, at"
                                    : "trailing garbage",
                           r->tok[0]);
    }
    // Links can point forward, so they are checked once every row's kind is known.
    for (int i = 0; i < out->row_count; ++i)
    {
        if (out->kind[i] == CS_ROW_FRICTION && out->kind[out->link[i]] != CS_ROW_NORMAL)
        {
            r->line = (*row_line)[i];
            return cs_lcp_fail(r, CS_ERR_VALUE, "link %d does not name an 'n' row", out->link[i]);
        }
    }
    return CS_OK;
}

// Parses r's text into out and releases r; a failed read leaves out empty.
static cs_status read_lcp(cs_lcp_reader* r, cs_lcp* out)
{
    int* row_line = NULL;
    cs_status s = parse_lcp(r, out, &row_line);
    free(row_line);
    cs_lcp_reader_free(r);
    if (s != CS_OK)
    {
        out->body_count = 0;
        out->row_count = 0;
    }
    return s;
}

cs_status cs_lcp_read_string(const char* text, const char* display_name, cs_lcp* out, cs_error* err)
{
    cs_lcp_reader r;
    cs_lcp_reader_init(&r, display_name != NULL ? display_name : "<string>", text, strlen(text), err);
    return read_lcp(&r, out);
}

cs_status cs_lcp_read(const char* path, cs_lcp* out, cs_error* err)
{
    cs_lcp_reader r;
    cs_status s = cs_lcp_reader_open(&r, path, err);
    return s != CS_OK ? s : read_lcp(&r, out);
}

// Solution files: "circlesim-lcp-solution 1", "rows M", then M values -------------------------------------

static cs_status parse_solution(cs_lcp_reader* r, double* lambda, int capacity, int* rows_out)
{
    cs_status s = cs_lcp_expect_magic(r, "circlesim-lcp-solution");
    if (s != CS_OK)
    {
        return s;
    }
    int got = cs_lcp_next_record(r);
    if (got <= 0)
    {
        return got < 0 ? r->err->status : cs_lcp_fail(r, CS_ERR_PARSE, "truncated: missing 'rows M'");
    }
    int rows = 0;
    if ((s = cs_lcp_parse_count(r, "rows", &rows)) != CS_OK)
    {
        return s;
    }
    if (rows > capacity)
    {
        return cs_lcp_fail(r, CS_ERR_VALUE, "%d rows, but the caller has room for %d", rows, capacity);
    }
    for (int i = 0; i < rows; ++i)
    {
        got = cs_lcp_next_record(r);
        if (got <= 0)
        {
            return got < 0 ? r->err->status : cs_lcp_truncated(r, "values", rows, i);
        }
        if ((s = cs_lcp_expect_fields(r, 1, "lambda")) != CS_OK ||
            (s = cs_lcp_parse_double(r, 0, "lambda", true, &lambda[i])) != CS_OK)
        {
            return s;
        }
    }
    got = cs_lcp_next_record(r);
    if (got != 0)
    {
        return got < 0 ? r->err->status
                       : cs_lcp_fail(r, CS_ERR_PARSE, "trailing garbage after the last value");
    }
    *rows_out = rows;
    return CS_OK;
}

cs_status cs_solution_read(const char* path, double* lambda, int capacity, int* rows_out, cs_error* err)
{
    cs_lcp_reader r;
    cs_status s = cs_lcp_reader_open(&r, path, err);
    if (s != CS_OK)
    {
        return s;
    }
    s = parse_solution(&r, lambda, capacity, rows_out);
    cs_lcp_reader_free(&r);
    return s;
}
