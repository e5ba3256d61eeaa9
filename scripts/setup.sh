#!/usr/bin/env bash
# setup.sh — install rtpar's build and test dependencies from Debian packages. Idempotent: it
# installs only what is missing, so a second run does nothing and needs no network.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libtomlplusplus-dev nlohmann-json3-dev
          libcli11-dev libfmt-dev doctest-dev rt-tests clang-format clang-tidy python3
          clang libomp-dev libtbb-dev python3-matplotlib libhwloc-dev
          libclang-rt-dev stress-ng)  # libFuzzer and sanitizer runtimes (make fuzz); tools/soak.sh --load
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
