#!/usr/bin/env bash
# circlesim's solvers beside Siconos Numerics's (issue 17) on one problem set, in one run: every scene at
# steps 10 and 100, with and without friction, frozen with `circlesim-cli run --dump-lcp` (a scene without
# friction gives one problem, not two equal ones), and 6 seeded random piles (4 to 64 discs) with and without
# friction (`circlesim-siconos random`); every method of circlesim's registry and of Siconos on every problem.
# Each run has a budget — K sweeps (Newton 100 steps, pivots 20 rows + 1000), S seconds of CPU (the bench ends
# it from outside), dense methods at most 2 500 rows — and a run that spends it has failed (Dolan-Moré's
# ratio ∞). Writes into out/siconos/ (git-ignored): problems/*.lcp, compare.md (circlesim-siconos compare at
# 1e-8 on Stacking 30/150 and Pool 1 at step 100, and the heavy chain and the bridge at step 100 as MLCPs),
# profile/ (runs.csv, Dolan-More profile CSVs, profile.gp and profile.png at 1e-4 and 1e-8, summary.md: the
# machine, the load average before and after, and the profiles at τ = 1, 10, 100). Problems without rows are
# left out (the bench says which).
# Usage: scripts/siconos-profile.sh [--max-iterations K] [--budget S]
#   (defaults 10000 sweeps, 1 s CPU; build first: scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/circlesim-cli
bench=build/circlesim-siconos
max=10000
budget=1
while [ $# -gt 0 ]; do
  case "$1" in
    --max-iterations) max="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    *) echo "usage: scripts/siconos-profile.sh [--max-iterations K] [--budget S]" >&2; exit 2 ;;
  esac
done
# One thread each: circlesim's solvers are single-threaded, and OpenBLAS's threads would blur CPU times.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
out=out/siconos
rm -rf "$out/problems" "$out/profile"
mkdir -p "$out/problems" "$out/profile"
started=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for scene in scenes/*.json; do
  name=$(basename "$scene" .json)
  for friction in friction frictionless; do
    flag=""
    [ "$friction" = frictionless ] && flag="--frictionless"
    "$cli" run "$scene" --steps 100 $flag --quiet \
      --dump-lcp "10:$out/problems/$name-$friction-10.lcp" --dump-lcp "100:$out/problems/$name-$friction-100.lcp"
  done
  for step in 10 100; do
    if cmp -s "$out/problems/$name-friction-$step.lcp" "$out/problems/$name-frictionless-$step.lcp"; then
      rm "$out/problems/$name-friction-$step.lcp"
    fi
  done
done
"$bench" random --out "$out/problems" --count 6
problems=("$out"/problems/*.lcp)
# The side-by-side table on the scenes of the paper's experiments at step 100; the profile on all of them.
table=()
for name in stacking stacking150 pool1; do
  table+=("$out/problems/$name-frictionless-100.lcp" "$out/problems/$name-friction-100.lcp")
done
table+=("$out/problems/chain-frictionless-100.lcp" "$out/problems/bridge-friction-100.lcp") # joints: MLCPs
for f in "${table[@]}"; do
  [ -f "$f" ] || { echo "$f: not written (the scene has no friction?)" >&2; exit 1; }
done
"$bench" compare --tol 1e-8 --max-iterations "$max" --budget "$budget" "${table[@]}" > "$out/compare.md"
"$bench" profile --out "$out/profile" --tol 1e-4,1e-8 --max-iterations "$max" --budget "$budget" "${problems[@]}" \
  2> >(tee "$out/profile/log.txt" >&2)
(cd "$out/profile" && gnuplot profile.gp)
# The profiles read at τ = 1 (best), 10 and 100 (rows 0, 60 and 120 of the 60-per-decade grid), with each
# method's solved count from runs.csv: the tables of docs/SOLVERS.md, "Siconos".
summary() {
  local t=$1 tol=$2
  awk -F, -v tol="$tol" -v time="$out/profile/profile-time-$t.csv" -v its="$out/profile/profile-iterations-$t.csv" '
    NR > 1 && $5 == tol { problems[$1] = 1; if ($7 == 1) solved[$4] += 1; if ($6 == 1) posed[$4] += 1 }
    END {
      n = 0; for (p in problems) n += 1
      for (f = 0; f < 2; ++f) {
        file = f == 0 ? time : its; row = 0
        while ((getline line < file) > 0) {
          k = split(line, c, ",")
          if (row == 0) { for (i = 2; i <= k; ++i) name[i] = c[i]; methods = k }
          else if (row == 1 || row == 61 || row == 121) for (i = 2; i <= k; ++i) at[f, row, i] = c[i]
          row += 1
        }
      }
      printf "### res_nat <= %s\n\n", tol
      printf "| method | solved | posed | time: best | ≤10× | ≤100× | iterations: best | ≤10× | ≤100× |\n"
      printf "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      for (i = 2; i <= methods; ++i)
        printf "| %s | %d/%d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", name[i], solved[name[i]], n, posed[name[i]],
          at[0, 1, i], at[0, 61, i], at[0, 121, i], at[1, 1, i], at[1, 61, i], at[1, 121, i]
      printf "\n"
    }' "$out/profile/runs.csv"
}
{
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(grep -c ^processor /proc/cpuinfo) cores;" \
    "run $(date -u -d "@$started" '+%Y-%m-%d %H:%M') UTC, $(( $(date +%s) - started )) s wall;" \
    "load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after."
  echo "Budgets per run: $max sweeps (Newton 100, pivots 20 rows + 1000), $budget s CPU, dense <= 2500 rows."
  echo
  echo "Left out of the profile:"
  echo
  grep -E 'left out' "$out/profile/log.txt" | sed 's/^circlesim-siconos profile: /- /' || true
  echo
  summary 0 1e-04
  summary 1 1e-08
} > "$out/profile/summary.md"
echo "wrote $out/compare.md, $out/profile/profile.png and $out/profile/summary.md"
