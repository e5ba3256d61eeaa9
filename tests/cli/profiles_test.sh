#!/usr/bin/env bash
# profiles_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — end-to-end checks of the inputs that feed a
# bound besides the task set: overhead profiles (--overhead), measured reports (--measured), and
# task sets at the edge of int64 (sound arithmetic: an overflowing bound is "not schedulable", never
# a small number, and no undefined behaviour under UBSan).
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 src=$3 work=$4
mkdir -p "$work" && cd "$work" || exit 1
# has TEXT WHAT: the last command's stderr contains TEXT.
has() { grep -qF -- "$1" <<<"$err" || fail "stderr lacks '$1': $err"; }

# wide.toml: one stage of 8 strands of 1 ms, D = T = 2.5 ms, fork-join-rta.
printf '[system]\ncores = [0, 1]\nplanner = "fork-join-rta"\n[[task]]\nname = "wide"\nperiod = "2500us"\n[[task.segment]]\nstrands = 8\nlength = "1ms"\n' > wide.toml
# profile FILE ENTRIES: an overhead profile with the given fork_join entries.
profile() { printf '{"machine": "test", "fork_join": [%s]}' "$2" > "$1"; }
# profile_rel FILE FORK_JOIN RELEASE [BARRIER]: a profile with fork_join, release (and barrier)
# entries.
profile_rel() {
  if [ $# -ge 4 ]; then
    printf '{"machine": "test", "fork_join": [%s], "release": [%s], "barrier": [%s]}' "$2" "$3" "$4" > "$1"
  else
    printf '{"machine": "test", "fork_join": [%s], "release": [%s]}' "$2" "$3" > "$1"
  fi
}

case $case_name in
overhead_strict)
  # Each rejected profile exits 2 naming the file and the JSON path of the field, for check and
  # simulate alike.
  profile neg.json '{"threads": 2, "wait": "hybrid", "p999_ns": -5}'
  expect_status 2 "$rtpar" check wide.toml --overhead neg.json
  has "neg.json: fork_join[0].p999_ns: must be a non-negative integer"
  expect_status 2 "$rtpar" simulate wide.toml --overhead neg.json
  has "neg.json: fork_join[0].p999_ns"
  profile float.json '{"threads": 2, "wait": "hybrid", "p999_ns": 1500.5}'
  expect_status 2 "$rtpar" check wide.toml --overhead float.json
  has "float.json: fork_join[0].p999_ns"
  profile huge.json '{"threads": 2, "wait": "hybrid", "p999_ns": 9223372036854775807}'
  expect_status 2 "$rtpar" check wide.toml --overhead huge.json
  has "huge.json: fork_join[0].p999_ns: must be a non-negative integer ≤ 1000000000"
  profile zero.json '{"threads": 2, "wait": "hybrid", "p999_ns": 5}, {"threads": 0, "wait": "spin", "p999_ns": 5}'
  expect_status 2 "$rtpar" check wide.toml --overhead zero.json
  has "zero.json: fork_join[1].threads"
  profile empty.json ''
  expect_status 2 "$rtpar" check wide.toml --overhead empty.json
  has "empty.json: fork_join: has 0 entries"
  profile kind.json '{"threads": 2, "wait": "sometimes", "p999_ns": 5}'
  expect_status 2 "$rtpar" check wide.toml --overhead kind.json
  has "kind.json: fork_join[0].wait: unknown wait policy 'sometimes'"
  profile missing.json '{"threads": 2, "wait": "hybrid"}'
  expect_status 2 "$rtpar" check wide.toml --overhead missing.json
  has "missing.json: fork_join[0]: missing field 'p999_ns'"
  profile dup.json '{"threads": 2, "wait": "hybrid", "p999_ns": 5}, {"threads": 2, "wait": "hybrid", "p999_ns": 9}'
  expect_status 2 "$rtpar" check wide.toml --overhead dup.json
  has "dup.json: fork_join[1]: contradicts fork_join[0]"
  profile typo.json '{"threads": 2, "wait": "hybrid", "p999_ns": 5, "p99ns": 4}'
  expect_status 2 "$rtpar" check wide.toml --overhead typo.json
  has "typo.json: fork_join[0].p99ns: unknown field"
  printf '{"fork_join": [\n  {"threads": 2,\n   "wait": }]}' > syntax.json
  expect_status 2 "$rtpar" check wide.toml --overhead syntax.json
  has "syntax.json:3:"
  ;;
