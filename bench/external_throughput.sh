#!/usr/bin/env bash
# How fast convcheck checks PyTorch through oracles/torch/torch_conv.py, per case (--external: a process, and
# `import torch`, per case) and as a server (--external-server: torch imported once per worker), side by side on
# the default fuzz distribution, one worker, naive alongside (as the torch ctests run it).
#
#   bench/external_throughput.sh                    uses ${BUILD:-build}/convcheck
#   PER_CASE=40 SERVER=4000 REPEAT=3 bench/external_throughput.sh
#
# Prints, per mode and round: cases, wall seconds of the whole command (the server's includes convcheck starting it
# once to read its hello, and once in the worker), the campaign's own seconds (report elapsed_s) and both rates.
# Every case of a round is checked; a finding fails the benchmark. Exit status 0, or 2 when something is missing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="${BUILD:-build}"
[[ "$build" = /* ]] || build="$root/$build"
convcheck="$build/convcheck"
per_case="${PER_CASE:-20}" server="${SERVER:-2000}" repeat="${REPEAT:-1}"
if [[ ! -x "$convcheck" ]] || ! /usr/bin/python3 -c 'import torch, h5py' 2>/dev/null; then
  echo "bench/external_throughput.sh: needs $convcheck and /usr/bin/python3 with torch and h5py" >&2
  exit 2
fi
adapter="/usr/bin/python3 $root/oracles/torch/torch_conv.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # MODE CASES EXTERNAL...
  local mode=$1 cases=$2
  shift 2
  local start end
  start=$(date +%s.%N)
  "$convcheck" fuzz --seed 11 --cases "$cases" --threads 1 --strategies naive "$@" --corpus "$work/findings" \
    --report "$work/report.json" >/dev/null
  end=$(date +%s.%N)
  /usr/bin/python3 - "$work/report.json" "$mode" "$start" "$end" <<'PY'
import json, sys
report, mode = json.load(open(sys.argv[1])), sys.argv[2]
wall = float(sys.argv[4]) - float(sys.argv[3])
assert not report["failures"], report["failures"][:2]
print(f"{mode:<9} {report['cases']:>6} {wall:>8.2f} {report['elapsed_s']:>8.2f} {report['cases'] / wall:>9.1f} "
      f"{report['cases'] / report['elapsed_s']:>9.1f}")
PY
}

echo "mode       cases   wall s    run s  cases/s  (run) cases/s"
for ((round = 0; round < repeat; ++round)); do
  run per-case "$per_case" --external "pytorch=$adapter" --external-case-format 2
  run server "$server" --external-server "pytorch=$adapter --server"
done
