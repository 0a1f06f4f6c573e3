#!/usr/bin/env bash
# Whether two builds give the same verdict counts on the same campaign: per strategy and direction, how many cases
# passed, passed weakly, failed, and were not judged (skipped or held back: a build older than the held_back verdict
# counted a hold-back as a skip). A change meant to move code, not verdicts, must leave every count as it was.
#
#   bench/same_counts.sh A/convcheck B/convcheck [FUZZ ARGUMENTS...]   # the two side by side; exit 1 when they differ
#   bench/same_counts.sh --counts BINARY [FUZZ ARGUMENTS...]           # one build's counts, one line each
#
# The fuzz arguments default to `--seed 13 --cases 2000 --threads 2`; --no-shrink and a scratch --corpus and
# --report are added. ctest `same_counts` compares this build with the counts tests/data/same_counts.txt recorded
# from main before the rooms (issue 34; the file's header says how). Exit status: 0 same, 1 different, 2 a binary
# could not run.
set -euo pipefail

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One line per strategy and direction: "STRATEGY DIRECTION passed P weak W failed F unjudged U".
counts() { # BINARY NAME [FUZZ ARGUMENTS...]
  local binary=$1 name=$2
  shift 2
  (($# > 0)) || set -- --seed 13 --cases 2000 --threads 2
  local status=0
  "$binary" fuzz "$@" --no-shrink --corpus "$scratch/$name-findings" --report "$scratch/$name.json" \
    >"$scratch/$name.log" 2>&1 || status=$?
  # 1: a finding; 2 with a report: a named strategy judged on no case (onednn_auto on a host without it, say).
  if ((status > 2)) || [[ ! -s "$scratch/$name.json" ]]; then
    echo "bench/same_counts.sh: $binary fuzz $* exited $status: $(tail -1 "$scratch/$name.log")" >&2
    exit 2
  fi
  python3 - "$scratch/$name.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for name in sorted(report["strategies"]):
    for direction, t in sorted(report["strategies"][name]["directions"].items()):
        unjudged = t["skipped"] + t.get("held_back", 0)
        print(f"{name} {direction} passed {t['passed']} weak {t['weak']} failed {t['failed']} unjudged {unjudged}")
PY
}

if [[ $# -ge 2 && "$1" == --counts ]]; then
  binary=$2
  shift 2
  counts "$binary" one "$@"
  exit 0
fi
if [[ $# -lt 2 ]]; then
  echo "usage: bench/same_counts.sh A/convcheck B/convcheck [FUZZ ARGUMENTS...] | --counts BINARY [...]" >&2
  exit 2
fi
a=$1 b=$2
shift 2
counts "$a" a "$@" >"$scratch/a.txt"
counts "$b" b "$@" >"$scratch/b.txt"
same=0
diff -u --label "A $a" --label "B $b" "$scratch/a.txt" "$scratch/b.txt" || same=1
((same != 0)) || echo "same counts: $(wc -l <"$scratch/a.txt") strategy x direction rows"
# Of the unjudged, what each build held back for known library bugs (a build before the held_back verdict: none).
for side in a b; do
  python3 - "$scratch/$side.json" "$side" <<'PY'
import json, sys
report, held = json.load(open(sys.argv[1])), []
for name in sorted(report["strategies"]):
    for direction, t in sorted(report["strategies"][name]["directions"].items()):
        if t.get("held_back", 0): held.append(f"{name} {direction} {t['held_back']}")
print(f"{sys.argv[2].upper()} held back: {'; '.join(held) if held else 'none'}")
PY
done
exit "$same"
