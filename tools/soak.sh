#!/usr/bin/env bash
# soak.sh — run a task set for a long time, optionally under background load, and report every
# task's jobs, misses, worst response and worst lateness (docs/reliability.md).
#
# Usage: tools/soak.sh FILE [--duration D] [--load] [--mem-per-cpu SIZE] [--rtpar PATH]
#                      [--out DIR] [--faults] [-- RUN_OPTION...]
#   --duration D       how long `rtpar run` releases jobs (default 10m; `m` means minutes, any
#                      other unit as in `rtpar run --duration`)
#   --load             while it runs, keep every CPU of this process's affinity mask busy at
#                      SCHED_OTHER: on each CPU (pinned with taskset) one CPU hog and one memory
#                      hog that keeps touching SIZE of memory (stress-ng --cpu 1 --vm 1 if
#                      installed, else a shell loop and a python3 loop)
#   --mem-per-cpu SIZE memory each memory hog touches (default 128M; stress-ng's --vm-bytes)
#   --rtpar PATH       the rtpar binary (default: $RTPAR, else build/rtpar, else rtpar in PATH)
#   --out DIR          keep the soak's files there: rtpar's reports in DIR/report/ (report.json,
#                      jobs.csv, trace.json; `rtpar run --out` needs a directory of its own),
#                      its stdout in DIR/run.json, the hogs' log in DIR/hogs.log (default: a
#                      temporary directory, removed at the end)
#   --faults           fault mode: run FILE with one task injecting overruns (every 5th job burns
#                      4x its work) under budget = "enforce" (tools/soak_faults.py picks the task
#                      and writes the variant to DIR/faults.toml); pass when that task overran and
#                      every other task has 0 misses
#   RUN_OPTION...      passed to `rtpar run` (e.g. --no-mlock, --best-effort)
#
# Prints one line per task (jobs, misses, max response, max lateness = max response − deadline;
# negative means every job had slack) and a total line. Exit status: 0 no miss, 1 at least one
# miss, rtpar's own status when it failed (2 bad input, 3 no real-time privilege, ...), 128+N
# when stopped by signal N (the run is then stopped with SIGINT, so it still reports). With
# --faults: 0 when the injecting task overran and the others had no miss, 1 otherwise, 4 when no
# task of FILE can inject under an applied budget (nothing is run; the reason is said).
#
# The hogs never outlive the script: they are killed on every exit path (end of the run, error,
# SIGINT, SIGTERM, SIGHUP), each with its whole process group; and each is started with a
# timeout of the run's length plus 60 s, so even a SIGKILL of this script leaves them running
# for at most that long.
set -uo pipefail
set -m  # job control: every background job gets its own process group, killed as a whole

usage() { sed -n '4,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "soak: $*" >&2; exit 2; }

file="" duration="10m" load=0 mem="128M" rtpar=${RTPAR:-} out="" run_opts=() faults=0
while [ $# -gt 0 ]; do
  case $1 in
    --duration) [ $# -ge 2 ] || usage; duration=$2; shift 2 ;;
    --load) load=1; shift ;;
    --mem-per-cpu) [ $# -ge 2 ] || usage; mem=$2; shift 2 ;;
    --rtpar) [ $# -ge 2 ] || usage; rtpar=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --faults) faults=1; shift ;;
    --) shift; run_opts=("$@"); break ;;
    -h|--help) usage ;;
    -*) echo "soak: unknown option $1" >&2; usage ;;
    *) [ -z "$file" ] || usage; file=$1; shift ;;
  esac
done
[ -n "$file" ] || usage
[ -r "$file" ] || die "cannot read $file"
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$rtpar" ]; then
  if [ -x "$root/build/rtpar" ]; then rtpar=$root/build/rtpar; else rtpar=$(command -v rtpar) || true; fi
fi
[ -n "$rtpar" ] && [ -x "$rtpar" ] || die "no rtpar binary (build it, or pass --rtpar PATH)"

# `10m` is minutes here; rtpar spells it `10min`. seconds is the length in whole seconds (rounded
# up), for the hogs' safety timeout; unknown spellings are left to rtpar to judge.
[[ $duration =~ ^([0-9]+)m$ ]] && duration="${BASH_REMATCH[1]}min"
seconds=86400
if [[ $duration =~ ^([0-9]+)(ns|us|ms|s|min)$ ]]; then
  n=${BASH_REMATCH[1]}
  case ${BASH_REMATCH[2]} in
    ns) seconds=$(( n / 1000000000 + 1 )) ;; us) seconds=$(( n / 1000000 + 1 )) ;;
    ms) seconds=$(( n / 1000 + 1 )) ;; s) seconds=$n ;; min) seconds=$(( n * 60 )) ;;
  esac
fi

keep_out=1
if [ -z "$out" ]; then out=$(mktemp -d "${TMPDIR:-/tmp}/rtpar-soak.XXXXXX") || die "mktemp failed"; keep_out=0; fi
mkdir -p "$out" || die "cannot create $out"

hog_pids=() run_pid="" signal=""
stop_hogs() {
  local pid
  for pid in "${hog_pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done
  for pid in "${hog_pids[@]}"; do
    # Give each group a moment to go, then make sure.
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  hog_pids=()
}
cleanup() {
  stop_hogs
  if [ -n "$run_pid" ] && kill -0 "$run_pid" 2>/dev/null; then kill -INT "$run_pid" 2>/dev/null; fi
  [ $keep_out -eq 1 ] || rm -rf "$out"
}
trap cleanup EXIT

