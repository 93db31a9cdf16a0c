#!/usr/bin/env bash
# scripts/bench-vs-peers.sh --rounds: OUT's CSVs take each case's median µs/step over OUT/round-*/ (odd and
# even counts), keep the first round's other columns, and the comparison divides the medians. Runs on CSVs
# written here with --no-run (no engine is built or timed).
#   tests/bench_vs_peers_rounds.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src="$1"
out="$2/bench-vs-peers-rounds"
rm -rf "$out"
fail() { echo "bench_vs_peers_rounds: $*" >&2; exit 1; }
header="scene,solver,alpha,iterations,steps,bodies,mean_contacts,mean_rows,seconds,us_per_step,broadphase_us,"
header+="narrowphase_us,solver_us,position_us,bytes_per_body,ns_per_step_body,row_order,simd,max_penetration,"
header+="mean_penetration,ke_drift,top_error,final_max_speed,kinetic_energy,threads"
line() { # SCENE ENGINE US MAXPEN
  echo "$1,$2,,10,1000,30,30,60,1,$3,,,,,,,,,$4,0.001,0,0.01,0,0,1"
}
round() { # R OURS_US PEER_US MAXPEN
  mkdir -p "$out/round-$1"
  { echo "$header"; line stacking pgs "$2" "$4"; } >"$out/round-$1/circlesim-paper.csv"
  { echo "$header"; line stacking box2d-v3 "$3" 0.02; } >"$out/round-$1/peers-box2d-v3-paper.csv"
}
us() { awk -F, -v f="$2" 'NR == 2 { print $f }' "$out/$1"; }

round 1 10 100 0.015 # (the first round's quality columns are kept)
round 2 30 90 0.099
round 3 20 300 0.099
bash "$src/scripts/bench-vs-peers.sh" --no-run --suite paper --out "$out" >/dev/null || fail "--no-run exited $?"
[ "$(us circlesim-paper.csv 10)" = 20 ] || fail "circlesim's median of 10, 30, 20: $(us circlesim-paper.csv 10)"
[ "$(us peers-box2d-v3-paper.csv 10)" = 100 ] || fail "Box2D v3's median: $(us peers-box2d-v3-paper.csv 10)"
[ "$(us circlesim-paper.csv 19)" = 0.015 ] || fail "not the first round's quality: $(us circlesim-paper.csv 19)"
ratio=$(awk -F, 'NR == 2 { print $NF }' "$out/compare-paper.csv")
[ "$ratio" = 0.20 ] || fail "circlesim ÷ Box2D v3 of the medians: $ratio"

round 4 50 110 0.099 # an even count: the mean of the middle two (20, 30; 100, 110)
bash "$src/scripts/bench-vs-peers.sh" --no-run --suite paper --out "$out" >/dev/null || fail "--no-run exited $?"
[ "$(us circlesim-paper.csv 10)" = 25 ] || fail "circlesim's median of four: $(us circlesim-paper.csv 10)"
[ "$(us peers-box2d-v3-paper.csv 10)" = 105 ] || fail "Box2D v3's median of four: $(us peers-box2d-v3-paper.csv 10)"

bash "$src/scripts/bench-vs-peers.sh" --no-run --rounds 0 --out "$out" 2>/dev/null
[ $? -eq 2 ] || fail "--rounds 0 is not a usage error"
echo "bench_vs_peers_rounds: ok"
