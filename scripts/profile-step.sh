#!/usr/bin/env bash
# Where a step's instructions go, per phase (valgrind callgrind: exact and load-free, unlike wall times on a
# shared machine). Runs Pool 1, Pool 2, Stacking (30) and Stacking 150 for 300 steps (`circlesim-cli run`,
# the scenes' own settings: PGS, 10 iterations, split formulation) and a generated pool of 20 000 circles
# for its first 20 steps (`bench --suite scale`, relax formulation), and prints a Markdown table of the
# inclusive instruction counts (millions) of cs_world_step and of the functions that are its phases.
# Callgrind files and the raw annotations go to out/profile-step/ (git-ignored).
#
#   scripts/profile-step.sh [--cli PATH] [--tag NAME]
#
# --cli: the circlesim-cli to profile (default build/circlesim-cli); --tag: a prefix for the output files
# (default "now"), so that two builds can be profiled side by side. Needs valgrind (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

cli=build/circlesim-cli
tag=now
while [ $# -gt 0 ]; do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --tag) tag="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile-step: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$cli" ] || { echo "profile-step: no executable '$cli' (scripts/build.sh builds build/circlesim-cli)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "profile-step: valgrind not found (scripts/setup.sh installs it)" >&2; exit 2; }
case "$tag" in ''|*[!A-Za-z0-9_-]*) echo "profile-step: --tag takes letters, digits, _ and -, got '$tag'" >&2; exit 2 ;; esac
out=out/profile-step
mkdir -p "$out"

# column heading : function (inclusive; a function that does not run in a workload counts 0; a|b: whichever
# of these names the build runs)
phases=(
  "step:cs_world_step"
  "broad:cs_broadphase_update"
  "circle pairs:cs_collide_circles"
  "walls:cs_collide_wall"
  "contact instants:cs_contact_impacts"
  "colouring:cs_contact_order_build"
  "rows:cs_contact_rows_velocity"
  "solve start:cs_solve_start"
  "problem check:cs_problem_check_packed|cs_problem_check"
  "lane schedule:cs_schedule_rows"
  "velocity sweeps:cs_pgs_sweep"
  "residuals:cs_residuals"
  "position solve:cs_solve_split"
  "restitution:cs_contact_restitution"
  "health:cs_health_check_step"
  "events:cs_events_update"
)

profile() { # name, circlesim-cli arguments...
  local name=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$out/$tag-$name.cg" "$cli" "$@" >/dev/null 2>"$out/$tag-$name.log"
  callgrind_annotate --inclusive=yes --threshold=100 "$out/$tag-$name.cg" >"$out/$tag-$name.txt" 2>/dev/null
  local row="| $name |"
  for p in "${phases[@]}"; do
    local fn=${p#*:}
    local v
    v=$(grep -E "[:]($fn)( |\$)" "$out/$tag-$name.txt" | head -1 | awk '{gsub(",","",$1); printf "%.1f", $1/1e6}' || true)
    row+=" ${v:-0} |"
  done
  echo "$row"
}

header="| workload (M instructions) |"
rule="|---|"
for p in "${phases[@]}"; do
  header+=" ${p%%:*} |"
  rule+="---|"
done
echo "# $cli (this checkout: $(git rev-parse --short HEAD 2>/dev/null || echo '?')), $(date -u '+%F %T') UTC"
echo "$header"
echo "$rule"
for s in pool1 pool2 stacking stacking150; do
  profile "$s" run "scenes/$s.json" --steps 300 --quiet
done
profile pool-20000 bench --suite scale --sizes 20000 --steps 20 --warmup 0 --repeat 1 --quiet
