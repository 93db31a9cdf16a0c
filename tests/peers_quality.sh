#!/usr/bin/env bash
# Issue 10's quality next to speed, for the peer engines: circlesim-peers (Box2D 2.4.1, Chipmunk 7.0.3) writes
# the CSV of circlesim-cli bench, header for header, and fills the quality columns of every engine's row from
# its own run. A 30-stack at 10 iterations over 60 steps sinks and overlaps in every engine, so a quality column
# left at 0 (or not finite) is a column the harness stopped measuring.
#   tests/peers_quality.sh BUILD_DIR
set -uo pipefail
build="$1"
fail() { echo "peers_quality: $*" >&2; exit 1; }
args=(--scenes stacking --iterations 10 --steps 60 --repeat 1 --warmup 0 --csv -)

ours=$("$build/circlesim-cli" bench --scenes "$(dirname "$0")/../scenes/stacking.json" --solvers pgs "${args[@]:2}") ||
  fail "circlesim-cli bench exited $?"
peers=$("$build/circlesim-peers" "${args[@]}" 2>/dev/null) || fail "circlesim-peers exited $?"
[ "$(head -n 1 <<<"$ours")" = "$(head -n 1 <<<"$peers")" ] ||
  fail "the CSV headers differ: circlesim-cli bench '$(head -n 1 <<<"$ours")', circlesim-peers '$(head -n 1 <<<"$peers")'"

# Every engine's row: penetrations and sinking > 0, drift and speeds finite.
check() { # $1 CSV, $2 expected engine rows
  awk -F, -v want="$2" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    function finite(x) { return x ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ }
    {
      rows++
      split("max_penetration mean_penetration top_error", pos, " ")
      for (k in pos) {
        v = $(col[pos[k]])
        if (!finite(v) || v + 0 <= 0) { printf "%s %s: %s = \"%s\", not > 0\n", $1, $2, pos[k], v; bad = 1 }
      }
      split("ke_drift final_max_speed kinetic_energy us_per_step", any, " ")
      for (k in any) {
        v = $(col[any[k]])
        if (!finite(v)) { printf "%s %s: %s = \"%s\", not a finite number\n", $1, $2, any[k], v; bad = 1 }
      }
      printf "%s %s: max_pen %s m, top_error %s m, final_max_speed %s m/s\n", $1, $2, $(col["max_penetration"]),
        $(col["top_error"]), $(col["final_max_speed"])
    }
    END {
      if (rows != want) { printf "%d engine rows, expected %d\n", rows, want; bad = 1 }
      exit bad
    }' <<<"$1"
}
check "$ours" 1 || fail "circlesim-cli bench's quality columns"
check "$peers" 2 || fail "circlesim-peers' quality columns"
echo "peers_quality: ok"
