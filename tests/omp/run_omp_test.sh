#!/bin/sh
# run_omp_test.sh: run one OpenMP conformance program (tests/omp/) against one OpenMP runtime.
#
#   run_omp_test.sh LIBDIR THREADS PROGRAM [VAR=VALUE ...] [-- ARGS ...]
#
# LIBDIR   directory holding the libgomp.so.1 to load (put first on LD_LIBRARY_PATH, and
#          RTPAR_OMP_EXPECT_LIB=LIBDIR/libgomp.so.1 so that loaded_lib checks it was really the
#          one mapped; RTPAR_OMP_EXPECT_SHIM=LIBDIR/libomp.so.5 when there is one, for the
#          clang-built programs), or "-" for the system's libgomp (LD_LIBRARY_PATH unset).
# THREADS  OMP_NUM_THREADS for the run, or "-" to leave it unset (the test's VAR=VALUE may set it).
# Every OMP_* and GOMP_* variable of the caller's environment is removed first, so a run depends
# only on its registration. The program gets a hard timeout (RTPAR_OMP_TEST_TIMEOUT seconds,
# default 20): a hang fails the test with status 124 instead of stalling ctest.
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 LIBDIR|- THREADS|- PROGRAM [VAR=VALUE ...] [-- ARGS ...]" >&2
  exit 2
fi
libdir=$1 threads=$2 program=$3
shift 3

for var in $(env | sed -n 's/^\(G\{0,1\}OMP_[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$var"
done
unset RTPAR_OMP_EXPECT_LIB RTPAR_OMP_EXPECT_SHIM

if [ "$libdir" = "-" ]; then
  unset LD_LIBRARY_PATH
else
  if [ ! -e "$libdir/libgomp.so.1" ]; then
    echo "run_omp_test.sh: no libgomp.so.1 in $libdir" >&2
    exit 2
  fi
  LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  RTPAR_OMP_EXPECT_LIB="$libdir/libgomp.so.1"
  export LD_LIBRARY_PATH RTPAR_OMP_EXPECT_LIB
  # rtpar's libomp.so.5 forwards to that libgomp.so.1 (clang-built programs load both).
  if [ -e "$libdir/libomp.so.5" ]; then
    RTPAR_OMP_EXPECT_SHIM="$libdir/libomp.so.5"
    export RTPAR_OMP_EXPECT_SHIM
  fi
fi
if [ "$threads" != "-" ]; then
  OMP_NUM_THREADS=$threads
  export OMP_NUM_THREADS
fi

while [ $# -gt 0 ]; do
  case $1 in
    --) shift; break ;;
    *=*) export "$1"; shift ;;
    *) break ;;
  esac
done

# Not exec: a program killed by a signal then ends this script with status 128+signal, which
# ctest reports as a plain failure (and WILL_FAIL can expect).
timeout -k 5 "${RTPAR_OMP_TEST_TIMEOUT:-20}" "$program" "$@"
status=$?
if [ $status -eq 124 ]; then
  echo "run_omp_test.sh: $program timed out after ${RTPAR_OMP_TEST_TIMEOUT:-20} s" >&2
elif [ $status -gt 128 ]; then
  echo "run_omp_test.sh: $program killed by signal $((status - 128))" >&2
fi
exit $status
