#!/usr/bin/env bash
# slurm-local.sh — a real single-node Slurm cluster on this machine, for tests (docs/cluster.md).
#
#   scripts/slurm-local.sh start|stop|status|env|logs [--dir DIR]
#
# It runs Debian's daemons (packages slurm-wlm and munge: `scripts/setup.sh slurm`) directly,
# without systemd or /etc: a private munged, slurmctld and slurmd, each with its own config, state,
# socket, pid and log files under DIR (default $RTPAR_SLURM_DIR, else
# ${XDG_RUNTIME_DIR:-/tmp}/rtpar-slurm). The one node is `localhost` with the CPUs of `nproc`, in
# the default partition `local`. Clients find the cluster through SLURM_CONF: `eval "$(... env)"`.
#
#   start   idempotent; returns once the node is idle, or exits 1 after RTPAR_SLURM_TIMEOUT
#           seconds (default 60), printing the daemons' logs and stopping them.
#   stop    cancels the jobs, stops the daemons started from DIR (by their pid files) and waits
#           until none of them is left.
#   status  the daemons and `sinfo`; exit 0 when all three run, 3 otherwise.
#   env     prints `export SLURM_CONF=DIR/slurm.conf`.
#   logs    prints the end of the daemons' logs (what start prints when it fails).
#
# Daemons must run as root (slurmd starts jobs as their user). Ports: the first free pair from
# ${RTPAR_SLURM_PORT:-6817} up (slurmctld, slurmd = +1), so two clusters in two DIRs can coexist.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|status|env|logs [--dir DIR]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
cmd=$1
shift
dir=${RTPAR_SLURM_DIR:-${XDG_RUNTIME_DIR:-/tmp}/rtpar-slurm}
while [ $# -gt 0 ]; do
  case $1 in
    --dir) [ $# -ge 2 ] || usage; dir=$2; shift 2 ;;
    --dir=*) dir=${1#--dir=}; shift ;;
    *) usage ;;
  esac
done
case $cmd in start | stop | status | env | logs) ;; *) usage ;; esac

# Absolute, so that the paths written into slurm.conf and printed by `env` hold from any cwd.
dir=$(realpath -m -- "$dir")
conf=$dir/slurm.conf
munge_dir=$dir/munge
sock=$munge_dir/munge.socket
timeout=${RTPAR_SLURM_TIMEOUT:-60}
node=localhost
partition=local

export SLURM_CONF=$conf

if [ "$cmd" = env ]; then
  printf 'export SLURM_CONF=%q\n' "$conf"
  exit 0
fi

pidfile() {  # pidfile DAEMON
  case $1 in
    munged) echo "$munge_dir/munged.pid" ;;
    *) echo "$dir/run/$1.pid" ;;
  esac
}

logfile() {  # logfile DAEMON
  case $1 in
    munged) echo "$munge_dir/munged.log" ;;
    *) echo "$dir/log/$1.log" ;;
  esac
}

