#!/usr/bin/env python3
"""example_check.py: run one `rtpar` command of an example with --json and check every task.

  example_check.py KIND [--status N[,M]] [--admit P,...] [--refuse P,...] [--tasks N]
                   [--note TEXT] [--measured] -- RTPAR ARGS...

The command is run as given plus `--json`; the test fails unless it exits with --status (default
0) AND the JSON holds for every task what KIND claims (a regular expression on the output can be
satisfied by one task's line, and replaces the exit status in CTest: this checks both):

  check      verdict = (status 0); admitted: every task has a response bound <= its deadline
             and no reason; rejected (status 1): a JSON verdict (not bad input, which prints no
             JSON and exits 2) with at least one task's reason.
  check-all  `--planner all`: --admit planners admit with every bound <= deadline, --refuse
             planners refuse with a reason; the exit status is 0 iff some planner admits.
  simulate   the plan is schedulable, no miss in total or in any task, every task simulated with
             jobs >= 1, all completed, max response <= its bound <= its deadline.
  run        every task ran (jobs >= 1, nothing skipped below zero), its misses and over-bound
             counts within its jobs, response statistics ordered; --measured: every task's work
             and span were measured online on every job. Misses are not judged: a best-effort run
             on a loaded 2-core machine misses for reasons that are not the example's.

--status 0,1 (check): either verdict, each checked as above.
--tasks N: the document must have exactly N tasks. --note TEXT: some note contains TEXT.
Exit status: 0 if everything holds, 1 otherwise (with the reason and the output).
"""
import argparse
import json
import subprocess
import sys


def fail(msg, proc=None):
    print(f"example_check: FAIL: {msg}", file=sys.stderr)
    if proc is not None:
        print(f"--- exit {proc.returncode}\n--- stdout\n{proc.stdout[:6000]}\n--- stderr\n"
              f"{proc.stderr[:3000]}", file=sys.stderr)
    sys.exit(1)