overhead_extrapolated)
  # Measured on 2 cores, planned for 8: before, teams of 3..8 were charged nothing. Now a team of
  # 4 is charged ⌈3/1⌉·100 µs = 300 µs (R = 2 ms + 0.3 ms) and the plan says so.
  profile_rel two.json '{"threads": 1, "wait": "hybrid", "p999_ns": 1000}, {"threads": 2, "wait": "hybrid", "p999_ns": 100000}' '{"threads": 2, "wait": "hybrid", "p999_ns": 0}'
  expect_status 0 "$rtpar" check wide.toml --target 8c --overhead two.json --json
  json 't=d["tasks"][0]; assert t["cores_needed"]==4 and t["response_bound_ns"]==2300000, t
assert any("wide: fork/join cost of a team of 4" in n and "extrapolated" in n and "two.json" in n for n in d["notes"]), d["notes"]'
  # D = 1.5 ms: zero overhead admitted it on 8 cores (R = 1 ms); the extrapolated 700 µs does not.
  sed 's/2500us/1500us/' wide.toml > tight.toml
  expect_status 1 "$rtpar" check tight.toml --target 8c --overhead two.json --json
  json 'assert d["schedulable"] is False and any("teams of 6..8" in n for n in d["notes"]), d'
  # A profile without the task's wait policy cannot bound its forks: refused.
  profile_rel spin.json '{"threads": 2, "wait": "spin", "p999_ns": 1000}' '{"threads": 2, "wait": "hybrid", "p999_ns": 0}'
  expect_status 2 "$rtpar" check wide.toml --target 8c --overhead spin.json
  has "spin.json: fork_join: cannot bound the fork/join cost of task 'wide'"
  ;;
overhead_planners)
  # Every planner charges the profile (docs/analysis.md "Overhead profiles"). vision: C = 21 ms,
  # L = 6 ms, D = T = 20 ms, one parallel segment, 2 cores. federated charges release(2) + one
  # fork/join on C and L: 0.5 + 6 = 6.5 ms keeps n = ⌈15/7.5⌉ = 2 (R = 20 ms = D); 1 ns more
  # needs 3 cores.
  printf '[system]\ncores = [0, 1]\nplanner = "federated"\n[[task]]\nname = "vision"\nperiod = "20ms"\nwait = "hybrid"\nkernel = "segments"\nargs.segments = [{ strands = 1, length = "1500us" }, { strands = 6, length = "3ms" }, { strands = 1, length = "1500us" }]\n' > vision.toml
  rel='{"threads": 1, "wait": "hybrid", "p999_ns": 100000}, {"threads": 2, "wait": "hybrid", "p999_ns": 500000}'
  bar='{"threads": 2, "wait": "hybrid", "p999_ns": 1000}'
  profile_rel at.json '{"threads": 2, "wait": "hybrid", "p999_ns": 6000000}' "$rel" "$bar"
  profile_rel past.json '{"threads": 2, "wait": "hybrid", "p999_ns": 6000001}' "$rel" "$bar"
  expect_status 0 "$rtpar" check vision.toml --json
  expect_status 0 "$rtpar" check vision.toml --overhead at.json --json
  json 't=d["tasks"][0]; assert t["cores_needed"]==2 and t["response_bound_ns"]==20000000, t
