#!/usr/bin/env bash
# docs/PHYSICS.md's bounce plot: apex error of the first rebound against drop height (e = 0.5 and 0.9, the
# default step, restitution threshold 0), before (the contact model at b8705ec, whose numbers are kept in
# docs/physics/bounce-apex-before-*.csv) and after (this build). Writes into out/physics/ (git-ignored):
#   out/physics/bounce-apex-e*.csv, out/physics/bounce-apex.png
# Usage: bash scripts/plot-physics.sh   (builds first if build/libcirclesim.a is missing)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f build/libcirclesim.a ]] || bash scripts/build.sh
command -v gnuplot >/dev/null || bash scripts/setup.sh
out=out/physics
mkdir -p "$out"
"${CC:-cc}" -O2 -std=c11 -Iinclude scripts/physics/bounce_apex.c build/libcirclesim.a -lcjson -ldl -lm -lpthread \
  -o "$out/bounce_apex"
for e in 0.5 0.9; do
  "$out/bounce_apex" "$e" > "$out/bounce-apex-e$e.csv"
done
gnuplot <<GP
set terminal pngcairo size 900,520 font ",11"
set output "$out/bounce-apex.png"
set datafile separator ","
set key top right
set grid
set xlabel "drop height H (m)"
set ylabel "apex of the first rebound / e^2 H - 1 (%)"
set title "Bounce apex error at h = 1/60 s, 10 iterations (disc r 0.2 m on a floor)"
plot "docs/physics/bounce-apex-before-e0.5.csv" every ::1 using 1:(100*\$4) with linespoints pt 7 ps 0.5 title "before, e = 0.5", \
     "docs/physics/bounce-apex-before-e0.9.csv" every ::1 using 1:(100*\$4) with linespoints pt 7 ps 0.5 title "before, e = 0.9", \
     "$out/bounce-apex-e0.5.csv" every ::1 using 1:(100*\$4) with linespoints pt 5 ps 0.5 title "now, e = 0.5", \
     "$out/bounce-apex-e0.9.csv" every ::1 using 1:(100*\$4) with linespoints pt 5 ps 0.5 title "now, e = 0.9"
GP
echo "wrote $out/bounce-apex.png"
