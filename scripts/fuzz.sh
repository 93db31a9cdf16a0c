#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and runs each for SECONDS (default 60):
#   fuzz_scene  scene files through the loader, and every loaded world through a few steps; snapshots
#               through the snapshot reader and a clone
#   fuzz_lcp    LCP files through the reader, and every accepted problem through every registered solver
# Seeds: scenes/*.json, and problems that build/circlesim-cli dumps from them (run scripts/build.sh first).
# A crash, a sanitizer report or a broken contract (fuzz/*.c abort()) fails the script and leaves the input
# in build-fuzz/ (crash-*); docs/RELIABILITY.md says how to replay one.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCS_FUZZ=ON -DCS_BUILD_TESTS=OFF -DCS_BUILD_VIEWER=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_scene fuzz_lcp >/dev/null
mkdir -p build-fuzz/corpus-scene build-fuzz/corpus-lcp
cp scenes/*.json build-fuzz/corpus-scene/
for scene in stacking newton incline springs; do # springs: a version-2 file (reg section)
  build/circlesim-cli run "scenes/$scene.json" --steps 20 --quiet --dump-lcp "20:build-fuzz/corpus-lcp/$scene.lcp"
done
printf 'circlesim-lcp 1\nbodies 0\nrows 0\n' >build-fuzz/corpus-lcp/empty.lcp
# Snapshot seeds (fuzz_scene reads inputs naming "circlesim_state" as snapshots): joints, a small pile.
for scene in cradle newton; do
  build/circlesim-cli run "scenes/$scene.json" --steps 30 --quiet --state-out "build-fuzz/corpus-scene/$scene-state.json"
done
cd build-fuzz
echo "== fuzz_scene ($seconds s)"
./fuzz_scene -dict=../fuzz/scene.dict -max_total_time="$seconds" -max_len=8192 -timeout=20 -print_final_stats=1 \
  corpus-scene 2>&1 | tail -n 12
echo "== fuzz_lcp ($seconds s)"
./fuzz_lcp -dict=../fuzz/lcp.dict -max_total_time="$seconds" -max_len=4096 -timeout=20 -print_final_stats=1 \
  corpus-lcp 2>&1 | tail -n 12
