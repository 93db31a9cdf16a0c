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
echo "bench_report_parts: ok ($rows targets, all 'not run')"
