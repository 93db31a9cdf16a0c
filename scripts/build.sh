#!/usr/bin/env bash
# Configures and builds circlesim in build/ (Release, warnings as errors). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCS_WERROR=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
