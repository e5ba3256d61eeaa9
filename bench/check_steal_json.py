#!/usr/bin/env python3
"""check_steal_json.py — smoke test of `rtpar bench steal --json` (ctest bench.steal_smoke).

Runs the command given after `--` and checks that stdout is exactly the documented JSON:
{"results": [row, ...]} where every row has benchmark (str), runtime (str), threads (int), p50_ns,
p99_ns, max_ns (int), speedup (float) and peak_rss_kb (int), plus the documented extras; that every
expected (variant, benchmark, threads, runtime) combination has one row; and that programs agree on
each kernel's result. If SCHED_FIFO is refused (exit 3), the multiprogrammed variant cannot run:
the command is re-run with `--variants isolated` and that is said. Then it re-runs one tiny
combination with the hidden test hook --corrupt-for-test, which falsifies a parallel result: the
command must exit 4 and print no row for it (a wrong result is never a number). Timings are not
judged: this is a smoke test.

usage: check_steal_json.py --expect RT1,RT2,... -- COMMAND...
"""
import argparse
import json
import subprocess
import sys

REQUIRED = {"benchmark": str, "runtime": str, "threads": int, "p50_ns": int, "p99_ns": int,
            "max_ns": int, "speedup": float, "peak_rss_kb": int, "variant": str, "reps": int,
            "serial_p50_ns": int, "size": str, "result": str, "host_steal_ns": int}
# RTWS_BENCHES are the RTWS §IV kernels, run on rtpar and OpenMP only (docs/bench_steal.md).
RTWS_BENCHES = {"sync1", "sync2", "sync3", "cholesky", "lu"}
MP_EXTRAS = {"interference_util": float, "interference_max_late_ns": int, "throttle_stalls": int}


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def option_list(cmd, name, default):
    """option_list returns the comma-separated value after `name` in cmd, or default."""
    if name in cmd and cmd.index(name) + 1 < len(cmd):
        return cmd[cmd.index(name) + 1].split(",")
    return default


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    sys.stderr.write(proc.stderr)
    return proc


def check_doc(doc, cmd, expect):
    """check_doc validates the schema and the set of rows."""
    if not isinstance(doc, dict) or list(doc.keys()) != ["results"] or not isinstance(doc["results"], list):
        fail('top level must be exactly {"results": [...]}')
    seen = {}
    results = {}
    for row in doc["results"]:
        name = f"{row.get('variant')}/{row.get('benchmark')}/t{row.get('threads')}/{row.get('runtime')}"
        wanted = dict(REQUIRED)
        if row.get("variant") == "multiprogrammed":
            wanted.update(MP_EXTRAS)
        for key, typ in wanted.items():
            v = row.get(key)
            if not isinstance(v, typ) or isinstance(v, bool):
                fail(f"row {name}: {key} missing or not {typ.__name__}: {v!r}")
        if not 0 < row["p50_ns"] <= row["p99_ns"] <= row["max_ns"]:
            fail(f"row {name}: percentiles not ordered")
        if row["speedup"] <= 0 or row["peak_rss_kb"] <= 0 or row["reps"] < 1:
            fail(f"row {name}: speedup, peak_rss_kb and reps must be positive")
        if row["runtime"] == "rtpar" and not isinstance(row.get("work_ns"), int):
            fail(f"row {name}: rtpar rows carry the pool's work/span profile")
        key = (row["variant"], row["benchmark"], row["threads"], row["runtime"])
        if key in seen:
            fail(f"row {name} appears twice")
        seen[key] = row
        prev = results.setdefault((row["benchmark"], row["size"]), row["result"])
        if prev != row["result"]:
            fail(f"row {name}: result {row['result']} differs from another program's {prev}")
    variants = option_list(cmd, "--variants", ["isolated", "multiprogrammed"])
    benches = option_list(cmd, "--bench", ["fib", "uts", "matmul", "heat"])
    threads = [int(t) for t in option_list(cmd, "--threads", ["1", "2"])]
    for v in variants:
        for b in benches:
            for t in threads:
                for rt in expect:
                    if rt == "tbb" and b in RTWS_BENCHES:
                        continue  # oneTBB has no RTWS §IV kernels
                    if (v, b, t, rt) not in seen:
                        fail(f"no row for {v}/{b}/t{t}/{rt}")
    unexpected = {k[3] for k in seen} - set(expect)
    if unexpected:
        fail(f"rows for runtimes not expected by this build: {sorted(unexpected)}")
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect", required=True)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    expect = [e for e in args.expect.split(",") if e]

    proc = run(cmd)
    if proc.returncode == 3 and "--variants" not in cmd:
        print("note: SCHED_FIFO refused (exit 3): multiprogrammed variant not checked")
        cmd = cmd + ["--variants", "isolated"]
        proc = run(cmd)
    if proc.returncode != 0:
        fail(f"exit status {proc.returncode}")
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        fail(f"stdout is not JSON: {e}")
    seen = check_doc(doc, cmd, expect)

    # The verification must bite: a falsified result ends in exit 4 with no row for it.
    bad = cmd + ["--corrupt-for-test", "--bench", "fib", "--threads", "1", "--runtimes", expect[0],
                 "--variants", "isolated"]
    proc = run(bad)
    if proc.returncode != 4:
        fail(f"--corrupt-for-test: expected exit 4 (wrong result), got {proc.returncode}")
    if "differs from the serial one" not in proc.stderr:
        fail("--corrupt-for-test: no message naming the wrong result")
    try:
        rows = json.loads(proc.stdout)["results"] if proc.stdout.strip() else []
    except json.JSONDecodeError:
        rows = []
    if rows:
        fail("--corrupt-for-test: a wrong result was still printed as a row")
    print(f"OK: {len(seen)} rows, runtimes {sorted({k[3] for k in seen})}; wrong result -> exit 4")


if __name__ == "__main__":
    main()
