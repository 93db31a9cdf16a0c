// Located JSON values: paths from the root, source positions found by re-walking the text, and the
// one-line "FILE:LINE:COL: PATH: message" errors built from them.
#include "scene/scene_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// Paths ------------------------------------------------------------------------------------------------

cs_jval cs_jval_root(const cJSON* root)
{
    cs_jval v;
    memset(&v, 0, sizeof v);
    v.json = root;
    return v;
}

cs_jval cs_jval_child(const cs_jval* parent, const cJSON* child, int ordinal)
{
    cs_jval v = *parent;
    v.json = child;
    // Scene files are shallow; a deeper value keeps its parent's path (still a valid location).
    if (v.depth < CS_JPATH_MAX)
    {
        v.step[v.depth].key =
            cJSON_IsObject(parent->json) ? (child->string != NULL ? child->string : "") : NULL;
        v.step[v.depth].index = ordinal;
        v.depth += 1;
    }
    return v;
}

bool cs_jval_member(const cs_jval* object, const char* key, cs_jval* out)
{
    if (!cJSON_IsObject(object->json))
    {
        return false;
    }
    int ordinal = 0;
    for (const cJSON* child = object->json->child; child != NULL; child = child->next, ++ordinal)
    {
        if (child->string != NULL && strcmp(child->string, key) == 0)
        {
            *out = cs_jval_child(object, child, ordinal);
            return true;
        }
    }
    return false;
}

bool cs_jhas(const cs_jval* object, const char* key)
{
    cs_jval unused;
    return cs_jval_member(object, key, &unused);
}

static bool is_identifier(const char* s)
{
    if (s[0] == '\0' || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
    {
        return false;
    }
    for (const char* p = s; *p != '\0'; ++p)
    {
        char ch = *p;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
              ch == '-'))
        {
            return false;
        }
    }
    return true;
}

void cs_json_quote(const char* s, char* buffer, size_t size)
{
    // Messages must stay one line whatever a key or string contains.
    size_t used = 0;
    const size_t limit = 40;
    if (size < 8)
    {
        if (size > 0)
        {
            buffer[0] = '\0';
        }
        return;
    }
    buffer[used++] = '"';
    size_t count = 0;
    for (const unsigned char* p = (const unsigned char*)s; *p != '\0'; ++p, ++count)
    {
        char piece[8];
        if (count >= limit)
        {
            snprintf(piece, sizeof piece, "...");
            p += strlen((const char*)p) - 1;
        }
        else if (*p == '"' || *p == '\\')
        {
            snprintf(piece, sizeof piece, "\\%c", *p);
        }
        else if (*p < 32 || *p == 127)
        {
            snprintf(piece, sizeof piece, "\\x%02x", *p);
        }
        else
        {
            piece[0] = (char)*p;
            piece[1] = '\0';
        }
        size_t n = strlen(piece);
        if (used + n + 2 > size)
        {
            break;
        }
        memcpy(buffer + used, piece, n);
        used += n;
    }
    buffer[used++] = '"';
    buffer[used] = '\0';
}

void cs_jval_path(const cs_jval* v, char* buffer, size_t size)
{
    size_t used = 0;
    buffer[0] = '\0';
    for (int i = 0; i < v->depth && used + 1 < size; ++i)
    {
        char piece[96];
        const cs_jstep* s = &v->step[i];
        if (s->key == NULL)
        {
            snprintf(piece, sizeof piece, "[%d]", s->index);
        }
        else if (is_identifier(s->key))
        {
            snprintf(piece, sizeof piece, "%s%.60s", i == 0 ? "" : ".", s->key);
        }
        else
        {
            char quoted[64];
            cs_json_quote(s->key, quoted, sizeof quoted);
            snprintf(piece, sizeof piece, "[%s]", quoted);
        }
        int n = snprintf(buffer + used, size - used, "%s", piece);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used >= size)
    {
        buffer[size - 1] = '\0';
    }
}

// Source positions: a tokenizer that only skips, run over text cJSON already accepted ------------------

static const char* skip_ws(const char* p)
{
    // cJSON treats every byte up to and including the space as white space; so do we.
    while (*p != '\0' && (unsigned char)*p <= 32)
    {
        ++p;
    }
    return p;
}

static const char* skip_string(const char* p)
{
    ++p; // opening quote
    while (*p != '\0' && *p != '"')
    {
        if (*p == '\\' && p[1] != '\0')
        {
            ++p;
        }
        ++p;
    }
    return *p == '"' ? p + 1 : p;
}

static const char* skip_scalar(const char* p)
{
    while (*p != '\0' && *p != ',' && *p != '}' && *p != ']' && *p != ':' && (unsigned char)*p > 32)
    {
        ++p;
    }
    return p;
}