def check_plan(d, admitted, who, proc):
    """check_plan: one planner's document against its verdict."""
    if d["schedulable"] is not admitted:
        fail(f"{who}: schedulable is {d['schedulable']}, expected {admitted}", proc)
    for t in d["tasks"]:
        name = f"{who}: task {t['name']}"
        if admitted:
            bound, deadline = t.get("response_bound_ns"), t["deadline_ns"]
            expected = t.get("expected_response_ns")
            if t.get("reason") is not None:
                fail(f"{name} admitted with a reason: {t['reason']}", proc)
            if bound is None and expected is None:
                fail(f"{name}: admitted without a response bound", proc)
            if bound is not None and not 0 < bound <= deadline:
                fail(f"{name}: response bound {bound} not within its deadline {deadline}", proc)
    if not admitted and not any(t.get("reason") for t in d["tasks"]):
        fail(f"{who}: refused without any task's reason", proc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["check", "check-all", "simulate", "run"])
    ap.add_argument("--status", default="0", help="the exit status, or statuses (0,1)")
    ap.add_argument("--admit", default="")
    ap.add_argument("--refuse", default="")
    ap.add_argument("--tasks", type=int)
    ap.add_argument("--note")
    ap.add_argument("--measured", action="store_true")
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        ap.error("no command after --")
    cut = argv.index("--")
    a = ap.parse_args(argv[:cut])
    cmd = argv[cut + 1:]
    proc = subprocess.run(cmd + ["--json"], capture_output=True, text=True, timeout=600)
    statuses = [int(x) for x in a.status.split(",")]
    if a.kind == "run" and 0 in statuses:
        # A run that broke the plan's promise (a miss, a response over its bound: timing, which a
        # shared 2-CPU machine cannot promise) exits 1; the verdict must then say so (below).
        statuses.append(1)
    if proc.returncode not in statuses:
        fail(f"exit status {proc.returncode}, expected {a.status}", proc)
    status = proc.returncode
    try:
        d = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        fail(f"stdout is not one JSON document: {e}", proc)

    docs = d if isinstance(d, list) else [d]
    for doc in docs:
        if a.tasks is not None and len(doc["tasks"]) != a.tasks:
            fail(f"{len(doc['tasks'])} tasks, expected {a.tasks}", proc)
        if not doc["tasks"]:
            fail("no task in the document", proc)

    if a.kind == "check":
        if status not in (0, 1):
            fail("check: the status must be 0 (admitted) or 1 (rejected)")
        check_plan(d, status == 0, d.get("planner", "plan"), proc)
    elif a.kind == "check-all":
        by = {p["planner"]: p for p in d}
        admit = [p for p in a.admit.split(",") if p]
        refuse = [p for p in a.refuse.split(",") if p]
        for p in admit + refuse:
            if p not in by:
                fail(f"planner {p} missing from the comparison", proc)
        for p in admit:
            check_plan(by[p], True, p, proc)
        for p in refuse:
            check_plan(by[p], False, p, proc)
        any_admits = any(p["schedulable"] for p in d)
        if (status == 0) != any_admits:
            fail(f"exit {status} but some planner admits = {any_admits}", proc)
    elif a.kind == "simulate":
        if d["plan_schedulable"] is not True:
            fail("the simulated plan is not schedulable", proc)
        if d["misses"] != 0 or d["misses"] != sum(t["misses"] for t in d["tasks"]):
            fail(f"total misses {d['misses']}", proc)
        for t in d["tasks"]:
            name = f"task {t['name']}"
            if t["simulated"] is not True or t["jobs"] < 1 or t["completed"] != t["jobs"]:
                fail(f"{name}: simulated {t['simulated']}, jobs {t['jobs']}, completed "
                     f"{t['completed']}", proc)
            if t["misses"] != 0:
                fail(f"{name}: {t['misses']} misses", proc)
            bound, deadline = t["response_bound_ns"], t["deadline_ns"]
            if bound is None or not 0 < t["max_response_ns"] <= bound <= deadline:
                fail(f"{name}: max response {t['max_response_ns']}, bound {bound}, deadline "
                     f"{deadline}: not within every bound", proc)
    elif a.kind == "run":
        if d.get("interrupted"):
            fail("the run was interrupted", proc)
        verdict = d["verdict"]
        broken = (verdict["misses"] + verdict["over_bound"] + verdict["hold_overruns"]
                  + verdict["chains_exceeding"]) > 0
        if not verdict["promised"]:  # --best-effort: nothing was promised, never broken
            broken = False
        if verdict["promise_kept"] == broken or (status == 1) != broken:
            fail(f"exit {status} with verdict {verdict}", proc)
        if verdict["misses"] != sum(t["misses"] for t in d["tasks"]):
            fail(f"verdict misses {verdict['misses']} differ from the tasks'", proc)
        if verdict["over_bound"] != sum(t["over_bound"] or 0 for t in d["tasks"]):
            fail(f"verdict over_bound {verdict['over_bound']} differs from the tasks'", proc)
        for t in d["tasks"]:
            name = f"task {t['name']}"
            if t["jobs"] < 1:
                fail(f"{name}: no job ran", proc)
            if not 0 <= t["misses"] <= t["jobs"] or t["skipped"] < 0:
                fail(f"{name}: misses {t['misses']} / skipped {t['skipped']} of {t['jobs']}",
                     proc)
            if t.get("over_bound") is not None and not 0 <= t["over_bound"] <= t["jobs"]:
                fail(f"{name}: over_bound {t['over_bound']} of {t['jobs']}", proc)
            r = t["response_ns"]
            if not 0 < r["min"] <= r["p50"] <= r["p99"] <= r["max"]:
                fail(f"{name}: response statistics {r}", proc)
            if a.measured:
                if t.get("profiled_jobs") != t["jobs"] or not (
                        t["work_ns"]["max"] > 0
                        and t["burdened_span_ns"]["max"] >= t["span_ns"]["max"] > 0):
                    fail(f"{name}: work and span not measured on every job", proc)
    if a.note is not None:
        notes = [n for doc in docs for n in doc.get("notes", [])]
        if not any(a.note in n for n in notes):
            fail(f"no note contains {a.note!r}: {notes}", proc)
    print(f"example_check: {a.kind}: {len(docs[0]['tasks'])} task(s) checked, exit {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
