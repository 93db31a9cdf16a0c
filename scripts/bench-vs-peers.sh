#!/usr/bin/env bash
# Runs circlesim's benchmark suite and the same scenes in Box2D 2.4.1 and Chipmunk 7.0.3 (bench/peers), then
# prints both side by side with ratios (peer µs/step ÷ circlesim µs/step: > 1 means circlesim is faster).
#
#   scripts/bench-vs-peers.sh [--suite paper|scale] [--steps N] [--repeat R] [--iterations LIST]
#                             [--sizes LIST] [--scenes LIST] [--engines box2d,chipmunk] [--out DIR]
#                             [--plot FILE.png] [--build DIR] [--no-run]
#
# Installs libbox2d-dev and libchipmunk-dev with apt-get when missing (through sudo when not root), builds
# circlesim in build/ (scripts/build.sh; --build DIR: an existing Release build instead) and the peers in
# BUILD/peers/, writes OUT/circlesim-SUITE.csv, OUT/peers-SUITE.csv and OUT/compare-SUITE.csv (default OUT:
# BUILD/bench), and OUT/peers-box2d-v3-SUITE.csv when ../shared/peers/box2d-v3 is there (scripts/peer-box2d-v3.sh;
# it says so when it is not). --plot draws µs/step/body against N (scale suite) with gnuplot. --no-run compares and plots
# the CSVs already in OUT (e.g. peers run with other repeats, docs/perf/). The peers are slow at scale:
# Box2D takes ~3 minutes per 300-step run of 50 000 circles. Timings are single-threaded wall times on
# whatever else the machine is doing: run it on a quiet machine, and read docs/PERFORMANCE.md for how the
# numbers there were taken.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=paper
repeat=3
build=""
out=""
run=1
plot=""
common=()   # options both programs take
ours=()     # circlesim-cli bench only
peers=()    # circlesim-peers only
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite="$2"; common+=(--suite "$2"); shift 2 ;;
    --repeat) repeat="$2"; common+=("$1" "$2"); shift 2 ;;
    --steps|--iterations|--sizes|--warmup) common+=("$1" "$2"); shift 2 ;;
    --scenes)
      # circlesim takes files for the paper scenes; the peers take names.
      names="$2"; files=""
      IFS=',' read -ra list <<<"$names"
      for n in "${list[@]}"; do
        case "$n" in
          pool-*) ;;
          *) files="${files:+$files,}scenes/$n.json" ;;
        esac
      done
      if [ -n "$files" ]; then ours+=(--scenes "$files"); fi
      peers+=(--scenes "$names"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --plot) plot="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --engines) peers+=(--engines "$2"); shift 2 ;;
    --no-run) run=0; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-vs-peers: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$suite" in paper|scale) ;; *) echo "bench-vs-peers: --suite: paper or scale, got '$suite'" >&2; exit 2 ;; esac

out="${out:-${build:-build}/bench}"
ours_csv="$out/circlesim-$suite.csv"
peers_csv="$out/peers-$suite.csv"
compare_csv="$out/compare-$suite.csv"
v3_csv="$out/peers-box2d-v3-$suite.csv"
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
  cmake -S bench/peers -B "$build/peers" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build/peers" -j"$(nproc)" >/dev/null
  test -x "$build/peers/circlesim-peers" || { echo "bench-vs-peers: circlesim-peers was not built" >&2; exit 1; }

  mkdir -p "$out"
  echo "== circlesim ($(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
  "$build/circlesim-cli" bench "${common[@]}" "${ours[@]}" --csv "$ours_csv" --quiet
  echo "== Box2D 2.4.1 and Chipmunk 7.0.3"
  "$build/peers/circlesim-peers" "${common[@]}" "${peers[@]}" --csv "$peers_csv" 2>/dev/null >/dev/null
  # Box2D v3 from ../shared/peers/box2d-v3 when it is there, on the scenes circlesim just ran (at 10 iterations).
  v3_scenes=$(awk -F, 'FNR > 1 && !seen[$1]++ { printf "%s%s", n++ ? "," : "", $1 }' "$ours_csv")
  v3_steps=$(awk -F, 'FNR == 2 { print $5 }' "$ours_csv")
  rm -f "$v3_csv"
  echo "== Box2D v3"
  if ! scripts/peer-box2d-v3.sh --scenes "$v3_scenes" --steps "$v3_steps" --repeat "$repeat" --csv "$v3_csv"; then
    rm -f "$v3_csv"
  fi
