#!/usr/bin/env bash
# Residual against iterations and against wall time for every registered solver (whatever
# `circlesim-cli solvers` lists, so methods registered later are picked up) on Pool 1 at step 300 and on
# Stacking 150 at step 300, each frozen once and solved from the world's warm start to res_nat <= 1e-10
# (at most 20000 iterations, default stagnation window). docs/SOLVERS.md shows the result.
#   scripts/plot-solvers.sh [OUTDIR]        (default out/solvers, git-ignored)
# Writes OUTDIR/<scene>.lcp, OUTDIR/history-<scene>-<solver>.csv (iteration,res_lcp,res_nat,seconds),
# OUTDIR/summary.csv (scene,solver,iterations,seconds,res_nat,status) and OUTDIR/solvers.png.
# CIRCLESIM_CLI=path runs another build's binary. PLOT_BUDGET=S (default 300) wall seconds per method and
# problem: a method still running then is stopped, listed in OUTDIR/missing.txt and named under the title.
# PLOT_ONLY=1 redraws OUTDIR/solvers.png from the histories already there, without solving.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/solvers}
cli=${CIRCLESIM_CLI:-build/circlesim-cli}
[ -x "$cli" ] || bash scripts/build.sh
command -v gnuplot >/dev/null || bash scripts/setup.sh
mkdir -p "$out"
tol=1e-10
max=20000
step=300
scenes=(pool1 stacking150)
budget=${PLOT_BUDGET:-300}
mapfile -t solvers < <("$cli" solvers | awk '{print $1}')

solve_all() {
echo "scene,solver,iterations,seconds,res_nat,status" > "$out/summary.csv"
: > "$out/missing.txt"
for scene in "${scenes[@]}"; do
  "$cli" run "scenes/$scene.json" --steps "$step" --quiet --dump-lcp "$step:$out/$scene.lcp"
  for s in "${solvers[@]}"; do
    # Exit 3 (not converged: the status says why) is a result here, not a failure.
    # Exit 1 (the method refused the problem, e.g. lemke's pivoting on a singular pile) is reported too.
    code=0
    line=$(timeout "$budget" "$cli" lcp solve "$out/$scene.lcp" --solver "$s" --tol "$tol" --max-iterations "$max" \
      --history "$out/history-$scene-$s.csv" 2>"$out/error-$scene-$s.txt") || code=$?
    if [ "$code" -eq 124 ]; then
      echo "$scene $s: not finished within the budget of $budget s"
      echo "$s on $scene (not done in $budget s)" >> "$out/missing.txt"
      rm -f "$out/history-$scene-$s.csv"
      continue
    fi
    if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then
      echo "$s on $scene (refused)" >> "$out/missing.txt"
      echo "$scene $s: refused (exit $code): $(head -n 1 "$out/error-$scene-$s.txt")"
      rm -f "$out/history-$scene-$s.csv"
      continue
    fi
    echo "$scene $s: $line"
    echo "$line" | sed -E 's/iterations=([^ ]*) res_lcp=[^ ]* res_nat=([^ ]*) seconds=([^ ]*) status=(.*)/'"$scene,$s"',\1,\3,\2,\4/' \
      >> "$out/summary.csv"
  done
done
}
[ -n "${PLOT_ONLY:-}" ] || solve_all

# One PNG: a row per scene, residual against iterations (left) and against seconds (right).
plots() { # $1 scene, $2 x column (1 iterations, 4 seconds)
  local sep="" cmd="" i=0
  for s in "${solvers[@]}"; do
    if [ ! -f "$out/history-$1-$s.csv" ]; then
      i=$((i + 1)) # its colour stays its own in every panel
      continue
    fi
    # A pivoting method's history is the start point and its answer: a marker, not a line.
    local style="lines lw 2"
    [ "$(wc -l < "$out/history-$1-$s.csv")" -le 3 ] && style="points pt 7 ps 2"
    # Eight colours, then the same colours dashed: every method its own style however many there are.
    cmd+="$sep'$out/history-$1-$s.csv' using (\$$2 > 0 ? \$$2 : 1/0):3 with $style"
    cmd+=" lc $((i % 8 + 1)) dt $((i / 8 + 1)) title '$s'"
    sep=", "
    i=$((i + 1))
  done
  echo "$cmd"
}
{
  echo "set terminal pngcairo size 1600,1200 font ',11'"
  echo "set output '$out/solvers.png'"
  echo "set datafile separator ','"
  echo "set logscale y; set format y '10^{%T}'; set grid; set key outside right"
  # The title in gnuplot's double quotes (for its \n): methods stopped by the budget on a second line.
  missing=$(paste -sd ';' "$out/missing.txt" | sed 's/;/; /g; s/"//g; s/_/\\\\_/g')
  title="res\\\\_nat from the world's warm start (step $step) to $tol"
  [ -z "$missing" ] || title+="\\nnot shown: $missing"
  echo "set multiplot layout 2,2 title \"$title\""
  for scene in "${scenes[@]}"; do
    echo "set xlabel 'iterations'; set logscale x; set format x '10^{%T}'; set title '$scene: against iterations'"
    echo "plot $(plots "$scene" 1)"
    echo "set xlabel 'seconds'; set logscale x; set format x '10^{%T}'; set title '$scene: against wall time'"
    echo "plot $(plots "$scene" 4)"
  done
  echo "unset multiplot"
} > "$out/solvers.gp"
gnuplot "$out/solvers.gp"
echo "wrote $out/solvers.png and $out/summary.csv"