# is_program PID NAME: process PID runs program NAME. Debian installs slurmctld, slurmd and
# slurmstepd as alternatives for /usr/sbin/slurmctld-wlm etc., and /proc/PID/exe names the target.
is_program() {
  local exe
  exe=$(readlink "/proc/$1/exe" 2>/dev/null) || return 1
  case ${exe##*/} in "$2" | "$2-wlm") return 0 ;; *) return 1 ;; esac
}

# The pid of DAEMON if its pid file names a live process of that program, else nothing. The
# program check guards against a stale pid file whose pid was reused; the state check matters
# because PID 1 of a container need not reap orphans at once, and a dead daemon stays a zombie
# for a while (seen here: `kill -0` succeeds on it).
daemon_pid() {  # daemon_pid DAEMON
  local f pid state
  f=$(pidfile "$1")
  [ -r "$f" ] || return 0
  pid=$(tr -dc 0-9 2>/dev/null <"$f") || return 0  # the daemon may remove it meanwhile
  [ -n "$pid" ] || return 0
  is_program "$pid" "$1" || return 0
  state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || return 0
  [ "$state" != Z ] || return 0
  echo "$pid"
}

running() { [ -n "$(daemon_pid "$1")" ]; }

print_logs() {  # print_logs [TITLE]
  local d f
  {
    echo "=== slurm-local: ${1:-cluster in $dir failed}; daemon logs follow ==="
    for d in munged slurmctld slurmd; do
      f=$(logfile "$d")
      echo "--- $d ($f) ---"
      if [ -r "$f" ]; then tail -n 80 "$f"; else echo "(no log)"; fi
    done
    if running slurmctld; then
      echo "--- scontrol show node $node ---"
      scontrol show node "$node" 2>&1 || true
    fi
    echo "=== end of logs ==="
  } >&2
}

# Set by start once it launches daemons: a start that fails stops what it started, so that it
# leaves nothing running either way (the logs stay in DIR).
stop_on_die=0

die() {
  echo "slurm-local: $*" >&2
  print_logs
  if [ "$stop_on_die" = 1 ]; then
    stop_on_die=0
    do_stop
    echo "slurm-local: stopped the daemons; their logs stay in $dir" >&2
  fi
  exit 1
}

# wait_for SECONDS DESCRIPTION COMMAND...: poll COMMAND every 0.5 s until it succeeds.
wait_for() {
  local secs=$1 what=$2
  shift 2
  local deadline=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      die "timed out after ${secs}s waiting for $what"
    fi
    sleep 0.5
  done
}

port_busy() {  # port_busy PORT: something listens on 127.0.0.1:PORT
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

munge_ok() { munge -n -S "$sock" | unmunge -S "$sock"; }
ctld_ok() { scontrol ping | grep -q 'is UP'; }
node_state() { sinfo -h -N -n "$node" -o %T 2>/dev/null | head -n 1; }

# Waits for the node to be idle (or busy with jobs, when start finds the cluster already up); a
# node that the controller marks drained or failing is reported at once instead of after the
# whole timeout. A state ending in * is a node that does not respond (yet).
wait_idle() {
  local deadline=$((SECONDS + timeout)) state
  while :; do
    state=$(node_state || true)
    case $state in
      idle | mixed | allocated | completing) return 0 ;;
      *drain* | fail* | inval*) die "node $node is $state" ;;
    esac
    if [ "$SECONDS" -ge "$deadline" ]; then
      die "timed out after ${timeout}s waiting for node $node to be idle (state: ${state:-unknown})"
    fi
    sleep 0.5
  done
}

# stop_daemon DAEMON: SIGTERM, then SIGKILL after 10 s; returns once the process is gone.
stop_daemon() {
  local pid i
  pid=$(daemon_pid "$1")
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do
      running "$1" || break
      sleep 0.25
    done
    if running "$1"; then
      echo "slurm-local: $1 ($pid) ignored SIGTERM; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
      for ((i = 0; i < 20; i++)); do
        running "$1" || break
        sleep 0.25
      done
    fi
  fi
  rm -f "$(pidfile "$1")"
}

# The slurmstepd processes of this cluster: slurmd passes its environment, with our SLURM_CONF,
# on to them. Matching on SLURM_CONF (not on the name) leaves other clusters' processes alone.
stepd_pids() {
  local p
  for p in /proc/[0-9]*; do
    is_program "${p#/proc/}" slurmstepd || continue
    tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qxF "SLURM_CONF=$conf" || continue
    echo "${p#/proc/}"
  done
}

do_stop() {
  local i pids
  # Cancel the jobs first so that slurmd tears their processes down itself; slurmstepd would
  # otherwise outlive slurmd, and their job processes with it.
  if running slurmctld && ctld_ok; then
    scancel --partition="$partition" 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.25
    done
  fi
  stop_daemon slurmd
  stop_daemon slurmctld
  pids=$(stepd_pids)
  if [ -n "$pids" ]; then
    echo "slurm-local: killing leftover slurmstepd $pids" >&2
    # shellcheck disable=SC2086  # one pid per word
    kill -KILL $pids 2>/dev/null || true
  fi
  stop_daemon munged
}

