#!/usr/bin/env bash
# Runs circlesim's benchmark suite and the same scenes in Box2D v3 (scripts/peer-box2d-v3.sh), Box2D 2.4.1 and
# Chipmunk 7.0.3 (bench/peers), then prints speed with ratios and the quality of the same runs side by side.
#
#   scripts/bench-vs-peers.sh [--suite paper|scale|churn] [--steps N] [--repeat R] [--rounds K] [--warmup N]
#                             [--iterations LIST] [--sizes LIST] [--scenes LIST] [--threads T] [--solvers LIST]
#                             [--engines box2d-v3,box2d,chipmunk] [--formulation F] [--out DIR] [--plot FILE.png]
#                             [--build DIR] [--no-run]
#
# Suites as circlesim-cli bench's: paper (pool1, pool2, stacking, stacking150), scale (pool-N), churn (the
# elastic gas of scenes/gas.json and stream-N, a pool under falling rows). --scenes takes names: pool1, pool2,
# pool1-jitter, stacking, stacking150, gas (circlesim loads scenes/NAME.json), pool-N, stream-N (generated;
# every engine builds them from src/cli/bench_scenes.c and src/scene/generator_formulas.c). --threads T:
# circlesim on T threads and Box2D v3 on T workers (Box2D 2.4.1 and Chipmunk have one); --solvers:
# circlesim's (default: the suite's); --formulation: circlesim's contact formulation (relax, split, spook,
# soft; default: each scene file's world.formulation — the paper's scenes pin split — else the engine's relax).
# Writes OUT/circlesim-SUITE.csv, OUT/peers-SUITE.csv, OUT/peers-box2d-v3-SUITE.csv (when the Box2D v3
# tarball is there; it says so when it is not), then OUT/compare-SUITE.csv (µs/step of each, ratios
# circlesim ÷ peer: < 1 means circlesim is faster, the form of issue 12's targets) and OUT/quality-SUITE.csv
# (per engine: penetration max/mean over the run, kinetic energy drift, top-of-stack error, final max speed,
# final kinetic energy — of a settled pile, how quiet it went). Default OUT: BUILD/bench. --plot draws
# µs/step/body against N (scale suite) with gnuplot. --no-run compares and plots the CSVs already in OUT.
# --repeat R: each program runs each case R times in a row and reports the median; --rounds K: the whole
# sequence (circlesim, Box2D 2.4.1 and Chipmunk, Box2D v3) runs K times into OUT/round-1 … round-K and OUT's
# CSVs take each case's median µs/step over the rounds — on a machine whose speed changes from minute to
# minute (docs/PERFORMANCE.md, the session of 29 Nov 2026) every engine then meets every speed.
# Installs libbox2d-dev, libchipmunk-dev (and gnuplot-nox for --plot) with apt-get when missing. Timings are
# wall times on whatever else the machine is doing: run it on a quiet machine (scripts/bench-report.sh runs
# everything issue 12 asks for in one go), and read docs/PERFORMANCE.md for how the numbers there were taken.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=paper
repeat=3
rounds=1
warmup=60
threads=1
build=""
out=""
run=1
plot=""
engines=box2d-v3,box2d,chipmunk
common=()   # options every program takes
ours=()     # circlesim-cli bench only
peers=()    # circlesim-peers only
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite="$2"; common+=(--suite "$2"); shift 2 ;;
    --repeat) repeat="$2"; common+=("$1" "$2"); shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --warmup) warmup="$2"; common+=("$1" "$2"); shift 2 ;;
    --steps|--iterations|--sizes) common+=("$1" "$2"); shift 2 ;;
    --threads) threads="$2"; ours+=(--threads "$2"); shift 2 ;;
    --solvers|--formulation) ours+=("$1" "$2"); shift 2 ;;
    --scenes)
      # circlesim takes files for the scenes that have one, names for the generated ones.
      files=""
      IFS=',' read -ra list <<<"$2"
      for n in "${list[@]}"; do
        case "$n" in
          pool-*|stream-*) files="${files:+$files,}$n" ;;
          *) files="${files:+$files,}scenes/$n.json" ;;
        esac
      done
      ours+=(--scenes "$files")
      peers+=(--scenes "$2"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --plot) plot="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --engines) engines="$2"; shift 2 ;;
    --no-run) run=0; shift ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-vs-peers: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$suite" in paper|scale|churn) ;; *) echo "bench-vs-peers: --suite: paper, scale or churn, got '$suite'" >&2; exit 2 ;; esac
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "bench-vs-peers: --rounds: a count >= 1, got '$rounds'" >&2; exit 2; }
v3=0
old=()
IFS=',' read -ra list <<<"$engines"
for e in "${list[@]}"; do
  case "$e" in
    box2d-v3) v3=1 ;;
    box2d|chipmunk) old+=("$e") ;;
    *) echo "bench-vs-peers: --engines: box2d-v3, box2d or chipmunk, got '$e'" >&2; exit 2 ;;
  esac
