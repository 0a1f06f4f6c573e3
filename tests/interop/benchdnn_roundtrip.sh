#!/usr/bin/env bash
# `repro --emit benchdnn --out FILE` reads back: for generated problems of the default distribution (convs and
# deconvs, every rank, layout and format, crops and output padding), saved as case files, each line the writer prints
# (environment prefix, taskset -c 0, ./benchdnn --conv|--deconv, options, descriptor) is read by `check --format benchdnn --batch
# FILE` as the problem benchdnn runs: the case's own, or the one the writer's note names where benchdnn derives
# another end padding (`check --list` prints what it read). A case benchdnn cannot spell is refused with a reason.
# usage: benchdnn_roundtrip.sh CONVCHECK WORKDIR [CASES]
set -euo pipefail
convcheck=$1 workdir=$2 cases=${3:-300}
rm -rf "$workdir" && mkdir -p "$workdir/cases"
"$convcheck" configs --seed 7 --cases "$cases" > "$workdir/descriptors.txt"
mapfile -t descriptors < "$workdir/descriptors.txt"
"$convcheck" corpus add "${descriptors[@]}" "$workdir/cases" > /dev/null
refused=0 written=0
for case_file in $(find "$workdir/cases" -name '*.h5' | sort); do
  name=$(basename "$case_file" .h5)
  if ! "$convcheck" repro "$case_file" --emit benchdnn --out "$workdir/$name.benchdnn" 2> "$workdir/$name.err"; then
    grep -q -E "benchdnn sums|a crop at the beginning|cannot spell" "$workdir/$name.err" ||
      { echo "benchdnn_roundtrip.sh: --emit benchdnn refused $case_file for another reason:"; cat "$workdir/$name.err"; exit 1; }
    refused=$((refused + 1))
    continue
  fi
  written=$((written + 1))
  # What each line must read back as: the note's descriptor where benchdnn derives another end padding, else the case's.
  /usr/bin/python3 - "$workdir/$name.benchdnn" >> "$workdir/expected.txt" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
case = re.match(r"# .*: (\S+)$", lines[0]).group(1)
expected = case
for line in lines:
    note = re.search(r"(?:reads back as |from the output size: )(\S+?)( here,|,)", line)
    if note:
        expected = note.group(1)
    if not line.startswith("#"):
        print(expected)
PY
  grep -v '^#' "$workdir/$name.benchdnn" >> "$workdir/lines.txt"
done
"$convcheck" check --format benchdnn --batch "$workdir/lines.txt" --list > "$workdir/read.txt"
# A case's lines (one per direction) are runs of one problem, which `check` judges once: each problem once, in the
# order first read (core/problem/benchdnn_file.hpp).
awk '!seen[$0]++' "$workdir/expected.txt" > "$workdir/expected_problems.txt"
if ! diff -u --label expected "$workdir/expected_problems.txt" --label "read back" "$workdir/read.txt" | head -40; then
  echo "benchdnn_roundtrip.sh: lines read back as other problems (above)" >&2
  exit 1
fi
echo "benchdnn_roundtrip: $(wc -l < "$workdir/lines.txt") lines of $written cases read back as written" \
  "($refused cases refused: benchdnn cannot spell them)"
