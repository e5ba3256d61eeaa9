#!/usr/bin/env python3
"""check_omp_json.py — smoke test of `rtpar bench omp --json` (ctest bench.omp_smoke).

Runs the command given after `--` and checks that it exits 0 and prints the documented JSON
(docs/bench-omp.md): "results", "ratios", "targets", "libraries", "config", "skipped"; that every
expected runtime has a row for every construct of sync (10), sched (9) and task (2), and apps (9)
and periodic rows under the default and the active wait policy; that each row's p50 <= p99 <= max over a
positive count; that the task and apps results verified and every apps row has a positive
speedup against its serial twin; and that every runtime reported the library it
really loaded (a distinct file per runtime of the same ABI: clang+libomp and libomp are both
LLVM's libomp.so.5). With clang+rtpar and clang+libomp expected (the clang rows, issue 37), the
clang+rtpar rows must also have their ratios over clang+libomp and their targets. Timings are
not judged: this is a smoke test.

--optional RT names a runtime still being written (rtpar's library while its constructs land one
by one): its programs may fail (the command then exits 1 and lists them under "skipped"), and it
is checked only for the rows it has. Failures of any other runtime fail the test.

usage: check_omp_json.py --expect RT1,RT2,... [--optional RT,...] -- COMMAND...
"""
import argparse
import json
import subprocess
import sys

CONSTRUCTS = {
    "sync": ["PARALLEL", "FOR", "PARALLEL_FOR", "BARRIER", "SINGLE", "CRITICAL", "LOCK_UNLOCK",
             "ORDERED", "HANDOFF", "ATOMIC", "REDUCTION", "THREAD_NUM"],
    "sched": [f"{k}_{c}" for k in ("STATIC", "DYNAMIC", "GUIDED") for c in (1, 8, 64)],
    "task": ["FIB", "FIB_FINAL", "NQUEENS"],
}
APPS = [a + f for a in ("FFT", "JACOBI", "LU") for f in ("", "/4", "/16")]
TOP = ["results", "ratios", "targets", "libraries", "config", "skipped"]


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect", required=True, help="runtimes that must have rows")
    ap.add_argument("--optional", default="", help="runtimes whose programs may fail")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd and args.cmd[0] == "--" else args.cmd
    expect = [r for r in args.expect.split(",") if r]
    optional = [r for r in args.optional.split(",") if r]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    sys.stderr.write(proc.stderr)
    if proc.returncode not in (0, 1):
        fail(f"exit status {proc.returncode}")
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        fail(f"stdout is not JSON: {e}")
    if list(doc.keys()) != TOP:
        fail(f"top-level keys {list(doc.keys())}, expected {TOP}")
    failed = [s for s in doc["skipped"] if "bench" in s and "runtime" in s]
    for s in failed:
        if s["runtime"].split("-")[0] not in optional:
            fail(f"{s['bench']} on {s['runtime']} failed: {s['reason']}")
    if (proc.returncode == 1) != bool(failed):
        fail(f"exit status {proc.returncode} with {len(failed)} failed program runs")
    for s in failed:
        print(f"note: {s['bench']} on {s['runtime']} (optional) failed: {s['reason']}")
    rows = {}
    for r in doc["results"]:
        key = (r.get("runtime"), r.get("bench"), r.get("construct"))
        for f in ("count", "p50_ns", "p99_ns", "max_ns", "mean_ns"):
            if not isinstance(r.get(f), (int, float)) or isinstance(r.get(f), bool):
                fail(f"row {key}: {f} missing or not a number")
        if r["count"] <= 0 or not r["p50_ns"] <= r["p99_ns"] <= r["max_ns"]:
            fail(f"row {key}: count {r['count']}, p50 {r['p50_ns']}, p99 {r['p99_ns']}, "
                 f"max {r['max_ns']}")
        if r["bench"] == "task" and r.get("ok") is not True:
            fail(f"row {key}: task result not verified")
        if r["bench"] == "apps":
            if r.get("ok") is not True:
                fail(f"row {key}: application result differs from the serial run")
            for f in ("speedup", "speedup_mean", "serial_p50_ns"):
                if not isinstance(r.get(f), (int, float)) or not r[f] > 0:
                    fail(f"row {key}: {f} missing or not positive ({r.get(f)!r})")
            if "serial_samples" in r:
                fail(f"row {key}: serial_samples leaked into the row (only --raw adds them)")
        if r["bench"] == "periodic" and not isinstance(r.get("stalls"), int):
            fail(f"row {key}: no stalls count")
        rows[key] = r
    for rt in [r for r in expect if r not in optional]:
        for bench, names in CONSTRUCTS.items():
            for c in names:
                if (rt, bench, c) not in rows:
                    fail(f"no row for {rt} {bench} {c}")
        for name in (rt, rt + "-active"):
            if (name, "periodic", "PERIODIC") not in rows:
                fail(f"no periodic row for {name}")
            for c in APPS:
                if (name, "apps", c) not in rows:
                    fail(f"no apps row for {name} {c}")
    libs = doc["libraries"]
    for rt in expect:
        if rt in optional and rt not in libs:
            continue
        if rt not in libs or not libs[rt].startswith("/"):
            fail(f"runtime {rt}: library not reported ({libs.get(rt)!r})")
    base = {rt: libs[rt] for rt in expect if rt in libs}
    for clang in (False, True):
        group = {rt: lib for rt, lib in base.items() if rt.startswith("clang+") == clang}
        if len(set(group.values())) != len(group):
            fail(f"two runtimes of the same ABI loaded the same library: {group}")
    if {"clang+rtpar", "clang+libomp"} <= set(expect) and "clang+rtpar" not in optional:
        ratios = {(e["runtime"], e["bench"], e["construct"]): e for e in doc["ratios"]}
        for c in CONSTRUCTS["sync"] + CONSTRUCTS["task"]:
            bench = "sync" if c in CONSTRUCTS["sync"] else "task"
            e = ratios.get(("clang+rtpar", bench, c))
            if e is None or e.get("over_libgomp_p50") is not None:
                fail(f"clang+rtpar {bench} {c}: no ratio row, or one over libgomp ({e!r})")
        if not any(t["target"].startswith("clang sync") for t in doc["targets"]):
            fail("clang rows measured but no clang syncbench target evaluated")
    if "rtpar" in expect and ("rtpar", "sync", "PARALLEL") in rows and not any(t["target"].startswith("sync") for t in doc["targets"]):
        fail("rtpar measured but no syncbench target evaluated")
    print(f"ok: {len(rows)} rows, libraries {base}")


if __name__ == "__main__":
    main()
