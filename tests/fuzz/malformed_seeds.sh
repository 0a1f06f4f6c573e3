#!/usr/bin/env bash
# Every malformed seed is rejected the way the exit contract says: `convcheck repro FILE` exits 2 and prints
# exactly one line on stderr, naming the file. Every valid case seed replays (exit 0 or 1) with nothing on stderr.
# usage: malformed_seeds.sh CONVCHECK SEEDS_DIR WORKDIR
set -euo pipefail
convcheck=$1 seeds=$2 workdir=$3
rm -rf "$workdir" && mkdir -p "$workdir"
cd "$workdir" # repro writes nothing, but keep any stray output out of the source tree
failures=0 checked=0

fail() {
  echo "FAIL $1: $2"
  sed 's/^/  stderr: /' "$workdir/stderr"
  failures=$((failures + 1))
}

# Also the files that crash or hang libhdf5 itself (tests/fuzz/libhdf5/): convcheck reads them in a child first.
for file in "$seeds"/malformed/*.h5 "$seeds"/../libhdf5/*.h5; do
  checked=$((checked + 1))
  status=0
  timeout 120 "$convcheck" repro "$file" >"$workdir/stdout" 2>"$workdir/stderr" || status=$?
  lines=$(wc -l <"$workdir/stderr")
  if [[ $status -ne 2 ]]; then fail "$file" "exit status $status, expected 2"
  elif [[ $lines -ne 1 ]]; then fail "$file" "$lines lines on stderr, expected 1"
  elif ! grep -qF "$file" "$workdir/stderr"; then fail "$file" "stderr does not name the file"
  fi
done

# Result-file seeds are valid for read_result_file only; repro reads case files.
for file in "$seeds"/valid/*.h5; do
  [[ $(basename "$file") == result-file-* ]] && continue
  checked=$((checked + 1))
  status=0
  "$convcheck" repro "$file" >"$workdir/stdout" 2>"$workdir/stderr" || status=$?
  if [[ $status -ne 0 && $status -ne 1 ]]; then fail "$file" "exit status $status, expected 0 or 1"
  elif [[ -s "$workdir/stderr" ]]; then fail "$file" "unexpected output on stderr"
  fi
done

echo "$((checked - failures)) passed, $failures failed"
[[ $failures -eq 0 && $checked -gt 0 ]]