assert any("overhead: task \x27vision\x27 charged release 500us + 1 fork/join × 6ms = 6.5ms" in n and "at.json" in n for n in d["notes"]), d["notes"]'
  expect_status 1 "$rtpar" check vision.toml --overhead past.json --json
  json 'assert d["schedulable"] is False and "needs 3 cores" in d["tasks"][0]["reason"], d'
  # federated-ws, decomposition and fork-join-rta state their charges too (4 cores, 1 µs costs:
  # the same verdict as without the profile).
  sed 's/^cores = \[0, 1\]$/cores = 4/' vision.toml > vision4.toml
  one='{"threads": 4, "wait": "hybrid", "p999_ns": 1000}'
  profile_rel lite.json "$one" "$one" "$one"
  for planner in federated-ws decomposition fork-join-rta; do
    expect_status 0 "$rtpar" check vision4.toml --planner "$planner" --json
    expect_status 0 "$rtpar" check vision4.toml --planner "$planner" --overhead lite.json --json
    json 'assert any(n.startswith("overhead: task \x27vision\x27") and "lite.json" in n for n in d["notes"]), d["notes"]'
  done
  # A profile written before barriers were measured: decomposition cannot bound them (exit 2).
  profile_rel old.json '{"threads": 2, "wait": "hybrid", "p999_ns": 1000}' "$rel"
  expect_status 2 "$rtpar" check vision.toml --planner decomposition --overhead old.json
  has "old.json: barrier: cannot bound the barrier cost of task 'vision'"
  # And one without release latencies: no planner can charge the release (exit 2).
  profile norel.json '{"threads": 2, "wait": "hybrid", "p999_ns": 1000}'
  expect_status 2 "$rtpar" check vision.toml --overhead norel.json
  has "norel.json: release: cannot bound the release cost of task 'vision'"
  ;;
overhead_overflow)
  # The issue's reproducer, through the task file (the profile file now refuses 2^63 − 1): a
  # fork/join overhead of 2^63 − 1 ns overflowed count · length + overhead and admitted the task
  # with R below its critical path. Now: not schedulable, "bound overflows".
  sed 's/^planner = "fork-join-rta"$/&\nfork_join_overhead = "9223372036854775807ns"/' wide.toml > fjo.toml
  expect_status 1 "$rtpar" check fjo.toml --target 8c --json
  json 't=d["tasks"][0]; assert d["schedulable"] is False and t["response_bound_ns"] is None and "bound overflows" in t["reason"], t'
  expect_status 0 "$rtpar" check fjo.toml --target 8c --planner all
  ;;
measured_strict)
  printf '[system]\ncores = [0, 1]\nplanner = "federated-ws"\n[[task]]\nname = "solver"\nperiod = "10ms"\nruntime = "steal"\nwork = "12ms"\nspan = "1ms"\nkernel = "spin"\n' > ws.toml
  expect_status 0 "$rtpar" check ws.toml --target 8c
  ok='{"name": "solver", "profiled_jobs": 3, "work_ns": {"p50": 1, "p99": 2, "max": 13000000}, "burdened_span_ns": {"p50": 1, "p99": 1, "max": 2000000}}'
  printf '{"tasks": [%s]}' "$ok" > good.json
  expect_status 0 "$rtpar" check ws.toml --target 8c --measured good.json --json
  json 'assert any("measured work 13ms" in n for n in d["notes"]), d["notes"]'
  # A number too large for a double (found by the measured_profile fuzzer): bad input, not an
  # internal error (the parser's out_of_range escaped the reader, exit 70).
  printf '{"tasks": [], "x": 1e999}' > huge_number.json
  expect_status 2 "$rtpar" check ws.toml --measured huge_number.json
  grep -q "huge_number.json: .*not valid JSON" <<<"$err" || fail "no location: $err"
  expect_status 2 "$rtpar" check ws.toml --overhead huge_number.json
  # A measured task whose structure (segments kernel) no longer matches the raised C and L:
  # planned from C and L̂ (before: refused as bad input, "work disagrees with the segments").
  # C = 13 ms, L̂ = 2 ms, δ = 1.5: n = ⌈(13 + 10 − 3) / (10 − 3)⌉ = 3.
  printf '[system]\ncores = [0, 1]\nplanner = "federated-ws"\n[[task]]\nname = "solver"\nperiod = "10ms"\nruntime = "steal"\nkernel = "segments"\nargs.segments = [{ strands = 1, length = "1ms" }, { strands = 8, length = "1ms" }]\n' > segws.toml
  expect_status 0 "$rtpar" check segws.toml --target 8c --measured good.json --json
  json 't=d["tasks"][0]; assert t["cores_needed"]==3 and any("measured work 13ms" in n for n in d["notes"]), d'
  printf '{"tasks": [%s]}' "${ok/13000000/-1}" > neg.json
  expect_status 2 "$rtpar" check ws.toml --measured neg.json
  has "neg.json: tasks[0].work_ns.max: must be a non-negative integer"
  printf '{"tasks": [%s]}' "${ok/13000000/1.3e7}" > float.json
  expect_status 2 "$rtpar" check ws.toml --measured float.json
  has "float.json: tasks[0].work_ns.max"
  printf '{"tasks": [%s]}' "${ok/\"profiled_jobs\": 3/\"profiled_jobs\": -1}" > jobs.json
  expect_status 2 "$rtpar" check ws.toml --measured jobs.json
  has "jobs.json: tasks[0].profiled_jobs"
  printf '{"tasks": [%s, %s]}' "$ok" "${ok/13000000/14000000}" > twice.json
  expect_status 2 "$rtpar" check ws.toml --measured twice.json
  has "twice.json: tasks[1].name: task 'solver' is measured twice"
  printf '{"tasks": []}' > none.json
  expect_status 2 "$rtpar" check ws.toml --measured none.json
  has "none.json: tasks: no task has a measurement"
  ;;
