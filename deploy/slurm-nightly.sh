#!/usr/bin/env bash
# A nightly convcheck campaign as a Slurm job array: shard I of N runs on array task I, all shards share one
# corpus directory (case files are written atomically, so concurrent shards never clobber each other), and a
# dependent job merges the shard reports.
#
#   sbatch --export=ALL,SHARED=/shared/convcheck deploy/slurm-nightly.sh
#
#SBATCH --job-name=convcheck-nightly
#SBATCH --array=0-15
#SBATCH --cpus-per-task=2
#SBATCH --time=02:00:00
#SBATCH --output=%x-%A_%a.log
set -euo pipefail

SHARED=${SHARED:?set SHARED to a directory every node sees}
SEED=${SEED:-$(date +%Y%m%d)}            # one seed per night: every shard runs the same campaign
SHARDS=${SLURM_ARRAY_TASK_COUNT:-16}
RUN="$SHARED/runs/$SEED"
mkdir -p "$RUN/reports" "$SHARED/findings"

convcheck fuzz --seed "$SEED" --time 3600 --threads "${SLURM_CPUS_PER_TASK:-2}" \
  --shard "$SLURM_ARRAY_TASK_ID/$SHARDS" \
  --corpus "$SHARED/findings" \
  --report "$RUN/reports/shard-$SLURM_ARRAY_TASK_ID.json" || true   # exit 1 means findings: the merge reports them

# The last task to finish merges (or submit this line as its own job with --dependency=afterany:$SLURM_ARRAY_JOB_ID).
if [ "$(ls "$RUN/reports"/shard-*.json | wc -l)" -eq "$SHARDS" ]; then
  convcheck report merge "$RUN/reports"/shard-*.json --report "$RUN/merged.json" --junit "$RUN/merged.xml"
fi
