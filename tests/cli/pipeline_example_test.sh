#!/usr/bin/env bash
# pipeline_example_test.sh RTPAR PIPELINE_TOML — runs the pipeline example (examples/
# pipeline.toml.in) for 2 s and checks what the run reports about it: every task ran jobs whose
# payload checks held (a torn or inconsistent value aborts the job code), the lock shared across
# the two cores ran MSRP with every access of both users recorded, and the chain camera →
# tracker → control was measured — within its bounds whenever every task kept its response
# bound (misses and responses are timing, not judged: a shared 2-CPU machine). Without
# real-time privileges it runs best effort (the lock is then a plain mutex).
set -uo pipefail
case_name=pipeline
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
rtpar=$1 toml=$2
work=$(mktemp -d) && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT

mode=()
"$rtpar" run --allow-misses "$toml" --duration 100ms --json --no-mlock >/dev/null 2>&1
[ $? -eq 3 ] && mode=(--best-effort)
expect_status 0 "$rtpar" run --allow-misses "$toml" --duration 2s --json --no-mlock "${mode[@]}"
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
assert d["total_hold_overruns"] == sum(u["hold_overruns"] for u in users.values()), d
# The chain: origins travelled through both channels (measured outputs with stamped data, the
# plan'"'"'s bounds beside them).
assert [c["name"] for c in d["chains"]] == ["camera-to-control"], d["chains"]
c = d["chains"][0]
assert c["traced"] and c["samples"] > 0 and 0 < c["origins"] <= c["samples"], c
assert 0 < c["age_p50_ns"] <= c["age_max_ns"], c
assert 0 < c["reaction_max_ns"] <= c["age_max_ns"] + c["reaction_bound_ns"], c
assert c["age_bound_ns"] > 0 and c["reaction_bound_ns"] > c["age_bound_ns"], c
assert d["chains_exceeding"] == (0 if c["within_bounds"] else 1), d
# Within the bounds: judged when every task kept its own promise — no miss, no skipped release,
# every recorded response within its bound, no record dropped. The bounds follow from exactly
# that (docs/analysis.md, "Cause-effect chains"), so a chain above them is then a measurement or
# stamping bug, not timing. A disturbed run (a host stall, best effort on a loaded machine) is
# reported and not judged.
v = d["verdict"]
kept = v["misses"] == 0 and v["over_bound"] == 0 and all(
    t["skipped"] == 0 and not t["records_truncated"] and t["response_bound_ns"] is not None
    for t in d["tasks"])
if kept:
    assert c["age_max_ns"] <= c["age_bound_ns"], ("data age above its bound", c)
    assert c["reaction_max_ns"] <= c["reaction_bound_ns"], ("reaction above its bound", c)
    assert c["within_bounds"] and d["chains_exceeding"] == 0, c
    print("chain judged: age max %d <= %d ns, reaction max %d <= %d ns" % (c["age_max_ns"],
          c["age_bound_ns"], c["reaction_max_ns"], c["reaction_bound_ns"]))
else:
    print("chain not judged: the run broke a task promise (misses %d, over bound %d, host steal "
          "%s ns, best effort %s)" % (v["misses"], v["over_bound"], d["host_steal_ns"],
                                      d["best_effort"]))'
echo "PASS [$case_name]"
