#!/usr/bin/env bash
# Box2D v3 on circlesim's benchmark scenes through ../shared/peers/box2d-v3/run.sh (its own build of Box2D v3,
# float, AVX2, 4 substeps, one worker unless told), as rows in the CSV format of circlesim-peers, so that
# scripts/bench-vs-peers.sh can put it beside Box2D 2.4.1, Chipmunk and circlesim.
#
#   scripts/peer-box2d-v3.sh --scenes LIST --steps N [--repeat R] [--workers W] [--csv FILE]
#
# LIST: pool1,pool2,stacking,stacking150,pool-N. Each scene runs R times (default 3); the row holds the median
# µs/step and the quality after the median run in the columns of circlesim-cli bench: penetration max/mean (m),
# top-of-stack error (m), final max speed (m/s), and the final kinetic energy (J). The iterations column says 10: Box2D v3's 4 substeps stand beside circlesim's default
# 10 iterations (Box2D v3 has no iteration count of its own). Exit 3 when run.sh is not there (says where it looked).
set -euo pipefail
cd "$(dirname "$0")/.."

runner="${CS_BOX2D_V3:-../shared/peers/box2d-v3/run.sh}"
scenes=""
steps=""
repeat=3
workers=1
csv=/dev/stdout
while [ $# -gt 0 ]; do
  case "$1" in
    --scenes) scenes="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --csv) csv="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "peer-box2d-v3: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$scenes" ] || [ -z "$steps" ]; then
  echo "peer-box2d-v3: --scenes and --steps are required (see --help)" >&2
  exit 2
fi
case "$repeat" in ''|*[!0-9]*|0) echo "peer-box2d-v3: --repeat: a positive integer, got '$repeat'" >&2; exit 2 ;; esac
if [ ! -x "$runner" ]; then
  echo "peer-box2d-v3: Box2D v3 not measured: no runner at $runner (set CS_BOX2D_V3)" >&2
  exit 3
fi

# A JSON line's number by key (the runner prints flat objects of numbers and strings).
field() {
  sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p" <<<"$1" | tr -d '"'
}

echo "scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,us_per_step,broadphase_us,narrowphase_us,solver_us,position_us,bytes_per_body,ns_per_step_body,row_order,simd,max_penetration,mean_penetration,ke_drift,top_error,final_max_speed,kinetic_energy,workers" >"$csv"
IFS=',' read -ra list <<<"$scenes"
for scene in "${list[@]}"; do
  lines=()
  for ((r = 0; r < repeat; ++r)); do
    lines+=("$("$runner" "$scene" "$steps" 4 "$workers")")
  done
  # The median run by µs/step.
  median=$(for l in "${lines[@]}"; do echo "$(field "$l" us_per_step) $l"; done | sort -g | sed -n "$(((repeat + 1) / 2))p" | cut -d' ' -f2-)
  us=$(field "$median" us_per_step)
  case "$scene" in
    pool1|pool2) bodies=221 ;;
    stacking) bodies=30 ;;
    stacking150) bodies=150 ;;
    pool-*) bodies=${scene#pool-} ;;
    *) bodies="" ;;
  esac
  seconds=$(awk -v u="$us" -v s="$steps" 'BEGIN { printf "%.6f", u * s * 1e-6 }')
  ns=$(awk -v u="$us" -v b="$bodies" 'BEGIN { if (b > 0) printf "%.2f", 1000 * u / b }')
  # circlesim-cli bench's quality columns, in its units (m, J, m/s). Box2D v3's runner measures penetration
  # after the run (circlesim: the worst over the run) and reports the final kinetic energy, not its drift;
  # top_error (exact top minus final top, m) only for the stacks.
  top_error=""
  case "$scene" in
    stacking*) top_error=$(awk -v t="$(field "$median" top)" -v p="$(field "$median" top_err_pct)" \
      'BEGIN { printf "%.6g", t / (1 + p / 100) - t }') ;;
  esac
  pen_max=$(awk -v x="$(field "$median" pen_max_mm)" 'BEGIN { printf "%.6g", x / 1000 }')
  pen_mean=$(awk -v x="$(field "$median" pen_mean_mm)" 'BEGIN { printf "%.6g", x / 1000 }')
  echo "$scene,box2d-v3,,10,$steps,$bodies,,,$seconds,$us,,,,,,$ns,,,$pen_max,$pen_mean,,$top_error,$(field "$median" vmax),$(field "$median" ke),$workers" >>"$csv"
done
