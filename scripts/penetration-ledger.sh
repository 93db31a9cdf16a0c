#!/usr/bin/env bash
# docs/PHYSICS.md "The impact shift in a pile": where a scene's overlaps come from. Builds
# scripts/physics/pen_ledger.c (it compiles src/world/step.c into itself to measure between the step's
# phases) against build/libcirclesim.a and runs it: per step the deepest overlap at the step's end, and what it
# would be without the impact shift; per contact class (touching / impact / speculative / absent, bouncing or
# not) the overlaps' mean depth and the shift's share; and how far h·v alone deepened each class's contacts
# after the solve and after the restitution pass.
# Usage: scripts/penetration-ledger.sh [SCENE [STEPS]]   (default scenes/pool1.json 100; SCENE may be a
# generated benchmark scene, e.g. stream-2000, 300 steps as `circlesim-cli bench --suite churn` runs it)
# Writes out/pen/pen_ledger (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f build/libcirclesim.a ]] || bash scripts/build.sh
mkdir -p out/pen
"${CC:-cc}" -O2 -std=c11 -D_GNU_SOURCE -ffp-contract=off -Iinclude -Isrc scripts/physics/pen_ledger.c \
  src/cli/bench_scenes.c src/cli/bench_world.c build/libcirclesim.a -lcjson -ldl -lm -lpthread -o out/pen/pen_ledger
out/pen/pen_ledger "${1:-scenes/pool1.json}" "${2:-100}"
