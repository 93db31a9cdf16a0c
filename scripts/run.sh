#!/usr/bin/env bash
# The run command of README.md: install what is missing, build, and open the viewer on Pool 1
# (arguments are passed on, e.g. scripts/run.sh scenes/stacking.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
if [ -x build/circlesim ]; then
  exec build/circlesim "${@:-scenes/pool1.json}"
fi
exec build/circlesim-cli run "${@:-scenes/pool1.json}"
