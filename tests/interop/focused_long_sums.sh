#!/usr/bin/env bash
# Long reductions reached by --focus alone (issue 39): tests/interop/long_sum_server.py, a forward server whose
# float32 accumulator turns to its storage format past a threshold, declares float32 and its format, and a campaign
# focused on it, no rows aimed, finds the change within 500 cases in the default fill, for bfloat16 past 256 terms and
# float16 past 2,048 (the focused draw stretches one conv in 3 past 256 or 2,048 terms, core/run/focus.cpp); the same
# server without the change passes the same campaign.
# usage: focused_long_sums.sh CONVCHECK SOURCE_DIR WORKDIR
set -euo pipefail
source "$(dirname "$0")/finds.sh"
convcheck=$1 source_dir=$2 workdir=$3
rm -rf "$workdir" && mkdir -p "$workdir"
for planted in "bfloat16 256" "float16 2048"; do
  name=${planted// /_}
  server="s=/usr/bin/python3 $source_dir/tests/interop/long_sum_server.py $planted"
  focused=(fuzz --seed 1 --cases 500 --threads 2 --strategies naive --external-server "$server" --focus s --no-shrink
           --max-saved 1)
  finds "$workdir/$name.txt" "FAILED s output" "the $planted accumulator change was not found in 500 focused cases" \
    "$convcheck" "${focused[@]}" --corpus "$workdir/$name"
  echo "$planted planted: $(grep '^s  *output' "$workdir/$name.txt")"
  LONG_SUM_CORRECT=1 "$convcheck" "${focused[@]}" --corpus "$workdir/$name-correct" > "$workdir/$name-correct.txt" 2>&1 ||
    { echo "focused_long_sums.sh: the correct $planted server failed:"; cat "$workdir/$name-correct.txt"; exit 1; }
  echo "$planted correct: $(grep '^s  *output' "$workdir/$name-correct.txt")"
done
