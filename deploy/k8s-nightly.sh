#!/usr/bin/env bash
# A nightly convcheck campaign on Kubernetes (deploy/k8s-nightly.yaml): creates the shards' Indexed Job, waits
# until it has ended (Complete or Failed: every shard ran, or failed, or the deadline passed), then creates the
# merge Job, waits for it, and exits with the merge's exit status (0 no finding, 1 findings, 2 not a whole
# campaign; docs/nightly.md). Run it from a CronJob's pod with a service account that may create and get Jobs and
# Pods, or from any machine with kubectl access.
#
#   IMAGE=registry.example/convcheck:2026.11 deploy/k8s-nightly.sh
#   IMAGE=... deploy/k8s-nightly.sh render      # print the two manifests filled in, create nothing
#
# Settings, from the environment, as in deploy/slurm-nightly.sh:
#   IMAGE          the image with convcheck (required)
#   CONVCHECK      convcheck's path in the image (default /usr/local/bin/convcheck)
#   CLAIM          a ReadWriteMany PersistentVolumeClaim, mounted at /shared in every pod (default convcheck-shared)
#   SEED           the campaign's seed (default: today, YYYYMMDD)
#   SHARDS         number of shards (default 16)
#   BUDGET         "--time SECONDS" (each shard) or "--cases N" (the whole campaign) (default "--time 3600")
#   FUZZ_ARGS      more arguments for convcheck fuzz (split at spaces; no quoting)
#   CPUS           CPUs of each shard, its --threads (default 2)
#   DEADLINE       seconds before Kubernetes stops the shards (default: the --time budget plus 20 minutes, else 2 h)
#   ALLOW_PARTIAL  1: merge even with shards missing or stopped early
#   RUN            the run's name: its directory /shared/runs/RUN and --campaign (default SEED-HHMMSS-XXXX, new
#                  for every campaign)
#   KUBECTL_ARGS   more kubectl arguments (e.g. "--namespace convcheck")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

: "${IMAGE:?set IMAGE to an image with convcheck}"
CONVCHECK=${CONVCHECK:-/usr/local/bin/convcheck}
CLAIM=${CLAIM:-convcheck-shared}
SEED=${SEED:-$(date +%Y%m%d)}
SHARDS=${SHARDS:-16}
BUDGET=${BUDGET:---time 3600}
FUZZ_ARGS=${FUZZ_ARGS:-}
CPUS=${CPUS:-2}
RUN=${RUN:-$SEED-$(date +%H%M%S)-$(head -c 2 /dev/urandom | od -An -tx1 | tr -d ' \n')}
if [[ -z "${DEADLINE:-}" ]]; then
  DEADLINE=7200
  [[ "$BUDGET" =~ --time[=\ ]+([0-9]+) ]] && DEADLINE=$((BASH_REMATCH[1] + 1200))
fi
ALLOW_PARTIAL=$([[ "${ALLOW_PARTIAL:-}" == 1 ]] && echo --allow-partial || true)
[[ "$SHARDS" =~ ^[1-9][0-9]*$ ]] || { echo "k8s-nightly: SHARDS '$SHARDS' is not a positive number" >&2; exit 2; }
[[ "$RUN" =~ ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$ ]] || { echo "k8s-nightly: RUN '$RUN' is not a DNS label" >&2; exit 2; }

render() {
  local text name
  text=$(<"$here/k8s-nightly.yaml")
  for name in IMAGE CONVCHECK CLAIM SEED SHARDS BUDGET FUZZ_ARGS CPUS DEADLINE ALLOW_PARTIAL RUN; do
    text=${text//"\${$name}"/${!name}}
  done
  printf '%s\n' "$text"
}

# Document $1 (0: the shards' Job, 1: the merge's) of the rendered manifests.
document() { render | awk -v want="$1" '/^---$/ { n++; next } n == want'; }

kubectl_=(kubectl)
eval "kubectl_+=(${KUBECTL_ARGS:-})"

# Waits until Job $1 has the condition Complete or Failed.
wait_for_end() {
  local state
  until state=$("${kubectl_[@]}" get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}') &&
    [[ "$state" =~ Complete|Failed ]]; do
    sleep 20
  done
}

case "${1:-run}" in
  render) render; exit 0 ;;
  run) ;;
  *) echo "usage: deploy/k8s-nightly.sh [run | render]" >&2; exit 2 ;;
esac
echo "run $RUN: $SHARDS shards, results in /shared/runs/$RUN on claim $CLAIM" >&2
document 0 | "${kubectl_[@]}" create -f -
wait_for_end "convcheck-nightly-$RUN"
document 1 | "${kubectl_[@]}" create -f -
wait_for_end "convcheck-nightly-merge-$RUN"
status=$("${kubectl_[@]}" get pods -l "job-name=convcheck-nightly-merge-$RUN" \
  -o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.exitCode}')
echo "merge exited ${status:-?}" >&2
exit "${status:-2}"
