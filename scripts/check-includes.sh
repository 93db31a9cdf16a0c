#!/usr/bin/env bash
# Fails when the modules of src/ include each other in a circle. A module is a file's path without its
# extension (src/app/hud.c and src/app/hud.h are the module app/hud); `#include "dir/name.h"` is an edge
# from the including module to dir/name. tsort (coreutils) finds the loops.
#   scripts/check-includes.sh [SRC_DIR]   (default: src next to this script)
set -euo pipefail
src=${1:-"$(dirname "$0")/../src"}
edges=$(cd "$src" && for f in */*.c */*.h; do
  from=${f%.*}
  dir=${f%%/*}
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" | while read -r inc; do
    case $inc in */*) to=$inc ;; *) to=$dir/$inc ;; esac
    [ "$to" = "$from" ] || echo "$from $to"
  done
done)
if ! loops=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null) || [ -n "$loops" ]; then
  echo "include cycle in $src (module -> module it includes; a module is a .c/.h pair):" >&2
  printf '%s\n' "$loops" | sed 's/^tsort: -: //' >&2
  exit 1
fi
echo "no include cycle among $(printf '%s\n' "$edges" | tr ' ' '\n' | sort -u | wc -l) modules of $src"
