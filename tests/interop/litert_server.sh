#!/usr/bin/env bash
# LiteRT through oracles/litert/litert_server.py, in the venv scripts/install-deps.sh litert makes
# (docs/libraries/litert.md):
#   1. each strategy (litert_xnnpack, litert_builtin, litert_reference) on CASES focused cases (fuzz --focus): no
#      mismatch, the forward direction judged on most of them, the gradients skipped saying why (the server declares
#      output only), and every other skip one of the server's stated reasons (what TFLite cannot express, an
#      operator the XNNPACK delegate leaves to the builtin kernels);
#   2. an error planted in the adapter's result (CONVCHECK_LITERT_PLANT_ERROR=1) is found: exit status 1;
#   3. the LiteRT bugs its known-bug rows hold back (oracles/litert/known_bugs.cpp) still show when run
#      (--run-held-back): the depthwise conv past 4,832 output channels times out, the two-thread CONV_2D with SAME
#      padding and a filter as large as the input fails; a pass there says the bug is fixed (the test then fails,
#      asking for the row's range to be closed).
# The servers run as the strategies of their rows (oracles/litert/adapters.cpp), as a user runs them.
#   4. the reproducers `repro --emit litert` writes of those findings (tests/interop/finds.sh, reproduces): run with
#      the stack alone, exit 1 on the planted error and 0 without the plant, and exit 1 on each held-back bug.
# usage: litert_server.sh CONVCHECK SOURCE_DIR WORKDIR [CASES]
# Exits 77 (ctest: skipped) where venvs/litert is absent.
set -euo pipefail
source "$(dirname "$0")/finds.sh"
convcheck=$1 source_dir=$2 workdir=$3 cases=${4:-300}
python=$source_dir/venvs/litert/bin/python
if ! "$python" -c "import ai_edge_litert.interpreter, flatbuffers" 2>/dev/null; then
  echo "skipped: $python cannot import ai_edge_litert and flatbuffers (scripts/install-deps.sh litert)"
  exit 77
fi
rm -rf "$workdir" && mkdir -p "$workdir"

for strategy in litert_xnnpack litert_builtin litert_reference; do
  "$convcheck" fuzz --seed 7 --cases "$cases" --threads 2 --strategies "naive,$strategy" --focus "$strategy" \
    --corpus "$workdir/findings-$strategy" --report "$workdir/$strategy.json"
  /usr/bin/python3 - "$workdir/$strategy.json" "$strategy" "$cases" <<'PY'
import json, sys
report, name, cases = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
strategy = report["strategies"][name]
assert report["cases"] == cases and strategy["failed"] == 0 and not report["failures"], report["failures"][:3]
output = strategy["directions"]["output"]
judged = output["passed"] + output["weak"]
# what TFLite cannot express (tflite_model.py), and an operator the XNNPACK delegate declines
allowed = ("unsupported by the server: grouped transposed convolution: TRANSPOSE_CONV and CONV_3D_TRANSPOSE have no",
           "unsupported by the server: dilation in a 1-D or 2-D transposed convolution:",
           "unsupported by the server: grouped 3-D convolution: CONV_3D has no groups",
           "unsupported by the server: the XNNPACK delegate did not take")
assert all(reason.startswith(allowed) for reason in output["skip_reasons"]), output["skip_reasons"]
declined = sum(count for reason, count in output["skip_reasons"].items() if "XNNPACK delegate did not" in reason)
assert name == "litert_xnnpack" or declined == 0, output
assert declined <= 0.01 * cases, (declined, output["skip_reasons"])
assert judged >= 0.6 * cases, (judged, output["skip_reasons"])
assert set(output.get("held_back_bugs", {})) <= {"litert-depthwise-wide-output-hang", "litert-denormals-off"}, output
for direction in ("grad_data", "grad_weight"):
    counts = strategy["directions"][direction]
    assert counts["skipped"] == cases, counts
    assert any("is not supported (directions: output)" in reason for reason in counts["skip_reasons"]), counts
print(f"{name}: output judged on {judged} of {cases} cases ({output['passed']} passed, {output['weak']} weak), "
      f"{declined} left by the delegate, 0 failed, in {report['elapsed_s']:.1f} s: "
      f"{strategy['implementation']['description']}")
PY
done

# The planted error: every output's first element changed. Found, and convcheck exits 1.
finds "$workdir/planted.txt" "FAILED litert_builtin output" "the planted error was not found" \
  env CONVCHECK_LITERT_PLANT_ERROR=1 "$convcheck" fuzz --seed 7 --cases 40 --threads 2 \
  --strategies naive,litert_builtin \
  --no-shrink --focus litert_builtin \
  --corpus "$workdir/findings-planted" --report "$workdir/planted.json"
echo "the planted error: found (exit 1): $(grep -c '^FAILED litert_builtin output' "$workdir/planted.txt")" \
  "output finding(s) listed"
reproduces litert "$python" "$workdir/findings-planted" 1 CONVCHECK_LITERT_PLANT_ERROR=1
reproduces litert "$python" "$workdir/findings-planted" 0

# The held-back bugs, run (docs/findings/litert_*.py show each with LiteRT alone).
version=$("$python" -c "import ai_edge_litert; print(ai_edge_litert.__version__)")
status=0
"$convcheck" check g2mb1ic2ih1iw1oc4834kh1kw1 --strategies naive,litert_builtin --external-timeout 5 --no-shrink \
  --run-held-back --corpus "$workdir/findings-hang" \
  >"$workdir/hang.txt" 2>&1 || status=$?
if [[ $status != 1 ]] || ! grep -q "timed out after 5 s" "$workdir/hang.txt"; then
  echo "litert_server.sh: the depthwise hang did not show in ai-edge-litert $version (exit $status): if this version" \
    "fixed it, end the range of litert-depthwise-wide-output-hang in oracles/litert/known_bugs.cpp" >&2
  cat "$workdir/hang.txt" >&2
  exit 1
fi
echo "the held-back depthwise hang past 4,832 output channels: still shows in ai-edge-litert $version (exit 1)"
reproduces litert "$python" "$workdir/findings-hang" 1 --timeout=10
status=0
CONVCHECK_LITERT_THREADS=2 "$convcheck" check mb1ic1iw2oc1kw2pr1 --strategies naive,litert_builtin \
  --no-shrink --run-held-back --corpus "$workdir/findings-eigen" \
  >"$workdir/eigen.txt" 2>&1 || status=$?
if [[ $status != 1 ]] || ! grep -q "FAILED litert_builtin output" "$workdir/eigen.txt"; then
  echo "litert_server.sh: the two-thread CONV_2D bug did not show in ai-edge-litert $version (exit $status): if" \
    "this version fixed it, end the range of litert-eigen-conv-same-full-filter in oracles/litert/known_bugs.cpp" >&2
  cat "$workdir/eigen.txt" >&2
  exit 1
fi
echo "the held-back two-thread CONV_2D with SAME padding and a full filter: still shows in ai-edge-litert $version" \
  "(exit 1)"
reproduces litert "$python" "$workdir/findings-eigen" 1 CONVCHECK_LITERT_THREADS=2
