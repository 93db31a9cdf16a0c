// Helpers of the scene tests (test_scene_*.c; scene_check.c).
#ifndef CS_TEST_SCENE_CHECK_H
#define CS_TEST_SCENE_CHECK_H

#include "test_support.h"

// err is an error whose one-line message starts with NAME:LINE:COLUMN: (NAME:LINE: for column 0), names key
// and contains also (when not NULL).
void cs_test_check_scene_message(const cs_error* err, const char* name, int line, int column, const char* key,
                                 const char* also);
// Loads text from a file and from memory; both must fail with the same message at anchor (unique in text),
// naming key and containing also, and leave the scene info untouched.
void cs_test_expect_scene_error(const char* text, const char* anchor, const char* key, const char* also);
// A scene text that must load (the test fails with the loader's message otherwise).
cs_world* cs_test_load_scene_text(const char* text, cs_scene_info* info);
// scenes/NAME, which must load.
cs_world* cs_test_load_shipped_scene(const char* name, cs_scene_info* info);
// Independent geometry check: no two circles overlap, none crosses a half-plane wall.
void cs_test_check_no_overlap(const cs_world* w);

#endif
