// Scene loader internals: located JSON values, source positions and checked readers.
//
// cJSON keeps no source positions, so a value is carried together with its path from the root
// (member ordinals and array indices). When something is wrong, the path is re-walked over the
// source text to find the line and column of the key or value, and printed as "bodies[3].radius".
// Member ordinals (not key names) are used so that duplicate keys and keys containing "\u0000"
// still locate the exact occurrence.
#ifndef CS_SCENE_JSON_H
#define CS_SCENE_JSON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "circlesim/base.h"

#define CS_JPATH_MAX 16

typedef struct cs_jstep
{
    const char* key; // object member named key (its ordinal in index); NULL: array element index
    int index;
} cs_jstep;

// A JSON value with the path that leads to it from the root.
typedef struct cs_jval
{
    const cJSON* json;
    int depth;
    cs_jstep step[CS_JPATH_MAX];
} cs_jval;

// Everything an error message needs: the source text and the name to print for it.
typedef struct cs_jctx
{
    const char* text;
    const char* file;
    cs_error* err;
} cs_jctx;

// Number checks shared by readers; each has one wording in messages.
typedef enum cs_jrange
{
    CS_JR_ANY = 0,  // finite
    CS_JR_POSITIVE, // finite and > 0
    CS_JR_NONNEG,   // finite and >= 0
    CS_JR_UNIT,     // finite in [0, 1]
    CS_JR_RELAX,    // finite in (0, 2): a relaxation factor
} cs_jrange;

// Paths and positions (scene_json_locate.c) ----------------------------------------------------------
cs_jval cs_jval_root(const cJSON* root);
// The first member named key (duplicates are rejected by cs_jcheck_object before reading).
bool cs_jval_member(const cs_jval* object, const char* key, cs_jval* out);
bool cs_jhas(const cs_jval* object, const char* key);
cs_jval cs_jval_child(const cs_jval* parent, const cJSON* child, int ordinal);
// "bodies[3].radius" ("(top level)" for the root).
void cs_jval_path(const cs_jval* v, char* buffer, size_t size);
// Where v's value (or, with key, its key) starts in text; the nearest enclosing position when the
// walk fails. Never reads past the terminating NUL.
const char* cs_json_locate(const char* text, const cs_jval* v, bool key);
// 1-based line and column (in bytes) of at within text.
void cs_json_position(const char* text, const char* at, int* line, int* column);
// A short one-line rendering of v for "got …": the source token of a scalar, "an object", ….
void cs_jval_describe(const cs_jctx* c, const cs_jval* v, char* buffer, size_t size);
// Copies s into buffer as a quoted one-line string (control characters escaped, long text cut).
void cs_json_quote(const char* s, char* buffer, size_t size);

// "FILE:LINE:COL: PATH: message" into buffer (errors and warnings alike).
void cs_jlocate_message(const cs_jctx* c, const cs_jval* at, bool key, char* buffer, size_t size,
                        const char* fmt, va_list args);
// Errors (scene_json_locate.c): "FILE:LINE:COL: PATH: message". All return false so that
// `return cs_jfail(...)` reads well.
bool cs_jfail(const cs_jctx* c, const cs_jval* at, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
// The same, pointing at the key of a member instead of its value (unknown and duplicate keys).
bool cs_jfail_key(const cs_jctx* c, const cs_jval* at, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
// "must be EXPECTED, got …" at v, with v described as cs_jval_describe does.
bool cs_jfail_expected(const cs_jctx* c, const cs_jval* v, const char* expected);

// Structure (scene_json_check.c) -----------------------------------------------------------------------
// Checks that v is an object whose keys are all in the NULL-terminated list, none repeated.
bool cs_jcheck_object(const cs_jctx* c, const cs_jval* v, const char* const* allowed);
bool cs_jcheck_type(const cs_jctx* c, const cs_jval* v, int cjson_type, const char* what);
// Fails with "missing required key" at object when key is absent.
bool cs_jrequire(const cs_jctx* c, const cs_jval* object, const char* key);
// Exactly one of the NULL-terminated alternatives must be present ("mass" or "density").
bool cs_jrequire_one(const cs_jctx* c, const cs_jval* object, const char* const* keys);

// Readers (scene_json_read.c): an absent key leaves *out untouched and succeeds unless required -------
bool cs_jread_number(const cs_jctx* c, const cs_jval* object, const char* key, bool required, cs_jrange range,
                     double* out);
bool cs_jread_int(const cs_jctx* c, const cs_jval* object, const char* key, bool required, int lowest,
                  int highest, int* out);
bool cs_jread_uint53(const cs_jctx* c, const cs_jval* object, const char* key, uint64_t* out);
bool cs_jread_bool(const cs_jctx* c, const cs_jval* object, const char* key, bool* out);
bool cs_jread_string(const cs_jctx* c, const cs_jval* object, const char* key, bool required,
                     const char** out);
// A fixed-length array of numbers, each checked against range.
bool cs_jread_numbers(const cs_jctx* c, const cs_jval* object, const char* key, bool required, int count,
                      cs_jrange range, double* out);
bool cs_jread_vec2(const cs_jctx* c, const cs_jval* object, const char* key, bool required, cs_vec2* out);

#endif
