#!/usr/bin/env bash
# kernels_test.sh CASE RTPAR SOURCE_DIR WORK_DIR CC — `lib:` kernels and input limits end to end:
# `check` and `simulate` resolve a shared object from its ELF symbol table and never load it (its
# constructor must not run), errors name file:line:column and field with exit status 2, relative
# paths are relative to the task-set file, `run` does load the object; plus the channel memory
# limit and empty option values.
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 src=$3 work=$4 cc=$5
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# build_lib DIR NAME: a kernel library whose constructor creates $work/ctor-ran (the witness that
# its code was executed) and which exports the kernel function `job`, which appends a line to
# $work/job-calls per call.
build_lib() {
  mkdir -p "$1"
  cat > "$1/k.c" <<C
#include <stdio.h>
__attribute__((constructor)) static void mark(void) {
  FILE* f = fopen("$work/ctor-ran", "w");
  if (f) fclose(f);
}
int data_symbol = 1;
void job(const void* j) {
  (void)j;
  FILE* f = fopen("$work/job-calls", "a");
  if (f) { fputs("job\\n", f); fclose(f); }
}
C
  "$cc" -shared -fPIC -o "$1/$2" "$1/k.c" || fail "cannot build the test library"
}

# taskset FILE KERNEL: one light task with the given kernel (the kernel is on line 7, column 10).
taskset() {
  printf '[system]\ncores = [0]\n[[task]]\nname = "k"\nperiod = "10ms"\nwork = "100us"\nkernel = "%s"\n' "$2" > "$1"
}

case $case_name in
check_runs_no_code)
  build_lib . libk.so
  taskset tasks.toml "lib:./libk.so:job"
  expect_status 0 "$rtpar" check tasks.toml
  [ -e ctor-ran ] && fail "check ran the library's constructor"
  grep -q "lib:./libk.so:job resolved: $work/libk.so exports job" <<<"$out" || fail "not reported resolved: $out"
  expect_status 0 "$rtpar" check --json tasks.toml
  expect_status 0 "$rtpar" check --planner all tasks.toml
  expect_status 0 "$rtpar" simulate tasks.toml --horizon 50ms
  [ -e ctor-ran ] && fail "simulate ran the library's constructor"
  grep -q "resolved: $work/libk.so exports job" <<<"$out" || fail "simulate: not reported: $out"
  ;;
missing_symbol)
  build_lib . libk.so
  taskset tasks.toml "lib:./libk.so:bar"
  expect_status 2 "$rtpar" check tasks.toml
  grep -q 'tasks.toml:7:10: task\[0\].kernel: ./libk.so has no symbol "bar"' <<<"$err" || fail "message: $err"
  expect_status 2 "$rtpar" simulate tasks.toml
  grep -q 'tasks.toml:7:10: task\[0\].kernel' <<<"$err" || fail "simulate message: $err"
  taskset data.toml "lib:./libk.so:data_symbol"
  expect_status 2 "$rtpar" check data.toml
  grep -q 'symbol "data_symbol" is not a function' <<<"$err" || fail "data symbol: $err"
  # An imported (undefined) name is not an export of the object.
  taskset import.toml "lib:./libk.so:fopen"
  expect_status 2 "$rtpar" check import.toml
  grep -q 'has no symbol "fopen"' <<<"$err" || fail "import: $err"
  [ -e ctor-ran ] && fail "a constructor ran"
  ;;
not_elf)
  echo "not a library" > libtext.so
  taskset text.toml "lib:./libtext.so:job"
  expect_status 2 "$rtpar" check text.toml
  grep -q 'text.toml:7:10: task\[0\].kernel: ./libtext.so (.*): not an ELF file' <<<"$err" || fail "text: $err"
  build_lib full libk.so
  head -c 200 full/libk.so > libtrunc.so
  taskset trunc.toml "lib:./libtrunc.so:job"
  expect_status 2 "$rtpar" check trunc.toml
  grep -q 'trunc.toml:7:10: task\[0\].kernel: .*outside the file' <<<"$err" || fail "truncated: $err"
  taskset missing.toml "lib:./libnone.so:job"
  expect_status 2 "$rtpar" check missing.toml
  grep -q 'missing.toml:7:10: task\[0\].kernel: ./libnone.so (.*): cannot open: No such file' <<<"$err" || fail "missing: $err"
  mkdir adir.so
  taskset dir.toml "lib:./adir.so:job"
  expect_status 2 "$rtpar" check dir.toml
  grep -q 'not a regular file' <<<"$err" || fail "directory: $err"
  [ -e ctor-ran ] && fail "a constructor ran"
  ;;
