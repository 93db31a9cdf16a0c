// Located JSON values: paths, source positions, one-line errors and checked readers.
#include "scene/scene_json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

static bool vfail(const cs_jctx* c, const cs_jval* at, bool key, const char* fmt, va_list args)
{
    char what[CS_ERROR_MAX];
    vsnprintf(what, sizeof what, fmt, args);
    char path[256];
    cs_jval_path(at, path, sizeof path);
    int line, column;
    cs_json_position(c->text, cs_json_locate(c->text, at, key), &line, &column);
    if (path[0] != '\0')
    {
        cs_fail(c->err, CS_ERR_VALUE, "%s:%d:%d: %s: %s", c->file, line, column, path, what);
    }
    else
    {
        cs_fail(c->err, CS_ERR_VALUE, "%s:%d:%d: %s", c->file, line, column, what);
    }
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

// Structure --------------------------------------------------------------------------------------------

static const char* type_name(int type)
{
    switch (type)
    {
        case cJSON_Object:
            return "an object";
        case cJSON_Array:
            return "an array";
        case cJSON_String:
            return "a string";
        case cJSON_Number:
            return "a number";
        case cJSON_True:
        case cJSON_False:
            return "true or false";
        default:
            return "a value";
    }
}

bool cs_jcheck_type(const cs_jctx* c, const cs_jval* v, int cjson_type, const char* what)
{
    int type = v->json->type & 0xFF;
    bool ok = cjson_type == cJSON_True || cjson_type == cJSON_False
                  ? (type == cJSON_True || type == cJSON_False)
                  : type == cjson_type;
    if (ok)
    {
        return true;
    }
    char got[96];
    cs_jval_describe(c, v, got, sizeof got);
    return cs_jfail(c, v, "must be %s, got %s", what != NULL ? what : type_name(cjson_type), got);
}

// Edit distance for "did you mean": keys are short, so the quadratic table is tiny.
static int edit_distance(const char* a, const char* b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 31 || lb > 31)
    {
        return 99;
    }
    int row[32];
    for (size_t j = 0; j <= lb; ++j)
    {
        row[j] = (int)j;
    }
    for (size_t i = 1; i <= la; ++i)
    {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; ++j)
        {
            int above = row[j];
            int best = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            best = above + 1 < best ? above + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

static bool duplicate(const cs_jctx* c, const cs_jval* object, const cJSON* first, int first_ordinal,
                      const cJSON* second, int second_ordinal)
{
    cs_jval a = cs_jval_child(object, first, first_ordinal);
    cs_jval b = cs_jval_child(object, second, second_ordinal);
    int line, column;
    cs_json_position(c->text, cs_json_locate(c->text, &a, true), &line, &column);
    return cs_jfail_key(c, &b, "duplicate key (first given at line %d, column %d)", line, column);
}

static bool unknown(const cs_jctx* c, const cs_jval* member, const char* key, const char* const* allowed)
{
    const char* suggestion = NULL;
    int best = 3;
    for (const char* const* a = allowed; *a != NULL; ++a)
    {
        int d = edit_distance(*a, key);
        if (d < best && d * 3 <= (int)strlen(*a))
        {
            best = d;
            suggestion = *a;
        }
    }
    if (suggestion != NULL)
    {
        return cs_jfail_key(c, member, "unknown key (did you mean \"%s\"?)", suggestion);
    }
    char list[320];
    size_t used = 0;
    list[0] = '\0';
    for (const char* const* a = allowed; *a != NULL && used + 1 < sizeof list; ++a)
    {
        int n = snprintf(list + used, sizeof list - used, "%s%s", a == allowed ? "" : ", ", *a);
        used += n > 0 ? (size_t)n : 0;
    }
    return cs_jfail_key(c, member, "unknown key (allowed here: %s)", list);
}

typedef struct key_entry
{
    const cJSON* member;
    int ordinal;
} key_entry;

static int same_key(const cJSON* a, const cJSON* b)
{
    return strcmp(a->string != NULL ? a->string : "", b->string != NULL ? b->string : "");
}

static int compare_keys(const void* a, const void* b)
{
    const key_entry* x = a;
    const key_entry* y = b;
    int d = same_key(x->member, y->member);
    return d != 0 ? d : (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

// Free-form keys (material names): sort to find repeats in O(k log k) however large the object.
static bool check_free_keys(const cs_jctx* c, const cs_jval* v)
{
    int count = cJSON_GetArraySize(v->json);
    if (count < 2)
    {
        return true;
    }
    key_entry* entries = malloc((size_t)count * sizeof *entries);
    if (entries == NULL)
    {
        cs_fail(c->err, CS_ERR_MEMORY, "%s: out of memory checking keys", c->file);
        return false;
    }
    int ordinal = 0;
    for (const cJSON* child = v->json->child; child != NULL && ordinal < count;
         child = child->next, ++ordinal)
    {
        entries[ordinal].member = child;
        entries[ordinal].ordinal = ordinal;
    }
    qsort(entries, (size_t)count, sizeof *entries, compare_keys);
    // Report the repeat that comes first in the file, against its first occurrence.
    int best = -1;
    for (int i = 1; i < count; ++i)
    {
        if (same_key(entries[i].member, entries[i - 1].member) == 0 &&
            (best < 0 || entries[i].ordinal < entries[best].ordinal))
        {
            best = i;
        }
    }
    bool ok = true;
    if (best >= 0)
    {
        int first = best - 1;
        while (first > 0 && same_key(entries[first - 1].member, entries[best].member) == 0)
        {
            --first;
        }
        ok = duplicate(c, v, entries[first].member, entries[first].ordinal, entries[best].member,
                       entries[best].ordinal);
    }
    free(entries);
    return ok;
}

bool cs_jcheck_object(const cs_jctx* c, const cs_jval* v, const char* const* allowed)
{
    if (!cs_jcheck_type(c, v, cJSON_Object, NULL))
    {
        return false;
    }
    if (allowed == NULL)
    {
        return check_free_keys(c, v);
    }
    // Schema keys: each member is looked up in the short allowed list, which also remembers where
    // each key was first seen, so the check stays linear in the object's size.
    enum
    {
        MAX_ALLOWED = 32
    };
    const cJSON* seen[MAX_ALLOWED];
    int seen_ordinal[MAX_ALLOWED];
    for (int i = 0; i < MAX_ALLOWED; ++i)
    {
        seen[i] = NULL;
        seen_ordinal[i] = -1;
    }
    int ordinal = 0;
    for (const cJSON* child = v->json->child; child != NULL; child = child->next, ++ordinal)
    {
        const char* key = child->string != NULL ? child->string : "";
        int index = -1;
        for (int i = 0; allowed[i] != NULL && i < MAX_ALLOWED; ++i)
        {
            if (strcmp(allowed[i], key) == 0)
            {
                index = i;
                break;
            }
        }
        if (index < 0)
        {
            cs_jval member = cs_jval_child(v, child, ordinal);
            return unknown(c, &member, key, allowed);
        }
        if (seen[index] != NULL)
        {
            return duplicate(c, v, seen[index], seen_ordinal[index], child, ordinal);
        }
        seen[index] = child;
        seen_ordinal[index] = ordinal;
    }
    return true;
}

bool cs_jrequire(const cs_jctx* c, const cs_jval* object, const char* key)
{
    if (cs_jhas(object, key))
    {
        return true;
    }
    return cs_jfail(c, object, "missing required key \"%s\"", key);
}

bool cs_jrequire_one(const cs_jctx* c, const cs_jval* object, const char* const* keys)
{
    const char* found = NULL;
    for (const char* const* k = keys; *k != NULL; ++k)
    {
        cs_jval member;
        if (!cs_jval_member(object, *k, &member))
        {
            continue;
        }
        if (found != NULL)
        {
            return cs_jfail_key(c, &member, "give only one of \"%s\" and \"%s\"", found, *k);
        }
        found = *k;
    }
    if (found != NULL)
    {
        return true;
    }
    char list[160];
    size_t used = 0;
    list[0] = '\0';
    for (const char* const* k = keys; *k != NULL && used + 1 < sizeof list; ++k)
    {
        int n = snprintf(list + used, sizeof list - used, "%s\"%s\"", k == keys ? "" : " or ", *k);
        used += n > 0 ? (size_t)n : 0;
    }
    return cs_jfail(c, object, "missing required key %s", list);
}

// Readers ------------------------------------------------------------------------------------------------

static const char* range_text(cs_jrange range)
{
    switch (range)
    {
        case CS_JR_POSITIVE:
            return "a finite number > 0";
        case CS_JR_NONNEG:
            return "a finite number >= 0";
        case CS_JR_UNIT:
            return "a number in [0, 1]";
        case CS_JR_RELAX:
            return "a number in (0, 2)";
        default:
            return "a finite number";
    }
}

static bool in_range(double x, cs_jrange range)
{
    if (!isfinite(x))
    {
        return false; // JSON has no NaN literal, but 1e999 parses as infinity
    }
    switch (range)
    {
        case CS_JR_POSITIVE:
            return x > 0.0;
        case CS_JR_NONNEG:
            return x >= 0.0;
        case CS_JR_UNIT:
            return x >= 0.0 && x <= 1.0;
        case CS_JR_RELAX:
            return x > 0.0 && x < 2.0;
        default:
            return true;
    }
}

static bool check_number(const cs_jctx* c, const cs_jval* v, cs_jrange range, double* out)
{
    if (!cJSON_IsNumber(v->json) || !in_range(v->json->valuedouble, range))
    {
        char got[96];
        cs_jval_describe(c, v, got, sizeof got);
        return cs_jfail(c, v, "must be %s, got %s", range_text(range), got);
    }
    *out = v->json->valuedouble;
    return true;
}

// Finds key; *present says whether it was there. Fails only when required and absent.
static bool find(const cs_jctx* c, const cs_jval* object, const char* key, bool required, cs_jval* out,
                 bool* present)
{
    *present = cs_jval_member(object, key, out);
    if (!*present && required)
    {
        return cs_jfail(c, object, "missing required key \"%s\"", key);
    }
    return true;
}

bool cs_jread_number(const cs_jctx* c, const cs_jval* object, const char* key, bool required, cs_jrange range,
                     double* out)
{
    cs_jval v;
    bool present;
    if (!find(c, object, key, required, &v, &present))
    {
        return false;
    }
    return !present || check_number(c, &v, range, out);
}

bool cs_jread_int(const cs_jctx* c, const cs_jval* object, const char* key, bool required, int lowest,
                  int highest, int* out)
{
    cs_jval v;
    bool present;
    if (!find(c, object, key, required, &v, &present))
    {
        return false;
    }
    if (!present)
    {
        return true;
    }
    double x = cJSON_IsNumber(v.json) ? v.json->valuedouble : NAN;
    if (!(x >= (double)lowest && x <= (double)highest && x == floor(x)))
    {
        char got[96];
        cs_jval_describe(c, &v, got, sizeof got);
        return cs_jfail(c, &v, "must be an integer in [%d, %d], got %s", lowest, highest, got);
    }
    *out = (int)x;
    return true;
}

bool cs_jread_uint53(const cs_jctx* c, const cs_jval* object, const char* key, uint64_t* out)
{
    cs_jval v;
    bool present;
    if (!find(c, object, key, false, &v, &present))
    {
        return false;
    }
    if (!present)
    {
        return true;
    }
    const double highest = 9007199254740992.0; // 2^53: every integer up to here is exact in a double
    double x = cJSON_IsNumber(v.json) ? v.json->valuedouble : NAN;
    if (!(x >= 0.0 && x <= highest && x == floor(x)))
    {
        char got[96];
        cs_jval_describe(c, &v, got, sizeof got);
        return cs_jfail(c, &v, "must be an integer in [0, 2^53], got %s", got);
    }
    *out = (uint64_t)x;
    return true;
}

bool cs_jread_bool(const cs_jctx* c, const cs_jval* object, const char* key, bool* out)
{
    cs_jval v;
    bool present;
    if (!find(c, object, key, false, &v, &present))
    {
        return false;
    }
    if (!present)
    {
        return true;
    }
    if (!cs_jcheck_type(c, &v, cJSON_True, NULL))
    {
        return false;
    }
    *out = cJSON_IsTrue(v.json);
    return true;
}

bool cs_jread_string(const cs_jctx* c, const cs_jval* object, const char* key, bool required,
                     const char** out)
{
    cs_jval v;
    bool present;
    if (!find(c, object, key, required, &v, &present))
    {
        return false;
    }
    if (!present)
    {
        return true;
    }
    if (!cs_jcheck_type(c, &v, cJSON_String, NULL))
    {
        return false;
    }
    *out = v.json->valuestring;
    return true;
}

bool cs_jread_numbers(const cs_jctx* c, const cs_jval* object, const char* key, bool required, int count,
                      cs_jrange range, double* out)
{
    cs_jval v;
    bool present;
    if (!find(c, object, key, required, &v, &present))
    {
        return false;
    }
    if (!present)
    {
        return true;
    }
    if (!cJSON_IsArray(v.json) || cJSON_GetArraySize(v.json) != count)
    {
        char got[96];
        cs_jval_describe(c, &v, got, sizeof got);
        return cs_jfail(c, &v, "must be an array of %d numbers, got %s", count, got);
    }
    double values[8];
    int i = 0;
    for (const cJSON* e = v.json->child; e != NULL && i < count && i < 8; e = e->next, ++i)
    {
        cs_jval element = cs_jval_child(&v, e, i);
        if (!check_number(c, &element, range, &values[i]))
        {
            return false;
        }
    }
    memcpy(out, values, (size_t)count * sizeof values[0]);
    return true;
}

bool cs_jread_vec2(const cs_jctx* c, const cs_jval* object, const char* key, bool required, cs_vec2* out)
{
    double xy[2] = {out->x, out->y};
    if (!cs_jread_numbers(c, object, key, required, 2, CS_JR_ANY, xy))
    {
        return false;
    }
    out->x = xy[0];
    out->y = xy[1];
    return true;
}
