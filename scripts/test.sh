#!/usr/bin/env bash
# The test command of README.md, and what CI runs:
#   1. install what is missing, build in build/ and run the whole suite with ctest;
#   2. check formatting against .clang-format, and that src/ and include/ have no include circle
#      (scripts/check-includes.sh);
#   3. build again with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/ and run the suite;
#   4. run both libFuzzer targets for 60 s each (scripts/fuzz.sh).
# --quick stops after step 1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
(cd build && ctest --output-on-failure -j2)
if [ "${1:-}" = "--quick" ]; then
  exit 0
fi

echo "== clang-format check"
git ls-files '*.c' '*.h' | xargs clang-format --dry-run -Werror

echo "== include cycle check (src/, include/)"
bash scripts/check-includes.sh

echo "== sanitizer build (ASan + UBSan)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCS_WERROR=ON -DCS_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
# Mesa's driver leaks by design; leak checks stay on for everything that does not open GL (see the
# viewer tests' own ASAN_OPTIONS).
(cd build-asan && ctest --output-on-failure -j2)

echo "== fuzzers (60 s each, clang ASan + UBSan)"
bash scripts/fuzz.sh 60