fi
for f in "$ours_csv" "$peers_csv"; do
  test -r "$f" || { echo "bench-vs-peers: no $f" >&2; exit 1; }
done
v3_files=()
if [ -r "$v3_csv" ]; then v3_files=("$v3_csv"); else echo "bench-vs-peers: no Box2D v3 column ($v3_csv absent)"; fi

# One line per (scene, iterations): µs/step of each circlesim solver and each peer, the ratios, and the
# quality of the same runs (max penetration, final max speed; the CSVs have all five quality columns).
awk -F, -v OFS=, '
  FNR == 1 { next }
  {
    key = $1 "," $4
    if (!(key in seen)) { seen[key] = 1; keys[++n] = key; bodies[key] = $6 }
    label = $2 ($3 != "" ? "(" $3 ")" : "")
    us[key, label] = $10
    pen[key, label] = ($19 != "" ? sprintf("%.2f", 1e3 * $19) : "")
    vmax[key, label] = ($23 != "" ? sprintf("%.2g", $23) : "")
    if (!(label in known)) { known[label] = 1; labels[++m] = label; peer[label] = FILENAME ~ /peers-/ }
  }
  END {
    header = "scene,iterations,bodies"
    for (j = 1; j <= m; ++j) header = header "," labels[j] "_us"
    for (j = 1; j <= m; ++j) if (peer[labels[j]]) for (k = 1; k <= m; ++k) if (!peer[labels[k]])
      header = header "," labels[j] "/" labels[k]
    for (j = 1; j <= m; ++j) header = header "," labels[j] "_maxpen_mm," labels[j] "_vmax"
    print header
    for (i = 1; i <= n; ++i) {
      key = keys[i]; line = key "," bodies[key]
      for (j = 1; j <= m; ++j) line = line "," us[key, labels[j]]
      for (j = 1; j <= m; ++j) if (peer[labels[j]]) for (k = 1; k <= m; ++k) if (!peer[labels[k]]) {
        a = us[key, labels[j]]; b = us[key, labels[k]]
        line = line "," ((a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "")
      }
      for (j = 1; j <= m; ++j) line = line "," pen[key, labels[j]] "," vmax[key, labels[j]]
      print line
    }
  }' "$ours_csv" "$peers_csv" "${v3_files[@]}" >"$compare_csv"
column -s, -t <"$compare_csv"
echo "(µs/step, median of the repeats; ratios are peer ÷ circlesim; then each one's max penetration over the"
echo " run in mm and final max speed in m/s, from the same runs; files in $out/)"
echo "(µs/step, median of the repeats; ratios are peer ÷ circlesim; files in $out/)"
if [ -r "$v3_csv" ]; then
  echo "== Box2D v3 quality (median run; its penetration is measured after the run, circlesim's over the run)"
  cut -d, -f1,2,10,19-24 "$v3_csv" | column -s, -t
fi

if [ -n "$plot" ]; then
  # µs/step/body against N for every engine and solver of the scale suite.
  data="$out/scaling-$suite.dat"
  awk -F, 'FNR == 1 { next }
    { label = (FILENAME ~ /peers-/ ? "" : "circlesim-") $2 ($3 != "" ? "-alpha" $3 : ""); print label, $6, $10 / $6 }' \
    "$ours_csv" "$peers_csv" | sort -k1,1 -k2,2n >"$data"
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
