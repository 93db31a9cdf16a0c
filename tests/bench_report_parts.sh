#!/usr/bin/env bash
# scripts/bench-report.sh with --parts: the parts left out are "not run" in targets.csv and the run exits 0
# (it used to exit 1 after the tables: under set -e, an assignment from a lookup in a missing CSV ended it);
# a failure still exits non-zero, and an unknown part is a usage error. No benchmark runs here (--parts ""),
# so no peer engine is installed or timed.
#   tests/bench_report_parts.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src="$1"
build="$2"
out="$build/bench-report-parts"
rm -rf "$out"
fail() { echo "bench_report_parts: $*" >&2; exit 1; }

bash "$src/scripts/bench-report.sh" --build "$build" --out "$out" --parts "" || fail "--parts '' exited $?"
rows=$(tail -n +2 "$out/targets.csv" | wc -l)
not_run=$(awk -F, 'NR > 1 && $3 == "not run"' "$out/targets.csv" | wc -l)
[ "$rows" -gt 20 ] || fail "targets.csv has $rows rows"
[ "$not_run" -eq "$rows" ] || fail "$not_run of $rows rows are 'not run'"
grep -q '^µs/step/body growth' "$out/targets.csv" || fail "no growth row"

bash "$src/scripts/bench-report.sh" --build "$build/no-such-build" --out "$out" --parts paper 2>/dev/null
code=$?
[ "$code" -ne 0 ] || fail "a missing build exited 0"

bash "$src/scripts/bench-report.sh" --build "$build" --out "$out" --parts paper,chrun 2>"$out/usage.txt"
code=$?
[ "$code" -eq 2 ] || fail "an unknown part exited $code, not 2"
grep -q "got 'chrun'" "$out/usage.txt" || fail "the usage error does not name the part"

# --no-run on CSVs written here: every quality column is compared, and one circlesim loses is printed as lost
# (a max penetration 1.5× Box2D v3's: "no"; a mean penetration half of it: "yes"; a top error Box2D v3's row
# leaves empty: blank, not met).
header="scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,us_per_step,broadphase_us,"
header+="narrowphase_us,solver_us,position_us,bytes_per_body,ns_per_step_body,row_order,simd,max_penetration,"
header+="mean_penetration,ke_drift,top_error,final_max_speed,kinetic_energy,threads"
line() { # SCENE ENGINE US MAXPEN MEANPEN TOP KE
  echo "$1,$2,,10,1000,150,150,300,1,$3,,,,,,,,,$4,$5,0,$6,0,$7,1"
}
mkdir -p "$out/paper"
{ echo "$header"; line stacking150 pgs 40 0.15 0.01 2.4 500; } >"$out/paper/circlesim-paper.csv"
{ echo "$header"; line stacking150 box2d-v3 75 0.10 0.02 "" 4; } >"$out/paper/peers-box2d-v3-paper.csv"
bash "$src/scripts/bench-report.sh" --no-run --out "$out" --parts paper >/dev/null || fail "--no-run exited $?"
met() { awk -F, -v t="$1" '$1 == t { print $3 "/" $2; found = 1 } END { if (!found) print "missing" }' \
  "$out/targets.csv"; }
[ "$(met "relax: stacking150 max penetration ÷ Box2D v3's")" = "no/1.5" ] ||
  fail "max penetration: $(met "relax: stacking150 max penetration ÷ Box2D v3's")"
[ "$(met "relax: stacking150 mean penetration ÷ Box2D v3's")" = "yes/0.5" ] ||
  fail "mean penetration: $(met "relax: stacking150 mean penetration ÷ Box2D v3's")"
[ "$(met "relax: stacking150 kinetic energy after 1000 steps ÷ Box2D v3's")" = "no/125" ] ||
  fail "kinetic energy: $(met "relax: stacking150 kinetic energy after 1000 steps ÷ Box2D v3's")"
[ "$(met "relax: stacking150 µs/step ÷ Box2D v3 (10 iterations)")" = "no/0.533" ] ||
  fail "speed: $(met "relax: stacking150 µs/step ÷ Box2D v3 (10 iterations)")"
[ "$(met "relax: stacking150 |top error| ÷ Box2D v3's")" = "/" ] ||
  fail "a missing peer value: $(met "relax: stacking150 |top error| ÷ Box2D v3's")"
[ "$(met "split: stacking150 max penetration ÷ Box2D v3's")" = "/" ] ||
  fail "split, no CSV: $(met "split: stacking150 max penetration ÷ Box2D v3's")"
echo "bench_report_parts: ok ($rows targets, all 'not run'; --no-run compares every quality column)"
