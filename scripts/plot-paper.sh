#!/usr/bin/env bash
# Reproduces the AMGS paper's Tables 1-2 and Figures 3-8 with circlesim-cli and gnuplot.
#   scripts/plot-paper.sh [--row-order key|coloured] [OUTDIR]
# Default: the contact-key row order (contacts swept in the order they are found, as a sequential
# implementation like the paper's does) into docs/paper; `--row-order coloured` (the engine's fast default
# order) into docs/paper/coloured. Needs build/circlesim-cli (scripts/build.sh); CIRCLESIM_CLI=path runs
# another build's binary (e.g. one kept apart from a tree being rebuilt).
# Writes CSVs (data) and PNGs (figures) into OUTDIR; docs/REPRODUCTION.md discusses them.
set -euo pipefail
cd "$(dirname "$0")/.."
order=key
if [ "${1:-}" = "--row-order" ]; then
  order=${2:?--row-order needs key or coloured}
  shift 2
fi
case "$order" in
  key) default_out=docs/paper ;;
  coloured) default_out=docs/paper/coloured ;;
  *) echo "plot-paper.sh: --row-order: key or coloured, got '$order'" >&2; exit 2 ;;
esac
out=${1:-$default_out}
cli=${CIRCLESIM_CLI:-build/circlesim-cli}
[ -x "$cli" ] || bash scripts/build.sh
command -v gnuplot >/dev/null || bash scripts/setup.sh
mkdir -p "$out"
alphas=0.1,0.2,0.3,0.4,0.5,0.6

echo "== Table 1 and Figures 3-5: step 100 frozen, frictionless, to RES < 1e-4"
for scene in pool1 pool2 stacking150 stacking; do
  "$cli" converge "scenes/$scene.json" --at-step 100 --tol 1e-4 --frictionless --row-order "$order" \
    --solvers pgs,amgs-dense,amgs-omega,amgs --alphas 0.5,0.2 --repeat 5 \
    --csv "$out/table1-$scene.csv" --history "$out/history-$scene.csv"
done

echo "== Table 2: 1000 steps x 200 iterations"
for scene in pool1 pool2 stacking; do
  "$cli" table2 "scenes/$scene.json" --steps 1000 --iterations 200 --solvers pgs,amgs --alphas "$alphas" \
    --row-order "$order" \
    --csv "$out/table2-$scene.csv"
done

echo "== Figures 6-8: RES after 10 iterations per step over a whole run"
for scene in pool1 pool2 stacking; do
  "$cli" run "scenes/$scene.json" --steps 1000 --solver pgs --quiet --row-order "$order" \
    --csv "$out/run-$scene-pgs.csv"
  for a in ${alphas//,/ }; do
    "$cli" run "scenes/$scene.json" --steps 1000 --solver amgs --alpha "$a" --quiet --row-order "$order" \
      --csv "$out/run-$scene-amgs-$a.csv"
  done
done

echo "== plots"
for scene in pool1 pool2 stacking; do
  gnuplot <<GP
set terminal pngcairo size 900,560 font "DejaVu Sans,11"
set output "$out/fig-convergence-$scene.png"
set title "$scene, step 100 frozen (frictionless, $order row order): RES (eq. 24) per iteration"
set logscale y
set format y "10^{%L}"
set xlabel "iteration k"
set ylabel "RES({/Symbol l}^{(100),k})"
set datafile separator ","
set key top right
set xrange [0:200]
plot "< grep ',pgs,' $out/history-$scene.csv" using 4:5 with lines lw 2 title "PGS", \
     "< grep ',amgs-omega,' $out/history-$scene.csv" using 4:5 with lines lw 2 title "Method 3.1 [{/Symbol w}E]", \
     "< grep ',amgs,0.5,' $out/history-$scene.csv" using 4:5 with lines lw 2 dt 2 title "Method 3.1 [D/{/Symbol g}] ({/Symbol a}=0.5)", \
     "< grep ',amgs,0.2,' $out/history-$scene.csv" using 4:5 with lines lw 2 title "Method 3.1 [0.2 D]"
GP
  plotline="\"$out/run-$scene-pgs.csv\" using 1:7 every ::60 with lines lw 2 title \"PGS\""
  for a in ${alphas//,/ }; do
    plotline="$plotline, \"$out/run-$scene-amgs-$a.csv\" using 1:7 every ::60 with lines title \"AMGS {/Symbol a}=$a\""
  done
  gnuplot <<GP
set terminal pngcairo size 900,560 font "DejaVu Sans,11"
set output "$out/fig-run-$scene.png"
set title "$scene ($order row order): RES after 10 iterations in each step"
set logscale y
set format y "10^{%L}"
set xlabel "simulation step t"
set ylabel "RES({/Symbol l}^{(t),10})"
set datafile separator ","
set key top right
plot $plotline
GP
done
echo "written to $out"
