#!/usr/bin/env python3
"""check_forkjoin_json.py — smoke test of `rtpar bench forkjoin --json` (ctest bench.forkjoin_smoke).

Runs the command given after `--`, then checks that stdout is the documented JSON, that every
expected runtime has a row for each of its constructs with sane statistics, that the raw samples
were dumped (if the command has --samples), and — when matplotlib is importable by some python —
that tools/plot_forkjoin.py turns them into PNGs. Timings are not judged: this is a smoke test.

usage: check_forkjoin_json.py --expect RT1,RT2,... --work DIR [--plot SCRIPT] -- COMMAND...
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

# CONSTRUCTS lists the rows each runtime must produce (periodic only when releases > 0).
FLOOR_CONSTRUCTS = ["spin-pingpong", "futex-pingpong"]
RUNTIME_CONSTRUCTS = ["region", "parallel_for"]
PERIODIC = ["periodic-region", "periodic-region-response"]
FLOOR_PERIODIC = ["timer-wakeup"]
REQUIRED = {"runtime": str, "construct": str, "threads": int, "mean_ns": (int, float),
            "p50_ns": int, "p99_ns": int, "p999_ns": int, "max_ns": int}


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def option_value(cmd, name):
    """option_value returns the word after `name` in cmd, or None."""
    return cmd[cmd.index(name) + 1] if name in cmd and cmd.index(name) + 1 < len(cmd) else None


def check_rows(doc, expect, periodic):
    """check_rows validates the schema and that every expected (runtime, construct) is there."""
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        fail('top level must be an object with a "results" array')
    seen = {}
    for row in doc["results"]:
        for key, typ in REQUIRED.items():
            if not isinstance(row.get(key), typ) or isinstance(row.get(key), bool):
                fail(f"row {row.get('runtime')}/{row.get('construct')}: {key} missing or not {typ}")
        if not 0 < row["p50_ns"] <= row["p99_ns"] <= row["p999_ns"] <= row["max_ns"]:
            fail(f"row {row['runtime']}/{row['construct']}: percentiles not ordered: {row}")
        if row["mean_ns"] <= 0 or row["mean_ns"] > row["max_ns"]:
            fail(f"row {row['runtime']}/{row['construct']}: mean out of range")
        if "all_threads_share" in row and not 0.0 <= row["all_threads_share"] <= 1.0:
            fail(f"row {row['runtime']}/{row['construct']}: all_threads_share out of [0, 1]")
        seen[(row["runtime"], row["construct"])] = row
    for rt in expect:
        if rt == "floor":
            wanted = FLOOR_CONSTRUCTS + (FLOOR_PERIODIC if periodic else [])
        else:
            wanted = RUNTIME_CONSTRUCTS + (PERIODIC if periodic else [])
        for c in wanted:
            if (rt, c) not in seen:
                fail(f"no row for runtime {rt}, construct {c}; skipped: {doc.get('skipped')}")
    unexpected = {rt for rt, _ in seen} - set(expect)
    if unexpected:
        fail(f"rows for runtimes not expected by this build: {sorted(unexpected)}")
    if "tbb" in expect and "all_threads_share" not in seen[("tbb", "region")]:
        fail("tbb rows must report all_threads_share")
    return seen


def check_samples(samples_dir, seen):
    """check_samples checks one CSV per row with as many samples as the row says."""
    for (rt, c), row in seen.items():
        path = os.path.join(samples_dir, f"{rt}.{c}.csv")
        if not os.path.isfile(path):
            fail(f"missing samples file {path}")
        with open(path) as f:
            lines = f.read().split()
        if lines[:1] != ["ns"] or len(lines) - 1 != row.get("samples", len(lines) - 1):
            fail(f"{path}: expected header 'ns' and {row.get('samples')} samples")


def plotting_python():
    """plotting_python is an interpreter that can import matplotlib, or None."""
    for py in [sys.executable, "/usr/bin/python3", shutil.which("python3")]:
        if py and subprocess.run([py, "-c", "import matplotlib"],
                                 capture_output=True).returncode == 0:
            return py
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--plot")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    expect = [e for e in args.expect.split(",") if e]
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    proc = subprocess.run(cmd, capture_output=True, text=True)
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0:
        fail(f"exit status {proc.returncode}")
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        fail(f"stdout is not JSON: {e}")
    json_path = os.path.join(args.work, "forkjoin.json")
    with open(json_path, "w") as f:
        f.write(proc.stdout)
    releases = option_value(cmd, "--periodic-releases")
    seen = check_rows(doc, expect, periodic=releases is None or int(releases) > 0)
    samples_dir = option_value(cmd, "--samples")
    if samples_dir:
        check_samples(samples_dir, seen)

    if args.plot:
        py = plotting_python()
        if py is None:
            print("note: no python with matplotlib; plot not checked")
        else:
            out = os.path.join(args.work, "plots")
            plot_cmd = [py, args.plot, "--json", json_path, "--out", out]
            if samples_dir:
                plot_cmd += ["--samples", samples_dir]
            if subprocess.run(plot_cmd).returncode != 0:
                fail("plot script failed")
            pngs = [p for p in os.listdir(out) if p.endswith(".png")]
            if not pngs:
                fail("plot script wrote no PNG")
            print(f"plots: {sorted(pngs)}")
    print(f"OK: {len(seen)} rows, runtimes {sorted({rt for rt, _ in seen})}")


if __name__ == "__main__":
    main()
