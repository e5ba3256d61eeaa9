#!/usr/bin/env bash
# sensitivity_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — `rtpar check --sensitivity`
# (docs/analysis.md "Sensitivity"): issue 32's one-core example (hi 2 ms / 10 ms above lo 5 ms /
# 20 ms, partitioned fixed priority: factors 3.75, 3.2 and 20/9 by hand), its JSON object, the
# factors below 1 of a refused set, and the warning of a planner that is not monotone in C
# (also per planner with --planner all).
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 src=$3 work=$4
mkdir -p "$work" && cd "$work" || exit 1

# one_core FILE LO_WORK: the example with lo's C = LO_WORK.
one_core() {
  cat > "$1" <<TOML
[system]
cores = [0]
planner = "partitioned"

[[task]]
name = "hi"
period = "10ms"
work = "2ms"
priority = 20
places = [0]

[[task]]
name = "lo"
period = "20ms"
work = "$2"
priority = 10
places = [0]
TOML
}

case $case_name in
text)
  one_core one.toml 5ms
  expect_status 0 "$rtpar" check one.toml --sensitivity
  grep -Eq '^hi +3\.7(4[6-9]|50) ' <<<"$out" || fail "hi's factor is not 3.75: $out"
  grep -Eq '^lo +3\.(19[7-9]|200) ' <<<"$out" || fail "lo's factor is not 3.2: $out"
  grep -Eq '^all tasks +2\.22[0-2] ' <<<"$out" || fail "all tasks' factor is not 20/9: $out"
  grep -q "partitioned is monotone in C" <<<"$out" || fail "no monotonicity line: $out"
  ;;
json)
  one_core one.toml 5ms
  expect_status 0 "$rtpar" check one.toml --sensitivity --json
  json 's=d["sensitivity"]; assert s["planner"]=="partitioned" and s["monotone"] and s["admitted"], s
t={x["name"]:x for x in s["tasks"]}
assert 3746250 <= t["hi"]["work"]["factor_ppm"] <= 3750000 < t["hi"]["work"]["refused_ppm"], t["hi"]
assert t["lo"]["slack_ns"]==13000000 and abs(t["lo"]["response_ratio"]-0.35)<1e-9, t["lo"]
assert 2220000 <= s["all"]["factor_ppm"] <= 2222222 < s["all"]["refused_ppm"], s["all"]
assert s["all"]["refused_below_ppm"] is None and s["grid_points"]==0'
  # Without --sensitivity the document has no such key.
  expect_status 0 "$rtpar" check one.toml --json
  json 'assert "sensitivity" not in d'
  ;;
refused)
  one_core tight.toml 17ms
  expect_status 1 "$rtpar" check tight.toml --sensitivity --json
  json 's=d["sensitivity"]; assert not s["admitted"]
assert 19980000 <= s["all"]["factor_ppm"]*21 <= 20000000, s["all"]'
  ;;
heuristic)
  one_core one.toml 5ms
  expect_status 0 "$rtpar" check one.toml --sensitivity --planner federated
  grep -q "warning: federated is not monotone in C" <<<"$out" || fail "no warning: $out"
  grep -q "smaller refused" <<<"$out" || fail "no grid column: $out"
  expect_status 0 "$rtpar" check "$src/examples/demo.toml" --sensitivity --planner all --json
  json 'assert [p["sensitivity"]["planner"] for p in d]==["federated","federated-ws","decomposition","fork-join-rta","partitioned"]
assert all(p["sensitivity"]["grid_points"]==15 for p in d[:4])'
  expect_status 0 "$rtpar" check "$src/examples/demo.toml" --sensitivity --planner all
  [ "$(grep -c '^sensitivity (' <<<"$out")" -eq 5 ] || fail "not one table per planner: $out"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
