#!/usr/bin/env bash
# OpenVINO through oracles/openvino/openvino_server.py, in the venv scripts/install-deps.sh openvino makes
# (docs/libraries/openvino.md):
#   1. openvino on CASES focused cases (fuzz --focus): no mismatch, the forward direction judged on most of them, the
#      gradients skipped saying why (the server declares output only), what the known-bug rows hold back counted apart
#      (oracles/openvino/known_bugs.cpp);
#   2. openvino_bf16: where the CPU plugin does not honour the bf16 hint (no AVX-512) it declares nothing, and a
#      focused run says so (exit 2, "formats: none"); where it does, CASES focused cases aimed at its bf16 rows with
#      no mismatch;
#   3. an error planted in the adapter's result (CONVCHECK_OV_PLANT_ERROR=1) is found: exit status 1;
#   4. the OpenVINO bugs the known-bug rows hold back still show when run (--run-held-back): exit status 1 on a 1x1
#      deconv whose output_padding restores its size and, on a CPU without AVX-512 (the other two rows' scope), on a
#      bf16 conv and a padded one-channel conv; a pass there says a bug is fixed (the test then fails, asking for the
#      row's range to be closed).
#   5. the reproducers `repro --emit openvino` writes of those findings (tests/interop/finds.sh, reproduces): run with
#      the stack alone, exit 1 on the planted error and 0 without the plant, and exit 1 on each held-back bug.
# usage: openvino_server.sh CONVCHECK SOURCE_DIR WORKDIR [CASES]
# Exits 77 (ctest: skipped) where venvs/openvino is absent.
set -euo pipefail
source "$(dirname "$0")/finds.sh"
convcheck=$1 source_dir=$2 workdir=$3 cases=${4:-150}
python=$source_dir/venvs/openvino/bin/python
if ! "$python" -c "import openvino" 2>/dev/null; then
  echo "skipped: $python cannot import openvino (scripts/install-deps.sh openvino)"
  exit 77
fi
rm -rf "$workdir" && mkdir -p "$workdir"
avx512=$(grep -qw avx512bw /proc/cpuinfo && echo true || echo false)

focused() { # STRATEGY [OPTION...]: a focused campaign, then its report checked
  local strategy=$1
  "$convcheck" fuzz --seed 7 --cases "$cases" --threads 2 --strategies "naive,$strategy" \
    --focus "$strategy" --corpus "$workdir/findings-$strategy" --report "$workdir/$strategy.json" "${@:2}"
  /usr/bin/python3 - "$workdir/$strategy.json" "$strategy" "$cases" <<'PY'
import json, sys
report, name, cases = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
strategy = report["strategies"][name]
assert report["cases"] == cases and strategy["failed"] == 0 and not report["failures"], report["failures"][:3]
output = strategy["directions"]["output"]
judged = output["passed"] + output["weak"]
# what may keep a forward result from being judged: a negative pad (the server declares crops so that it is offered
# deconvs whose output_padding passes their end padding), float32 problems under the bf16 hint, the held-back bug
allowed = ("unsupported by the server: negative padding: OpenVINO's pads_begin and pads_end are non-negative",
           "unsupported by the server: float32 tensors under the bf16 inference precision hint")
assert all(reason.startswith(allowed) for reason in output["skip_reasons"]), output["skip_reasons"]
held = output.get("held_back", 0)
rows = {"openvino-bf16-rounding-avx2", "openvino-single-channel-padding", "openvino-deconv-1x1-output-padding",
        "openvino-bf16-daz"}
assert set(output.get("held_back_bugs", {})) <= rows, output
assert judged >= 0.6 * cases, (judged, output["skip_reasons"])
for direction in ("grad_data", "grad_weight"):
    counts = strategy["directions"][direction]
    assert counts["skipped"] == cases, counts
    assert any("is not supported (directions: output)" in reason for reason in counts["skip_reasons"]), counts
print(f"{name}: output judged on {judged} of {cases} cases ({output['passed']} passed, {output['weak']} weak), "
      f"{held} held back, 0 failed, in {report['elapsed_s']:.1f} s: {strategy['implementation']['description']}")
PY
}

