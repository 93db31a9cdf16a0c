#!/usr/bin/env bash
# Issue 12's measurements in one run, against Box2D v3, Box2D 2.4.1 and Chipmunk 7.0.3 (scripts/bench-vs-peers.sh
# for each part), everything written down:
#   paper    Pool 1, Pool 2, the jittered Pool 1, Stacking 30 and 150, 1 000 steps at 10 and 200 iterations:
#            µs/step, ratios, quality; the kinetic energy after 1 000 steps (how quiet a settled pile goes),
#            Table 2 (Pool 1 at 200 iterations) against Chipmunk. Twice: at the engine's default formulation
#            (relax, the one the churn and scale parts' generated scenes run; OUT/paper) and at the one the
#            paper's scene files pin (split, the AMGS paper's; OUT/paper-split, beside Box2D v3 and Chipmunk);
#   churn    the elastic gas (scenes/gas.json, 20 000 discs) and stream-N (a pool under falling rows), on one
#            thread and on two (circlesim threads, Box2D v3 workers);
#   scale    pools of 1 000 … 50 000 circles on one thread (every engine) and two (circlesim, Box2D v3), and
#            the plot of µs/step/body against N (gnuplot);
# then OUT/targets.csv: each target of the issue, the measured ratio and whether it is met — every quality
# column of every paper scene against Box2D v3's in the same run (worst and mean penetration, the kinetic
# energy after the last step, and for the stacks the top's error; for the churning scenes penetration and
# the gas's energy drift), so that a quality row circlesim loses is printed as lost, not left out.
#
#   scripts/bench-report.sh [--quick] [--out DIR] [--build DIR] [--plot FILE.png] [--parts paper,churn,scale]
#                           [--no-run]
#
# --no-run: no benchmark; targets.csv from the CSVs a run left in OUT (the parts in --parts; give --quick
# as that run did, which names the stream's size).
#
# Full: paper 1 000 steps; churn 300 steps, stream-5000; scale 1 000, 5 000, 20 000, 50 000 circles, 150
# steps; each part three rounds of every engine in turn, µs/step the median over the rounds
# (bench-vs-peers.sh --rounds 3: about an hour, Box2D 2.4.1 is slow at 50 000). --quick: one round, churn 60
# steps with stream-2000, scale 1 000, 5 000, 20 000 at 30 steps (under 15 minutes on a quiet 2-core
# machine; the settled piles keep their 1 000 steps). Default OUT build/bench-report, plot OUT/scaling.png.
# Run it on a quiet machine: the load average is printed first and last, and wall times on a busy one say
# little (instruction counts: callgrind, docs/PERFORMANCE.md).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
run=1
out=build/bench-report
build=""
plot=""
parts=paper,churn,scale
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --out) out="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --plot) plot="$2"; shift 2 ;;
    --parts) parts="$2"; shift 2 ;;
    --no-run) run=0; shift ;;
    -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-report: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
plot="${plot:-$out/scaling.png}"
IFS=',' read -ra wanted <<<"$parts"
for part in "${wanted[@]}"; do
  case "$part" in
    paper|churn|scale) ;;
    *) echo "bench-report: --parts: paper, churn or scale, got '$part'" >&2; exit 2 ;;
  esac
done
if [ "$quick" = 1 ]; then
  rounds=1; churn_steps=60; stream=2000; sizes=1000,5000,20000; scale_steps=30; warmup=20
else
  rounds=3; churn_steps=300; stream=5000; sizes=1000,5000,20000,50000; scale_steps=150; warmup=60
fi
if [ "$run" = 1 ] && [ -z "$build" ]; then
  build=build
  bash scripts/build.sh >/dev/null
fi
if [ "$run" = 1 ]; then
  test -x "$build/circlesim-cli" || { echo "bench-report: no $build/circlesim-cli (--build DIR)" >&2; exit 1; }
fi
mkdir -p "$out"
has() { [[ ",$parts," == *",$1,"* ]]; }
runs() { [ "$run" = 1 ] && has "$1"; }
vs() { scripts/bench-vs-peers.sh --build "$build" --repeat 1 --rounds "$rounds" "$@"; }
started=$(date +%s)

if [ "$run" = 1 ]; then
  echo "== machine: $(date -u '+%F %T UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "== load before: $(uptime)"
  echo "== circlesim $(git rev-parse --short HEAD 2>/dev/null || echo '?')$([ "$quick" = 1 ] && echo ', --quick')"
fi