relative_to_file)
  # The path is relative to the task-set file's directory, not to the current directory.
  build_lib sets/lib libk.so
  taskset sets/tasks.toml "lib:lib/libk.so:job"
  mkdir elsewhere && cd elsewhere || exit 1
  expect_status 0 "$rtpar" check ../sets/tasks.toml
  grep -q "resolved: $work/sets/lib/libk.so" <<<"$out" || fail "resolved path: $out"
  # '..' is taken literally, relative to the file as well.
  taskset ../sets/lib/up.toml "lib:../lib/libk.so:job"
  expect_status 0 "$rtpar" check ../sets/lib/up.toml
  # A bare name is a file next to the task set, never a library search.
  taskset ../sets/bare.toml "lib:libc.so.6:printf"
  expect_status 2 "$rtpar" check ../sets/bare.toml
  grep -q "$work/sets/libc.so.6" <<<"$err" || fail "bare name searched: $err"
  cd .. && [ -e ctor-ran ] && fail "a constructor ran"
  ;;
run_loads)
  build_lib . libk.so
  taskset tasks.toml "lib:./libk.so:job"
  mkdir elsewhere && cd elsewhere || exit 1
  expect_status 0 "$rtpar" run --allow-misses ../tasks.toml --duration 100ms --best-effort --no-mlock --json
  [ -e ../ctor-ran ] || fail "run did not load the library"
  # Every recorded job called `job` once (a started job always finishes: one line per job).
  jobs=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['tasks'][0]['jobs'])" "$out")
  calls=$(cat ../job-calls 2>/dev/null | wc -l)
  [ "$jobs" -ge 1 ] && [ "$calls" -eq "$jobs" ] || fail "job called $calls times for $jobs jobs"
  ;;
channel_memory)
  # 10,000 channels of 1 GiB: refused by check, at the channel that crosses the limit.
  python3 - <<'PY'
lines = ['[system]', 'cores = [0]', '[[task]]', 'name = "w"', 'period = "10ms"', 'work = "100us"',
         '[[task]]', 'name = "r"', 'period = "10ms"', 'work = "100us"']
for i in range(10000):
    lines += ['[[channel]]', f'name = "c{i}"', 'size = 1073741824', 'writer = "w"', 'readers = ["r"]']
open('big.toml', 'w').write('\n'.join(lines) + '\n')
PY
  expect_status 2 "$rtpar" check big.toml
  grep -q 'big.toml:[0-9]*:[0-9]*: channel\[[0-9]*\].size: .*above the memory limit' <<<"$err" || fail "big: $err"
  expect_status 2 "$rtpar" simulate big.toml
  printf '[system]\ncores = [0]\nmemory_limit = "1MiB"\n[[task]]\nname = "w"\nperiod = "10ms"\nwork = "100us"\n[[task]]\nname = "r"\nperiod = "10ms"\nwork = "100us"\n[[channel]]\nname = "c"\nsize = 2097152\nwriter = "w"\nreaders = ["r"]\n' > small.toml
  expect_status 2 "$rtpar" check small.toml
  grep -q 'small.toml:14:8: channel\[0\].size: .*memory_limit' <<<"$err" || fail "small: $err"
  sed 's/"1MiB"/"1GiB"/' small.toml > ok.toml
  expect_status 0 "$rtpar" check ok.toml
  sed 's/"1MiB"/"1 parsec"/' small.toml > badlimit.toml
  expect_status 2 "$rtpar" check badlimit.toml
  grep -q 'badlimit.toml:3:16: system.memory_limit' <<<"$err" || fail "bad limit: $err"
  ;;
empty_options)
  taskset tasks.toml spin
  for opt in --planner --target --overhead --measured; do
    expect_status 2 "$rtpar" check tasks.toml "$opt" ""
    grep -q -- "$opt" <<<"$err" || fail "$opt \"\": $err"
    expect_status 2 "$rtpar" check tasks.toml "$opt="
    expect_status 2 "$rtpar" simulate tasks.toml "$opt" ""
  done
  expect_status 2 "$rtpar" simulate tasks.toml --horizon ""
  grep -q -- "--horizon" <<<"$err" || fail "--horizon \"\": $err"
  # A flag written with '=' and nothing after it is not the bare flag.
  expect_status 2 "$rtpar" check tasks.toml --json=
  grep -q -- "--json: an empty value is not allowed" <<<"$err" || fail "--json=: $err"
  expect_status 2 "$rtpar" simulate tasks.toml --json=
  expect_status 0 "$rtpar" check tasks.toml --json
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok [$case_name]"
