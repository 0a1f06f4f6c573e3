#!/usr/bin/env bash
# The README's strategy table is what `convcheck strategies --markdown` prints for this build: fails, showing the
# difference, when a registration changed and the README did not, and when the README grows past 8 KB. `--update`
# rewrites the README's table instead.
#   usage: readme_strategies.sh CONVCHECK README [--update]
set -euo pipefail
convcheck=$1 readme=$2
begin='<!-- strategies:begin' end='<!-- strategies:end -->'
grep -q "^$begin" "$readme" && grep -q "^$end" "$readme" || { echo "$readme has no strategies markers"; exit 1; }
generated=$("$convcheck" strategies --markdown)
if [[ ${3:-} == --update ]]; then
  table=$(mktemp)
  trap 'rm -f "$table"' EXIT
  printf '%s\n' "$generated" >"$table"
  awk -v begin="$begin" -v end="$end" -v table="$table" '
    index($0, begin) == 1 { print; while ((getline line < table) > 0) print line; skipping = 1; next }
    index($0, end) == 1 { skipping = 0 }
    !skipping { print }' "$readme" >"$readme.new"
  mv "$readme.new" "$readme"
  echo "updated the strategy table of $readme"
  exit 0
fi
current=$(awk -v begin="$begin" -v end="$end" 'index($0, end) == 1 { inside = 0 } inside { print }
                                                 index($0, begin) == 1 { inside = 1 }' "$readme")
if [[ $current != "$generated" ]]; then
  echo "README's strategy table differs from the registrations (rerun with --update):"
  diff <(printf '%s\n' "$current") <(printf '%s\n' "$generated") || true
  exit 1
fi
# The README is the door, not the house (docs/ holds the rest): it stays under 8 KB.
size=$(wc -c <"$readme")
if ((size > 8192)); then
  echo "$readme is $size bytes, over 8 KB: move what is not a quick start to docs/"
  exit 1
fi
echo "README's strategy table matches the $(grep -c '^| `' <<<"$generated") registered strategies; README is $size bytes"
