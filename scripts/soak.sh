#!/usr/bin/env bash
# The viewer soak (issue 13, docs/RELIABILITY.md "Viewer soak"): 100 000 headless frames of the real
# viewer binary at 240x160 with the UI at half size (every frame rendered by the GL driver), driven by
# scripts/soak-script.sh — 100 cycles of a scene reload, 10 spawns, 2 drags, solver switches, a duel
# forked and ended, a snapshot saved and reloaded (1 000 spawns in all) — while the process's resident
# memory is sampled every 2 s. Writes out/soak/rss.csv (seconds, approximate frame, RSS in KiB),
# out/soak/summary.txt and out/soak/last.png, and fails when RSS at the end exceeds RSS at 10 % of the
# run by more than LIMIT_MIB (default 8).
#   scripts/soak.sh [CYCLES [FRAMES_PER_CYCLE]]     (default 100 1000; needs a build: scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
cycles=${1:-100}
frames=${2:-1000}
limit_mib=${LIMIT_MIB:-8}
out=out/soak
mkdir -p "$out"
total=$((cycles * frames))
bash scripts/soak-script.sh "$cycles" "$frames" 10 "$PWD/scenes" "$PWD/$out/state.json" > "$out/soak.txt"
export SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-offscreen}
ms() { echo $(($(date +%s%N) / 1000000)); }
start=$(ms)
build/circlesim --headless --size 240x160 --ui-scale 0.5 --frames "$total" --script "$out/soak.txt" \
  --screenshot "$out/last.png" > "$out/viewer.log" 2>&1 &
pid=$!
echo "seconds,rss_kib" > "$out/rss-time.csv"
while kill -0 "$pid" 2> /dev/null; do
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2> /dev/null || true)
  [ -n "$rss" ] && echo "$((($(ms) - start) / 1000)),$rss" >> "$out/rss-time.csv"
  sleep 2
done
status=0
wait "$pid" || status=$?
elapsed=$((($(ms) - start) / 1000))
if [ "$status" -ne 0 ]; then
  echo "soak: the viewer exited with $status (see $out/viewer.log)" >&2
  exit 1
fi
# Frames advance at a near-constant rate: the frame of a sample is its share of the elapsed time.
awk -F, -v T="$elapsed" -v N="$total" 'NR == 1 {print "seconds,frame,rss_kib"; next}
  {printf "%s,%d,%s\n", $1, $1 / T * N, $2}' "$out/rss-time.csv" > "$out/rss.csv"
awk -F, -v limit="$limit_mib" -v N="$total" -v T="$elapsed" '
  NR > 1 { n++; f[n] = $2; r[n] = $3; if ($3 > peak) peak = $3 }
  END {
    for (i = 1; i <= n && f[i] < N / 10; ++i) {}
    early = r[i]; last = r[n]; growth = (last - early) / 1024
    printf "frames %d in %.0f s (%.2f ms/frame); RSS at 10%%: %d KiB, at the end: %d KiB, peak %d KiB; growth %.1f MiB (limit %d)\n",
      N, T, 1000 * T / N, early, last, peak, growth, limit
    exit growth > limit
  }' "$out/rss.csv" | tee "$out/summary.txt"
tail -1 "$out/viewer.log" | tee -a "$out/summary.txt"
