// Checked typed readers: each reads one member of an object and fails with a message naming the key
// and what was expected, so no value reaches a world unchecked.
#include "scene/scene_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
        return cs_jfail_expected(c, v, range_text(range));
    }
    *out = v->json->valuedouble;
    return true;
}

// JSON has one number type: an integer is a number in [lowest, highest] with no fraction.
static bool integral(const cs_jval* v, double lowest, double highest, double* out)
{
    double x = cJSON_IsNumber(v->json) ? v->json->valuedouble : NAN;
    *out = x;
    return x >= lowest && x <= highest && x == floor(x);
}

// Looks key up in object. Returns true when it is there (*v set); otherwise false, with *ok saying
// whether that is fine (an absent key is, unless required).
static bool lookup(const cs_jctx* c, const cs_jval* object, const char* key, bool required, cs_jval* v,
                   bool* ok)
{
    *ok = true;
    if (cs_jval_member(object, key, v))
    {
        return true;
    }
    if (required)
    {
        *ok = cs_jfail(c, object, "missing required key \"%s\"", key);
    }
    return false;
}

bool cs_jread_number(const cs_jctx* c, const cs_jval* object, const char* key, bool required, cs_jrange range,
                     double* out)
{
    cs_jval v;
    bool ok;
    if (!lookup(c, object, key, required, &v, &ok))
    {
        return ok;
    }
    return check_number(c, &v, range, out);
}

bool cs_jread_int(const cs_jctx* c, const cs_jval* object, const char* key, bool required, int lowest,
                  int highest, int* out)
{
    cs_jval v;
    bool ok;
    if (!lookup(c, object, key, required, &v, &ok))
    {
        return ok;
    }
    double x;
    if (!integral(&v, (double)lowest, (double)highest, &x))
    {
        char expected[64];
        snprintf(expected, sizeof expected, "an integer in [%d, %d]", lowest, highest);
        return cs_jfail_expected(c, &v, expected);
    }
    *out = (int)x;
    return true;
}

bool cs_jread_uint53(const cs_jctx* c, const cs_jval* object, const char* key, uint64_t* out)
{
    cs_jval v;
    bool ok;
    if (!lookup(c, object, key, false, &v, &ok))
    {
        return ok;
    }
    const double highest = 9007199254740992.0; // 2^53: every integer up to here is exact in a double
    double x;
    if (!integral(&v, 0.0, highest, &x))
    {
        return cs_jfail_expected(c, &v, "an integer in [0, 2^53]");
    }
    *out = (uint64_t)x;
    return true;
}

bool cs_jread_bool(const cs_jctx* c, const cs_jval* object, const char* key, bool* out)
{
    cs_jval v;
    bool ok;
    if (!lookup(c, object, key, false, &v, &ok))
    {
        return ok;
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
    bool ok;
    if (!lookup(c, object, key, required, &v, &ok))
    {
        return ok;
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
    bool ok;
    if (!lookup(c, object, key, required, &v, &ok))
    {
        return ok;
    }
    if (!cJSON_IsArray(v.json) || cJSON_GetArraySize(v.json) != count)
    {
        char expected[64];
        snprintf(expected, sizeof expected, "an array of %d numbers", count);
        return cs_jfail_expected(c, &v, expected);
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
