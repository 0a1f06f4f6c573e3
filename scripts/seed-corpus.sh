#!/usr/bin/env bash
# Rebuilds the seed of corpus/: for every injected bug, the shrunk cases that kill it (corpus/mutants), and the
# hand-picked edge configs every strategy is tested on (corpus/regression). `corpus add` dedups, so rerunning
# adds only what is new.   usage: scripts/seed-corpus.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
convcheck="${1:-$root/build}/convcheck"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for bug in $("$convcheck" strategies | awk '$2 == "inject" { print $1 }'); do
  "$convcheck" fuzz --seed 1 --cases 300 --case-timeout 1 --strategies naive --inject "$bug" --corpus "$work/$bug" >/dev/null || true
  "$convcheck" corpus add "$work/$bug"/*.h5 "$root/corpus"
done

edge_configs=(
  mb1ic1ih1iw1oc1kh1kw1 mb2ic3ih2iw3oc2kh5kw4pt2pb2pl1pr2 mb2ic2ih9iw8oc3kh2kw1sh3sw4
  mb1ic2ih11iw9oc2kh3kw2sh2sw3dlh2dlw3pt1pr2 g4mb2ic4ih6iw5oc4kh3kw3pt1pb1pl1pr1_nhwc
  g3mb2ic6ih5iw7oc9kh3kw2sh2pt1pl1_hwio mb1ic2ih5iw6oc3kh3kw3pb2pr1_nhwc_ohwi mb2ic3ih3iw11oc2kh2kw3sw2_f64
  g2mb3ic4ih7iw10oc6kh3kw2sh2sw3dlh2pt2pb1pr3_nhwc_hwio
)
"$convcheck" corpus add "${edge_configs[@]}" "$root/corpus"