overhead_simulate)
  # simulate --overhead injects the profile's overheads and says so; the example's plans still
  # meet every deadline (exit 0) with them executed. Without --overhead nothing is injected.
  entries() { for w in spin block hybrid; do for n in 1 2; do
    printf '%s{"threads": %d, "wait": "%s", "p999_ns": %d}' "$([ "$w$n" = spin1 ] || echo ,)" "$n" "$w" "$1"
  done; done; }
  profile_rel inj.json "$(entries 100000)" "$(entries 50000)" "$(entries 80000)"
  expect_status 0 "$rtpar" simulate "$src/examples/partitioned_heavy.toml" --planner all --overhead inj.json
  grep -qF "overheads injected from inj.json" <<<"$out" || fail "no injection line: $out"
  expect_status 0 "$rtpar" simulate "$src/examples/partitioned_heavy.toml" --planner all
  if grep -qF "overheads injected" <<<"$out"; then fail "injected without --overhead: $out"; fi
  ;;
huge_inputs)
  # Accepted task sets at the edge of int64: every planner and the simulator decide without
  # overflowing (under the UBSan build, any signed overflow aborts the run and fails the test).
  big=9223372036854775807ns
  # A period of 2^63 − 1 ns with parallel segments (fork-join-rta's ⌈C/T⌉, decomposition offsets).
  printf '[system]\ncores = [0, 1]\n[[task]]\nname = "long"\nperiod = "%s"\n[[task.segment]]\nstrands = 1\nlength = "1ms"\n[[task.segment]]\nstrands = 2\nlength = "3000000000000000000ns"\n[[task.segment]]\nstrands = 1\nlength = "1ms"\n' "$big" > longperiod.toml
  expect_status 0 "$rtpar" check longperiod.toml --planner all
  expect_status 0 "$rtpar" simulate longperiod.toml --planner all --horizon 1s
  # A fully used core plus a light task of period 2^63 − 1 ns (the RTA's ⌈R/T⌉·C terms).
  printf '[system]\ncores = [0]\nplanner = "partitioned"\n[[task]]\nname = "a"\nperiod = "%s"\nwork = "4611686018427387904ns"\nplaces = [0]\n[[task]]\nname = "b"\nperiod = "%s"\nwork = "4611686018427387904ns"\nplaces = [0]\n' "$big" "$big" > halves.toml
  expect_status 1 "$rtpar" check halves.toml --planner all --json
  # partitioned places both on core 0: the second job runs from 2^62 with 2^62 ns left, and the
  # simulator's t + left overflowed int64 (a UBSan abort; the clock now saturates).
  expect_status 0 "$rtpar" simulate halves.toml --planner partitioned --horizon 1s
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
