#!/usr/bin/env python3
"""check_trace_tracks.py TRACE [ROLE KIND] — trace.json's per-thread and per-CPU tracks (docs/cli.md).

Checks that TRACE is valid JSON; that every task whose threads recorded slices has a track per
thread (process "threads"), and every thread of role ROLE (default "strand thread", a
strand-level plan; "team member" for a team) has slices of KIND (default "segment"; "share");
that there is a track per CPU (process "CPUs"); and that every thread and CPU slice lies within
its job's [start, finish] (the task's job slice).
"""
import json
import sys

EPS_US = 0.002  # trace times are microseconds printed from integers in ns: rounding only

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
pid_of = {name: pid for pid, name in procs.items()}
assert "threads" in pid_of and "CPUs" in pid_of, procs
tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}

jobs = {}  # (task, job) -> (start, end) in µs
for e in events:
    if e["ph"] == "X" and e.get("cat") == "job" and e["pid"] == 1:
        task, k = e["name"].rsplit(" #", 1)
        jobs[(task, int(k))] = (e["ts"], e["ts"] + e["dur"])
assert jobs, "no job slices"

threads = {tid: name for (pid, tid), name in tracks.items() if pid == pid_of["threads"]}
cpus = {tid: name for (pid, tid), name in tracks.items() if pid == pid_of["CPUs"]}
assert threads and cpus, (threads, cpus)
assert all(n.startswith("CPU ") for n in cpus.values()), cpus

slices_by_track = {}
for e in events:
    if e["ph"] != "X" or e["pid"] not in (pid_of["threads"], pid_of["CPUs"]):
        continue
    slices_by_track.setdefault((e["pid"], e["tid"]), []).append(e)
    key = (e["args"]["task"], e["args"]["job"])
    assert key in jobs, f"slice of an unknown job: {e}"
    start, end = jobs[key]
    assert e["dur"] >= 0, e
    assert start - EPS_US <= e["ts"] and e["ts"] + e["dur"] <= end + EPS_US, (e, start, end)

role, kind = sys.argv[2:4] if len(sys.argv) >= 4 else ("strand thread", "segment")
role_threads = [tid for tid, n in threads.items() if f" {role} " in n]
assert role_threads, f"no {role} track: {threads}"
for tid in role_threads:
    kinds = {e["cat"] for e in slices_by_track.get((pid_of["threads"], tid), [])}
    assert kind in kinds, f"{threads[tid]} has no {kind} slices: {kinds}"
for tid in cpus:
    assert slices_by_track.get((pid_of["CPUs"], tid)), f"{cpus[tid]} has no slice"
assert trace["otherData"]["thread_slices_dropped"] == 0, trace["otherData"]
print(f"ok: {len(threads)} thread tracks, {len(cpus)} CPU tracks, {len(jobs)} jobs")