// Skips one value without recursion, so nesting depth never matters.
static const char* skip_value(const char* p)
{
    p = skip_ws(p);
    if (*p == '"')
    {
        return skip_string(p);
    }
    if (*p != '{' && *p != '[')
    {
        return skip_scalar(p);
    }
    long depth = 0;
    while (*p != '\0')
    {
        if (*p == '"')
        {
            p = skip_string(p);
            continue;
        }
        if (*p == '{' || *p == '[')
        {
            ++depth;
        }
        else if (*p == '}' || *p == ']')
        {
            if (--depth == 0)
            {
                return p + 1;
            }
        }
        ++p;
    }
    return p;
}

const char* cs_json_locate(const char* text, const cs_jval* v, bool key)
{
    const char* p = text;
    if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
    {
        p += 3;
    }
    p = skip_ws(p);
    const char* key_at = p;
    for (int d = 0; d < v->depth; ++d)
    {
        const cs_jstep* s = &v->step[d];
        const char* container = p;
        if (*p != (s->key != NULL ? '{' : '['))
        {
            return container;
        }
        p = skip_ws(p + 1);
        for (int i = 0;; ++i)
        {
            if (s->key != NULL)
            {
                if (*p != '"')
                {
                    return container;
                }
                key_at = p;
                p = skip_ws(skip_string(p));
                if (*p != ':')
                {
                    return container;
                }
                p = skip_ws(p + 1);
            }
            if (i == s->index)
            {
                break;
            }
            p = skip_ws(skip_value(p));
            if (*p != ',')
            {
                return container;
            }
            p = skip_ws(p + 1);
        }
        if (s->key == NULL)
        {
            key_at = p;
        }
    }
    return key ? key_at : p;
}

void cs_json_position(const char* text, const char* at, int* line, int* column)
{
    int l = 1, col = 1;
    for (const char* p = text; p < at && *p != '\0'; ++p)
    {
        if (*p == '\n')
        {
            ++l;
            col = 1;
        }
        else if (((unsigned char)*p & 0xC0) != 0x80)
        {
            ++col; // columns count characters: UTF-8 continuation bytes do not start one
        }
    }
    *line = l;
    *column = col;
}

void cs_jval_describe(const cs_jctx* c, const cs_jval* v, char* buffer, size_t size)
{
    const cJSON* j = v->json;
    if (cJSON_IsString(j))
    {
        char quoted[64];
        cs_json_quote(j->valuestring, quoted, sizeof quoted);
        snprintf(buffer, size, "the string %s", quoted);
    }
    else if (cJSON_IsObject(j))
    {
        snprintf(buffer, size, "an object");
    }
    else if (cJSON_IsArray(j))
    {
        snprintf(buffer, size, "an array of %d", cJSON_GetArraySize(j));
    }
    else
    {
        // Numbers, booleans and null: print what the file says (1e999, not inf).
        const char* at = cs_json_locate(c->text, v, false);
        const char* end = skip_scalar(at);
        int n = (int)(end - at);
        if (n > 40)
        {
            snprintf(buffer, size, "%.40s...", at);
        }
        else
        {
            snprintf(buffer, size, "%.*s", n, at);
        }
    }
}

// Errors -----------------------------------------------------------------------------------------------

void cs_jlocate_message(const cs_jctx* c, const cs_jval* at, bool key, char* buffer, size_t size,
                        const char* fmt, va_list args)
{
    char what[CS_ERROR_MAX];
    vsnprintf(what, sizeof what, fmt, args);
    char path[256];
    cs_jval_path(at, path, sizeof path);
    int line, column;
    cs_json_position(c->text, cs_json_locate(c->text, at, key), &line, &column);
    if (path[0] != '\0')
    {
        snprintf(buffer, size, "%s:%d:%d: %s: %s", c->file, line, column, path, what);
    }
    else
    {
        snprintf(buffer, size, "%s:%d:%d: %s", c->file, line, column, what);
    }
}

static bool vfail(const cs_jctx* c, const cs_jval* at, bool key, const char* fmt, va_list args)
{
    char message[CS_ERROR_MAX];
    cs_jlocate_message(c, at, key, message, sizeof message, fmt, args);
    cs_fail(c->err, CS_ERR_VALUE, "%s", message);
    return false;
}

bool cs_jfail(const cs_jctx* c, const cs_jval* at, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfail(c, at, false, fmt, args);
    va_end(args);
    return false;
}

bool cs_jfail_key(const cs_jctx* c, const cs_jval* at, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfail(c, at, true, fmt, args);
    va_end(args);
    return false;
}

bool cs_jfail_expected(const cs_jctx* c, const cs_jval* v, const char* expected)
{
    char got[96];
    cs_jval_describe(c, v, got, sizeof got);
    return cs_jfail(c, v, "must be %s, got %s", expected, got);
}
