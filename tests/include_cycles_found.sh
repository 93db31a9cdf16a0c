#!/usr/bin/env bash
# scripts/check-includes.sh finds circles, not only passes on the tree: on small fixture trees in BUILD_DIR it
# exits 1 naming the modules of a circle through a public header (include/circlesim) and of one between two
# .c/.h pairs of src/, exits 1 on a folder with no sources, and exits 0 on the same trees with the circle cut.
#   tests/include_cycles_found.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
check="$1/scripts/check-includes.sh"
d="$2/include-cycles-fixture"
fail() { echo "include_cycles_found: $*" >&2; exit 1; }
expect_cycle() { # ROOT MODULE...: exit 1, and the message names every MODULE
  local out code
  out=$(bash "$check" "$d/$1" 2>&1); code=$?
  echo "$out"
  [ "$code" -eq 1 ] || fail "$1: exit $code, expected 1"
  grep -q 'include cycle' <<<"$out" || fail "$1: no 'include cycle' line"
  local root=$1
  shift
  for m in "$@"; do grep -qw "$m" <<<"$out" || fail "$root: $m not named"; done
}
rm -rf "$d"
mkdir -p "$d/public/src/a" "$d/public/include/circlesim" "$d/pairs/src/a"
echo '#include "a/m.h"' >"$d/public/include/circlesim/x.h"
echo '#include "circlesim/x.h"' >"$d/public/src/a/m.h"
echo '#include "m.h"' >"$d/public/src/a/m.c"
expect_cycle public a/m circlesim/x
echo '#include "a/n.h"' >"$d/pairs/src/a/m.c"
echo '#include "m.h"' >"$d/pairs/src/a/n.c"
echo '' >"$d/pairs/src/a/m.h"
echo '' >"$d/pairs/src/a/n.h"
expect_cycle pairs a/m a/n
mkdir -p "$d/empty/src"
bash "$check" "$d/empty" && fail "empty: exit 0 on a tree with no sources"
echo '' >"$d/public/src/a/m.h"
bash "$check" "$d/public" || fail "public: exit $? with the circle cut"
echo '' >"$d/pairs/src/a/n.c"
bash "$check" "$d/pairs" || fail "pairs: exit $? with the circle cut"
echo "include_cycles_found: ok"
