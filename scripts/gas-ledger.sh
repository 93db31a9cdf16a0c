#!/usr/bin/env bash
# docs/PHYSICS.md "Collisions within a step": where an elastic gas's kinetic energy goes. Builds
# scripts/physics/gas_ledger.c (it compiles src/world/step.c into itself to measure between the step's phases)
# against build/libcirclesim.a and runs it: the energy every 10 s, the penetration, and per contact class
# (touching / impact / speculative, bouncing or not, alone on its bodies or sharing them, pair or wall) the
# kinetic energy its impulses gave over the run — exact sums (M Δv = Σ Jᵀ Δλ); in clusters energy passes from
# one class to another.
# Usage: scripts/gas-ledger.sh [DISCS [STEPS [split|spook [SEED [AREA_FRACTION]]]]]   (default 200 3600 split 1 0.2)
# Writes out/gas/gas_ledger (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f build/libcirclesim.a ]] || bash scripts/build.sh
mkdir -p out/gas
"${CC:-cc}" -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc scripts/physics/gas_ledger.c build/libcirclesim.a \
  -lcjson -ldl -lm -lpthread -o out/gas/gas_ledger
out/gas/gas_ledger "${1:-200}" "${2:-3600}" "${3:-split}" "${4:-1}" "${5:-0.2}"
