#!/usr/bin/env bash
# soak_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — tools/soak.sh end to end, with a short run: it
# completes and reports every task, and its load processes never outlive it (on a normal end and
# when it is stopped by SIGTERM). Misses are not asserted: the machine is shared and noisy.
set -uo pipefail
case_name=$1 rtpar=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL [$case_name]: $*" >&2; exit 1; }

# Every process the soak starts inherits this marker in its environment (this script's own
# environment does not have it), so survivors can be found after the soak ends.
mark="soak-test-$$-$RANDOM"
survivors() {
  grep -lsz "^RTPAR_SOAK_TEST_MARK=$mark\$" /proc/[0-9]*/environ 2>/dev/null || true
}
expect_no_survivors() {
  local left
  for _ in $(seq 20); do left=$(survivors); [ -z "$left" ] && return 0; sleep 0.1; done
  fail "processes outlived the soak: $(for f in $left; do d=${f%/environ}; echo "${d#/proc/}:$(tr '\0' ' ' < "$d/cmdline")"; done)"
}
# soak runs tools/soak.sh (its stdout in soak.out, stderr in soak.err); with no real-time
# privilege (rtpar exit 3) the cases repeat the run with --best-effort. soak_cmd is the command
# line, for running it in the background as a process of its own (so it can be signalled).
soak_cmd=(env RTPAR_SOAK_TEST_MARK="$mark" "$src/tools/soak.sh" "$src/examples/demo.toml"
          --rtpar "$rtpar" --mem-per-cpu 32M)
soak() { "${soak_cmd[@]}" "$@" > soak.out 2> soak.err; }
check_report() {  # check_report: a row for the demo's task and a total line
  grep -Eq '^vision +[1-9][0-9]* +[0-9]+ +[0-9.]+ms +-?[0-9.]+ms$' soak.out || fail "no row for vision: $(cat soak.out soak.err)"
  grep -q '^soak: [0-9]* deadline misses in [1-9][0-9]* jobs' soak.out || fail "no total: $(cat soak.out)"
  grep -q '^soak: load: .*CPUs' soak.out || fail "the load is not stated: $(cat soak.out)"
}
extra=(-- --no-mlock)
pid=""
# A failing check must not leave a background soak (and its hogs) running.
trap '[ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null' EXIT

case $case_name in
short)
  soak --duration 10s --load "${extra[@]}"; st=$?
  if [ $st -eq 3 ]; then extra=(-- --no-mlock --best-effort); soak --duration 10s --load "${extra[@]}"; st=$?; fi
  [ $st -eq 0 ] || [ $st -eq 1 ] || fail "soak exited $st: $(cat soak.err)"
  check_report
  expect_no_survivors
  ;;
sigterm)
  "${soak_cmd[@]}" --duration 60s --load "${extra[@]}" > soak.out 2> soak.err &
  pid=$!
  sleep 3
  kill -0 $pid 2>/dev/null || { wait $pid; st=$?
    if [ $st -eq 3 ]; then extra=(-- --no-mlock --best-effort)
      "${soak_cmd[@]}" --duration 60s --load "${extra[@]}" > soak.out 2> soak.err & pid=$!; sleep 3
    else fail "the soak ended early ($st): $(cat soak.err)"; fi; }
  [ -n "$(survivors)" ] || fail "no load processes while the soak runs"
  kill -TERM $pid
  for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  kill -0 $pid 2>/dev/null && fail "the soak did not stop within 10 s of SIGTERM"
  wait $pid; st=$?; pid=""
  [ $st -eq 143 ] || fail "soak exited $st after SIGTERM, expected 143: $(cat soak.err)"
  check_report
  grep -q '(interrupted)' soak.out || fail "the run is not marked interrupted: $(cat soak.out)"
  expect_no_survivors
  ;;
faults)
  # Every example in fault mode, 2 s each (the long soak is opt-in: docs/reliability.md). An
  # example where no task can inject under an applied budget exits 4 with the reason. Asserted:
  # the injecting task overran and was demoted, and the verdict is printed. Not asserted: the
  # others' 0 misses (exit 0 rather than 1) — this machine is shared, and another process's
  # real-time threads (a calibration, a benchmark) make any task miss; tests/cli/budget_test.sh
  # asserts 0 misses on the issue's example with retries, and a soak run by hand asserts it by
  # its exit status. SCHED_FIFO refused: skipped (a best-effort run demotes nothing).
  applicable=0
  for example in "$src"/examples/*.toml; do
    name=$(basename "$example" .toml)
    # A run whose tasks were starved by another process's real-time threads until they were
    # taken for hung (rtpar exit 5) is retried twice: the machine, not the mode, failed it.
    for try in 1 2 3; do
      env RTPAR_SOAK_TEST_MARK="$mark" "$src/tools/soak.sh" --faults "$example" --rtpar "$rtpar" \
        --duration 2s --out "$work/$name" -- --no-mlock > soak.out 2> soak.err
      st=$?
      [ $st -eq 5 ] || break
      echo "$name, try $try: rtpar exited 5: $(grep -o '"failure": "[^"]*"' "$work/$name/report/report.json" 2>/dev/null | head -2)" >&2
    done
    case $st in
    0|1) applicable=$((applicable + 1))
       # The variant is planned exactly as the example (the faults change the code, not the plan).
       diff <("$rtpar" check "$example" | sed -n '/^task/,$p') \
            <("$rtpar" check "$work/$name/faults.toml" | sed -n '/^task/,$p') > plan.diff ||
         fail "$name: the variant is planned differently: $(cat plan.diff)"
       grep -Eq "^soak: faults: '.*' injected overruns \(budget enforce\): [1-9][0-9]* overruns, max excess [0-9.]+ms, demoted [0-9.]*[1-9][0-9.]*ms, .*the other tasks: [0-9]+ misses" soak.out ||
         fail "$name: no overrun, no demotion or no verdict: $(cat soak.out soak.err)" ;;
    3) echo "SCHED_FIFO refused: skipped"; exit 77 ;;
    4) grep -q "not applicable: ." soak.err || fail "$name: exit 4 without a reason: $(cat soak.err)" ;;
    *) fail "$name: soak --faults exited $st: $(cat soak.out soak.err)" ;;
    esac
    echo "$name: $( (grep '^soak: faults: .* injected' soak.out; grep 'not applicable' soak.err) | head -1)"
  done
  [ $applicable -ge 1 ] || fail "no example could inject a fault"
  expect_no_survivors
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
