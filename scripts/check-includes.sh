#!/usr/bin/env bash
# Fails when the project's own modules include each other in a circle: the modules of src/ and the public
# headers of include/. A module is a file's path without its extension below src/ or include/ (src/app/hud.c
# and src/app/hud.h are the module app/hud; include/circlesim/world.h is circlesim/world); `#include
# "dir/name.h"` is an edge from the including module to dir/name, `#include "name.h"` one to name in the
# including file's folder. A circle of headers is a circle of modules, and so is a .c that includes a header
# whose module's header includes the .c's own header. tsort (coreutils) finds the loops.
#   scripts/check-includes.sh [ROOT]   (default: the repository this script is in; reads ROOT/src, ROOT/include)
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
files=0
edges=""
for top in src include; do
  [ -d "$root/$top" ] || continue
  while IFS= read -r f; do
    files=$((files + 1))
    from=${f%.*}
    dir=$(dirname "$f")
    while IFS= read -r inc; do
      case $inc in */*) to=$inc ;; *) to=$dir/$inc ;; esac
      [ "$to" = "$from" ] || edges+="$from $to"$'\n'
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$root/$top/$f")
  done < <(cd "$root/$top" && find . -name '*.[ch]' | sed 's|^\./||' | sort)
done
if [ "$files" -eq 0 ]; then
  echo "check-includes: no .c or .h file under $root/src or $root/include" >&2
  exit 1
fi
if ! loops=$(printf '%s' "$edges" | tsort 2>&1 >/dev/null) || [ -n "$loops" ]; then
  echo "include cycle in $root (module -> module it includes; a module is a .c/.h pair):" >&2
  printf '%s\n' "$loops" | sed 's/^tsort: \(-: \)\{0,1\}//' >&2
  exit 1
fi
echo "no include cycle among $(printf '%s' "$edges" | tr ' ' '\n' | sort -u | grep -c .) modules of $root/src and $root/include ($files files)"
