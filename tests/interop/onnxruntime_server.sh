#!/usr/bin/env bash
# ONNX Runtime through oracles/onnxruntime/onnxruntime_server.py, in the venv scripts/install-deps.sh onnxruntime
# makes (docs/libraries/onnxruntime.md):
#   1. each strategy (onnxruntime, onnxruntime_nchwc) on CASES focused cases (fuzz --focus): no mismatch, the
#      forward direction judged on most of them, the gradients skipped saying why (the server declares output only);
#   2. an error planted in the adapter's result (CONVCHECK_ORT_PLANT_ERROR=1) is found: exit status 1;
#   3. the ONNX Runtime bug its known-bug row holds back (oracles/onnxruntime/known_bugs.cpp) is counted as held back
#      in the campaign, and still shows when run (--run-held-back): exit status 1 on its shrunk case; a pass there
#      says the bug is fixed (the test then fails, asking for the row's range to be closed).
#   4. the reproducers `repro --emit onnxruntime` writes of those findings (tests/interop/finds.sh, reproduces): run with
#      the stack alone, exit 1 on the planted error and 0 without the plant, and exit 1 on each held-back bug.
# usage: onnxruntime_server.sh CONVCHECK SOURCE_DIR WORKDIR [CASES]
# Exits 77 (ctest: skipped) where venvs/onnxruntime is absent.
set -euo pipefail
source "$(dirname "$0")/finds.sh"
convcheck=$1 source_dir=$2 workdir=$3 cases=${4:-300}
python=$source_dir/venvs/onnxruntime/bin/python
if ! "$python" -c "import onnxruntime, onnx" 2>/dev/null; then
  echo "skipped: $python cannot import onnxruntime and onnx (scripts/install-deps.sh onnxruntime)"
  exit 77
fi
rm -rf "$workdir" && mkdir -p "$workdir"

for strategy in onnxruntime onnxruntime_nchwc; do
  "$convcheck" fuzz --seed 7 --cases "$cases" --threads 2 --strategies "naive,$strategy" --focus "$strategy" \
    --corpus "$workdir/findings-$strategy" --report "$workdir/$strategy.json"
  /usr/bin/python3 - "$workdir/$strategy.json" "$strategy" "$cases" <<'PY'
import json, sys
report, name, cases = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
strategy = report["strategies"][name]
assert report["cases"] == cases and strategy["failed"] == 0 and not report["failures"], report["failures"][:3]
output = strategy["directions"]["output"]
judged = output["passed"] + output["weak"]
# what may keep a forward result from being judged: a negative ONNX pad (onnxruntime declares crops so that it is
# offered deconvs whose output_padding passes their end padding), the held-back ONNX Runtime bug (its own count)
allowed = ("unsupported by the server: negative padding: ONNX's pads are >= 0",)
assert all(reason.startswith(allowed) for reason in output["skip_reasons"]), output["skip_reasons"]
held = output.get("held_back", 0)
assert set(output.get("held_back_bugs", {})) <= {"onnxruntime-convtranspose-output-padding"}, output
assert name == "onnxruntime" or held == 0, output
assert judged >= 0.7 * cases, (judged, output["skip_reasons"])
for direction in ("grad_data", "grad_weight"):
    counts = strategy["directions"][direction]
    assert counts["skipped"] == cases, counts
    assert any("is not supported (directions: output)" in reason for reason in counts["skip_reasons"]), counts
print(f"{name}: output judged on {judged} of {cases} cases ({output['passed']} passed, {output['weak']} weak), "
      f"{held} held back, 0 failed, in {report['elapsed_s']:.1f} s: {strategy['implementation']['description']}")
PY
done

# The planted error: every output's first element changed. Found, and convcheck exits 1.
finds "$workdir/planted.txt" "FAILED onnxruntime output" "the planted error was not found" \
  env CONVCHECK_ORT_PLANT_ERROR=1 "$convcheck" fuzz --seed 7 --cases 40 --threads 2 --strategies naive,onnxruntime \
  --no-shrink --focus onnxruntime \
  --corpus "$workdir/findings-planted" --report "$workdir/planted.json"
echo "the planted error: found (exit 1): $(grep -c '^FAILED onnxruntime output' "$workdir/planted.txt")" \
  "output finding(s) listed"
reproduces onnxruntime "$python" "$workdir/findings-planted" 1 CONVCHECK_ORT_PLANT_ERROR=1
reproduces onnxruntime "$python" "$workdir/findings-planted" 0

# The held-back bug, run: ONNX Runtime 1.28 to 1.32 refuse this ConvTranspose (output_padding 1 >= stride 1,
# dilation 2; docs/findings/onnxruntime_convtranspose_output_padding.py shows it without convcheck).
version=$("$python" -c "import onnxruntime; print(onnxruntime.__version__)")
finds "$workdir/held_back.txt" "output_padding (1) may be too large for stride (1)" "the held-back output_padding bug \
did not show in onnxruntime $version: if this version fixed it, end the range of \
onnxruntime-convtranspose-output-padding in oracles/onnxruntime/known_bugs.cpp" \
  "$convcheck" check mb1ic1iw1oc1kw1dlw2opw1_deconv --strategies naive,onnxruntime --no-shrink --run-held-back \
  --corpus "$workdir/findings-held-back"
echo "the held-back output_padding bug: still shows in onnxruntime $version (exit 1)"
reproduces onnxruntime "$python" "$workdir/findings-held-back" 1