paper_scenes=pool1,pool2,pool1-jitter,stacking,stacking150
if runs paper; then
  echo "== paper scenes and settled piles, the engine's default formulation (relax): 1 000 steps, 10 and 200 iterations"
  vs --scenes "$paper_scenes" --steps 1000 --iterations 10,200 --solvers pgs --formulation relax \
    --out "$out/paper"
  echo "== the same at the scene files' formulation (split, the AMGS paper's), beside Box2D v3 and Chipmunk"
  vs --scenes "$paper_scenes" --steps 1000 --iterations 10,200 --solvers pgs --formulation split \
    --engines box2d-v3,chipmunk --out "$out/paper-split"
fi
if runs churn; then
  for t in 1 2; do
    echo "== churning: gas and stream-$stream, $t thread(s)"
    engines=box2d-v3,box2d,chipmunk
    if [ "$t" = 2 ]; then engines=box2d-v3; fi
    vs --suite churn --sizes "$stream" --steps "$churn_steps" --warmup "$warmup" \
      --threads "$t" --engines "$engines" --out "$out/churn-t$t"
  done
fi
if runs scale; then
  for t in 1 2; do
    echo "== pools $sizes, $t thread(s)"
    engines=box2d-v3,box2d,chipmunk
    if [ "$t" = 2 ]; then engines=box2d-v3; fi
    vs --suite scale --sizes "$sizes" --steps "$scale_steps" --warmup "$warmup" \
      --threads "$t" --engines "$engines" --out "$out/scale-t$t"
  done
  # One plot of both thread counts: the two-thread rows join the one-thread files (labelled by threads).
  mkdir -p "$out/scale"
  for f in circlesim-scale.csv peers-scale.csv peers-box2d-v3-scale.csv; do
    if [ -r "$out/scale-t1/$f" ]; then cp "$out/scale-t1/$f" "$out/scale/$f"; fi
    if [ -r "$out/scale-t2/$f" ] && [ -r "$out/scale/$f" ]; then tail -n +2 "$out/scale-t2/$f" >>"$out/scale/$f"; fi
  done
  if command -v gnuplot >/dev/null; then
    scripts/bench-vs-peers.sh --no-run --suite scale --out "$out/scale" --plot "$plot" | tail -1
  else
    echo "bench-report: gnuplot not installed (scripts/setup.sh installs it): no plot" >&2
  fi
fi

