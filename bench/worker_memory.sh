#!/bin/bash
# Memory through a night (issue 26): a campaign of every strategy (`--strategies all`: libtorch and oneDNN in each
# worker) for SECONDS (default 1200), sampling every INTERVAL seconds (default 10) the resident set of each of its
# worker processes (children of convcheck: forked workers and finding savers; /proc/PID/status VmRSS). Prints per
# window of WINDOW seconds (default 300) the largest worker resident set seen, and the campaign's own summary line.
# With recycling at its defaults (--worker-max-cases 200000, --worker-max-rss 1024) the per-window peak stays flat;
# EXTRA="--worker-max-cases 0 --worker-max-rss 0" turns it off, to see the growth it stops.
#
#   BUILD=build SECONDS_TO_RUN=1200 bench/worker_memory.sh
#   BUILD=build SECONDS_TO_RUN=1200 EXTRA="--worker-max-cases 0 --worker-max-rss 0" bench/worker_memory.sh
set -euo pipefail
build=${BUILD:-build}
seconds=${SECONDS_TO_RUN:-1200}
interval=${INTERVAL:-10}
window=${WINDOW:-300}
threads=${THREADS:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$build/convcheck" fuzz --strategies all --time "$seconds" --threads "$threads" --seed "${SEED:-26}" \
  --corpus "$out/findings" --report "$out/report.json" ${EXTRA:-} >"$out/summary.txt" 2>"$out/stderr.txt" &
campaign=$!
start=$(date +%s)
: >"$out/samples"
while kill -0 "$campaign" 2>/dev/null; do
  now=$(( $(date +%s) - start ))
  for child in $(cat /proc/"$campaign"/task/*/children 2>/dev/null); do
    rss=$(awk '/^VmRSS/ {print $2}' /proc/"$child"/status 2>/dev/null || true)
    [ -n "$rss" ] && echo "$now $child $rss" >>"$out/samples"
  done
  sleep "$interval"
done
wait "$campaign" || true

echo "campaign: $(head -1 "$out/summary.txt")"
grep -E '^(warning|implementations)' "$out/summary.txt" || true
echo "workers recycled: $(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['workers_recycled'])" "$out/report.json")"
echo "window_start_s  worker_processes_seen  largest_worker_rss_mib"
awk -v window="$window" '{ w = int($1 / window); if ($3 > peak[w]) peak[w] = $3; seen[w, $2] = 1 }
  END { for (k in seen) { split(k, part, SUBSEP); count[part[1]]++ }
        for (w = 0; w in peak; ++w) printf "%14d  %21d  %22.0f\n", w * window, count[w], peak[w] / 1024 }' "$out/samples"
