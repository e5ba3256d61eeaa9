#!/usr/bin/env bash
# check_scaling.sh [RTPAR] [N...] — wall time of `rtpar check` on n light tasks, per planner.
#
# A benchmark, not a test (docs/analysis.md, "Scaling" has the numbers and the command): for each
# n (default 1000 2000 5000 10000) it writes the deterministic set of bench/gen_light_tasks.py
# (8 cores, total utilisation 4) and runs `rtpar check FILE --planner P` once per planner; the
# partitioned planner gets the same tasks pinned one per core with static priorities
# (`--places static`), since it needs `places`. Prints one row per (n, planner): seconds, exit
# status (0 schedulable, 1 not) and how many tasks were admitted. Runs each check once, one at a
# time: on a shared machine, repeat and take the minimum. PLANNERS="federated ..." selects.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rtpar=${1:-$here/../build/rtpar}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 2000 5000 10000)
planners=${PLANNERS:-federated federated-ws decomposition fork-join-rta partitioned}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-7s %-14s %9s %5s %9s\n' n planner seconds exit admitted
for n in "${sizes[@]}"; do
  python3 "$here/gen_light_tasks.py" "$n" > "$work/light.toml"
  python3 "$here/gen_light_tasks.py" "$n" --places static > "$work/placed.toml"
  for planner in $planners; do
    file=$work/light.toml
    [ "$planner" = partitioned ] && file=$work/placed.toml
    start=$(date +%s.%N)
    set +e
    "$rtpar" check "$file" --planner "$planner" --json > "$work/plan.json" 2> "$work/err.txt"
    status=$?
    set -e
    end=$(date +%s.%N)
    if [ "$status" -gt 1 ]; then
      echo "rtpar check failed (exit $status): $(cat "$work/err.txt")" >&2
      exit "$status"
    fi
    admitted=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for t in d["tasks"] if not t["reason"]))' "$work/plan.json")
    printf '%-7s %-14s %9.2f %5s %9s\n' "$n" "$planner" "$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$end")" "$status" "$admitted/$n"
  done
done
