#!/usr/bin/env bash
# Installs the build into a temporary prefix under the build directory and builds and runs every program of
# examples/ against the INSTALLED package: with pkg-config (shared, and the static library), and with
# find_package(circlesim CONFIG) (shared, and circlesim_USE_STATIC). A ctest test (install_examples).
#   bash scripts/test-install.sh build
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
prefix="$build/install-test"
rm -rf "$prefix" "$build/examples-pc" "$build/examples-cmake" "$build/examples-cmake-static"
cmake --install "$build" --prefix "$prefix" >/dev/null
pc="$(dirname "$(find "$prefix" -name circlesim.pc | head -1)")"
# A sanitizer build installs an instrumented library: its consumers must link the sanitizer runtimes too.
san=""
if grep -q '^CS_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
  san="-fsanitize=address,undefined"
fi
libdir="$(dirname "$pc")"
export PKG_CONFIG_PATH="$pc"
test -f "$prefix/include/circlesim/circlesim.h"

mkdir -p "$build/examples-pc"
for src in "$root"/examples/*.c; do
  name="$(basename "$src" .c)"
  echo "== pkg-config, shared: $name"
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -Werror $san "$src" -o "$build/examples-pc/$name" \
    $(pkg-config --cflags --libs circlesim) -lm -Wl,-rpath,"$libdir"
  "$build/examples-pc/$name" >/dev/null
  echo "== pkg-config --static: $name"
  # The static archive, with its private dependencies from Requires.private / Libs.private.
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -Werror $san "$src" -o "$build/examples-pc/$name-static" \
    $(pkg-config --cflags circlesim) \
    $(pkg-config --static --libs circlesim | sed 's/-lcirclesim/-Wl,-Bstatic -lcirclesim -Wl,-Bdynamic/') -lm
  if ldd "$build/examples-pc/$name-static" | grep -q libcirclesim; then
    echo "$name-static links the shared library" >&2
    exit 1
  fi
  "$build/examples-pc/$name-static" >/dev/null
done

for variant in cmake cmake-static; do
  echo "== find_package(circlesim CONFIG): $variant"
  static=OFF
  [ "$variant" = cmake-static ] && static=ON
  cmake -S "$root/examples" -B "$build/examples-$variant" -DCMAKE_PREFIX_PATH="$prefix" \
    -Dcirclesim_USE_STATIC=$static -DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" >/dev/null
  cmake --build "$build/examples-$variant" -j2 >/dev/null
  for src in "$root"/examples/*.c; do
    exe="$build/examples-$variant/$(basename "$src" .c)"
    if [ $static = ON ] && ldd "$exe" | grep -q libcirclesim; then
      echo "$exe links the shared library" >&2
      exit 1
    fi
    "$exe" >/dev/null
  done
done
echo "installed package OK: $prefix"
