// Structure checks on located JSON values: types, the allowed and repeated keys of an object, and
// required keys. An unknown key is an error with a "did you mean" when one allowed key is close.
#include "scene/scene_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    return cs_jfail_expected(c, v, what != NULL ? what : type_name(cjson_type));
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
