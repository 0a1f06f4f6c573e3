#!/usr/bin/env bash
# A one-node Slurm 22.05 cluster on this machine, for the sharded nightly test and for trying deploy/ locally:
#   scripts/slurm-local.sh start [DIR]    install the packages if missing, write a config under DIR, start munged,
#                                         slurmctld and slurmd, wait until the node is idle; prints the export line
#                                         that points Slurm's commands at this cluster
#   scripts/slurm-local.sh stop [DIR]     cancel this cluster's jobs and stop the daemons it started, by pid
#   scripts/slurm-local.sh status [DIR]   exit 0 when the cluster is up, 1 when not
#   scripts/slurm-local.sh env [DIR]      print the export line (SLURM_CONF=DIR/slurm.conf)
# DIR defaults to $CONVCHECK_SLURM_DIR, else /tmp/convcheck-slurm. Everything lives under DIR: the config, a munge
# key and socket of its own (the machine's munge, if any, is left alone), the state, logs and pid files. Both are
# idempotent: start on a running cluster only waits for it; stop touches only processes whose pid files are under
# DIR and whose command line names DIR. Ports: $CONVCHECK_SLURM_PORT and the next one, else the first free pair
# from 6917, so several clusters (one per build directory) can run side by side.
# Runs as root (slurmd launches jobs as their user). Exit status: 0 done, 1 failed (the logs under DIR say why),
# 77 this machine cannot run it (not root, or the packages are missing and cannot be installed).
# Needs neither systemd nor slurmdbd: without accounting, sacct has nothing; use `sbatch --wait` and `scontrol show
# job` instead (completed jobs stay visible for MinJobAge, 10 minutes).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
action="${1:-}"
dir="${2:-${CONVCHECK_SLURM_DIR:-/tmp/convcheck-slurm}}"
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
conf="$dir/slurm.conf"
daemons=(munged slurmctld slurmd) # in start order; stopped in reverse

say() { echo "slurm-local: $*" >&2; }

# The pid of daemon $1 if it is running and was started by this script for this directory.
running_pid() {
  local pid
  pid=$(cat "$dir/run/$1.pid" 2>/dev/null) || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir/" || return 1
  echo "$pid"
}

port_free() { [[ -z $(ss -Hltn "sport = :$1") ]]; }

write_config() {
  local port="${CONVCHECK_SLURM_PORT:-}" node host
  if [[ -z "$port" ]]; then
    port=6917
    until port_free "$port" && port_free $((port + 1)); do port=$((port + 2)); done
  fi
  host=$(hostname -s)
  node=$(slurmd -C | head -1) # NodeName=<host> CPUs=... RealMemory=...: what this machine has
  mkdir -p "$dir/munge" "$dir/state/ctld" "$dir/state/d" "$dir/log" "$dir/run"
  chmod 755 "$dir" "$dir/munge"
  [[ -s "$dir/munge/munge.key" ]] || { head -c 128 /dev/urandom >"$dir/munge/munge.key"; }
  chmod 600 "$dir/munge/munge.key"
  cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh: a one-node cluster, state and logs under $dir.
ClusterName=convcheck
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
StateSaveLocation=$dir/state/ctld
SlurmdSpoolDir=$dir/state/d
SlurmctldPidFile=$dir/state/slurmctld.pid
SlurmdPidFile=$dir/state/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# No cgroups, no systemd: processes tracked by their parent pid, tasks not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# No slurmdbd: no accounting (sacct is empty; scontrol shows finished jobs for MinJobAge seconds).
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
MailProg=/bin/true
ReturnToService=2
KillWait=10
# A test cluster: start jobs as soon as they are submitted or their dependency is met, not at the next periodic
# pass (sched_interval is 60 s by default, the backfill pass 30 s).
SchedulerParameters=sched_interval=1,bf_interval=1
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

# Starts daemon $1 (command line in the rest) in the foreground, in the background: its pid in DIR/run/$1.pid, its
# stderr in DIR/log/$1.out (Slurm's daemons also log, with times, to DIR/log/NAME.log).
launch() {
  local name="$1"
  shift
  setsid "$@" </dev/null >>"$dir/log/$name.out" 2>&1 &
  echo $! >"$dir/run/$name.pid"
}

node_state() { SLURM_CONF="$conf" sinfo -h -N -o %T 2>/dev/null | head -1; }

start() {
  if [[ $(id -u) -ne 0 ]]; then
    say "needs root (slurmd starts jobs as their user)"
    exit 77
  fi
  if ! "$root/scripts/install-deps.sh" slurm; then
    say "cannot install the Slurm packages"
    exit 77
  fi
  local any=false
  for daemon in "${daemons[@]}"; do running_pid "$daemon" >/dev/null && any=true; done
  $any || write_config
  running_pid munged >/dev/null ||
    launch munged munged --foreground --force --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" \
      --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed"
  for _ in $(seq 50); do [[ -S "$dir/munge/socket" ]] && break; sleep 0.1; done
  # -i: start even if the saved state is unreadable (a cluster of tests keeps no state worth keeping).
  running_pid slurmctld >/dev/null || launch slurmctld slurmctld -D -i -f "$conf"
  running_pid slurmd >/dev/null || launch slurmd slurmd -D -f "$conf"
  local state=""
  for _ in $(seq 300); do
    state=$(node_state)
    [[ "$state" == idle || "$state" == mixed || "$state" == allocated ]] && break
    for daemon in "${daemons[@]}"; do
      if ! running_pid "$daemon" >/dev/null; then
        say "$daemon exited; last lines of its log:"
        tail -n 5 "$dir/log/$daemon.out" >&2 || true
        stop
        exit 1
      fi
    done
    sleep 0.1
  done
  if [[ "$state" != idle && "$state" != mixed && "$state" != allocated ]]; then
    say "the node is '${state:-unknown}' after 30 s, not idle (logs: $dir/log)"
    exit 1
  fi
  echo "export SLURM_CONF=$conf"
}

stop() {
  if running_pid slurmctld >/dev/null; then # this cluster's jobs, so that no job step outlives its slurmd
    local jobs
    jobs=$(SLURM_CONF="$conf" squeue -h -o %A 2>/dev/null || true)
    [[ -z "$jobs" ]] || SLURM_CONF="$conf" scancel $jobs 2>/dev/null || true
    for _ in $(seq 50); do [[ -z $(SLURM_CONF="$conf" squeue -h -o %A 2>/dev/null) ]] && break; sleep 0.2; done
  fi
  local pid
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    pid=$(running_pid "${daemons[i]}") || { rm -f "$dir/run/${daemons[i]}.pid"; continue; }
    kill -TERM "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    rm -f "$dir/run/${daemons[i]}.pid"
  done
}

case "$action" in
  start) start ;;
  stop) stop ;;
  status) [[ $(node_state) =~ ^(idle|mixed|allocated)$ ]] ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *) echo "usage: scripts/slurm-local.sh start|stop|status|env [DIR]" >&2; exit 2 ;;
esac
