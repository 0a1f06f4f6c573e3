#!/bin/bash
# Memory through a night (issue 26): a campaign of every strategy (`--strategies all`: libtorch and oneDNN in each
# worker) for SECONDS (default 1200), sampling every INTERVAL seconds (default 10) the resident set of each of its
# worker processes (children of convcheck: forked workers and finding savers; /proc/PID/status VmRSS). Prints per
# window of WINDOW seconds (default 300) the largest worker resident set seen, and the campaign's own summary line.
# With recycling at its defaults (--worker-max-cases 200000, --worker-max-rss 1024) the per-window peak stays flat;
# EXTRA="--worker-max-cases 0 --worker-max-rss 0" turns it off, to see the growth it stops; STRATEGIES=onednn (or
# any list) runs fewer strategies, to see which library keeps the memory. HEAP=1 also asks each worker's allocator
# (tcmalloc, which libtorch brings) once a window, through gdb, how much of its memory the program holds and how
# much are freed pages it keeps: growth in the first is something kept alive, in the second fragmentation.
#
#   BUILD=build SECONDS_TO_RUN=1200 bench/worker_memory.sh
#   BUILD=build SECONDS_TO_RUN=1200 EXTRA="--worker-max-cases 0 --worker-max-rss 0" bench/worker_memory.sh
set -euo pipefail
build=${BUILD:-build}
seconds=${SECONDS_TO_RUN:-1200}
interval=${INTERVAL:-10}
window=${WINDOW:-300}
threads=${THREADS:-2}
heap=${HEAP:-0}
if [ "$heap" = 1 ] && ! command -v gdb >/dev/null; then echo "HEAP=1 needs gdb (apt-get install gdb)" >&2; exit 2; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$build/convcheck" fuzz --strategies "${STRATEGIES:-all}" --time "$seconds" --threads "$threads" --seed "${SEED:-26}" \
  --corpus "$out/findings" --report "$out/report.json" ${EXTRA:-} >"$out/summary.txt" 2>"$out/stderr.txt" &
campaign=$!
start=$(date +%s)
: >"$out/samples"
: >"$out/heap"
next_heap=$((window / 2))
# tcmalloc's MallocExtension_GetStats text: "MALLOC: <bytes> (<MiB> MiB) Bytes in use by application", "... Bytes in
# page heap freelist". Called from gdb between two of the worker's instructions: a diagnostic, not for CI.
heap_sample() { # PID -> "in_use_bytes page_heap_free_bytes"
  gdb -p "$1" -batch -nx -ex 'set $b = (char *) malloc(65536)' -ex 'call (void) MallocExtension_GetStats($b, 65536)' \
    -ex 'printf "%s\n", $b' -ex 'call (void) free($b)' -ex detach 2>/dev/null |
    awk '/in use by application/ { used = $2 } /page heap freelist/ { free = $3 } END { if (used) print used, free }'
}
while kill -0 "$campaign" 2>/dev/null; do
  now=$(( $(date +%s) - start ))
  for child in $(cat /proc/"$campaign"/task/*/children 2>/dev/null); do
    rss=$(awk '/^VmRSS/ {print $2}' /proc/"$child"/status 2>/dev/null || true)
    [ -n "$rss" ] && echo "$now $child $rss" >>"$out/samples"
    if [ "$heap" = 1 ] && [ "$now" -ge "$next_heap" ]; then
      sample=$(heap_sample "$child" || true)
      [ -n "$sample" ] && echo "$now $child $sample" >>"$out/heap"
    fi
  done
  [ "$now" -ge "$next_heap" ] && next_heap=$((next_heap + window))
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
if [ "$heap" = 1 ]; then
  echo "sample_s  worker  allocator_in_use_mib  allocator_free_pages_mib"
  awk '{ printf "%8d  %6d  %20.1f  %24.1f\n", $1, $2, $3 / 1048576, $4 / 1048576 }' "$out/heap"
fi
