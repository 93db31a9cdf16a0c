#!/usr/bin/env bash
# docs/amgs.md 'Adaptive α': freezes Pool 1, Pool 2, Stacking 30 and Stacking 150 at steps 100 and 300,
# solves each (warm start, res_nat <= 1e-6) with amgs for every α of a grid and with amgs-adaptive, and
# prints the table: best fixed α and its iterations, the default α = 0.2, amgs-adaptive.
# Writes into out/amgs-alpha/ (git-ignored). Needs build/circlesim-cli (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/circlesim-cli
dir=out/amgs-alpha
mkdir -p "$dir"
alphas="0.001 0.002 0.003 0.004 0.005 0.006 0.008 0.01 0.012 0.015 0.02 0.025 0.03 0.035 0.04 0.045 0.05
0.06 0.08 0.1 0.12 0.14 0.16 0.18 0.2 0.25 0.3 0.35 0.4 0.5 0.6 0.8 1.0"
# Iterations to res_nat <= 1e-6, or "N✗STOP" when the solve stopped without it (exit 3: the cap of 100 000
# iterations). No stagnation stop: a slow α is slow, not stalled (on Pool 1 step 300 every α "stagnates" under
# the default window of 2000 and α 0.05 converges in 82 548). Any other failure ends the scan.
iterations() {
  local line code=0
  line=$("$cli" lcp solve "$@" --tol 1e-6 --max-iterations 100000 --stagnation 0 2>/dev/null) || code=$?
  [ "$code" -eq 0 ] || [ "$code" -eq 3 ] || { echo "amgs-alpha-scan: lcp solve $* exited $code" >&2; exit 1; }
  local it status
  it=$(sed -n 's/^iterations=\([0-9]*\) .*/\1/p' <<<"$line")
  status=$(sed -n 's/.* status=\([a-z-]*\).*/\1/p' <<<"$line")
  if [ "$status" = converged ]; then echo "$it"; else echo "$it✗$status"; fi
}
: > "$dir/scan.csv"
echo "| problem | rows | best fixed α | its iterations | α = 0.2 | amgs-adaptive | adaptive / best |"
echo "|---|---|---|---|---|---|---|"
for scene in pool1 pool2 stacking stacking150; do
  "$cli" run "scenes/$scene.json" --steps 300 --dump-lcp "100:$dir/$scene-100.lcp" \
    --dump-lcp "300:$dir/$scene-300.lcp" --quiet
  for step in 100 300; do
    f="$dir/$scene-$step.lcp"
    best_it=-1; best_alpha=
    for a in $alphas; do
      it=$(iterations "$f" --solver amgs --alpha "$a")
      echo "$scene,$step,$a,$it" >> "$dir/scan.csv"
      case $it in *✗*) continue ;; esac # only an α that got there can be the best
      if [ "$best_it" -lt 0 ] || [ "$it" -lt "$best_it" ]; then best_it=$it; best_alpha=$a; fi
    done
    default=$(iterations "$f" --solver amgs --alpha 0.2)
    adaptive=$(iterations "$f" --solver amgs-adaptive)
    rows=$("$cli" lcp info "$f" | sed -n 's/^rows=//p')
    ratio="–"
    if [ "$best_it" -lt 0 ]; then
      best_alpha="none"; best_it="–" # no α of the grid got there
    elif [[ $adaptive != *✗* ]]; then
      ratio=$(awk -v a="$adaptive" -v b="$best_it" 'BEGIN { printf "%.2f", a / b }')
    fi
    echo "| $scene step $step | $rows | $best_alpha | $best_it | $default | $adaptive | $ratio |"
  done
done
