#!/usr/bin/env bash
# check_looptasks.sh PROGRAM WORKDIR — rtpar-omp-looptasks (looptasks.c) on a tiny set: every
# release before the end runs once and is counted, responses are at least the work, a missed
# deadline is counted, and bad input exits 2 naming the file and line. No timing assertion
# beyond "a response is never shorter than its CPU work".
set -euo pipefail
prog=$1
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# a: 20 releases of 10 ms in 200 ms, 1 ms of work on two threads (span 0.5 ms). b: a deadline of
# 1 us that its 200 us job always misses, phase 5 ms: releases at 5, 25, ..., 185 ms (10 jobs).
printf '# name period deadline work span threads phase\na 10000000 10000000 1000000 500000 2 0\nb 20000000 1000 200000 200000 1 5000000\n' >set.txt
out=$("$prog" --tasks set.txt --duration-ms 200 --cores 2)
python3 - "$out" <<'PY' || fail "unexpected result: $out"
import json, sys
d = json.loads(sys.argv[1])
t = {x["name"]: x for x in d["tasks"]}
assert d["threads"] == 4, d
assert t["a"]["jobs"] == 20 and t["b"]["jobs"] == 10, t
assert t["a"]["max_response_ns"] >= 500000 and t["a"]["mean_response_ns"] >= 500000, t
assert t["b"]["misses"] == 10, t
PY

printf 'a 10000000 10000000 1000000 2000000 1 0\n' >bad.txt  # span above work
set +e
"$prog" --tasks bad.txt --duration-ms 100 >/dev/null 2>err.txt
status=$?
set -e
[ $status -eq 2 ] || fail "bad input exited $status"
grep -q "bad.txt:1:" err.txt || fail "no file and line: $(cat err.txt)"
"$prog" --tasks set.txt >/dev/null 2>&1 && fail "a missing --duration-ms was accepted"
echo "looptasks: ok"
