#!/usr/bin/env bash
# A nightly convcheck campaign on Slurm: a job array runs the shards (array task I runs shard I/N of one campaign),
# and one job that depends on the whole array (afterany: it runs also after failed or timed-out tasks) merges their
# reports, once. Run it where you submit jobs; it submits both and prints the run directory:
#
#   CONVCHECK=/opt/convcheck/bin/convcheck SHARED=/shared/convcheck deploy/slurm-nightly.sh
#   deploy/slurm-nightly.sh merge RUN_DIR         # submit the merge of a run again (after a rerun, say)
#   deploy/slurm-nightly.sh rerun RUN_DIR 3,7     # run shards 3 and 7 of a run again, then merge again
#
# Settings, from the environment (the run directory's campaign.env records them):
#   CONVCHECK      the convcheck binary, a path every node sees; default: the convcheck on the submitter's PATH,
#                  made absolute. Jobs never look convcheck up on their own PATH.
#   SHARED         a directory every node sees (required)
#   SEED           the campaign's seed (default: today, YYYYMMDD)
#   SHARDS         number of shards, one array task each (default 16)
#   BUDGET         "--time SECONDS" (each shard's time) or "--cases N" (the whole campaign's cases), or both
#                  (default: "--time 3600"). With --cases the merged report is the unsharded run's.
#   FUZZ_ARGS      more arguments for convcheck fuzz, shell-quoted (e.g. "--inject pad_order --max-saved 3")
#   CPUS           CPUs of each shard, its --threads (default 2)
#   TIME_LIMIT     Slurm time limit of each shard (default: the --time budget plus 20 minutes for shrinking and
#                  saving; 02:00:00 without one)
#   CORPUS         where shards save findings (default: $SHARED/findings, kept from night to night)
#   ALLOW_PARTIAL  1: merge even with shards missing or stopped early (the merged report lists them)
#   SBATCH_ARGS    more sbatch arguments for every job (--partition, --account), shell-quoted
#   WAIT           1: wait for the merge job and exit with its exit status
#
# Each submission gets a fresh run directory, $SHARED/runs/SEED-HHMMSS.XXXX, also the campaign's --campaign name
# (so a shard report of another run is refused by the merge): campaign.env, reports/shard-I.json, logs/, and the
# merge's merged.json, merged.xml, merged.html and merge.status.
#
# Exit status of the jobs (scontrol show job ID: ExitCode; sacct where accounting runs):
#   shard task  0: the shard ran and wrote its report, findings or not (findings are the merge's to report);
#               anything else: convcheck could not run or failed (2: bad usage or input, 126/127: no binary), or
#               the task was killed (TIMEOUT, CANCELLED)
#   merge       0: every shard ran and no strategy failed; 1: the campaign found mismatches, crashes or
#               timeouts (merged.json lists them); 2: the campaign is not whole (a shard missing, repeated,
#               stopped early, or of another run) and nothing was merged, or a report was unreadable
# Without WAIT, this script exits 0 once both are submitted; with WAIT=1 it exits with the merge job's status.
set -euo pipefail

# --- inside a job -----------------------------------------------------------------------------------------------

# Array task I: shard I/N. Findings (exit 1) are what the campaign is for, not a failure of the task.
run_shard() {
  source "$NIGHTLY_RUN/campaign.env"
  local index="$SLURM_ARRAY_TASK_ID" budget fuzz_args status=0
  eval "budget=($BUDGET)" "fuzz_args=($FUZZ_ARGS)"
  # The shell waits for convcheck through the time limit's SIGTERM, which convcheck answers by finishing the cases
  # in flight and writing its report (marked interrupted; the merge then refuses it unless ALLOW_PARTIAL=1).
  trap '' TERM
  "$CONVCHECK" fuzz --seed "$SEED" "${budget[@]}" --threads "$CPUS" --shard "$index/$SHARDS" \
    --campaign "$CAMPAIGN" --corpus "$CORPUS" --report "$NIGHTLY_RUN/reports/shard-$index.json" \
    "${fuzz_args[@]}" || status=$?
  [[ $status -le 1 ]] || exit "$status"
}

run_merge() {
  source "$NIGHTLY_RUN/campaign.env"
  local reports=("$NIGHTLY_RUN"/reports/shard-*.json) status=0
  [[ -e "${reports[0]}" ]] || reports=() # none at all: convcheck says so (exit 2)
  local partial=()
  [[ "$ALLOW_PARTIAL" == 1 ]] && partial=(--allow-partial)
  "$CONVCHECK" report merge "${reports[@]}" --campaign "$CAMPAIGN" "${partial[@]}" \
    --report "$NIGHTLY_RUN/merged.json" --junit "$NIGHTLY_RUN/merged.xml" --html "$NIGHTLY_RUN/merged.html" ||
    status=$?
  echo "$status" >"$NIGHTLY_RUN/merge.status"
  exit "$status"
}

