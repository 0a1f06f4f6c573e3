#!/usr/bin/env bash
# oneDNN's harness_conv_dw_bfloat16 (a verbatim copy, tests/data/benchdnn/conv/) end to end through `check --format
# benchdnn --batch`: its includes read, its options applied, one shard of its problems through every default strategy
# with no mismatch, the runs benchdnn makes and those in scope as the reader counts them, the post-ops runs skipped
# under one reason, and the training rows (f32:bf16:bf16, bf16:f32:bf16) judged by the loop strategies.
# usage: benchdnn_harness.sh CONVCHECK SOURCE_DIR WORKDIR
set -euo pipefail
convcheck=$1 source=$2 workdir=$3
rm -rf "$workdir" && mkdir -p "$workdir"
harness=$source/tests/data/benchdnn/conv/harness_conv_dw_bfloat16
status=0
"$convcheck" check --format benchdnn --batch "$harness" --shard 0/30 --full-check --threads 2 \
  --report "$workdir/r.json" --corpus "$workdir/findings" > "$workdir/out.txt" 2>&1 || status=$?
cat "$workdir/out.txt"
[ "$status" -eq 0 ] || { echo "benchdnn_harness.sh: exit $status, not 0"; exit 1; }
grep -qF "$harness: benchdnn makes 1092 runs (21 files read); 552 in convcheck's scope, judged as 364 problems" \
  "$workdir/out.txt" || { echo "benchdnn_harness.sh: not the runs benchdnn makes"; exit 1; }
grep -qF "$harness: skipped 540 runs: --attr-post-ops (540)" "$workdir/out.txt" ||
  { echo "benchdnn_harness.sh: not the skip summary"; exit 1; }
[ "$(grep -c "skipped" "$workdir/out.txt")" -lt 10 ] || { echo "benchdnn_harness.sh: a warning per line"; exit 1; }
/usr/bin/python3 - "$workdir/r.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["cases"] == 13, report["cases"]  # problems 0, 30, ..., 360 of 364
for strategy in ("naive", "direct", "im2col", "layout", "nhwc_ohwi"):
    counts = report["strategies"][strategy]
    assert counts["passed"] + counts["weak"] == 39 and counts["skipped"] == 0, (strategy, counts)
PY
echo "benchdnn_harness.sh: ok"
