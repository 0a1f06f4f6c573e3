#!/usr/bin/env bash
# Correct fast algorithms under their classes' bounds (issue 27; docs/bounds.md): CASES (20,000) cases of seed 1 in
# each fill (normal, mixed, exact), naive alongside, THREADS (2) workers, for
#   wino-server   oracles/outside/python/fast_server.py winograd (F(4,3), declares winograd:4 and kernel 3, stride 1,
#                 dilation 1), --focus on it
#   fft-server    oracles/outside/python/fast_server.py fft (complex64 through torch.fft), the default distribution
#   wino-plugin   build/examples/libwinograd_plugin.so (F(4,3), ABI version 2), --focus on it
#   fft-plugin    build/examples/libfft_plugin.so (forward by a radix-2 FFT in complex float), --focus on it
# Prints one line per run: name, fill, exit status (0: no finding), wall seconds, and the verdict counts of the
# fast implementation per direction (passed+weak / failed / skipped). Reports and findings go to OUT.
#
#   BUILD=build bench/fast_algorithms.sh            about an hour on 2 cores, most of it the FFT server
#   CASES=1000 ONLY=wino bench/fast_algorithms.sh   a quick look at the names containing "wino"
set -u
BUILD=${BUILD:-build}; CASES=${CASES:-20000}; THREADS=${THREADS:-2}; OUT=${OUT:-/tmp/fast_algorithms}; ONLY=${ONLY:-}
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIN=$BUILD/convcheck
[ -x "$BIN" ] || { echo "no $BIN: build convcheck first" >&2; exit 2; }
mkdir -p "$OUT"
runs=("wino-server|--strategies naive --external-server s='/usr/bin/python3 $SRC/oracles/outside/python/fast_server.py winograd' --focus s|s"
      "fft-server|--strategies naive --external-server s='/usr/bin/python3 $SRC/oracles/outside/python/fast_server.py fft'|s"
      "wino-plugin|--strategies naive --plugin s=$BUILD/examples/libwinograd_plugin.so --focus s|s"
      "fft-plugin|--strategies naive --plugin s=$BUILD/examples/libfft_plugin.so --focus s|s")
for fill in normal mixed exact; do
  for run in "${runs[@]}"; do
    IFS='|' read -r name args judged <<<"$run"
    [[ -n "$ONLY" && "$name" != *"$ONLY"* ]] && continue
    start=$(date +%s.%N)
    eval "$BIN fuzz $args --cases $CASES --threads $THREADS --seed 1 --fill $fill --corpus $OUT/findings-$name-$fill \
      --report $OUT/$name-$fill.json" >"$OUT/$name-$fill.log" 2>&1
    status=$?
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    counts=$(/usr/bin/python3 -c "
import json, sys
s = json.load(open('$OUT/$name-$fill.json'))['strategies']['$judged']['directions']
print(' '.join(f'{d}={v[\"passed\"] + v[\"weak\"]}/{v[\"failed\"]}/{v[\"skipped\"]}' for d, v in s.items()))" 2>/dev/null)
    printf '%-12s %-7s exit %s %8.1f s  %s\n' "$name" "$fill" "$status" "$seconds" "$counts"
  done
done