case "${NIGHTLY_STEP:-}" in
  shard) run_shard; exit 0 ;;
  merge) run_merge ;;
esac

# --- submitting -------------------------------------------------------------------------------------------------

fail() { echo "slurm-nightly: $*" >&2; exit 2; }
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
sbatch_args=()
eval "sbatch_args=(${SBATCH_ARGS:-})"

# The merge of run $1, after job $2 if given; prints its job id, or with WAIT=1 waits and returns its status.
submit_merge() {
  local run="$1" after="${2:-}" dependency=() wait=() status=0
  [[ -z "$after" ]] || dependency=(--dependency="afterany:$after")
  [[ "${WAIT:-}" == 1 ]] && wait=(--wait)
  # sbatch --wait prints the job id first, then blocks until the job ends and exits with its exit code.
  sbatch --parsable "${wait[@]}" "${dependency[@]}" --job-name=convcheck-nightly-merge --cpus-per-task=1 \
    --time=00:30:00 --chdir="$run" --output="$run/logs/merge-%j.log" \
    --export="ALL,NIGHTLY_STEP=merge,NIGHTLY_RUN=$run" "${sbatch_args[@]}" "$self" >"$run/logs/merge.jobid" ||
    status=$?
  local job
  job=$(cut -d';' -f1 <"$run/logs/merge.jobid")
  echo "merge job $job" >&2
  return "$status"
}

# Array tasks $2 (e.g. 0-15, or 3,7) of run $1; prints the array's job id.
submit_shards() {
  local run="$1" tasks="$2"
  source "$run/campaign.env"
  sbatch --parsable --array="$tasks" --job-name=convcheck-nightly --cpus-per-task="$CPUS" --time="$TIME_LIMIT" \
    --chdir="$run" --output="$run/logs/shard-%a.log" --export="ALL,NIGHTLY_STEP=shard,NIGHTLY_RUN=$run" \
    "${sbatch_args[@]}" "$self" | cut -d';' -f1
}

existing_run() {
  [[ -f "${1:-}/campaign.env" ]] || fail "run directory '${1:-}' has no campaign.env"
  cd "$1" && pwd
}

case "${1:-submit}" in
  merge)
    run=$(existing_run "${2:-}")
    submit_merge "$run"
    exit ;;
  rerun)
    run=$(existing_run "${2:-}")
    [[ "${3:-}" =~ ^[0-9,-]+$ ]] || fail "rerun needs the shards to run again, e.g. 3,7"
    array=$(submit_shards "$run" "$3")
    echo "shard job $array (shards $3) in $run" >&2
    submit_merge "$run" "$array"
    exit ;;
  submit) ;;
  *) fail "usage: deploy/slurm-nightly.sh [submit | merge RUN_DIR | rerun RUN_DIR SHARDS]" ;;
esac

SHARED=${SHARED:?set SHARED to a directory every node sees}
CONVCHECK=${CONVCHECK:-$(command -v convcheck || true)}
[[ -n "$CONVCHECK" ]] || fail "set CONVCHECK to the convcheck binary (none on PATH)"
CONVCHECK=$(realpath "$CONVCHECK")
[[ -x "$CONVCHECK" ]] || fail "CONVCHECK $CONVCHECK is not an executable"
SEED=${SEED:-$(date +%Y%m%d)}
SHARDS=${SHARDS:-16}
[[ "$SHARDS" =~ ^[1-9][0-9]*$ ]] || fail "SHARDS '$SHARDS' is not a positive number"
BUDGET=${BUDGET:---time 3600}
[[ "$BUDGET" =~ --(time|cases) ]] || fail "BUDGET '$BUDGET' has neither --time nor --cases"
if [[ -z "${TIME_LIMIT:-}" ]]; then
  TIME_LIMIT=02:00:00
  [[ "$BUDGET" =~ --time[=\ ]+([0-9]+) ]] && TIME_LIMIT=$((BASH_REMATCH[1] / 60 + 20)) # minutes
fi
mkdir -p "$SHARED/runs"
run=$(mktemp -d "$SHARED/runs/$SEED-$(date +%H%M%S).XXXX")
[[ "$run" != *,* ]] || fail "run directory $run has a comma, which sbatch --export cannot pass"
mkdir -p "$run/reports" "$run/logs" "${CORPUS:=$SHARED/findings}"
for name in CONVCHECK SEED SHARDS BUDGET FUZZ_ARGS CPUS TIME_LIMIT CORPUS ALLOW_PARTIAL CAMPAIGN; do
  case "$name" in
    CPUS) value=${CPUS:-2} ;;
    CAMPAIGN) value=$(basename "$run") ;;
    *) value=${!name:-} ;;
  esac
  printf '%s=%q\n' "$name" "$value"
done >"$run/campaign.env"

array=$(submit_shards "$run" "0-$((SHARDS - 1))")
echo "shard job $array ($SHARDS shards) in $run" >&2
echo "$run"
submit_merge "$run" "$array"
