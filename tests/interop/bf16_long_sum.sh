#!/usr/bin/env bash
# A campaign aimed at what a bf16 kernel computes (issue 38): tests/interop/long_sum_server.py bfloat16 256, a forward
# bf16 server whose accumulator turns bfloat16 from the 257th term on, declares float32 and bfloat16 (bf16 rows sum in
# float32), so `--focus` alone draws mostly float32 problems it declines; aimed with `--rows` at the bf16 rows, 500
# cases in the default fill find the change (exit 1), and the same server without the change passes them (exit 0).
# usage: bf16_long_sum.sh CONVCHECK SOURCE_DIR WORKDIR
set -euo pipefail
source "$(dirname "$0")/finds.sh"
convcheck=$1 source_dir=$2 workdir=$3
rm -rf "$workdir" && mkdir -p "$workdir"
server="b=/usr/bin/python3 $source_dir/tests/interop/long_sum_server.py bfloat16 256"
aimed=(fuzz --seed 1 --cases 500 --threads 2 --strategies naive --external-server "$server" --focus b
       --rows bf16_f32acc,bf16_to_f32 --no-shrink --max-saved 1)
finds "$workdir/planted.txt" "FAILED b output" "the bf16 accumulator past 256 terms was not found in 500 aimed cases" \
  "$convcheck" "${aimed[@]}" --corpus "$workdir/planted"
echo "planted: found, $(grep -c '^FAILED b output' "$workdir/planted.txt") listed; $(grep '^[0-9]* failures' "$workdir/planted.txt")"
LONG_SUM_CORRECT=1 "$convcheck" "${aimed[@]}" --corpus "$workdir/correct" > "$workdir/correct.txt" 2>&1 ||
  { echo "bf16_long_sum.sh: the correct server failed:"; cat "$workdir/correct.txt"; exit 1; }
echo "correct: $(grep '^b  *output' "$workdir/correct.txt")"
