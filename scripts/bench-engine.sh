#!/usr/bin/env bash
# Issue 16's engine benchmarks, circlesim beside Box2D v3 in the same run, interleaved round by round, the
# median of R rounds (default 3):
#   1. a settled 2 000-circle pile, a step awake vs asleep: `circlesim-cli queries --bodies 2000 --steps 600`
#      without and with --sleep (mean µs/step of the last tenth of the 600 steps), and Box2D v3's asleep
#      figure (`run.sh pool-2000 600 4 1 sleep`);
#   2. the whole Pool 1 run (600 steps) with sleeping on: `circlesim-cli run` on scenes/pool1.json with
#      "sleep": true vs `run.sh pool1 600 4 1 sleep` (µs/step over the run);
#   3. rays and AABB queries on a settled pool of 5 000: `circlesim-cli queries --bodies 5000 --steps 600`
#      vs `run.sh pool-5000 600 4 1 rays` (ns per closest-hit 2 m ray and per 1 m × 1 m box query).
# Prints the machine, the load average before and after, every raw line, then a Markdown table of medians.
# Raw output and the Pool 1 scene copy go to out/bench-engine/ (git-ignored).
#
#   scripts/bench-engine.sh [--repeat R]
#
# Box2D v3 is ../shared/peers/box2d-v3/run.sh (or $CS_BOX2D_V3); without it the Box2D columns say "absent".
# Needs build/circlesim-cli (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

repeat=3
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-engine: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$repeat" in ''|*[!0-9]*|0) echo "bench-engine: --repeat needs a count >= 1, got '$repeat'" >&2; exit 2 ;; esac
cli=build/circlesim-cli
[ -x "$cli" ] || { echo "bench-engine: $cli not found: run scripts/build.sh first" >&2; exit 1; }
runner="${CS_BOX2D_V3:-../shared/peers/box2d-v3/run.sh}"
have_box2d=1
[ -x "$runner" ] || { echo "bench-engine: Box2D v3 runner $runner not found: its columns say absent" >&2; have_box2d=0; }

dir=out/bench-engine
mkdir -p "$dir"
raw="$dir/raw.txt"
: > "$raw"
# Pool 1 with sleeping on: the scene's "world" object gets "sleep": true.
sed 's/"time_step": 0.0166666666666666667 }/"time_step": 0.0166666666666666667, "sleep": true }/' \
  scenes/pool1.json > "$dir/pool1-sleep.json"
grep -q '"sleep": true' "$dir/pool1-sleep.json" || { echo "bench-engine: could not turn sleeping on in pool1.json" >&2; exit 1; }

# key=value or "key":value from a line.
field() { sed -n "s/.*[\"]*$1[\"]*[=:]\([-0-9.e+]*\).*/\1/p" <<<"$2" | head -1; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "absent"; else print a[int((NR + 1) / 2)]}'; }
record() { echo "$1 $2" >> "$dir/$1.values"; }
rm -f "$dir"/*.values

echo "machine: $(uname -srm), $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
pool1_time() { "$cli" run "$dir/pool1-sleep.json" | grep -E '^time '; }
# One measurement: runs the command, keeps its line in $line and the raw log.
measure() { local what=$1; shift; line=$("$@"); echo "round $round $what: $line" | tee -a "$raw"; }
for round in $(seq 1 "$repeat"); do
  measure "cs pile-2000 awake" "$cli" queries --bodies 2000 --steps 600
  record pile_awake "$(field us_per_step_last_tenth "$line")"
  measure "cs pile-2000 sleep" "$cli" queries --bodies 2000 --steps 600 --sleep
  record pile_asleep "$(field us_per_step_last_tenth "$line")"
  record pile_asleep_awake "$(field awake "$line")"
  [ "$have_box2d" = 1 ] && measure "b2 pool-2000 sleep" "$runner" pool-2000 600 4 1 sleep &&
    record b2_pile_asleep "$(field us_per_step_last_tenth "$line")"

  measure "cs pool1 sleep" pool1_time
  record pool1 "$(sed -n 's/^time *\([0-9.]*\) us\/step.*/\1/p' <<<"$line")"
  [ "$have_box2d" = 1 ] && measure "b2 pool1 sleep" "$runner" pool1 600 4 1 sleep &&
    record b2_pool1 "$(field us_per_step "$line")"

  measure "cs pool-5000 rays" "$cli" queries --bodies 5000 --steps 600
  record ray "$(field ns_per_ray "$line")"
  record aabb "$(field ns_per_aabb "$line")"
  if [ "$have_box2d" = 1 ]; then
    measure "b2 pool-5000 rays" "$runner" pool-5000 600 4 1 rays
    record b2_ray "$(field ns_per_ray "$line")"
    record b2_aabb "$(field ns_per_aabb "$line")"
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

m() { if [ -f "$dir/$1.values" ]; then cut -d' ' -f2 "$dir/$1.values" | median; else echo absent; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.1f", a / b; else print "—" }'; }
echo
echo "| What (median of $repeat) | circlesim | Box2D v3 (4 substeps) | ratio |"
echo "|---|---|---|---|"
echo "| settled 2 000 pile, step awake (µs, last tenth) | $(m pile_awake) | — | asleep is $(ratio "$(m pile_awake)" "$(m pile_asleep)")× cheaper |"
echo "| same pile asleep (µs, last tenth; awake bodies $(m pile_asleep_awake)) | $(m pile_asleep) | $(m b2_pile_asleep) | $(ratio "$(m b2_pile_asleep)" "$(m pile_asleep)") |"
echo "| whole Pool 1 run, sleeping on (µs/step, 600 steps) | $(m pool1) | $(m b2_pool1) | $(ratio "$(m b2_pool1)" "$(m pool1)") |"
echo "| closest-hit 2 m ray, settled pool of 5 000 (ns) | $(m ray) | $(m b2_ray) | $(ratio "$(m b2_ray)" "$(m ray)") |"
echo "| 1 m × 1 m AABB query, same pool (ns) | $(m aabb) | $(m b2_aabb) | $(ratio "$(m b2_aabb)" "$(m aabb)") |"
echo "(ratio: Box2D v3's time over circlesim's; above 1, circlesim is faster)"
