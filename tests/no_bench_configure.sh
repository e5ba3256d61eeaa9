#!/usr/bin/env bash
# no_bench_configure.sh CMAKE SOURCE_DIR WORK_DIR — the library and `rtpar` configure without the
# benchmarks and without any peer runtime (OpenMP, oneTBB hidden): nothing of bench/ is required.
set -uo pipefail
cmake=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
out=$("$cmake" -S "$src" -B "$work" -G Ninja -DRTPAR_BUILD_BENCH=OFF -DRTPAR_BUILD_TESTS=OFF \
  -DRTPAR_BUILD_EXAMPLES=OFF -DCMAKE_DISABLE_FIND_PACKAGE_OpenMP=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON 2>&1) || { echo "FAIL: configure failed:"; echo "$out"; exit 1; }
# No bench target may exist in that build.
if grep -q "rtpar-bench" "$work/build.ninja"; then
  echo "FAIL: rtpar-bench is part of a -DRTPAR_BUILD_BENCH=OFF build"
  exit 1
fi
rm -rf "$work"
echo "PASS: configured without bench/ and without peers"
