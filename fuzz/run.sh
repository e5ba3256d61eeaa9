#!/usr/bin/env bash
# run.sh BUILD_DIR SECONDS [TARGET...] — fuzz each target (default: all) for SECONDS with
# libFuzzer (`make fuzz`, docs/reliability.md). Exit status 1 if any target found something.
#
# Per target: the corpus grows in BUILD_DIR/fuzz/corpus/<target>/ (kept between runs, so each run
# starts where the last one stopped), seeded from BUILD_DIR/fuzz/seeds/<target>/ and
# fuzz/regressions/<target>/; a crashing, leaking or hanging input is written to
# BUILD_DIR/fuzz/findings/<target>/ and its stack to the log next to it. The fuzzer runs in an
# empty scratch directory, so a relative `lib:` path in a fuzzed task set names nothing.
# Summary line per target: runs, execs/s, corpus size, status.
set -uo pipefail
if [ $# -lt 2 ]; then echo "usage: $0 BUILD_DIR SECONDS [TARGET...]" >&2; exit 2; fi
build=$(cd "$1" && pwd) seconds=$2; shift 2
src=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(taskset check overhead_profile measured_profile target_spec)

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# fuzz_one TARGET fuzzes one target and prints its line; its exit status says whether it found
# something. The targets run FUZZ_JOBS at a time (default: one per CPU), each on one core.
fuzz_one() {
  local t=$1
  local status=0 bin corpus findings scratch seeds dirs dict log rc runs speed size
  bin=$build/fuzz/fuzz_$t
  corpus=$build/fuzz/corpus/$t findings=$build/fuzz/findings/$t scratch=$build/fuzz/scratch
  mkdir -p "$corpus" "$findings" "$scratch"
  seeds=$t
  [ "$t" = check ] && seeds=taskset  # `check` reads task sets: same seeds and dictionary
  dirs=("$corpus" "$build/fuzz/seeds/$seeds")
  [ -d "$src/regressions/$t" ] && dirs+=("$src/regressions/$t")
  dict=()
  [ -f "$src/$seeds.dict" ] && dict=(-dict="$src/$seeds.dict")
  log=$findings/fuzz.log
  # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that needs 2 GiB is a finding.
  (cd "$scratch" && "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 -artifact_prefix="$findings/" "${dict[@]}" "${dirs[@]}") >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  size=$(find "$corpus" -type f | wc -l)
  if [ $rc -eq 0 ]; then
    echo "fuzz $t: ${seconds}s, ${runs:-?} runs, ${speed:-?} execs/s, corpus $size: nothing found"
  else
    status=1
    echo "fuzz $t: FOUND a problem after ${runs:-?} runs (exit $rc); input and log in $findings/"
    grep -E "ERROR|FUZZ FINDING|runtime error|SUMMARY|Test unit written" "$log" | head -8 | sed 's/^/  /'
  fi
  return $status
}

jobs=${FUZZ_JOBS:-$(nproc)}
pids=()
for t in "${targets[@]}"; do
  [ -x "$build/fuzz/fuzz_$t" ] || { echo "fuzz: $build/fuzz/fuzz_$t is not built" >&2; exit 2; }
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  fuzz_one "$t" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
