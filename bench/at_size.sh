#!/usr/bin/env bash
# Per-case time at real sizes (issue 15): convcheck with its default strategies against the PyTorch peer
# (bench/torch_peer.py: float32 against float64, forward and both gradients), side by side on oneDNN's benchdnn
# lists in bench/lists/ run at mb2, and how per-case time scales with the multiply-adds of a case.
#
#   BUILD=build bench/at_size.sh                  all lists, REPEAT=3 interleaved rounds
#   LISTS="shapes_alexnet" REPEAT=5 bench/at_size.sh
#   FULL_CHECK=1 bench/at_size.sh                 also without the cost plan (core/run/cost_plan.hpp)
#   CONVCHECK=/tmp/old/convcheck bench/at_size.sh step 1 with another convcheck binary (step 2 uses BUILD's objects)
#
# For each list:
#   1. `convcheck check --format benchdnn --batch LIST --threads 1` and `torch_peer.py --plain` on the same configs,
#      alternated REPEAT times after one untimed round of each; prints the medians of each harness's loop seconds
#      per case (convcheck's report `elapsed_s` less `warm_up_s`, the peer's `seconds`) and their ratio.
#   2. Per config: multiply-adds over the three directions, convcheck's in-process milliseconds for the whole case
#      (inputs, reference, every strategy, diffs: bench/strategy_cost.cpp, fastest of its rounds) and the peer's
#      (fastest of REPEAT passes), then the microseconds per million multiply-adds of each.
# Needs /usr/bin/python3 with python3-torch; uses an already built convcheck (cmake --build build).
set -euo pipefail
export LC_ALL=C # join and sort agree on order

root=$(cd "$(dirname "$0")/.." && pwd)
build="${BUILD:-build}"
[[ "$build" = /* ]] || build="$root/$build"
convcheck="${CONVCHECK:-$build/convcheck}" # another binary for step 1 (an older build, say): CONVCHECK=path
repeat="${REPEAT:-3}"
lists="${LISTS:-shapes_resnet_50 shapes_mobilenet_dw shapes_alexnet}"
python=/usr/bin/python3
[[ -x "$convcheck" ]] || { echo "bench/at_size.sh: no $convcheck (cmake --build $build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
full_flag=()
[[ "${FULL_CHECK:-0}" = 1 ]] && full_flag=(--full-check)

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# A field of a JSON report (the whole input) or of the peer's JSON line (its last line).
json_field() {
  "$python" -c "import json, sys
text = sys.stdin.read().strip()
d = json.loads(text if text.startswith('{\n') else text.splitlines()[-1])
print($1)"
}

echo "# $(date -u +%F) $(git -C "$root" rev-parse --short HEAD) ${full_flag[*]:-default plan}; $(lscpu | sed -n 's/^Model name: *//p')"
for list in $lists; do
  # benchdnn's own mb overridden to 2, as `benchdnn --mb=2` would (the lists carry mb1..mb256)
  sed -E 's/mb[0-9]+/mb2/' "$root/bench/lists/$list" > "$work/$list"
  # Per-case figures in process; they also give the native descriptors the peer reads.
  FORMAT=benchdnn PER_CASE=1 ROUNDS="$repeat" CONFIGS="$work/$list" BUILD="$build" \
    "$root/bench/strategy_cost.sh" > "$work/$list.cost"
  awk '$1 == "case" {print $2}' "$work/$list.cost" > "$work/$list.native"
  cases=$(wc -l < "$work/$list.native")
  for round in $(seq 0 "$repeat"); do
    "$convcheck" check --format benchdnn --batch "$work/$list" --threads 1 "${full_flag[@]}" \
      --report "$work/report.json" --corpus "$work/findings" > /dev/null 2>&1 || [[ $? = 1 ]]
    "$python" "$root/bench/torch_peer.py" --plain --passes 1 "$work/$list.native" > "$work/peer.out" || [[ $? = 1 ]]
    [[ $round = 0 ]] && continue # the untimed round
    json_field "(d['elapsed_s'] - d.get('warm_up_s', 0)) / d['cases'] * 1000" < "$work/report.json" >> "$work/convcheck.ms"
    json_field "d['seconds'] / d['cases'] * 1000" < "$work/peer.out" >> "$work/peer.ms"
  done
  convcheck_ms=$(median < "$work/convcheck.ms")
  peer_ms=$(median < "$work/peer.ms")
  rm -f "$work/convcheck.ms" "$work/peer.ms"
  printf '\n## %s at mb2: %d cases, %d rounds\n' "$list" "$cases" "$repeat"
  printf 'convcheck ms/case (median)  %10.2f\npeer ms/case (median)       %10.2f\nratio convcheck/peer        %10.2f\n' \
    "$convcheck_ms" "$peer_ms" "$(echo "$convcheck_ms / $peer_ms" | bc -l)"
  "$python" "$root/bench/torch_peer.py" --plain --per-case --passes "$repeat" "$work/$list.native" > "$work/peer.cases" || [[ $? = 1 ]]
  printf '\n%-58s %12s %11s %9s %7s %10s %10s\n' config multiply-adds convcheck_ms peer_ms ratio "cc_us/MMAC" "peer_us/MMAC"
  join <(awk '$1 == "case" {print $2, $3, $4}' "$work/$list.cost" | sort) \
       <(awk '$1 == "case" {print $2, $3}' "$work/peer.cases" | sort) | sort -k2,2g |
    awk '{printf "%-58s %12d %11.2f %9.2f %7.2f %10.1f %10.1f\n", $1, $2, $3, $4, $3 / $4, 1e9 * $3 / $2, 1e9 * $4 / $2}'
  printf '\nper step (bench/strategy_cost.cpp, ms per case):\n'
  grep -v '^case ' "$work/$list.cost"
done
