// Writing LCP snapshot files (.lcp) and solution files (.sol): LCP-FORMAT.md version 1, or version 2 (a
// "reg" section after the rows) when a row is regularised (SPOOK contacts, springs).
//
// Every number is written with %.17g, so that reading a file back gives the same doubles bit for bit.
#include "circlesim/lcp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

// The name goes on one line as one token, so it must have no blanks and no '#'.
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
    int regularised = 0;
    for (int i = 0; p->reg != NULL && i < p->row_count; ++i)
    {
        regularised += p->reg[i] != 0.0;
    }
    FILE* f = fopen(path, "w");
    if (f == NULL)
    {
        return cs_fail(err, CS_ERR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    }
    static const char letters[3] = {'n', 'f', 'c'};
    fprintf(f, "circlesim-lcp %d\n", regularised > 0 ? 2 : 1);
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
    if (regularised > 0)
    {
        fprintf(f, "reg %d\n", regularised);
        for (int i = 0; i < p->row_count; ++i)
        {
            if (p->reg[i] != 0.0)
            {
                fprintf(f, "%d %.17g\n", i, p->reg[i]);
            }
        }
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
