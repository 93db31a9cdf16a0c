#!/usr/bin/env bash
# circlesim's solvers beside Siconos Numerics's (issue 17) on one problem set: every scene at steps 10 and 100,
# with and without friction, frozen with `circlesim-cli run --dump-lcp`, and 6 seeded random piles (4 to 64
# discs) with and without friction (`circlesim-siconos random`). Writes into out/siconos/ (git-ignored):
#   problems/*.lcp, compare.md (circlesim-siconos compare at 1e-8 on Stacking 30/150 and Pool 1 at step 100), profile/ (runs.csv, Dolan-More profile
#   CSVs, profile.gp and profile.png at 1e-4 and 1e-8).
# Usage: scripts/siconos-profile.sh [--max-iterations K]   (default 2000 sweeps; build first: scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/circlesim-cli
bench=build/circlesim-siconos
max=2000
if [ "${1:-}" = "--max-iterations" ]; then
  max="$2"
fi
out=out/siconos
mkdir -p "$out/problems" "$out/profile"
for scene in scenes/*.json; do
  name=$(basename "$scene" .json)
  for friction in friction frictionless; do
    flag=""
    [ "$friction" = frictionless ] && flag="--frictionless"
    "$cli" run "$scene" --steps 100 $flag --quiet \
      --dump-lcp "10:$out/problems/$name-$friction-10.lcp" --dump-lcp "100:$out/problems/$name-$friction-100.lcp"
  done
done
"$bench" random --out "$out/problems" --count 6
problems=("$out"/problems/*.lcp)
# The side-by-side table on the scenes of the paper's experiments at step 100; the profile on all of them.
table=()
for name in stacking stacking150 pool1; do
  table+=("$out/problems/$name-frictionless-100.lcp" "$out/problems/$name-friction-100.lcp")
done
"$bench" compare --tol 1e-8 --max-iterations "$max" "${table[@]}" > "$out/compare.md"
# Pile at step 100 (862 and 1 764 rows) stays out of the profile: there each dense Siconos method takes
# minutes (fc2d NSGS 100 s per solve), which would make the run an hour on a shared 2-core machine.
profile=()
for f in "${problems[@]}"; do
  case "$f" in *pile-friction-100.lcp | *pile-frictionless-100.lcp) ;; *) profile+=("$f") ;; esac
done
"$bench" profile --out "$out/profile" --tol 1e-4,1e-8 --max-iterations "$max" "${profile[@]}"
(cd "$out/profile" && gnuplot profile.gp)
echo "wrote $out/compare.md and $out/profile/profile.png"
