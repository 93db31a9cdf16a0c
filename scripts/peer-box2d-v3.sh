#!/usr/bin/env bash
# Box2D v3 on circlesim's benchmark scenes, churning ones included: builds Box2D v3 from the shared source
# tarball (../shared/peers/box2d-v3/box2d-v3-src.tar.gz: main after v3.1.1, MIT licence) into BUILD/peers-v3
# with the shared runner's settings (Release, AVX2), links bench/peers/box2d_v3.c (scenes from
# src/cli/bench_scenes.c, the formulas circlesim's bench uses) and writes rows in the CSV of
# circlesim-cli bench, so that scripts/bench-vs-peers.sh puts it beside Box2D 2.4.1, Chipmunk and circlesim.
#
#   scripts/peer-box2d-v3.sh --scenes LIST --steps N [--repeat R] [--warmup N] [--workers W] [--csv FILE]
#                            [--build DIR]
#   scripts/peer-box2d-v3.sh --check [--steps N]
#
# LIST: pool1, pool2, pool1-jitter, stacking, stacking150, gas, pool-N, stream-N. Float, 4 substeps, sleeping
# off, one worker unless told. --check runs the shared runner (run.sh) and this program on pool1 and stacking
# (500 steps unless told), three interleaved runs each: the quality after the run must be the same to the
# printed digit and the median µs/step within 25 % (the machine's noise), else exit 1. The tarball is looked
# for in $CS_BOX2D_V3_DIR when set, else in ../shared/peers/box2d-v3 and ../../shared/peers/box2d-v3 from the
# repository (a worktree sits one level deeper); exit 3 when absent (says where it looked).
set -euo pipefail
cd "$(dirname "$0")/.."

scenes=""
steps=""
repeat=3
warmup=60
workers=1
csv=/dev/stdout
build=build
check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --scenes) scenes="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --csv) csv="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "peer-box2d-v3: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for v in repeat warmup workers; do
  case "${!v}" in ''|*[!0-9]*) echo "peer-box2d-v3: --$v: a non-negative integer, got '${!v}'" >&2; exit 2 ;; esac
done
if [ "$check" = 0 ] && { [ -z "$scenes" ] || [ -z "$steps" ]; }; then
  echo "peer-box2d-v3: --scenes and --steps are required (see --help)" >&2
  exit 2
fi

shared=""
places="${CS_BOX2D_V3_DIR:-../shared/peers/box2d-v3 ../../shared/peers/box2d-v3}"
for d in $places; do
  if [ -r "$d/box2d-v3-src.tar.gz" ]; then shared=$(cd "$d" && pwd); break; fi
done
if [ -z "$shared" ]; then
  echo "peer-box2d-v3: Box2D v3 not measured: no box2d-v3-src.tar.gz in ${places// / or } (set CS_BOX2D_V3_DIR)" >&2
  exit 3
fi

# Box2D v3 as the shared runner builds it, once per tarball; then this program.
out="$build/peers-v3"
lib="$out/build/src/libbox2d.a"
if [ ! -f "$lib" ] || [ "$shared/box2d-v3-src.tar.gz" -nt "$lib" ]; then
  echo "peer-box2d-v3: building Box2D v3 from $shared/box2d-v3-src.tar.gz into $out (log: $out/build.log)" >&2
  rm -rf "$out/src" "$out/build"
  mkdir -p "$out/src"
  tar -xzf "$shared/box2d-v3-src.tar.gz" -C "$out/src"
  cmake -S "$out/src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DBOX2D_SAMPLES=OFF -DBOX2D_UNIT_TESTS=OFF \
    -DBOX2D_BENCHMARKS=OFF -DBOX2D_AVX2=ON -DBOX2D_VALIDATE=OFF >"$out/build.log" 2>&1
  cmake --build "$out/build" -j"$(nproc)" >>"$out/build.log" 2>&1
fi
bin="$out/circlesim-box2d-v3"
scene_sources=(src/cli/bench_scenes.c src/cli/bench_scenes.h src/scene/generator_formulas.c
  src/scene/generator_formulas.h)
stale=0
for f in bench/peers/box2d_v3.c "${scene_sources[@]}" "$lib"; do
  if [ "$f" -nt "$bin" ]; then stale=1; fi
done
if [ ! -x "$bin" ] || [ "$stale" = 1 ]; then
  # -O2 as the shared runner compiles its program; the library carries the AVX2 solver.
  cc -O2 -std=gnu17 -Wall -Wextra -I"$out/src/include" -Isrc bench/peers/box2d_v3.c src/cli/bench_scenes.c \
    src/scene/generator_formulas.c "$lib" -lm -lpthread -o "$bin"
fi

if [ "$check" = 1 ]; then
  runner="$shared/run.sh"
  test -x "$runner" || { echo "peer-box2d-v3: --check: no shared runner $runner" >&2; exit 3; }
  steps="${steps:-500}"
  status=0
  us() { sed -n 's/.*"us_per_step":\([^,]*\),.*/\1/p' <<<"$1"; }
  median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
  for scene in pool1 stacking; do
    # Three runs of each, interleaved, medians compared (the machine's load moves both alike).
    t=(); o=()
    for r in 1 2 3; do
      theirs=$("$runner" "$scene" "$steps" 4 "$workers")
      ours=$("$bin" --scenes "$scene" --steps "$steps" --workers "$workers" --json)
      t+=("$(us "$theirs")"); o+=("$(us "$ours")")
    done
    echo "run.sh:             $theirs"
    echo "circlesim-box2d-v3: $ours"
    # Everything but the wall time is the same simulation's result: equal as printed.
    strip() { sed 's/"us_per_step":[^,]*,//' <<<"$1"; }
    if [ "$(strip "$theirs")" != "$(strip "$ours")" ]; then
      echo "peer-box2d-v3: --check: $scene: the quality differs from the shared runner's" >&2
      status=1
    fi
    mt=$(median "${t[@]}"); mo=$(median "${o[@]}")
    echo "$scene: µs/step median of 3: run.sh $mt (${t[*]}), circlesim-box2d-v3 $mo (${o[*]})"
    if ! awk -v a="$mt" -v b="$mo" 'BEGIN { r = b / a; exit !(r > 0.8 && r < 1.25) }'; then
      echo "peer-box2d-v3: --check: $scene: µs/step $mo vs the runner's $mt: beyond 25 % (a busy machine?)" >&2
      status=1
    fi
  done
  exit $status
fi

"$bin" --scenes "$scenes" --steps "$steps" --repeat "$repeat" --warmup "$warmup" --workers "$workers" --csv "$csv"