focused openvino

if $avx512; then
  # It declares float32 only because its bf16 rows sum in it, and answers float32 problems unsupported: aimed at its rows.
  focused openvino_bf16 --rows bf16_f32acc,bf16_to_f32
else
  status=0
  "$convcheck" fuzz --seed 7 --cases 20 --threads 1 --strategies naive,openvino_bf16 \
    --focus openvino_bf16 >"$workdir/bf16.txt" 2>&1 || status=$?
  if [[ $status != 2 ]] || ! grep -q "formats: none" "$workdir/bf16.txt"; then
    echo "openvino_server.sh: openvino_bf16 declared something on a CPU without AVX-512 (exit $status):" >&2
    cat "$workdir/bf16.txt" >&2
    exit 1
  fi
  echo "openvino_bf16: declares nothing on this CPU (no AVX-512: the plugin ignores the bf16 hint), exit 2"
fi

# The planted error: every output's first element changed. Found, and convcheck exits 1.
finds "$workdir/planted.txt" "FAILED openvino output" "the planted error was not found" \
  env CONVCHECK_OV_PLANT_ERROR=1 "$convcheck" fuzz --seed 7 --cases 20 --threads 2 --strategies naive,openvino \
  --no-shrink --focus openvino \
  --corpus "$workdir/findings-planted" --report "$workdir/planted.json"
echo "the planted error: found (exit 1): $(grep -c '^FAILED openvino output' "$workdir/planted.txt")" \
  "output finding(s) listed"
reproduces openvino "$python" "$workdir/findings-planted" 1 CONVCHECK_OV_PLANT_ERROR=1
reproduces openvino "$python" "$workdir/findings-planted" 0

# The held-back bugs, run (each shown without convcheck by a script of docs/findings/).
version=$("$python" -c "import openvino; print(openvino.get_version().split('-')[0])")
held_back() { # ID DESCRIPTOR WHY: the descriptor, run with the hold-back lifted, must still fail
  local status=0
  "$convcheck" check "$2" --strategies naive,openvino --no-shrink --run-held-back \
    --corpus "$workdir/findings-$1" >"$workdir/$1.txt" 2>&1 || status=$?
  if [[ $status != 1 ]] || ! grep -q "FAILED openvino output" "$workdir/$1.txt"; then
    echo "openvino_server.sh: the held-back bug $1 did not show in openvino $version (exit $status): if this" \
      "version fixed it, end the range of $1 in oracles/openvino/known_bugs.cpp" >&2
    cat "$workdir/$1.txt" >&2
    exit 1
  fi
  echo "the held-back bug $1: still shows in openvino $version (exit 1): $3"
  reproduces openvino "$python" "$workdir/findings-$1" 1
}
# 256 bf16 outputs of 3x3 taps over 4 channels: about a quarter end between a bfloat16 and the next even one, which
# the AVX2 emulation truncates
# a 1-tap deconv at stride 1, pads_begin 2 and output_padding 2 (dilation 3 allows it): its output is not moved
held_back openvino-deconv-1x1-output-padding mb1ic2iw7oc2kw1dlw3pl2opw2_deconv "output not moved by pads_begin"
$avx512 && exit 0 # the other two rows are of CPUs without AVX-512
held_back openvino-bf16-rounding-avx2 mb1ic4ih8iw8oc4kh3kw3_bf16:bf16:bf16:f32 "bf16 results truncated"
# a 1x1 conv of one channel padded by 3 at the end of the width: the padded columns read the next row's data
held_back openvino-single-channel-padding mb1ic1ih8iw6oc1kh1kw1pr3 "padded columns not zero"