# Fault mode: the run is of a variant of FILE with one task injecting overruns.
fault_task=""
if [ $faults -eq 1 ]; then
  fault_task=$(python3 "$root/tools/soak_faults.py" variant "$file" "$rtpar" "$out/faults.toml")
  st=$?
  [ $st -eq 0 ] || exit $st  # 4: not applicable (said on stderr); 2: bad input
  echo "soak: faults: task '$fault_task' of $file injects overruns, budget enforce ($out/faults.toml)"
  file=$out/faults.toml
fi
# A signal stops the run the way Ctrl-C does (rtpar still writes its report); the script then
# reports, stops the hogs and exits 128+N.
on_signal() {
  signal=$1
  [ -n "$run_pid" ] && kill -INT "$run_pid" 2>/dev/null
  [ -n "$run_pid" ] || exit $(( 128 + $(kill -l "$signal") ))
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP

# cpus lists the CPU ids this process may run on (Cpus_allowed_list, ranges expanded).
cpus() {
  local list part
  list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
  IFS=, read -ra parts <<<"$list"
  for part in "${parts[@]}"; do
    if [[ $part == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi
  done
}

load_desc="none"
if [ $load -eq 1 ]; then
  command -v taskset >/dev/null || die "--load needs taskset (util-linux)"
  cpu_list=$(cpus | paste -sd" ")
  limit=$(( seconds + 60 ))
  if command -v stress-ng >/dev/null; then
    load_desc="stress-ng --cpu 1 --vm 1 --vm-bytes $mem (SCHED_OTHER) on each of CPUs $cpu_list"
    for cpu in $cpu_list; do
      taskset -c "$cpu" stress-ng --cpu 1 --vm 1 --vm-bytes "$mem" --sched other \
        --timeout "${limit}s" --quiet >>"$out/hogs.log" 2>&1 &
      hog_pids+=($!)
    done
  else
    command -v python3 >/dev/null || die "--load needs stress-ng or python3"
    bytes=$(numfmt --from=iec "$mem") || die "bad --mem-per-cpu $mem"
    load_desc="shell CPU loop + python3 loop touching $mem (SCHED_OTHER) on each of CPUs $cpu_list"
    for cpu in $cpu_list; do
      taskset -c "$cpu" timeout "$limit" bash -c 'while :; do :; done' &
      hog_pids+=($!)
      taskset -c "$cpu" timeout "$limit" python3 -c '
import sys
n = int(sys.argv[1]); b = bytearray(n)
while True:
    for i in range(0, n, 4096): b[i] = (b[i] + 1) & 255' "$bytes" &
      hog_pids+=($!)
    done
  fi
  sleep 0.5  # let the hogs start before the first release
  for pid in "${hog_pids[@]}"; do
    kill -0 "$pid" 2>/dev/null || die "a hog did not start (see $out/hogs.log)"
  done
fi

echo "soak: $rtpar run --allow-misses $file --duration $duration --json --out $out/report ${run_opts[*]}"
echo "soak: load: $load_desc"
# --allow-misses: the soak judges the misses itself (below, and the fault mode's verdict).
"$rtpar" run --allow-misses "$file" --duration "$duration" --json --out "$out/report" "${run_opts[@]}" >"$out/run.json" &
run_pid=$!
status=0
while :; do
  wait "$run_pid"
  status=$?
  kill -0 "$run_pid" 2>/dev/null || break  # still running: wait was interrupted by a signal
done
run_pid=""
stop_hogs

if [ ! -f "$out/report/report.json" ]; then
  echo "soak: rtpar run exited $status without a report" >&2
  [ $status -ne 0 ] || status=70
  exit $status
fi
python3 - "$out/report/report.json" <<'EOF'
import json, sys

def ms(ns):
    return f"{ns / 1e6:.3f}ms"

r = json.load(open(sys.argv[1]))
rows = [("task", "jobs", "misses", "max response", "max lateness")]
for t in r["tasks"]:
    worst = t["response_ns"]["max"]
    late = ms(worst - t["deadline_ns"]) if t["jobs"] > 0 else "-"
    rows.append((t["name"], str(t["jobs"]), str(t["misses"]), ms(worst) if t["jobs"] else "-", late))
widths = [max(len(row[i]) for row in rows) for i in range(5)]
for row in rows:
    print("  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]))
jobs = sum(t["jobs"] for t in r["tasks"])
note = " (interrupted)" if r.get("interrupted") else ""
note += " (best effort: no real-time scheduling)" if r.get("best_effort") else ""
print(f"soak: {r['total_misses']} deadline misses in {jobs} jobs{note}")
EOF
[ $? -eq 0 ] || { echo "soak: cannot read $out/report/report.json" >&2; exit 70; }
misses=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total_misses"])' "$out/report/report.json")
[ -z "$signal" ] || exit $(( 128 + $(kill -l "$signal") ))
[ $status -eq 0 ] || exit $status
if [ -n "$fault_task" ]; then
  # The injecting task's own misses are its fault; the others must have none.
  python3 "$root/tools/soak_faults.py" verdict "$out/report/report.json" "$fault_task"
  exit $?
fi
[ "$misses" -eq 0 ] || exit 1
exit 0
