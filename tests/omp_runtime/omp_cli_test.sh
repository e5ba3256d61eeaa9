#!/usr/bin/env bash
# omp_cli_test.sh CASE RTPAR WHICH_LIB OMP_DIR — `rtpar omp` end to end: the program's exit status
# passes through, rtpar's libgomp.so.1 (in OMP_DIR) is the one mapped, --cores/--threads/--fifo
# reach the program, bad options exit 2, a missing program exits 127, refused SCHED_FIFO exits 3.
set -uo pipefail
source "$(dirname "$0")/../cli/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 prog=$3 omp_dir=$4
work=$(mktemp -d) && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
lib=$(readlink -f "$omp_dir/libgomp.so.1")

case $case_name in
exit_status)
  expect_status 0 "$rtpar" omp -- "$prog" 0
  expect_status 7 "$rtpar" omp -- "$prog" 7 ;;
loads_rtpar)
  expect_status 0 "$rtpar" omp -- "$prog"
  got=$(sed -n 's/^lib=//p' <<<"$out")
  [ "$(readlink -f "$got")" = "$lib" ] || fail "mapped '$got', expected rtpar's $lib" ;;
cores_and_threads)
  expect_status 0 "$rtpar" omp --cores 0 --threads 3 -- "$prog"
  grep -qx "team=3" <<<"$out" || fail "--threads 3 not honoured: $out"
  grep -qx "cpus=1" <<<"$out" || fail "--cores 0 not honoured: $out" ;;
bad_options)
  expect_status 2 "$rtpar" omp --cores 9999 -- "$prog"
  grep -q -- "--cores" <<<"$err" || fail "error does not name --cores: $err"
  expect_status 2 "$rtpar" omp --wait sometimes -- "$prog"
  expect_status 2 "$rtpar" omp --fifo 0 -- "$prog"
  expect_status 2 "$rtpar" omp ;;
missing_program)
  expect_status 127 "$rtpar" omp -- ./no-such-program
  grep -q "no-such-program" <<<"$err" || fail "error does not name the program: $err" ;;
fifo)
  if [ "$(id -u)" -ne 0 ]; then
    # Without privilege SCHED_FIFO is refused: exit 3 with a hint.
    expect_status 3 "$rtpar" omp --fifo 10 -- "$prog"
    exit 0
  fi
  expect_status 0 "$rtpar" omp --fifo 10 -- "$prog"
  grep -qx "policy=fifo" <<<"$out" || fail "--fifo not inherited by the region: $out" ;;
clang_program)
  # A program built with clang -fopenmp links LLVM's libomp.so.5: rtpar omp runs it on rtpar's
  # libomp.so.5 (which forwards to rtpar's libgomp.so.1): no warning, and the process maps rtpar's
  # libraries and no other OpenMP runtime. Without rtpar's libomp.so.5 in the runtime directory
  # (RTPAR_OMP_DIR pointing at a copy holding only libgomp.so.1) the warning is given.
  command -v clang >/dev/null || { echo "SKIPPED: no clang"; exit 77; }
  # A sanitizer build's library needs the sanitizer runtime loaded first, which an uninstrumented
  # clang-built program does not do (the gcc-built programs there are instrumented).
  if readelf -d "$omp_dir/libgomp.so.1" | grep -qE 'NEEDED.*lib(a|t|ub)san'; then
    echo "SKIPPED: rtpar's library is built with a sanitizer; the clang-built program is not"
    exit 77
  fi
  src=$(dirname "$0")/which_lib.c
  clang -fopenmp -O1 "$src" -o clang_prog 2>clang.txt || { echo "SKIPPED: clang -fopenmp cannot build here: $(cat clang.txt)"; exit 77; }
  readelf -d clang_prog | grep -q 'NEEDED.*libomp' || { echo "SKIPPED: clang linked no libomp"; exit 77; }
  [ -e "$omp_dir/libomp.so.5" ] || fail "no libomp.so.5 in $omp_dir"
  expect_status 0 "$rtpar" omp -- ./clang_prog
  if grep -q "is linked against" <<<"$err"; then fail "warning for a clang-built program: $err"; fi
  got=$(sed -n 's/^lib=//p' <<<"$out")
  [ "$(readlink -f "$got")" = "$lib" ] || fail "clang-built program mapped '$got', not rtpar's $lib"
  expect_status 0 "$rtpar" omp -- "$prog"
  if grep -q "is linked against" <<<"$err"; then fail "warning for a gcc-built program: $err"; fi
  rm -rf gomp_only && mkdir gomp_only && cp "$omp_dir/libgomp.so.1" gomp_only/
  RTPAR_OMP_DIR=$PWD/gomp_only "$rtpar" omp -- ./clang_prog >/dev/null 2>err.txt
  grep -q "warning: ./clang_prog is linked against libomp.so.5 (LLVM's OpenMP runtime).*does not provide" err.txt ||
    fail "no warning for a clang-built program without rtpar's libomp.so.5: $(cat err.txt)" ;;
*) fail "unknown case" ;;
esac
