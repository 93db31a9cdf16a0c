#!/usr/bin/env bash
# Installs circlesim's build and test dependencies on Debian 12 when any is missing (apt-get, through sudo
# when not root); does nothing when everything is present. Sourced facts: ../shared/TOOLCHAIN.md.
set -euo pipefail

packages=(
  cmake pkg-config gcc clang clang-format libclang-rt-14-dev
  libsdl2-dev libcglm-dev libepoxy-dev
  xvfb xauth libgl1-mesa-dri libegl-mesa0
  libstb-dev libpng-dev fonts-dejavu-core
  libcmocka-dev libcjson-dev ffmpeg gnuplot-nox
  libsuitesparse-dev
  libsiconos-numerics-dev
  libfclib-dev
  python3-siconos
  valgrind
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