# The issue's targets against what this run measured: "not run" in the met column when --parts left that part
# out, a blank when the part ran but an engine is missing (bench-vs-peers said which). A missing file is not a
# failure here (us and col print nothing and return 0: under set -e an assignment from a failing command
# substitution would end the script with the table half written); a benchmark that fails already stopped it.
us() { # FILE SCENE ENGINE ITERATIONS -> µs/step
  if [ -r "$1" ]; then
    awk -F, -v s="$2" -v e="$3" -v i="$4" '$1 == s && $2 == e && $4 == i { print $10; exit }' "$1"
  fi
}
col() { # FILE SCENE ENGINE COLUMN -> |that column| of the 10-iteration run (19 max penetration, 20 mean
        # penetration, 21 KE drift, 22 top error, 24 final kinetic energy)
  if [ -r "$1" ]; then
    awk -F, -v s="$2" -v e="$3" -v c="$4" '$1 == s && $2 == e && $4 == 10 { x = $c; print x < 0 ? -x : x; exit }' "$1"
  fi
}
part="" # the part whose rows follow (set before each group)
row() { # TARGET A B LIMIT: a ratio A / B, met when ≤ LIMIT (≥ when LIMIT starts with >)
  if ! has "$part"; then echo "$1,,not run,$4"; return; fi
  awk -v t="$1" -v a="$2" -v b="$3" -v l="$4" 'BEGIN {
    if (a == "" || b == "") { print t ",,," l; exit }
    ge = substr(l, 1, 1) == ">"; v = ge ? substr(l, 2) : l
    # (A quality ratio over a peer that measured exactly 0: met only when circlesim measured 0 too.)
    if (b + 0 <= 0) { if (!ge && a + 0 == 0) printf "%s,0,yes,%s\n", t, l; else print t ",,," l; exit }
    r = a / b
    printf "%s,%.3g,%s,%s\n", t, r, (ge ? r >= v : r <= v) ? "yes" : "no", l }'
}
# Quality is never bought: each quality column of circlesim's 10-iteration run against Box2D v3's, same run.
quality() { # DIR SCENE COLUMN NAME FORMULATION
  row "$5: $2 $4 ÷ Box2D v3's" "$(col "$1/circlesim-paper.csv" "$2" pgs "$3")" \
    "$(col "$1/peers-box2d-v3-paper.csv" "$2" box2d-v3 "$3")" 1
}
c1="$out/churn-t1"; s1="$out/scale-t1"; s2="$out/scale-t2"
{
  echo "target,measured,met,limit"
  part=paper
  for f in relax split; do
    d="$out/paper"; [ "$f" = split ] && d="$out/paper-split"
    for scene in pool1 pool2; do
      row "$f: $scene µs/step ÷ Box2D v3 (10 iterations)" "$(us "$d/circlesim-paper.csv" "$scene" pgs 10)" \
        "$(us "$d/peers-box2d-v3-paper.csv" "$scene" box2d-v3 10)" 0.5
    done
    for scene in stacking stacking150; do
      row "$f: $scene µs/step ÷ Box2D v3 (10 iterations)" "$(us "$d/circlesim-paper.csv" "$scene" pgs 10)" \
        "$(us "$d/peers-box2d-v3-paper.csv" "$scene" box2d-v3 10)" 0.4
    done
    row "$f: Table 2 (pool1 at 200 iterations) ÷ Chipmunk" "$(us "$d/circlesim-paper.csv" pool1 pgs 200)" \
      "$(us "$d/peers-paper.csv" pool1 chipmunk-7.0.3 200)" 0.22
    for scene in pool1 pool2 pool1-jitter stacking stacking150; do
      quality "$d" "$scene" 19 "max penetration" "$f"
      quality "$d" "$scene" 20 "mean penetration" "$f"
      quality "$d" "$scene" 24 "kinetic energy after 1000 steps" "$f"
    done
    # (Not the stacks' energy drift: from their first step to a standstill it is minus that step's kinetic
    # energy for every engine, a ratio of ~1 that says nothing; the energy after 1 000 steps says whether the
    # stack went quiet.)
    for scene in stacking stacking150; do
      quality "$d" "$scene" 22 "|top error|" "$f"
    done
  done
  part=churn
  row "gas |kinetic energy drift| ÷ Box2D v3's" "$(col "$c1/circlesim-churn.csv" gas pgs 21)" \
    "$(col "$c1/peers-box2d-v3-churn.csv" gas box2d-v3 21)" 1
  for scene in gas "stream-$stream"; do
    for c in "19 max penetration" "20 mean penetration"; do
      row "$scene ${c#* } ÷ Box2D v3's" "$(col "$c1/circlesim-churn.csv" "$scene" pgs "${c%% *}")" \
        "$(col "$c1/peers-box2d-v3-churn.csv" "$scene" box2d-v3 "${c%% *}")" 1
    done
  done
  for scene in gas "stream-$stream"; do
    for t in 1 2; do
      d="$out/churn-t$t"
      row "$scene µs/step ÷ Box2D v3 ($t thread(s)/worker(s))" "$(us "$d/circlesim-churn.csv" "$scene" pgs 10)" \
        "$(us "$d/peers-box2d-v3-churn.csv" "$scene" box2d-v3 10)" 0.5
    done
  done
  part=scale
  IFS=',' read -ra ns <<<"$sizes"
  for n in "${ns[@]}"; do
    if [ "$n" -ge 5000 ]; then
      row "pool-$n µs/step ÷ Box2D v3 (one thread/worker)" "$(us "$s1/circlesim-scale.csv" "pool-$n" pgs 10)" \
        "$(us "$s1/peers-box2d-v3-scale.csv" "pool-$n" box2d-v3 10)" 0.5
    fi
    if [ "$n" -ge 20000 ]; then
      row "pool-$n two-thread speed-up (circlesim)" "$(us "$s1/circlesim-scale.csv" "pool-$n" pgs 10)" \
        "$(us "$s2/circlesim-scale.csv" "pool-$n" pgs 10)" ">1.8"
    fi
  done
  first=${ns[0]}; last=${ns[${#ns[@]}-1]}
  a=$(us "$s1/circlesim-scale.csv" "pool-$first" pgs 10); b=$(us "$s1/circlesim-scale.csv" "pool-$last" pgs 10)
  growth="µs/step/body growth pool-$first → pool-$last (circlesim)"
  if [ -n "$a" ] && [ -n "$b" ]; then
    row "$growth" "$(awk -v b="$b" -v n="$last" 'BEGIN { print b / n }')" \
      "$(awk -v a="$a" -v n="$first" 'BEGIN { print a / n }')" 1.5
  else
    row "$growth" "" "" 1.5
  fi
} >"$out/targets.csv"
echo "== issue 12's targets, this run (ratios circlesim ÷ peer, quality columns ÷ Box2D v3's; relax: the engine's"
echo "   default formulation, split: the paper's scene files')"
column -s, -t <"$out/targets.csv"
if [ "$run" = 1 ]; then
  echo "== load after: $(uptime)"
  echo "== $(( ($(date +%s) - started) / 60 )) min; files in $out/"
fi
