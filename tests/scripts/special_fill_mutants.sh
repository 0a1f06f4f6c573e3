#!/bin/sh
# Issue 39: each injected special-value bug, focused on its own rows, with main's fill (--fill-special none) and
# with the special kinds drawn (mixed, the default). Prints BUG SEED FILL first-failing-case-index (or "none").
# Usage: tests/scripts/special_fill_mutants.sh BUILD_DIR [CASES] [SEEDS...]
set -eu
build=$1; cases=${2:-500}; shift $(( $# > 1 ? 2 : 1 )); seeds=${*:-"1 2 3"}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for bug in half_input_daz bf16_through_f16 dst_round_half_away dst_truncate half_negative_zero; do
  for seed in $seeds; do
    for special in none mixed; do
      "$build/convcheck" fuzz --cases "$cases" --seed "$seed" --threads 2 --strategies naive --inject "$bug" \
        --focus "$bug" --no-shrink --max-saved 0 --fill-special "$special" --corpus "$tmp/c" \
        --report "$tmp/r.json" >/dev/null 2>&1 || true
      first=$(python3 -c "import json,sys; f=json.load(open('$tmp/r.json'))['failures']; \
print(min((x['case_index'] for x in f if x['strategy']=='$bug'), default='none'), \
sum(1 for x in f if x['strategy']=='$bug'))")
      echo "$bug $seed $special $first"
    done
  done
done
