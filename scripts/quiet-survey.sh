#!/usr/bin/env bash
# docs/PHYSICS.md "Why Pool 1 did not go quiet": whether a settled pile goes quiet is decided by its chaotic
# collapse (a disc left rolling on free floor keeps rolling: the model has no rolling resistance), so one run
# says little. This runs a scene for STEPS steps at every iteration count of a range in both row orders and
# prints, per run, the worst penetration over the run, the kinetic energy and the max speed after the last
# step; then how many runs end with a body faster than v_q = slop / (STEPS h) — one that would still move
# more than the slop over another run as long — and how many with more kinetic energy than ¾ m v_q² (one
# disc of mass m, the scene's heaviest, rolling at v_q). tests/test_quiet_pile.c asks it of 96 runs (position
# sweeps 18-22, 25 x iterations 5-12 x both orders) and holds the rate.
# Usage: scripts/quiet-survey.sh [--scene FILE] [--steps N] [--iterations FIRST-LAST] [--build DIR]
#                                [-- extra circlesim-cli run options, e.g. --formulation relax]
# Defaults: scenes/pool1.json, 1000 steps, iterations 5-30, build/. Writes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
scene=scenes/pool1.json
steps=1000
range=5-30
build=build
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --scene) scene="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --iterations) range="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "quiet-survey: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$range" =~ ^[0-9]+-[0-9]+$ ]] || { echo "quiet-survey: --iterations: FIRST-LAST, got '$range'" >&2; exit 2; }
[[ "$steps" =~ ^[1-9][0-9]*$ ]] || { echo "quiet-survey: --steps: a positive integer, got '$steps'" >&2; exit 2; }
[ -x "$build/circlesim-cli" ] || bash scripts/build.sh
cli="$build/circlesim-cli"
state=$(mktemp)
trap 'rm -f "$state" "$state.runs" "$state.bounds"' EXIT
printf '%-9s %10s %12s %14s %12s\n' order iterations max_pen_mm kinetic_J max_speed
for order in coloured key; do
  for ((it = ${range%-*}; it <= ${range#*-}; ++it)); do
    "$cli" run "$scene" --steps "$steps" --iterations "$it" --row-order "$order" "${extra[@]}" \
      --state-out "$state" | awk -v o="$order" -v i="$it" '
        /^penetration/ { pen = $5 } /^motion/ { ke = $4; sub(",", "", ke); v = $8 }
        END { printf "%-9s %10d %12s %14s %12s\n", o, i, pen, ke, v }'
    # The bound's inputs from the run's own world: slop, h and the heaviest body (snapshot fields).
    python3 - "$state" "$steps" >>"$state.bounds" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); w = d["world"]; f = d["body_fields"]
m = max(b[f.index("mass")] for b in d["bodies"])
print(w["linear_slop"] / (int(sys.argv[2]) * w["time_step"]), m)
EOF
  done
done | tee "$state.runs"
paste "$state.runs" "$state.bounds" | awk '
  { v_q = $6; e_q = 0.75 * $7 * v_q * v_q; n++; fast += ($5 > v_q); energetic += ($4 > e_q) }
  END { printf "%d runs: %d end with a body faster than v_q = %.3g m/s, %d with more kinetic energy than %.3g J\n",
               n, fast, v_q, energetic, e_q }'
