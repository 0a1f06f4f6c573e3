#!/usr/bin/env bash
# The Winograd bound holds wherever a correct implementation places its tiles (issue 39, docs/bounds.md): the example
# plugin of the `winograd:4` class (examples/plugin/winograd_plugin.c, F(4,3)) with its tiles starting at output -K
# for every residue K = 0..3 (WINOGRAD_PLUGIN_SHIFT; 0 is output-aligned), in every fill, is never flagged over
# CASES (2,000) focused cases each (the same problems under every tiling), its output and data gradient. A bound that
# assumed output-aligned tiles fails here.
# usage: winograd_plugin_tilings.sh CONVCHECK PLUGIN WORKDIR [CASES]
set -euo pipefail
convcheck=$1 plugin=$2 workdir=$3 cases=${4:-2000}
rm -rf "$workdir" && mkdir -p "$workdir"
status=0
# The shift moves the arithmetic: on one case the plugin's worst output error differs between tilings.
"$convcheck" corpus add mb1ic3ih9iw11oc2kh3kw3pt1pl2 "$workdir/case" > /dev/null
case_file=$(ls "$workdir"/case/*/*.h5)
worst() { WINOGRAD_PLUGIN_SHIFT=$1 "$convcheck" repro "$case_file" --strategies naive --plugin "w=$plugin" |
            awk '$1 == "w" && / output / { for (i = 1; i <= NF; ++i) if ($i == "output") { print $(i + 1); exit } }'; }
aligned=$(worst 0) shifted=$(worst 1)
echo "worst output error of mb1ic3ih9iw11oc2kh3kw3pt1pl2: $aligned with tiles from output 0, $shifted from output -1"
[[ -n "$aligned" && "$aligned" != "$shifted" ]] || { echo "FAIL: WINOGRAD_PLUGIN_SHIFT changed nothing"; status=1; }
for shift in 0 1 2 3; do
  for fill in normal exact mixed witness; do
    run="$workdir/shift$shift-$fill"
    if WINOGRAD_PLUGIN_SHIFT=$shift "$convcheck" fuzz --seed 1 --cases "$cases" --threads 2 \
        --strategies naive --plugin "w=$plugin" --focus w --fill "$fill" --no-shrink --corpus "$run" > "$run.txt" 2>&1; then
      echo "shift $shift, $fill fill: $(grep -E '^w +output' "$run.txt" | tr -s ' '); $(grep -E '^w +grad_data' "$run.txt" | tr -s ' ')"
    else
      echo "FAIL: tiles from output -$shift, $fill fill:"; grep -E "^FAILED|error" "$run.txt" | head -5; status=1
    fi
  done
done
exit $status
