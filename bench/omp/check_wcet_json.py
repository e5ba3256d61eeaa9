#!/usr/bin/env python3
"""check_wcet_json.py — the smoke test of `rtpar bench wcet` (OpenMP-RT Table 1): a short run
must print a row for every kernel of Table 1 on every runtime built and each team size, every
one verified against its serial reference (ok) with ordered percentiles (min <= p50 <= p99 <= max).

    check_wcet_json.py RUNTIME[,RUNTIME...] -- RTPAR bench wcet ... --json
"""
import json
import subprocess
import sys

KERNELS = ["alignment", "fft", "fib", "floorplan", "health", "NQueens", "knapsack", "sort",
           "sparselu", "strassen", "uts", "TaskBench", "ArrayBench", "SyncBench", "SchedBench"]


def main() -> int:
    runtimes = sys.argv[1].split(",")
    assert sys.argv[2] == "--", __doc__
    run = subprocess.run(sys.argv[3:], stdout=subprocess.PIPE, check=False)
    if run.returncode != 0:
        print(f"check_wcet_json: exit status {run.returncode}", file=sys.stderr)
        return 1
    doc = json.loads(run.stdout)
    rows = doc["wcet"]
    errors = []
    for runtime in runtimes:
        for threads in (1, 2):
            for kernel in KERNELS:
                got = [r for r in rows if r["runtime"] == runtime and r["threads"] == threads
                       and r["kernel"] == kernel]
                if len(got) != 1:
                    errors.append(f"{runtime} {threads}t {kernel}: {len(got)} rows, expected 1")
                    continue
                r = got[0]
                if r["ok"] is not True:
                    errors.append(f"{runtime} {threads}t {kernel}: not verified")
                if not 0 < r["min_ns"] <= r["p50_ns"] <= r["p99_ns"] <= r["max_ns"]:
                    errors.append(f"{runtime} {threads}t {kernel}: percentiles out of order {r}")
    for e in errors:
        print("check_wcet_json:", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
