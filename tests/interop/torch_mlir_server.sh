#!/usr/bin/env bash
# torch-mlir through oracles/torch_mlir/torch_mlir_server.py, in the venv scripts/install-deps.sh torch_mlir makes
# (docs/libraries/torch_mlir.md):
#   1. CASES focused cases (fuzz --focus torch_mlir): no mismatch, the forward direction judged on most of them, the
#      gradients judged on some (a conv's, through the direct aten.convolution_backward lowering) and every skip in
#      torch-mlir's own words (a transposed conv's gradient: "unimplemented: transposed convolution backward");
#   2. an error planted in the adapter's result (CONVCHECK_TORCH_MLIR_PLANT_ERROR=1) is found on one problem: exit 1;
#   3. the torch-mlir bug its known-bug row holds back (oracles/torch_mlir/known_bugs.cpp: a depthwise transposed conv
#      does not compile) still shows when run (--run-held-back): exit status 1; a pass there says the bug is fixed
#      (the test then fails, asking for the row's range to be closed).
# The server runs as the strategy `torch_mlir`, its adapter row (oracles/torch_mlir/adapters.cpp), as a user runs it.
# torch-mlir compiles every problem (torch.export and its pipelines, about a second a case here), so CASES stays in
# the tens and a finding is not shrunk (convcheck shrink on the saved case does it by hand).
#   4. the reproducers `repro --emit torch_mlir` writes of those findings (tests/interop/finds.sh, reproduces): run with
#      the stack alone, exit 1 on the planted error and 0 without the plant, and exit 1 on each held-back bug.
# usage: torch_mlir_server.sh CONVCHECK SOURCE_DIR WORKDIR [CASES]
# Exits 77 (ctest: skipped) where venvs/torch_mlir is absent.
set -euo pipefail
source "$(dirname "$0")/finds.sh"
convcheck=$1 source_dir=$2 workdir=$3 cases=${4:-20}
python=$source_dir/venvs/torch_mlir/bin/python
if ! "$python" -c "import torch_mlir.fx" 2>/dev/null; then
  echo "skipped: $python cannot import torch_mlir.fx (scripts/install-deps.sh torch_mlir)"
  exit 77
fi
rm -rf "$workdir" && mkdir -p "$workdir"

"$convcheck" fuzz --seed 3 --cases "$cases" --threads 1 --strategies naive,torch_mlir --focus torch_mlir \
  --no-shrink \
  --corpus "$workdir/findings" --report "$workdir/torch_mlir.json"
/usr/bin/python3 - "$workdir/torch_mlir.json" "$cases" <<'PY'
import json, sys
report, cases = json.load(open(sys.argv[1])), int(sys.argv[2])
strategy = report["strategies"]["torch_mlir"]
assert report["cases"] == cases and strategy["failed"] == 0 and not report["failures"], report["failures"][:3]
# torch-mlir's own words for what it cannot do (oracles/torch_mlir/torch_mlir_server.py): a transposed conv's gradient
allowed = ("skipped by the server: torch-mlir's direct aten.convolution_backward lowering: 'unimplemented: "
           "transposed convolution backward'",)
judged = {}
for direction, counts in strategy["directions"].items():
    assert all(reason.startswith(allowed) for reason in counts["skip_reasons"]), counts["skip_reasons"]
    rows = {"torch-mlir-depthwise-transposed-conv", "torch-mlir-3d-depthwise-conv",
            "torch-mlir-transposed-crop-output-padding"}  # oracles/torch_mlir/known_bugs.cpp
    assert set(counts.get("held_back_bugs", {})) <= rows, counts
    judged[direction] = counts["passed"] + counts["weak"]
assert judged["output"] >= 0.5 * cases, (judged, strategy["directions"]["output"]["skip_reasons"])
assert judged["grad_data"] > 0 and judged["grad_weight"] > 0, judged
print(f"torch_mlir: judged {judged} of {cases} cases, 0 failed, in {report['elapsed_s']:.1f} s: "
      f"{strategy['implementation']['description']}")
PY

# The planted error: every output's first element changed, on a 1-D conv. Found: exit 1.
finds "$workdir/planted.txt" "FAILED torch_mlir output" "the planted error was not found" \
  env CONVCHECK_TORCH_MLIR_PLANT_ERROR=1 "$convcheck" check mb2ic4iw5oc6kw3pl1pr1 --strategies naive,torch_mlir \
  --no-shrink --corpus "$workdir/findings-planted"
echo "the planted error: found (exit 1)"
reproduces torch_mlir "$python" "$workdir/findings-planted" 1 CONVCHECK_TORCH_MLIR_PLANT_ERROR=1
reproduces torch_mlir "$python" "$workdir/findings-planted" 0

# The held-back bug, run: a 1-D depthwise transposed conv (docs/findings/torch_mlir_depthwise_transposed_conv.py shows
# it without convcheck) does not compile.
version=$("$python" -c "from importlib.metadata import version; print(version('torch-mlir'))")
finds "$workdir/held_back.txt" "expected reassociation map" "the held-back depthwise transposed conv bug did not \
show in torch-mlir $version: if this version fixed it, end the range of torch-mlir-depthwise-transposed-conv in \
oracles/torch_mlir/known_bugs.cpp" \
  "$convcheck" check g2mb1ic2iw4oc2kw3_deconv --strategies naive,torch_mlir --no-shrink \
  --run-held-back --corpus "$workdir/findings-held-back"
echo "the held-back depthwise transposed conv bug: still shows in torch-mlir $version (exit 1)"
reproduces torch_mlir "$python" "$workdir/findings-held-back" 1
