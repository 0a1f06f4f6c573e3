#!/bin/bash
# `repro --neighbours`: the failing region around a minimal case names the seam. An injected seam bug (oc_tail_fwd:
# the output-channel tail after full blocks of 16 skipped), found at 33 output channels and shrunk to 17, passes at
# 16 and fails at 18 (and across the next seams passes at 32 and 64, fails at 31 and 63), and the table shrinking stored in its
# case file, its HTML and its JSON report say the same; a seam bug below its seam (ic_small_tail: the last input
# channel left out below 16 per group), found by a 300-case fuzz and shrunk to one channel, fails at 15 and passes at 16;
# oneDNN #6035 (its corpus/upstream/ case on oneDNN 3.13, mb2ic4ih12iw6oc5kh1kw1sw2_nhwc under its avx2 cap: the
# first, mb1ic1ih3iw6oc1kh1kw1sw2_nhwc, and its whole neighbourhood pass in a process where oneDNN plans for two
# threads, the overflow landing in the second thread's part of the scratchpad) fails with 3 input channels and
# passes with 8, with stride 1 and with channels-first data; every corpus finding keeps its table.
# Usage: neighbour_table.sh CONVCHECK SOURCE_DIR WORK_DIR
set -u
convcheck=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
status=0
expect() { grep -Eq "$2" "$1" || { echo "FAIL: no line matching '$2' in $1:"; cat "$1"; status=1; }; }
"$convcheck" check --inject oc_tail_fwd --strategies naive --threads 1 --corpus "$work/seam" mb1ic1ih3oc33kh1 \
  --html "$work/seam.html" --report "$work/seam.json" > /dev/null
"$convcheck" repro "$work"/seam/oc_tail_fwd-output-*.h5 --strategies naive --neighbours > "$work/seam.txt"
expect "$work/seam.txt" '^  neighbours \(oc_tail_fwd output, each one step from the case or across a seam\):$'
expect "$work/seam.txt" '^    passed +out_channels 16 +mb1ic1iw1oc16kw1$'
expect "$work/seam.txt" '^    fails +out_channels 18 +mb1ic1iw1oc18kw1$'
expect "$work/seam.txt" '^  failing region: 20 of 23 neighbours fail; passes with out_channels 16, out_channels 32, out_channels 64$'
# Shrinking stored the same table in the case file (/finding/neighbours): repro prints it without rerunning, and the
# HTML and JSON reports of the run that found it show it.
"$convcheck" repro "$work"/seam/oc_tail_fwd-output-*.h5 --strategies naive > "$work/saved.txt"
expect "$work/saved.txt" '^  neighbours \(saved with the finding: oc_tail_fwd output, each one step from the case or across a seam\):$'
expect "$work/saved.txt" '^    passed +out_channels 16 +mb1ic1iw1oc16kw1$'
expect "$work/saved.txt" '^  failing region: 20 of 23 neighbours fail; passes with out_channels 16, out_channels 32, out_channels 64$'
expect "$work/seam.html" '<summary>20 of 23 neighbours fail; passes with out_channels 16, out_channels 32, out_channels 64</summary>'
expect "$work/seam.html" '<tr class="passes"><td>passed</td><td>out_channels 16</td><td><code>mb1ic1iw1oc16kw1</code></td></tr>'
tr -d ' \n' < "$work/seam.json" > "$work/seam.min.json"
expect "$work/seam.min.json" '\{"change":"out_channels16","config":"mb1ic1iw1oc16kw1","verdict":"passed"\}'
expect "$work/seam.txt" '^    fails +out_channels 31 +mb1ic1iw1oc31kw1$'
expect "$work/seam.txt" '^    passed +out_channels 32 +mb1ic1iw1oc32kw1$'
# Found by a fuzz, not a hand-picked shape: the table of the shrunk finding names the seam from below.
"$convcheck" fuzz --cases 300 --seed 1 --inject ic_small_tail --strategies naive --threads 1 --corpus "$work/below" \
  > "$work/below-fuzz.txt"
"$convcheck" repro "$work"/below/ic_small_tail-output-*.h5 --strategies naive > "$work/below.txt"
expect "$work/below.txt" '^    fails +in_channels 15 +mb1ic15'
expect "$work/below.txt" '^    passed +in_channels 16 +mb1ic16'
expect "$work/below.txt" '^  failing region: [0-9]+ of [0-9]+ neighbours fail; passes with in_channels 16$'
# Every finding in the corpus keeps its failing region (stored with `repro --keep-neighbours`).
if /usr/bin/python3 -c "import h5py" 2> /dev/null; then
  /usr/bin/python3 - "$source/corpus" <<'PY' || status=1
import glob, h5py, sys
files = sorted(glob.glob(sys.argv[1] + "/*/*.h5"))
missing = [f for f in files if "finding" in h5py.File(f, "r") and not h5py.File(f, "r")["finding"].attrs.get("neighbours")]
for f in missing: print("FAIL: no neighbour table in", f)
sys.exit(1 if missing or not files else 0)
PY
fi
case_6035="$source/corpus/upstream/onednn-grad_weight-1af70a319c8f3de2.h5"
"$convcheck" repro "$case_6035" --strategies onednn --run-held-back --neighbours > "$work/6035.txt"
if grep -q "this host cannot run avx2" "$work/6035.txt"; then echo "6035: the host lacks avx2"; exit $status; fi
expect "$work/6035.txt" '^    passed +stride_width 1 '
expect "$work/6035.txt" '^    passed +data_layout NCHW '
expect "$work/6035.txt" '^    fails +in_channels 3 '
expect "$work/6035.txt" '^    passed +in_channels 8 '
expect "$work/6035.txt" '^  failing region: [0-9]+ of [0-9]+ neighbours fail(;.*)?$'
# --keep-neighbours stores the table in (a copy of) the corpus case, and a plain repro prints it from there.
cp "$case_6035" "$work/6035.h5"
"$convcheck" repro "$work/6035.h5" --strategies onednn --run-held-back --keep-neighbours > "$work/6035-keep.txt"
expect "$work/6035-keep.txt" "^  kept in $work/6035.h5 \\(/finding/neighbours\\)$"
"$convcheck" repro "$work/6035.h5" --strategies onednn --run-held-back > "$work/6035-kept.txt"
expect "$work/6035-kept.txt" '^  neighbours \(saved with the finding: onednn grad_weight, each one step from the case or across a seam\):$'
expect "$work/6035-kept.txt" '^    passed +stride_width 1 '
exit $status
