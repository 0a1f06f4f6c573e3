#!/usr/bin/env bash
# The sharded nightly on a real (one-node) Slurm cluster, as docs/nightly.md tells a user to run it: a campaign of
# 4 shards with a planted bug through deploy/slurm-nightly.sh, whose dependent merge job must exit 1 (findings)
# and whose merged report must equal an unsharded run of the same seed (counts, stats, failures and saved
# findings; timings aside); then the same run with one shard report deleted, whose merge must refuse (exit 2).
#   usage: slurm_nightly.sh CONVCHECK SOURCE_DIR WORK_DIR
# Exit 77 (skipped) where a Slurm cluster cannot be started here (scripts/slurm-local.sh: not root, or the
# packages missing and not installable).
set -euo pipefail
convcheck=$1 root=$2 work=$3
seed=20261124 cases=240 shards=4
fuzz_args="--strategies naive,im2col --inject pad_order --case-timeout 10"

fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work/shared" "$work/alone" && mkdir -p "$work/shared" "$work/alone"

cluster="$work/cluster"
if ! "$root/scripts/slurm-local.sh" status "$cluster" 2>/dev/null; then # started here, so stopped here
  trap '"$root/scripts/slurm-local.sh" stop "$cluster"' EXIT
fi
started=0
"$root/scripts/slurm-local.sh" start "$cluster" >/dev/null || started=$?
[[ $started -eq 77 ]] && exit 77
[[ $started -eq 0 ]] || fail "scripts/slurm-local.sh start exited $started"
export SLURM_CONF="$cluster/slurm.conf"

# The campaign, unsharded, on this machine.
alone=0
# shellcheck disable=SC2086
"$convcheck" fuzz --seed "$seed" --cases "$cases" --threads 1 $fuzz_args --corpus "$work/alone/findings" \
  --report "$work/alone/report.json" >"$work/alone/summary.txt" || alone=$?
[[ $alone -eq 1 ]] || fail "the unsharded run exited $alone, not 1: the planted bug went unfound"

# The same campaign as a Slurm job array and a dependent merge, waited for.
merge=0
run=$(CONVCHECK="$convcheck" SHARED="$work/shared" SEED="$seed" SHARDS="$shards" BUDGET="--cases $cases" CPUS=1 \
  TIME_LIMIT=10 FUZZ_ARGS="$fuzz_args" WAIT=1 "$root/deploy/slurm-nightly.sh") || merge=$?
[[ -n "$run" && -d "$run" ]] || fail "deploy/slurm-nightly.sh printed no run directory (exit $merge)"
[[ $merge -eq 1 ]] || { cat "$run"/logs/*.log >&2; fail "merge job exited $merge, not 1 (findings)"; }
job=$(cut -d';' -f1 <"$run/logs/merge.jobid")
scontrol show job "$job" | grep -q 'ExitCode=1:0' || fail "scontrol does not show merge job $job with ExitCode=1:0"
[[ $(cat "$run/merge.status") == 1 ]] || fail "merge.status is not 1"
for index in $(seq 0 $((shards - 1))); do
  [[ -s "$run/reports/shard-$index.json" ]] || fail "shard $index wrote no report"
done

# The merged report is the unsharded run's: what a user compares, timings and machine figures aside.
/usr/bin/python3 "$root/tests/deploy/same_campaign.py" "$work/alone/report.json" "$run/merged.json" "$shards" ||
  fail "the merged report is not the unsharded run's"

# One shard report gone: the merge, submitted again, refuses with one line naming the missing shard.
rm "$run/reports/shard-2.json"
merge=0
WAIT=1 "$root/deploy/slurm-nightly.sh" merge "$run" || merge=$?
[[ $merge -eq 2 ]] || fail "merge without shard 2 exited $merge, not 2"
log=$(ls -t "$run"/logs/merge-*.log | head -1)
grep -q "shard 2/4 is missing" "$log" || { cat "$log" >&2; fail "the refused merge does not name shard 2/4"; }
echo "merge without shard 2 refused: $(grep -o 'shard 2/4 is missing.*' "$log")"
