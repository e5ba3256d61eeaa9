#!/usr/bin/env bash
# scaling_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — `rtpar check` terminates with a verdict on
# inputs that used to make the analysis iterate for very long, and the fast first-fit gives the
# plans the per-trial RTA gave. No timing is asserted (the machine is shared); ctest's TIMEOUT
# property (tests/CMakeLists.txt) is the only clock. The timings are bench/check_scaling.sh's job.
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 src=$3 work=$4
mkdir -p "$work" && cd "$work" || exit 1
# digest prints "SCHEDULABLE SHA256" of a `check --json` plan: every task's name, cores,
# priority, response bound and reason.
digest() {
  python3 -c 'import json,sys,hashlib
d=json.load(sys.stdin)
rows=[[t["name"],t["cores"],t["priority"],t["response_bound_ns"],t["reason"]] for t in d["tasks"]]
print(d["schedulable"], hashlib.sha256(json.dumps(rows,sort_keys=True).encode()).hexdigest())' <<<"$out"
}

case $case_name in
long_period)
  # A fully used core (U = 1) and a task with a 10^6 times longer period: U_hp ≥ 1 leaves the
  # RTA no fixed point, so the verdict comes at once.
  printf '[system]\ncores = [0]\n[[task]]\nname = "full"\nperiod = "1ms"\nwork = "1ms"\n[[task]]\nname = "slow"\nperiod = "1000s"\nwork = "1ms"\n' > full.toml
  for planner in federated federated-ws decomposition fork-join-rta; do
    expect_status 1 "$rtpar" check full.toml --planner "$planner" --json
    json 'r={t["name"]:t for t in d["tasks"]}; assert d["schedulable"] is False and r["slow"]["reason"]'
  done
  sed 's/cores = \[0\]/cores = [0, 1]/' full.toml > two.toml
  expect_status 0 "$rtpar" check two.toml --json
  # The same on the partitioned planner's EDF band: implicit deadlines and U = 1, hyperperiod 1000 s.
  printf '[system]\ncores = [0]\nplanner = "partitioned"\n[[task]]\nname = "full"\nperiod = "1ms"\nwork = "999us"\nplaces = [0]\n[[task]]\nname = "slow"\nperiod = "1000s"\nwork = "1s"\nplaces = [0]\n' > edf.toml
  expect_status 0 "$rtpar" check edf.toml --json
  # A nearly fully used core (U = 1 − 1e-7): the RTA of `slow` adds one job of `full` per step
  # and would need ~1.5·10^6 steps; it stops at the cap and says so (the iteration-cap path).
  printf '[system]\ncores = [0]\n[[task]]\nname = "full"\nperiod = "10ms"\nwork = "9999999ns"\n[[task]]\nname = "slow"\nperiod = "100000s"\ndeadline = "15000s"\nwork = "2ms"\n' > cap.toml
  expect_status 1 "$rtpar" check cap.toml --json
  json 'r={t["name"]:t for t in d["tasks"]}
assert "analysis iteration cap reached" in r["slow"]["reason"], r["slow"]["reason"]
assert r["full"]["reason"] is None and r["full"]["response_bound_ns"] == 9999999'
  expect_status 1 "$rtpar" check cap.toml
  grep -q "iteration cap reached" <<<"$out" || fail "no cap reason in the table: $out"
  # The same static-priority pair on the partitioned planner's response bound.
  printf '[system]\ncores = [0]\nplanner = "partitioned"\n[[task]]\nname = "full"\nperiod = "10ms"\nwork = "9999999ns"\nplaces = [0]\npriority = 20\n[[task]]\nname = "slow"\nperiod = "100000s"\ndeadline = "15000s"\nwork = "2ms"\nplaces = [0]\npriority = 10\n' > capp.toml
  expect_status 1 "$rtpar" check capp.toml --json
  json 'r={t["name"]:t for t in d["tasks"]}
assert "analysis iteration cap reached" in r["slow"]["reason"], r["slow"]["reason"]'
  ;;
light_2000)
  # 2,000 light tasks (bench/gen_light_tasks.py, deterministic): the plans must be those of the
  # planner before the incremental first-fit (commit 08e2a71, which took ~20-30 s for each).
  # The digests below were computed from that planner's `check --json` with digest() above; a
  # planner change that alters them must say why the old plan was wrong.
  python3 "$src/bench/gen_light_tasks.py" 2000 > unsched.toml || fail "generator"
  expect_status 1 "$rtpar" check unsched.toml --json
  [ "$(digest)" = "False 7a864a18075cfaca969cdae9dcdaacb888859755e6a84df267e28e9d60d8762f" ] ||
    fail "plan of unsched.toml changed: $(digest)"
  json 'assert sum(1 for t in d["tasks"] if t["reason"]) == 829'
  python3 "$src/bench/gen_light_tasks.py" 2000 --cores 16 --util 0.1 > sched.toml || fail "generator"
  expect_status 0 "$rtpar" check sched.toml --json
  [ "$(digest)" = "True b9db24dac496925380abdcab55616cc7de5523f3619cc65144c1922ff4a8c911" ] ||
    fail "plan of sched.toml changed: $(digest)"
  json 'assert all(t["response_bound_ns"] is not None and t["response_bound_ns"] <= t["deadline_ns"]
           for t in d["tasks"])'
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok [$case_name]"
