#!/usr/bin/env bash
# simulate_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — `rtpar simulate` always ends and its exit
# status says whether the whole set was simulated: a horizon releasing too many jobs is refused,
# and a plan with an unplaced task exits 1.
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 src=$3 work=$4
mkdir -p "$work" && cd "$work" || exit 1

case $case_name in
horizon_limit)
  printf '[system]\ncores = [0]\n[[task]]\nname = "tick"\nperiod = "10ms"\nwork = "100us"\n' > tick.toml
  # 9·10^9 s of 10 ms periods: 9·10^11 jobs. Before the limit this ran for hours.
  expect_status 2 timeout 60 "$rtpar" simulate tick.toml --horizon 9000000000s
  grep -q -- "--horizon" <<<"$err" && grep -q "jobs" <<<"$err" || fail "no reason: $err"
  # At the limit's order of magnitude but under it: simulated.
  expect_status 0 timeout 60 "$rtpar" simulate tick.toml --horizon 10s --json
  python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["tasks"][0]["jobs"]==1000' <<<"$out" ||
    fail "10 s of 10 ms: $out"
  ;;
unplaced)
  # rejected.toml does not fit: the plan places only part of it, so simulate must not say 0.
  expect_status 1 "$rtpar" simulate "$src/examples/rejected.toml"
  grep -q "not placed" <<<"$out" || fail "no 'not placed' row: $out"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
