#!/usr/bin/env bash
# plot_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — `rtpar plot DIR` (src/cli/plot.cpp,
# tools/plot_run.py): the three PNGs of a real (best-effort) run's report directory and of a
# hand-made one, and bad input (exit 2). 77 when matplotlib is missing here.
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status
case_name=$1 rtpar=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# is_png FILE: FILE starts with the PNG signature and is not tiny.
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
  [ "$(stat -c %s "$1")" -gt 5000 ]; }

if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null && ! python3 -c 'import matplotlib'; then
  echo "SKIPPED: matplotlib is not installed (scripts/setup.sh installs python3-matplotlib)"
  exit 77
fi

case $case_name in
run)
  # A real run (best effort: no privilege needed; its timing is not checked), then its plots. A
  # light task: on a loaded machine a best-effort team job can outlast a short run (exit 5).
  printf '[system]\ncores = [0]\n[[task]]\nname = "tick"\nperiod = "10ms"\nwork = "200us"\n' >tick.toml
  expect_status 0 "$rtpar" run tick.toml --duration 1s --best-effort --allow-misses --out run
  # The summary's histogram, and each task's buckets in report.json holding every job.
  grep -q "^response times (jobs per bucket, " <<<"$out" || fail "no histogram: $out"
  python3 -c 'import json,sys
for t in json.load(open("run/report.json"))["tasks"]:
    b = t["response_histogram"]["buckets"]
    assert sum(x["jobs"] for x in b) == t["jobs"] and all(x["lo_ns"] < x["hi_ns"] for x in b), t' ||
    fail "report.json: response_histogram"
  expect_status 0 "$rtpar" plot run --out pngs
  for f in histogram response timeline; do
    is_png "pngs/$f.png" || fail "pngs/$f.png is not a PNG: $(ls -l pngs)"
    grep -q "wrote pngs/$f.png" <<<"$out" || fail "not reported: $out"
  done
  # Default: beside the reports.
  expect_status 0 "$rtpar" plot run
  is_png run/timeline.png || fail "run/timeline.png"
  # The next run replaces the directory, plots included (they showed the previous run).
  expect_status 0 "$rtpar" run tick.toml --duration 200ms --best-effort --allow-misses --out run
  [ -e run/timeline.png ] && fail "the previous run's plots were kept"
  [ -s run/jobs.csv ] || fail "no new jobs.csv"
  # Anything else still makes the directory refused.
  touch run/notes.txt
  expect_status 2 "$rtpar" run tick.toml --duration 200ms --best-effort --out run
  ;;
handmade)
  # Two tasks on three CPUs, one missed job: what the plots read, and nothing more.
  mkdir made
  cat >made/report.json <<'J'
{"start_ns": 1000000000, "tasks": [
 {"name": "ctl", "cores": [0], "deadline_ns": 1000000, "response_bound_ns": 400000},
 {"name": "vis", "cores": [1, 2], "deadline_ns": 20000000, "response_bound_ns": null}]}
J
  {
    echo "task,job,release_ns,start_ns,finish_ns,response_ns,deadline_ns,missed,work_ns,span_ns,burdened_span_ns,overrun_ns"
    for i in 0 1 2 3 4; do
      r=$((1000000000 + i * 1000000))
      echo "ctl,$i,$r,$((r + 5000)),$((r + 300000 + i * 1000)),$((300000 + i * 1000)),1000000,0,,,,"
    done
    echo "ctl,5,1005000000,1005001000,1006500000,1500000,1000000,1,,,,"
    echo "vis,0,1000000000,1000002000,1012000000,12000000,20000000,0,,,,"
  } >made/jobs.csv
  expect_status 0 "$rtpar" plot made
  for f in histogram response timeline; do is_png "made/$f.png" || fail "made/$f.png"; done
  ;;
bad_input)
  expect_status 2 "$rtpar" plot does-not-exist
  grep -q "jobs.csv" <<<"$err" || fail "no hint: $err"
  mkdir empty
  expect_status 2 "$rtpar" plot empty
  mkdir bad && echo '{"start_ns": 0, "tasks": []}' >bad/report.json
  printf 'task,job\nghost,0\n' >bad/jobs.csv
  expect_status 2 "$rtpar" plot bad
  grep -q "rtpar plot: .*jobs.csv" <<<"$err" || fail "malformed jobs.csv: $err"
  expect_status 2 "$rtpar" plot
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
