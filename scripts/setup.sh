#!/usr/bin/env bash
# setup.sh — install rtpar's build and test dependencies from Debian packages. Idempotent: it
# installs only what is missing, so a second run does nothing and needs no network.
#
#   scripts/setup.sh [GROUP...]
#
# Without arguments: what `make demo`, `make test` and the sanitizer/fuzz targets need. Each GROUP
# adds an optional set on top, which those targets do not install:
#   slurm   slurmctld, slurmd, the Slurm clients and munge, for scripts/slurm-local.sh and
#           `make test-slurm` (docs/cluster.md).
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libtomlplusplus-dev nlohmann-json3-dev
          libcli11-dev libfmt-dev doctest-dev rt-tests clang-format clang-tidy python3
          clang libomp-dev libtbb-dev python3-matplotlib libhwloc-dev libssl-dev
          libclang-rt-dev stress-ng  # libFuzzer and sanitizer runtimes (make fuzz); tools/soak.sh --load
          gfortran  # tests/omp/fortran_api.f90: the OpenMP runtime's Fortran bindings
          groff-base bsdextrautils zsh)  # cli.completion: the man page rendered, zsh -n
for group in "$@"; do
  case $group in
    slurm) packages+=(slurm-wlm munge) ;;
    *) echo "setup: unknown package group '$group' (known: slurm)" >&2; exit 2 ;;
  esac
done
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
