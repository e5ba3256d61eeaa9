#!/usr/bin/env bash
# profile_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — `rtpar profile` end to end, in best-effort mode
# (no real-time privilege needed): its JSON round-trips through `rtpar check --measured` (the plan
# notes say which measurement raised C and L), and bad inputs exit 2 naming the field. No timing is
# asserted: the machine is shared and noisy (without SCHED_FIFO a preempted job can overrun its
# period, and a run then ends with fewer than --runs jobs: counts are checked as 1..runs).
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 src=$3 work=$4
mkdir -p "$work" && cd "$work" || exit 1
# has TEXT: the last command's stderr contains TEXT.
has() { grep -qF -- "$1" <<<"$err" || fail "stderr lacks '$1': $err"; }
# says TEXT: the last command's stdout contains TEXT.
says() { grep -qF -- "$1" <<<"$out" || fail "stdout lacks '$1': ${out:0:3000}"; }

# spin.toml: two sequential spin tasks, one core each.
printf '[system]\ncores = [0, 1]\nplanner = "federated"\n[[task]]\nname = "a"\nperiod = "10ms"\nwork = "1ms"\nkernel = "spin"\n[[task]]\nname = "b"\nperiod = "20ms"\nwork = "2ms"\nkernel = "spin"\n' > spin.toml
# wide.toml: a heavy parallel-synchronous task on both cores (C = 6 ms, L = 3 ms, D = 5 ms: n = 2).
printf '[system]\ncores = [0, 1]\nplanner = "federated"\n[[task]]\nname = "wide"\nperiod = "10ms"\ndeadline = "5ms"\nkernel = "segments"\nargs.segments = [{ strands = 1, length = "1ms" }, { strands = 4, length = "1ms" }, { strands = 1, length = "1ms" }]\n' > wide.toml

case $case_name in
steal_roundtrip)
  expect_status 0 "$rtpar" profile "$src/examples/steal.toml" --best-effort --runs 5 --out steal.json
  says '[[task]]'
  says 'name = "solver"'
  says 'burdened span'
  says 'histogram'
  says 'SCHED_OTHER (--best-effort)'
  out=$(cat steal.json)
  json 't=d["tasks"][0]; assert d["tool"]=="rtpar profile" and d["best_effort"] is True, d
assert t["name"]=="solver" and 1<=t["cpu_jobs"]<=5 and t["cpu_work_ns"]["max"]>0, t
assert t["profiled_jobs"]>0 and t["burdened_span_ns"]["max"]>0 and "span_bound_ns" not in t, t
assert t["fragment"]["span_from"]=="burdened_span" and t["fragment"]["work_ns"]>=t["fragment"]["span_ns"], t'
  ls steal.json.tmp.* 2>/dev/null && fail "a temporary file was left behind"
  # The verdict depends on the measured values (a noisy machine): only that the measurement was read.
  for planner in federated federated-ws; do
    out=$("$rtpar" check "$src/examples/steal.toml" --planner $planner --measured steal.json --json 2>stderr.txt)
    [ $? -le 1 ] || fail "check --measured exited >1: $(cat stderr.txt)"
    json 'n=" ".join(d["notes"]); assert "measured CPU work" in n and "measured burdened span" in n, d["notes"]'
  done
  ;;
team_roundtrip)
  expect_status 0 "$rtpar" profile spin.toml --best-effort --runs 4 --out spin.json
  says 'name = "a"'
  says 'name = "b"'
  says 'a sequential task'
  out=$(cat spin.json)
  json 'assert [t["name"] for t in d["tasks"]]==["a","b"], d
for t in d["tasks"]:
    assert 1<=t["cpu_jobs"]<=4 and 1<=t["jobs"]<=4 and t["threads"]==1 and "span_bound_ns" not in t, t
    assert t["fragment"]["span_from"]=="sequential" and t["fragment"]["span_ns"]==t["fragment"]["work_ns"], t'
  # Every planner reads the measurement (a note per task), whatever its verdict.
  out=$("$rtpar" check spin.toml --planner all --measured spin.json --json 2>stderr.txt)
  [ $? -le 1 ] || fail "check --planner all --measured exited >1: $(cat stderr.txt)"
  json 'assert len(d)==5, d
for p in d:
    n=" ".join(p["notes"]); assert "a: C = max(declared 1ms, measured CPU work" in n and "b: C = max(declared 2ms" in n, (p["planner"], p["notes"])'
  # A heavy task on two threads: its response bounds L.
  expect_status 0 "$rtpar" profile wide.toml --best-effort --runs 4 --out wide.json
  says 'upper bound of L'
  out=$(cat wide.json)
  json 't=d["tasks"][0]; assert t["threads"]==2 and t["span_bound_ns"]["max"]==t["response_ns"]["max"], t
