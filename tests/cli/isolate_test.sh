#!/usr/bin/env bash
# isolate_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — the kernel's interference in `rtpar check` and
# `rtpar run`: stated and charged in the plan, and `run --isolate` restoring every setting it
# changed (after a normal end, after SIGINT, and after SIGKILL through the next run). The run cases
# need root; without it they print SKIP and exit 77 (ctest SKIP_RETURN_CODE).
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 src=$3 work=$4
mkdir -p "$work" && cd "$work" || exit 1

# settings prints every value --isolate may change, one per line (unreadable ones as '?').
settings() {
  local f
  for f in /proc/sys/kernel/sched_rt_runtime_us /sys/kernel/debug/sched/fair_server/cpu*/runtime \
           /proc/irq/*/smp_affinity_list; do
    [ -e "$f" ] || continue
    printf '%s=%s\n' "$f" "$(cat "$f" 2>/dev/null || echo '?')"
  done
}
need_root() {
  [ "$(id -u)" -eq 0 ] || { echo "SKIP [$case_name]: --isolate needs root"; exit 77; }
  export RTPAR_STATE_DIR=$work/state
  before=$(settings)
  # Whatever happens, leave the machine as it was found.
  trap 'while IFS="=" read -r f v; do [ "$v" = "?" ] || echo "$v" > "$f" 2>/dev/null; done <<<"$before"' EXIT
}
# wait_isolated waits up to 5 s for the restore record and RT throttling off. Why both: the run
# writes the record first and changes the settings after (a crash between leaves a record to apply),
# so the record alone does not mean the settings are changed yet (a CI run read them in between).
wait_isolated() {
  for _ in $(seq 100); do
    [ -e state/restore.json ] && [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = "-1" ] && return 0
    sleep 0.05
  done
  return 1
}
same_settings() { [ "$(settings)" = "$before" ] || fail "settings differ after $1: $(diff <(echo "$before") <(settings))"; }

case $case_name in
check_states)
  expect_status 0 "$rtpar" check "$src/examples/demo.toml" --json
  json 'k=d["interference"]; assert set(k)=={"state","known","budget_ns","period_ns","source"}
assert k["state"] in ("stated","none") and "RT throttling" in k["source"], k'
  expect_status 0 "$rtpar" check "$src/examples/demo.toml"
  grep -q "^kernel " <<<"$out" || fail "no kernel line: $out"
  # Charged: 13.5 ms + 2 cores × 2 ms (two 1 ms budgets back to back) = 17.5 ms.
  expect_status 0 "$rtpar" check "$src/examples/demo.toml" --interference 1ms/1s --json
  json 'assert d["interference"]["state"]=="charged" and d["tasks"][0]["response_bound_ns"]==17500000'
  # Linux's default server (50 ms at once) leaves no bound below D = 20 ms.
  expect_status 1 "$rtpar" check "$src/examples/demo.toml" --interference default --json
  json 'assert d["schedulable"] is False and "kernel" in d["tasks"][0]["reason"]'
  expect_status 2 "$rtpar" check "$src/examples/demo.toml" --interference 2s/1s
  grep -q -- "--interference" <<<"$err" || fail "no field: $err"
  expect_status 2 "$rtpar" check "$src/examples/demo.toml" --interference sometimes
  # A target is another machine: Linux's default is assumed (stated, not charged).
  expect_status 0 "$rtpar" check "$src/examples/demo.toml" --target 8c --json
  json 'k=d["interference"]; assert k["state"]=="stated" and k["budget_ns"]==50000000 and "--target" in k["source"]'
  # fork-join-rta charges it in its stage RTA: 12 ms -> 18 ms (docs/reliability.md).
  expect_status 0 "$rtpar" check "$src/examples/demo.toml" --planner fork-join-rta --interference 1ms/1s --json
  json 'assert d["interference"]["state"]=="charged" and d["tasks"][0]["response_bound_ns"]==18000000 and any("interference charged" in n for n in d["notes"])'
  # [system] isolate = true: the run removes it, so check charges nothing and says why.
  sed 's/^planner = "federated"/planner = "federated"\nisolate = true/' "$src/examples/demo.toml" > iso.toml
  expect_status 0 "$rtpar" check iso.toml --json
  json 'assert d["interference"]["state"]=="isolated" and "isolate = true" in d["interference"]["source"]'
  printf '[system]\ncores = [0]\nisolate = "yes"\n[[task]]\nname = "a"\nperiod = "10ms"\nwork = "1ms"\n' > bad.toml
  expect_status 2 "$rtpar" check bad.toml
  grep -q "bad.toml:3:.*isolate" <<<"$err" || fail "location missing: $err"
  ;;
run_isolate)
  need_root
  expect_status 0 "$rtpar" run --allow-misses "$src/examples/demo.toml" --isolate --duration 2s --no-mlock --json
  json 'k=d["interference"]; assert k["state"]=="isolated" and "RT throttling off" in k["source"], k'
  same_settings "a normal end"
  [ ! -e state/restore.json ] || fail "restore record left behind"
  ;;
run_isolate_sigint)
  need_root
  "$rtpar" run --allow-misses "$src/examples/demo.toml" --isolate --duration 60s --no-mlock --json > out.json 2>stderr.txt &
  pid=$!
  wait_isolated
  [ -e state/restore.json ] || fail "no restore record while isolated: $(cat stderr.txt)"
  [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = "-1" ] || fail "RT throttling still on during the run"
  sleep 0.5
  kill -INT "$pid"
  wait "$pid"; st=$?
  [ "$st" -eq 0 ] || fail "exited $st after SIGINT: $(cat stderr.txt)"
  same_settings "SIGINT"
  [ ! -e state/restore.json ] || fail "restore record left behind after SIGINT"
  ;;
profile_isolate)
  need_root
  # `rtpar profile --isolate` isolates while it measures and restores everything afterwards.
  "$rtpar" profile "$src/examples/demo.toml" --isolate --runs 60 > out.txt 2>stderr.txt &
  pid=$!
  wait_isolated
  [ -e state/restore.json ] || fail "no restore record while profiling: $(cat stderr.txt)"
  [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = "-1" ] || fail "RT throttling still on while profiling"
  wait "$pid"; st=$?
  [ "$st" -eq 0 ] || fail "profile exited $st: $(cat stderr.txt)"
  grep -q "isolated for this run" stderr.txt || fail "isolation not said: $(cat stderr.txt)"
  same_settings "profile --isolate"
  [ ! -e state/restore.json ] || fail "restore record left behind"
  ;;
run_isolate_crash)
  need_root
  "$rtpar" run --allow-misses "$src/examples/demo.toml" --isolate --duration 60s --no-mlock --json > out.json 2>stderr.txt &
  pid=$!
  wait_isolated
  [ -e state/restore.json ] || fail "no restore record while isolated"
  sleep 0.5
  kill -KILL "$pid"; wait "$pid"
  [ -e state/restore.json ] || fail "the record should outlive a killed run"
  # The next run, isolating or not, applies the record first and says so.
  printf '[system]\ncores = [0]\n[[task]]\nname = "tick"\nperiod = "10ms"\nwork = "200us"\n' > tick.toml
  expect_status 0 "$rtpar" run --allow-misses tick.toml --duration 100ms --json --no-mlock --best-effort
  grep -q "left by rtpar run pid $pid" <<<"$err" || fail "leftover not reported: $err"
  same_settings "SIGKILL and the next run"
  [ ! -e state/restore.json ] || fail "record not deleted"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
