#!/bin/bash
# `repro --neighbours`: the failing region around a minimal case names the seam. An injected seam bug (oc_tail_fwd:
# the output-channel tail after full blocks of 16 skipped) shrunk to 17 output channels passes at 16 and fails at 18;
# oneDNN #6035 (corpus/upstream/, under its avx2 cap) passes with stride 1 and with channels-first data.
# Usage: neighbour_table.sh CONVCHECK SOURCE_DIR WORK_DIR
set -u
convcheck=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
status=0
expect() { grep -Eq "$2" "$1" || { echo "FAIL: no line matching '$2' in $1:"; cat "$1"; status=1; }; }
"$convcheck" check --inject oc_tail_fwd --strategies naive --threads 1 --corpus "$work/seam" mb1ic1ih3oc17kh1 > /dev/null
"$convcheck" repro "$work"/seam/oc_tail_fwd-output-*.h5 --strategies naive --neighbours > "$work/seam.txt"
expect "$work/seam.txt" '^  neighbours \(oc_tail_fwd output, each one step from the case\):$'
expect "$work/seam.txt" '^    passed +out_channels 16 +mb1ic1iw1oc16kw1$'
expect "$work/seam.txt" '^    fails +out_channels 18 +mb1ic1iw1oc18kw1$'
"$convcheck" repro "$source/corpus/upstream/onednn-grad_weight-22d0a043a832b052.h5" --strategies onednn \
  --run-held-back --neighbours > "$work/6035.txt"
if grep -q "this host cannot run avx2" "$work/6035.txt"; then echo "6035: the host lacks avx2"; exit $status; fi
expect "$work/6035.txt" '^    passed +stride_width 1 '
expect "$work/6035.txt" '^    passed +data_layout NCHW '
expect "$work/6035.txt" '^    fails +in_channels 2 '
expect "$work/6035.txt" '^  failing region: [0-9]+ of [0-9]+ neighbours fail$'
exit $status