assert t["fragment"]["span_from"]=="response_bound", t'
  out=$("$rtpar" check wide.toml --measured wide.json --json 2>stderr.txt)
  [ $? -le 1 ] || fail "check --measured exited >1: $(cat stderr.txt)"
  json 'n=" ".join(d["notes"]); assert "measured response on its team" in n, d["notes"]'
  # decomposition places the structure: scaled, not dropped.
  out=$("$rtpar" check wide.toml --planner decomposition --measured wide.json --json 2>stderr.txt)
  [ $? -le 1 ] || fail "check --planner decomposition --measured exited >1: $(cat stderr.txt)"
  json 'n=" ".join(d["notes"]); assert "segment length scaled by" in n, d["notes"]'
  # --task profiles one task only.
  expect_status 0 "$rtpar" profile spin.toml --best-effort --runs 2 --task b --out b.json
  out=$(cat b.json)
  json 'assert [t["name"] for t in d["tasks"]]==["b"], d'
  ;;
bad_input)
  expect_status 2 "$rtpar" profile spin.toml --best-effort --task nope
  has "--task: no task named 'nope'"
  expect_status 2 "$rtpar" profile spin.toml --best-effort --runs 0
  expect_status 2 "$rtpar" profile spin.toml --best-effort --out missing_dir/p.json
  has "missing_dir' does not exist"
  expect_status 2 "$rtpar" profile spin.toml --best-effort --planner all
  has "--planner"
  expect_status 2 "$rtpar" profile spin.toml --best-effort --out .
  has "is a directory"
  # The loader's extended schema: strict, naming the JSON path.
  ok='{"name": "a", "cpu_jobs": 3, "cpu_work_ns": {"p50": 1, "p99": 2, "max": 1500000}}'
  printf '{"tasks": [%s]}' "$ok" > good.json
  expect_status 0 "$rtpar" check spin.toml --measured good.json --json
  json 'assert any("measured CPU work 1.5ms" in n for n in d["notes"]), d["notes"]'
  printf '{"tasks": [%s]}' "${ok/1500000/-1}" > neg.json
  expect_status 2 "$rtpar" check spin.toml --measured neg.json
  has "neg.json: tasks[0].cpu_work_ns.max: must be a non-negative integer"
  printf '{"tasks": [%s]}' "${ok/\"cpu_jobs\": 3, /}" > nojobs.json
  expect_status 2 "$rtpar" check spin.toml --measured nojobs.json
  has "nojobs.json: tasks[0]: missing field 'cpu_jobs'"
  printf '{"tasks": [%s]}' "${ok/\"p99\": 2/\"p99\": 2000000}" > p99.json
  expect_status 2 "$rtpar" check spin.toml --measured p99.json
  has "p99.json: tasks[0].cpu_work_ns.p99: is above max"
  printf '{"tasks": [{"name": "a", "jobs": 2, "span_bound_ns": {"max": "1ms"}}]}' > str.json
  expect_status 2 "$rtpar" check spin.toml --measured str.json
  has "str.json: tasks[0].span_bound_ns.max"
  printf '{"tasks": [{"name": "a", "span_bound_ns": {"max": 5}}]}' > nojobs2.json
  expect_status 2 "$rtpar" check spin.toml --measured nojobs2.json
  has "nojobs2.json: tasks[0]: missing field 'jobs'"
  printf '{"tasks": [{"name": "a", "cpu_jobs": 0, "cpu_work_ns": {"max": 5}}]}' > zero.json
  expect_status 2 "$rtpar" check spin.toml --measured zero.json
  has "zero.json: tasks: no task has a measurement"
  # A failed --out leaves an existing file as it was.
  echo previous > keep.json
  expect_status 2 "$rtpar" profile spin.toml --best-effort --task nope --out keep.json
  [ "$(cat keep.json)" = previous ] || fail "keep.json was changed"
  # SCHED_FIFO refused (root only: drop to nobody without CAP_SYS_NICE): exit 3 with the hint,
  # nothing written.
  if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    chmod 0777 . && chmod 0666 keep.json
    expect_status 3 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
      --bounding-set=-all "$rtpar" profile spin.toml --runs 2 --out keep.json
    has "pass --best-effort"
    [ "$(cat keep.json)" = previous ] || fail "keep.json was changed by a refused profile"
  fi
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "PASS [$case_name]"
