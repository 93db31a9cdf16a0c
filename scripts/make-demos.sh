#!/usr/bin/env bash
# Makes the viewer's demo screenshots and videos, reproducibly, from scripted headless runs.
#   scripts/make-demos.sh [OUTDIR]     (default build/demos; needs build/circlesim: scripts/build.sh)
# Renders off-screen with the viewer's own renderer (SDL offscreen driver, Mesa), one simulation step per
# frame and no wall-clock numbers in the HUD, so the same commit always gives the same frames. Timed
# actions live in scripts/demos/*.txt. It writes into OUTDIR only: to update the media the docs show,
# copy what you checked from build/demos into docs/media yourself.
#   pool1.png, pool2.png                   1280x720 after 300 steps (PNG, quantised to 256 colours)
#   stacking.png                           800x900 after 300 steps
#   pool1-pgs-to-amgs.mp4                  Pool 1, PGS for 4 s then AMGS alpha 0.2 (640x360, 8 s)
#   stacking.mp4                           Stacking, PGS then AMGS alpha 0.2, then impulse arrows (360x640, 5 s)
#   pool1-duel.mp4                         Pool 1 forked at step 60 into PGS and AMGS panes (960x540, 6 s)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/demos}
viewer=${CIRCLESIM:-build/circlesim}
[ -x "$viewer" ] || bash scripts/build.sh
command -v ffmpeg >/dev/null || { echo "make-demos: ffmpeg is needed for the videos (scripts/setup.sh installs it)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-offscreen}

# stb writes plain RGBA PNGs; a 256-colour palette keeps the pictures well under 200 KB.
shrink_png() {
  ffmpeg -y -loglevel error -i "$1" \
    -vf "split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=none" "$2"
}

echo "== screenshots (300 steps)"
for shot in pool1:1280x720 pool2:1280x720 stacking:800x900; do
  scene=${shot%%:*}
  "$viewer" --headless --frames 300 --size "${shot#*:}" --screenshot "$tmp/$scene.png" "scenes/$scene.json" >/dev/null
  shrink_png "$tmp/$scene.png" "$out/$scene.png"
done

echo "== videos"
"$viewer" --headless --frames 480 --size 640x360 --ui-scale 0.75 --script scripts/demos/pool1-pgs-to-amgs.txt \
  --record "$out/pool1-pgs-to-amgs.mp4" scenes/pool1.json >/dev/null
"$viewer" --headless --frames 300 --size 360x640 --ui-scale 0.75 --script scripts/demos/stacking.txt \
  --record "$out/stacking.mp4" scenes/stacking.json >/dev/null

"$viewer" --headless --frames 360 --size 960x540 --ui-scale 0.75 --script scripts/demos/pool1-duel.txt \
  --record "$out/pool1-duel.mp4" scenes/pool1.json >/dev/null

ls -l "$out"/pool1.png "$out"/stacking.png "$out"/pool2.png "$out"/pool1-pgs-to-amgs.mp4 "$out"/stacking.mp4 \
  "$out"/pool1-duel.mp4