write_conf() {
  local cpus mem_mb port
  cpus=$(nproc)
  # Below the real amount: slurmd drains a node that has less memory than configured.
  mem_mb=$(awk '/^MemTotal:/ {printf "%d", $2 / 1024 * 0.8}' /proc/meminfo)
  port=${RTPAR_SLURM_PORT:-6817}
  while port_busy "$port" || port_busy "$((port + 1))"; do
    port=$((port + 2))
    [ "$port" -lt $((${RTPAR_SLURM_PORT:-6817} + 200)) ] || die "no free port pair from ${RTPAR_SLURM_PORT:-6817} up"
  done
  cat >"$conf.tmp" <<EOF
# Generated by scripts/slurm-local.sh: a single-node cluster for tests. Overwritten on start.
ClusterName=rtpar-local
# slurmctld accepts "localhost" as its own name whatever the machine's hostname is.
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
# A private munged (its socket below), so the system's munge configuration does not matter.
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$(pidfile slurmctld)
SlurmdPidFile=$(pidfile slurmd)
SlurmctldLogFile=$(logfile slurmctld)
SlurmdLogFile=$(logfile slurmd)
SlurmctldDebug=info
SlurmdDebug=info
# Nothing that needs cgroups, systemd or a database: this runs in containers.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
# No mail on this machine; the default (/bin/mail) is missing and slurmctld logs an error.
MailProg=/bin/true
PlugStackConfig=$dir/plugstack.conf
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# A job whose dependency can no longer be satisfied (afterok on a failed job) is cancelled instead
# of pending for ever, so that whoever waits for it sees it end.
DependencyParameters=kill_invalid_depend
# Short timeouts: a test waits on them. A node that went down comes back when slurmd registers.
ReturnToService=2
SlurmdTimeout=30
SlurmctldTimeout=30
MessageTimeout=10
InactiveLimit=0
KillWait=5
# Without accounting, finished jobs are visible (scontrol show job) only for MinJobAge seconds.
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=$partition Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.tmp" "$conf"
  : >"$dir/plugstack.conf"
}

do_start() {
  local d missing=()
  if [ "$(id -u)" -ne 0 ]; then
    echo "slurm-local: must run as root (slurmd runs jobs as their user)" >&2
    exit 1
  fi
  for d in munged munge unmunge mungekey slurmctld slurmd scontrol sinfo squeue scancel; do
    command -v "$d" >/dev/null || missing+=("$d")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "slurm-local: missing ${missing[*]}; run scripts/setup.sh slurm" >&2
    exit 1
  fi
  # A Unix socket path has at most 107 bytes; slurmd's step sockets in the spool dir are longer.
  if [ ${#dir} -gt 80 ]; then
    echo "slurm-local: --dir path too long for Unix sockets (${#dir} > 80 bytes): $dir" >&2
    exit 1
  fi

  if running munged && running slurmctld && running slurmd && ctld_ok; then
    wait_idle
    echo "slurm-local: already running in $dir (SLURM_CONF=$conf)"
    return 0
  fi
  # Partly running (one daemon died, or a previous start failed): start over.
  do_stop
  stop_on_die=1

  # munged insists that everyone can traverse its socket's directory, and that its key file is
  # private; the key itself is generated here, not taken from /etc/munge.
  mkdir -p "$dir" "$munge_dir" "$dir/state" "$dir/spool" "$dir/log" "$dir/run"
  chmod 755 "$dir" "$munge_dir"
  if [ ! -s "$munge_dir/munge.key" ]; then
    mungekey --create --keyfile="$munge_dir/munge.key"
  fi
  chmod 600 "$munge_dir/munge.key"
  : >"$(logfile munged)"
  : >"$(logfile slurmctld)"
  : >"$(logfile slurmd)"

  # Daemons fork into the background and write their pid files themselves. Their standard input
  # is /dev/null: started with fd 0 closed (a CI runner without stdin), slurmd's first pipe to a
  # job's slurmstepd lands on fd 0 and every job launch fails (the jobs are requeued at once).
  munged --socket="$sock" --key-file="$munge_dir/munge.key" --pid-file="$(pidfile munged)" \
    --log-file="$(logfile munged)" --seed-file="$munge_dir/munged.seed" </dev/null ||
    die "munged did not start"
  wait_for "$timeout" "munged ($sock)" munge_ok

  write_conf
  # -c: no state from a previous run (jobs, node states); a test cluster starts clean.
  slurmctld -c -f "$conf" </dev/null || die "slurmctld did not start"
  wait_for "$timeout" "slurmctld (scontrol ping)" ctld_ok
  # -N: the node name in slurm.conf, whatever this machine's hostname is.
  slurmd -N "$node" -f "$conf" </dev/null || die "slurmd did not start"
  wait_idle
  running slurmd || die "slurmd exited"
  echo "slurm-local: running in $dir (SLURM_CONF=$conf)"
}

do_status() {
  local d pid all=0
  for d in munged slurmctld slurmd; do
    pid=$(daemon_pid "$d")
    if [ -n "$pid" ]; then
      echo "$d: running (pid $pid)"
    else
      echo "$d: not running"
      all=3
    fi
  done
  if running slurmctld; then
    sinfo 2>&1 || true
  fi
  return "$all"
}

case $cmd in
  start) do_start ;;
  stop) do_stop; echo "slurm-local: stopped ($dir)" ;;
  status) do_status ;;
  logs) print_logs "cluster in $dir" 2>&1 ;;
esac
