#!/usr/bin/env bash
# Writes the viewer soak's script (docs/RELIABILITY.md "Viewer soak") to stdout: CYCLES cycles of FRAMES
# frames each. A cycle reloads a scene (pool1, stacking and pegs in turn), spawns SPAWNS circles, drags
# two of them with the mouse spring, switches solver (amgs, psor, pgs) and iteration count, forks a
# pgs-vs-amgs duel and ends it, and saves and reloads a snapshot (STATE_FILE). Every cycle is the same
# sequence of actions, so memory measured at the same point of two cycles three scenes apart must agree.
#   scripts/soak-script.sh CYCLES FRAMES SPAWNS SCENES_DIR STATE_FILE > soak.txt
set -euo pipefail
if [ $# -ne 5 ]; then
  echo "usage: $0 CYCLES FRAMES SPAWNS SCENES_DIR STATE_FILE" >&2
  exit 2
fi
cycles=$1 frames=$2 spawns=$3 scenes=$4 state=$5
if [ "$frames" -lt 200 ] || [ "$spawns" -lt 1 ] || [ "$spawns" -gt $((frames / 4)) ]; then
  echo "$0: FRAMES must be >= 200 and SPAWNS in 1..FRAMES/4" >&2
  exit 2
fi
awk -v cycles="$cycles" -v F="$frames" -v S="$spawns" -v dir="$scenes" -v state="$state" 'BEGIN {
  split("pool1 stacking pegs", names, " ")
  for (c = 0; c < cycles; ++c) {
    f = c * F
    printf "at %d scene %s/%s.json\n", f, dir, names[c % 3 + 1]
    # Spawns spread over the first half, across the box, above the pile.
    for (j = 0; j < S; ++j)
      printf "at %d spawn %.3f,7\n", f + 2 + int(j * (F / 2 - 10) / S), -1.5 + 3 * j / S
    # Drags: a circle spawned for the purpose, grabbed the next frame, pulled sideways and up.
    printf "at %d spawn 0,6\nat %d drag 0,6,2,4,60\n", f + F / 2, f + F / 2 + 1
    printf "at %d spawn -1,6\nat %d drag -1,6,-2,7,40\n", f + F / 2 + 70, f + F / 2 + 71
    printf "at %d solver amgs\nat %d iterations 20\n", f + F / 4, f + F / 4 + 5
    printf "at %d solver psor\nat %d solver pgs\nat %d iterations 10\n", f + F / 3, f + F / 3 + 20, f + F / 3 + 25
    printf "at %d compare pgs,amgs\nat %d compare off\n", f + 3 * F / 4, f + 3 * F / 4 + 30
    printf "at %d save-state %s\nat %d load-state %s\n", f + F - 20, state, f + F - 10, state
  }
}'
