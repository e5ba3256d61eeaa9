#!/usr/bin/env bash
# slurm_test.sh RTPAR_BIN SOURCE_DIR WORK_DIR — `make test-slurm` (docs/cluster.md).
#
# Starts a real single-node Slurm cluster (scripts/slurm-local.sh) and checks, in two parts:
#   1. the cluster: a 4-task `sbatch --array` job whose tasks each write a file. Kept for good:
#      when it fails, the cluster is broken, not rtpar.
#   2. the experiment round trip: `rtpar experiment slurm` submits the smoke scale of
#      experiments/fjos-fig6.toml as an array job plus a dependent merge job; the merged CSV must
#      equal, byte for byte, that of a local `rtpar experiment run --jobs 2`.
# A cluster that does not start is a failure, with the daemons' logs: this test never passes
# without having run jobs. The cluster is stopped on exit, whatever the outcome.
#
# Environment: RTPAR_SLURM_TEST_TIMEOUT (seconds per waited-for job, default 900).
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 RTPAR_BIN SOURCE_DIR WORK_DIR" >&2
  exit 2
fi
rtpar=$(realpath -- "$1")
src=$(realpath -- "$2")
work=$(realpath -m -- "$3")
job_timeout=${RTPAR_SLURM_TEST_TIMEOUT:-900}
slurm_local=$src/scripts/slurm-local.sh
name=fjos-fig6
manifest=$src/experiments/$name.toml

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The cluster lives in WORK_DIR, so its logs stay for a look after a failure, unless that path is
# too long for the Unix sockets in it (slurm-local.sh's limit).
cluster=$work/cluster
if [ ${#cluster} -gt 80 ]; then
  cluster=/tmp/rtpar-slurm-test-$(id -u)-$(printf '%s' "$work" | md5sum | cut -c1-8)
fi

# A cluster left by an interrupted run in this WORK_DIR is stopped before its files are removed.
"$slurm_local" stop --dir "$cluster" >/dev/null
rm -rf "$work"
mkdir -p "$work"

cleanup() {
  local rc=$?
  "$slurm_local" stop --dir "$cluster" || rc=1
  # The short-path fallback outside WORK_DIR is not left behind after a pass.
  if [ "$rc" -eq 0 ] && [ "${cluster#"$work"/}" = "$cluster" ]; then rm -rf "$cluster"; fi
  exit "$rc"
}
trap cleanup EXIT
# Interrupted (Ctrl-C, a CI timeout): exit through the EXIT trap, so the daemons are stopped.
trap 'exit 130' INT
trap 'exit 143' TERM

echo "== starting the cluster in $cluster"
"$slurm_local" start --dir "$cluster" || fail "the Slurm cluster did not start (logs above)"
eval "$("$slurm_local" env --dir "$cluster")"
sinfo

# State of every task of job ID, one "ID STATE" line each (array tasks expanded). --states=all
# includes finished jobs, which the controller keeps for MinJobAge (10 min) without accounting.
job_states() { squeue -h -r --states=all -j "$1" -o '%i %T' 2>/dev/null; }

# print_job ID [FILE...]: what is known about a failed job: its record, the files given (its
# output), and the daemons' logs.
print_job() {
  local id=$1 f
  shift
  {
    echo "--- scontrol show job $id ---"
    scontrol show job "$id" 2>&1 || true
    for f in "$@"; do
      [ -f "$f" ] || continue
      echo "--- $f ---"
      tail -n 60 "$f"
    done
  } >&2
  "$slurm_local" logs --dir "$cluster" >&2 || true
}

# wait_job ID: waits until every task of job ID has ended (or the timeout), then succeeds only if
# all of them COMPLETED (exit 0). Any other end (FAILED, CANCELLED, TIMEOUT, ...) fails.
wait_job() {
  local id=$1 deadline=$((SECONDS + job_timeout)) states unknown=0
  while :; do
    states=$(job_states "$id") || true
    # Nothing: the controller did not answer (busy) or does not know the job; 30 s of that fail.
    if [ -z "$states" ]; then
      unknown=$((unknown + 1))
      [ "$unknown" -lt 30 ] || { echo "job $id: unknown to slurmctld" >&2; return 1; }
      sleep 1
      continue
    fi
    unknown=0
    # A task still queued or running has one of these states.
    if ! grep -qE ' (PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED|RESIZING|SIGNALING|STAGE_OUT)$' <<<"$states"; then
      break
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "job $id: not finished after ${job_timeout}s:" >&2
      echo "$states" >&2
      return 1
    fi
    sleep 1
  done
  if grep -qv ' COMPLETED$' <<<"$states"; then
    echo "job $id did not complete:" >&2
    echo "$states" >&2
    return 1
  fi
}

# ---- 1. the cluster runs an array job -------------------------------------------------------
echo "== part 1: sbatch --array=0-3"
adir=$work/array
mkdir -p "$adir"
# Each task writes its index and its array job id, so a file from another job cannot pass. The
# variables are the job's, expanded by the task's shell.
# shellcheck disable=SC2016
array_id=$(sbatch --parsable --array=0-3 --job-name=rtpar-cluster-check --chdir="$adir" \
  --output="$adir/slurm-%A_%a.out" \
  --wrap 'echo "$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID" > "task-$SLURM_ARRAY_TASK_ID"') ||
  { "$slurm_local" logs --dir "$cluster" >&2; fail "sbatch refused the array job"; }
array_id=${array_id%%;*}  # --parsable prints "ID" or "ID;CLUSTER"
echo "array job $array_id submitted"
wait_job "$array_id" || { print_job "$array_id" "$adir"/slurm-*.out; fail "array job $array_id"; }
for k in 0 1 2 3; do
  [ -f "$adir/task-$k" ] || { print_job "$array_id" "$adir"/slurm-*.out; fail "task $k wrote no file"; }
  got=$(cat "$adir/task-$k")
  [ "$got" = "$array_id $k" ] || fail "task-$k holds '$got', expected '$array_id $k'"
done
echo "PASS: cluster ran array job $array_id (4 tasks, 4 files)"

# ---- 2. the experiment round trip -----------------------------------------------------------
echo "== part 2: $name, smoke scale: local --jobs 2 vs. Slurm (4 shards)"
[ -f "$manifest" ] || fail "no manifest $manifest"
local_out=$work/local
slurm_out=$work/slurm
submit_dir=$work/submit
mkdir -p "$submit_dir"

"$rtpar" experiment run "$manifest" --scale smoke --jobs 2 --out "$local_out" ||
  fail "local run: rtpar experiment run exited $?"
[ -f "$local_out/$name.csv" ] || fail "local run wrote no $local_out/$name.csv"

"$rtpar" experiment slurm "$manifest" --scale smoke --shards 4 --out "$slurm_out" \
  --rtpar "$rtpar" >"$work/submit.sh" || fail "rtpar experiment slurm exited $?"
# Run from its own directory: jobs without an --output of their own write slurm-*.out there.
(cd "$submit_dir" && bash "$work/submit.sh") >"$work/submit.log" 2>&1 ||
  { cat "$work/submit.log" >&2; fail "submit.sh failed"; }
cat "$work/submit.log"
array_job=$(sed -n 's/^array_job=\([0-9][0-9]*\)$/\1/p' "$work/submit.log" | tail -n 1)
merge_job=$(sed -n 's/^merge_job=\([0-9][0-9]*\)$/\1/p' "$work/submit.log" | tail -n 1)
if [ -z "$array_job" ] || [ -z "$merge_job" ]; then
  fail "submit.sh printed no array_job=ID and merge_job=ID lines (script: $work/submit.sh)"
fi

# Every output a job may have written: the default place (submit_dir) and the out dir.
job_outputs() { find "$submit_dir" "$slurm_out" -maxdepth 2 -type f \( -name '*.out' -o -name '*.err' -o -name '*.log' \) 2>/dev/null | sort; }

wait_job "$array_job" || { mapfile -t outs < <(job_outputs); print_job "$array_job" "${outs[@]}"; fail "shard array job $array_job"; }
wait_job "$merge_job" || { mapfile -t outs < <(job_outputs); print_job "$merge_job" "${outs[@]}"; fail "merge job $merge_job"; }
[ -f "$slurm_out/$name.csv" ] || fail "the merge job wrote no $slurm_out/$name.csv"

# The merged CSV has no timing columns: the two runs must agree byte for byte.
if ! cmp "$local_out/$name.csv" "$slurm_out/$name.csv"; then
  diff -u "$local_out/$name.csv" "$slurm_out/$name.csv" | head -n 80 >&2 || true
  fail "the Slurm run's $name.csv differs from the local --jobs 2 run's"
fi
echo "PASS: $name.csv from Slurm ($array_job: 4 shards, merge $merge_job) equals the local run's ($(wc -l <"$local_out/$name.csv") lines)"
