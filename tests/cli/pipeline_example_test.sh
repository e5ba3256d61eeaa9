#!/usr/bin/env bash
# pipeline_example_test.sh RTPAR PIPELINE_TOML — runs the pipeline example (examples/
# pipeline.toml.in) for 2 s and checks what the run reports about it: every task ran jobs whose
# payload checks held (a torn or inconsistent value aborts the job code), and the lock shared
# across the two cores ran MSRP with every access of both users recorded. Timing is not judged
# (a shared 2-CPU machine); the 30 s measurement is in the issue note. Without real-time
# privileges it runs best effort (the lock is then a plain mutex).
set -uo pipefail
case_name=pipeline
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
rtpar=$1 toml=$2
work=$(mktemp -d) && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT

mode=()
"$rtpar" run "$toml" --duration 100ms --json --no-mlock >/dev/null 2>&1
[ $? -eq 3 ] && mode=(--best-effort)
expect_status 0 "$rtpar" run "$toml" --duration 2s --json --no-mlock "${mode[@]}"
json 'jobs={t["name"]:t["jobs"] for t in d["tasks"]}
assert all(n > 0 for n in jobs.values()), jobs
assert len(d["locks"]) == 1, d["locks"]
lock = d["locks"][0]
assert lock["channel"] == "model" and lock["declared_hold_ns"] == 200000, lock
assert lock["protocol"] == ("ceiling" if d["best_effort"] else "msrp"), lock
users = {u["task"]: u for u in lock["users"]}
assert users["tracker"]["acquisitions"] == jobs["tracker"], (users, jobs)
assert users["control"]["acquisitions"] == jobs["control"], (users, jobs)
assert all(u["max_hold_ns"] > 0 for u in users.values()), users
assert d["total_hold_overruns"] == sum(u["hold_overruns"] for u in users.values()), d'
echo "PASS [$case_name]"
