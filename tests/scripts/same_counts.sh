#!/usr/bin/env bash
# ctest same_counts: this build's verdict counts on a fixed campaign of the loop strategies equal the counts recorded
# in COUNTS (tests/data/same_counts.txt, whose `# fuzz:` line holds the campaign's arguments). The loop strategies'
# verdicts depend on no library and no ISA, so the file holds on every host; a change that moves code (issue 34's
# rooms) must leave them as they were. A change that means to move verdicts (the generator draws otherwise, a bound
# changes) records the file again, saying why in its commit:
#
#   tests/scripts/same_counts.sh build/convcheck tests/data/same_counts.txt --record
#
# usage: same_counts.sh CONVCHECK COUNTS [--record]
set -euo pipefail

convcheck=$1 file=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
read -r -a arguments <<<"$(sed -n 's/^# fuzz: //p' "$file")"
if ((${#arguments[@]} == 0)); then
  echo "same_counts.sh: $file has no '# fuzz:' line" >&2
  exit 2
fi
now=$(mktemp)
trap 'rm -f "$now"' EXIT
"$here/bench/same_counts.sh" --counts "$convcheck" "${arguments[@]}" >"$now"
if [[ "${3:-}" == --record ]]; then
  { grep '^#' "$file"; cat "$now"; } >"$file.new" && mv "$file.new" "$file"
  echo "recorded $(wc -l <"$now") rows in $file"
  exit 0
fi
if ! diff -u --label "recorded ($file)" --label "this build" <(grep -v '^#' "$file") "$now"; then
  echo "same_counts: the verdict counts moved (above); if the change means to move them, record them again:" >&2
  echo "  tests/scripts/same_counts.sh $convcheck $file --record" >&2
  exit 1
fi
echo "same counts: $(wc -l <"$now") strategy x direction rows, fuzz ${arguments[*]}"
