#!/usr/bin/env bash
# JAX on XLA:CPU through oracles/jax/jax_server.py, in the venv scripts/install-deps.sh jax makes
# (docs/libraries/jax.md). XLA compiles every case (about a second each on the project's 2-core VM: the cost of this
# room), so the campaigns here are small:
#   1. `jax` and `jax_eigen` on CASES focused cases each (fuzz --focus): no mismatch, every direction judged on most
#      of them, the rest held back for the known XLA bugs (oracles/jax/known_bugs.cpp) and nothing else;
#   2. `jax_ynn` on two 2-D convolutions with 24 channels, which XLA puts in a YNNPACK fusion: every direction judged,
#      no mismatch;
#   3. an error planted in the server's result (CONVCHECK_JAX_PLANT_ERROR=1) is found: exit status 1;
#   4. the XLA bug its known-bug row holds back still shows when run (--run-held-back): exit status 1 on its reduced
#      case; a pass there says XLA fixed it (the test then fails, asking for the row's range to be closed).
#   5. the reproducers `repro --emit jax` writes of those findings (tests/interop/finds.sh, reproduces): run with
#      the stack alone, exit 1 on the planted error and 0 without the plant, and exit 1 on each held-back bug.
# usage: jax_server.sh CONVCHECK SOURCE_DIR WORKDIR [CASES]
# Exits 77 (ctest: skipped) where venvs/jax is absent.
set -euo pipefail
source "$(dirname "$0")/finds.sh"
convcheck=$1 source_dir=$2 workdir=$3 cases=${4:-8}
python=$source_dir/venvs/jax/bin/python
if ! "$python" -c "import jax, jaxlib" 2>/dev/null; then
  echo "skipped: $python cannot import jax and jaxlib (scripts/install-deps.sh jax)"
  exit 77
fi
rm -rf "$workdir" && mkdir -p "$workdir"

for strategy in jax jax_eigen; do
  "$convcheck" fuzz --seed 3 --cases "$cases" --threads 2 --strategies "naive,$strategy" --focus "$strategy" \
    --corpus "$workdir/findings-$strategy" --report "$workdir/$strategy.json"
  /usr/bin/python3 - "$workdir/$strategy.json" "$strategy" "$cases" <<'PY'
import json, sys
report, name, cases = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
strategy = report["strategies"][name]
assert report["cases"] == cases and strategy["failed"] == 0 and not report["failures"], report["failures"][:3]
for direction, counts in strategy["directions"].items():
    judged, held = counts["passed"] + counts["weak"], counts.get("held_back", 0)
    assert set(counts.get("held_back_bugs", {})) <= {"xla-cpu-eigen-negative-low-padding", "xla-cpu-ynn-empty-crop"}, counts
    assert not counts["skip_reasons"], (direction, counts["skip_reasons"])
    assert judged + held == cases and judged >= cases // 2, (direction, counts)
    print(f"{name} {direction}: judged on {judged} of {cases} cases ({counts['passed']} passed, {counts['weak']} weak), "
          f"{held} held back, 0 failed")
print(f"{name}: in {report['elapsed_s']:.1f} s: {strategy['implementation']['description']}")
PY
done

# YNNPACK: convolutions XLA takes into a __ynn_fusion (2-D, f32, more than 16 channels), every direction judged.
"$convcheck" check mb2ic24ih7iw7oc24kh3kw3pt1pb1pl1pr1 mb1ic32ih6iw9oc20kh3kw3pt1pb1pl1pr1_nhwc_hwio --full-check --strategies naive,jax_ynn \
  --corpus "$workdir/findings-jax_ynn" --report "$workdir/jax_ynn.json"
/usr/bin/python3 - "$workdir/jax_ynn.json" <<'PY'
import json, sys
strategy = json.load(open(sys.argv[1]))["strategies"]["jax_ynn"]
for direction, counts in strategy["directions"].items():
    assert counts["passed"] + counts["weak"] == 2 and counts["failed"] == 0, (direction, counts)
print("jax_ynn: every direction of both YNNPACK convolutions judged, 0 failed")
PY

# The planted error: every output's first element changed. Found, and convcheck exits 1.
finds "$workdir/planted.txt" "FAILED jax output" "the planted error was not found" \
  env CONVCHECK_JAX_PLANT_ERROR=1 "$convcheck" fuzz --seed 3 --cases 3 --threads 1 --strategies naive,jax \
  --no-shrink --focus jax --corpus "$workdir/findings-planted" --report "$workdir/planted.json"
echo "the planted error: found (exit 1): $(grep -c '^FAILED jax output' "$workdir/planted.txt") output finding(s) listed"
reproduces jax "$python" "$workdir/findings-planted" 1 CONVCHECK_JAX_PLANT_ERROR=1
reproduces jax "$python" "$workdir/findings-planted" 0

# The held-back bug, run: two images, the height cropped by one at the top and padded by one at the bottom; Eigen
# reads the padding row from the next image (docs/findings/jax_eigen_negative_padding.py shows it without convcheck).
version=$("$python" -c "import jaxlib; print(jaxlib.__version__)")
finds "$workdir/held_back.txt" "FAILED jax output" "the held-back XLA bug did not show in jaxlib $version: if this \
version fixed it, end the range of xla-cpu-eigen-negative-low-padding in oracles/jax/known_bugs.cpp" \
  "$convcheck" check mb2ic2ih2iw4oc1kh1kw4pt-1pb1 --strategies naive,jax --no-shrink --run-held-back \
  --corpus "$workdir/findings-held-back"
echo "the held-back negative-padding bug: still shows in jaxlib $version (exit 1)"
reproduces jax "$python" "$workdir/findings-held-back" 1