done

out="${out:-${build:-build}/bench}"
ours_csv="$out/circlesim-$suite.csv"
peers_csv="$out/peers-$suite.csv"
v3_csv="$out/peers-box2d-v3-$suite.csv"
compare_csv="$out/compare-$suite.csv"
quality_csv="$out/quality-$suite.csv"
if [ "$run" = 1 ]; then
  need=()
  for p in libbox2d-dev libchipmunk-dev g++; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      need+=("$p")
    fi
  done
  if [ -n "$plot" ] && ! command -v gnuplot >/dev/null; then
    need+=(gnuplot-nox)
  fi
  if [ ${#need[@]} -gt 0 ]; then
    echo "bench-vs-peers: installing ${need[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi

  if [ -z "$build" ]; then
    build=build
    bash scripts/build.sh >/dev/null
  fi
  test -x "$build/circlesim-cli" || { echo "bench-vs-peers: no $build/circlesim-cli" >&2; exit 1; }
  mkdir -p "$out"
  rm -rf "$ours_csv" "$peers_csv" "$v3_csv" "$out"/round-*
  if [ ${#old[@]} -gt 0 ]; then
    cmake -S bench/peers -B "$build/peers" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build/peers" -j"$(nproc)" >/dev/null
    test -x "$build/peers/circlesim-peers" || { echo "bench-vs-peers: circlesim-peers was not built" >&2; exit 1; }
  fi
  for ((r = 1; r <= rounds; ++r)); do
    # One round: every engine once, back to back (with --rounds, each into OUT/round-R, merged below).
    d="$out"
    if [ "$rounds" -gt 1 ]; then d="$out/round-$r"; mkdir -p "$d"; echo "== round $r of $rounds"; fi
    ours_r="$d/$(basename "$ours_csv")"
    echo "== circlesim ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), $threads thread(s))"
    "$build/circlesim-cli" bench "${common[@]}" "${ours[@]}" --csv "$ours_r" --quiet
    if [ ${#old[@]} -gt 0 ]; then
      echo "== ${old[*]} (Box2D 2.4.1, Chipmunk 7.0.3: one thread)"
      "$build/peers/circlesim-peers" "${common[@]}" "${peers[@]}" --engines "$(IFS=,; echo "${old[*]}")" \
        --csv "$d/$(basename "$peers_csv")" 2>/dev/null >/dev/null
    fi
    if [ "$v3" = 1 ]; then
      # The scenes circlesim just ran, at the same steps (Box2D v3 has no iteration count: one row, 4 substeps).
      v3_scenes=$(awk -F, 'FNR > 1 && !seen[$1]++ { printf "%s%s", n++ ? "," : "", $1 }' "$ours_r")
      v3_steps=$(awk -F, 'FNR == 2 { print $5 }' "$ours_r")
      echo "== Box2D v3 ($threads worker(s))"
      if ! scripts/peer-box2d-v3.sh --build "$build" --scenes "$v3_scenes" --steps "$v3_steps" \
        --repeat "$repeat" --warmup "$warmup" --workers "$threads" --csv "$d/$(basename "$v3_csv")"; then
        rm -f "$d/$(basename "$v3_csv")"
      fi
    fi
  done
fi

# With rounds: each CSV of OUT is its rounds' rows with µs/step (column 10) the median over the rounds and the
# other columns the first round's (every engine computes the same run in every round: its quality columns are
# the same numbers). A CSV missing from a round is missing from the merge.
median_of_rounds() { # NAME
  local files=("$out"/round-*/"$1")
  for f in "${files[@]}"; do [ -r "$f" ] || return 0; done
  awk -F, -v OFS=, '
    FNR == 1 { if (NR == 1) print; next }
    {
      key = $1 FS $2 FS $3 FS $4 FS $25
      if (!(key in first)) { first[key] = $0; keys[++n] = key; m[key] = 0 }
      us[key, ++m[key]] = $10
    }
    END {
      for (i = 1; i <= n; ++i) {
        key = keys[i]; c = m[key]
        for (a = 2; a <= c; ++a)   # insertion sort (mawk has no asort)
          for (b = a; b > 1 && us[key, b - 1] + 0 > us[key, b] + 0; --b) {
            t = us[key, b]; us[key, b] = us[key, b - 1]; us[key, b - 1] = t
          }
        med = c % 2 ? us[key, (c + 1) / 2] : (us[key, c / 2] + us[key, c / 2 + 1]) / 2
        $0 = first[key]; $10 = med; print
      }
    }' "${files[@]}" >"$out/$1"
}
if compgen -G "$out/round-*" >/dev/null; then
  for f in "$ours_csv" "$peers_csv" "$v3_csv"; do median_of_rounds "$(basename "$f")"; done
fi
test -r "$ours_csv" || { echo "bench-vs-peers: no $ours_csv" >&2; exit 1; }
inputs=("$ours_csv")
for f in "$peers_csv" "$v3_csv"; do
  if [ -r "$f" ]; then inputs+=("$f"); else echo "bench-vs-peers: no $f: its engines have no column"; fi
done

# One line per (scene, iterations): µs/step of each circlesim solver and each peer, then circlesim ÷ peer.
awk -F, -v OFS=, '
  FNR == 1 { next }
  {
    key = $1 "," $4
    if (!(key in seen)) { seen[key] = 1; keys[++n] = key; bodies[key] = $6 }
    label = $2 ($3 != "" ? "(" $3 ")" : "")
    us[key, label] = $10
    if (!(label in known)) { known[label] = 1; labels[++m] = label; peer[label] = FILENAME ~ /(^|\/)peers-[^\/]*$/ }
  }
  END {
    header = "scene,iterations,bodies"
    for (j = 1; j <= m; ++j) header = header "," labels[j] "_us"
    for (k = 1; k <= m; ++k) if (!peer[labels[k]]) for (j = 1; j <= m; ++j) if (peer[labels[j]])
      header = header "," labels[k] "/" labels[j]
    print header
    for (i = 1; i <= n; ++i) {
      key = keys[i]; line = key "," bodies[key]
      for (j = 1; j <= m; ++j) line = line "," us[key, labels[j]]
      for (k = 1; k <= m; ++k) if (!peer[labels[k]]) for (j = 1; j <= m; ++j) if (peer[labels[j]]) {
        a = us[key, labels[k]]; b = us[key, labels[j]]
        line = line "," ((a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "")
      }
      print line
    }
  }' "${inputs[@]}" >"$compare_csv"
# One line per run: the quality columns of the same runs, in readable units.
awk -F, -v OFS=, '
  function num(x, scale, fmt) { return x == "" ? "" : sprintf(fmt, scale * x) }
  FNR == 1 { next }
  {
    label = $2 ($3 != "" ? "(" $3 ")" : "")
    print $1, $4, label, ($25 != "" ? $25 : 1), $6, $10, num($19, 1e3, "%.2f"), num($20, 1e3, "%.3f"),
          num($21, 1, "%.3g"), num($22, 1e3, "%.1f"), num($23, 1, "%.2g"), num($24, 1, "%.2g")
  }
  BEGIN { print "scene,iterations,engine,threads,bodies,us_per_step,max_pen_mm,mean_pen_mm,ke_drift_J,top_error_mm,final_max_speed,kinetic_energy_J" }' \
  "${inputs[@]}" >"$quality_csv"
echo "== speed (µs/step, median of the repeats; ratios circlesim ÷ peer: < 1 means circlesim is faster)"
column -s, -t <"$compare_csv"
echo "== quality of the same runs (penetration: worst and mean over the run; top error: how far the highest"
echo "   body sank; kinetic energy after the last step: of a settled pile, how quiet it went)"
column -s, -t <"$quality_csv"
echo "(files in $out/)"

if [ -n "$plot" ]; then
  # µs/step/body against N for every engine and solver of the run.
  data="$out/scaling-$suite.dat"
  awk -F, 'FNR == 1 { next }
    { t = ($25 != "" && $25 > 1) ? "-" $25 "threads" : ""
      label = (FILENAME ~ /(^|\/)peers-[^\/]*$/ ? "" : "circlesim-") $2 ($3 != "" ? "-alpha" $3 : "") t; print label, $6, $10 / $6 }' \
    "${inputs[@]}" | sort -k1,1 -k2,2n >"$data"
  labels=$(cut -d' ' -f1 "$data" | uniq)
  cmd="set terminal pngcairo size 900,560 font 'DejaVu Sans,11'; set output '$plot';"
  cmd="$cmd set logscale x; set logscale y; set grid; set key top left; set xrange [500:200000];"
  cmd="$cmd set xlabel 'circles N'; set ylabel 'µs per step per circle';"
  cmd="$cmd set title 'Cost per circle and step (pools of r = 0.21 m circles, 10 iterations, h = 1/60)'; plot"
  sep=""
  for l in $labels; do
    cmd="$cmd$sep '$data' using (strcol(1) eq '$l' ? \$2 : NaN):3 with linespoints lw 2 title '$l'"
    sep=","
  done
  gnuplot -e "$cmd"
  echo "plot: $plot"
fi
