#!/usr/bin/env bash
# tests/fuzz/triage.py on canned sanitizer reports (tests/fuzz/reports/): a heap overflow whose first frame past
# ASan's strdup interceptor is libhdf5's is not ours (exit 0, listed as libhdf5's); the same report with convcheck's
# frame in that place is ours (exit 1).
# usage: triage_self_test.sh SOURCE_DIR WORKDIR
set -euo pipefail
source=$1 work=$2
rm -rf "$work" && mkdir -p "$work/no-artifacts"
triage() { /usr/bin/python3 "$source/tests/fuzz/triage.py" /bin/false "$work/no-artifacts" "$source/tests/fuzz/reports/$1"; }
if ! out=$(triage libhdf5); then echo "FAIL: libhdf5's report judged ours:"; echo "$out"; exit 1; fi
grep -q "^inside libhdf5, not ours: heap-buffer-overflow in H5MM_xstrdup" <<<"$out" || { echo "FAIL: $out"; exit 1; }
if out=$(triage convcheck); then echo "FAIL: convcheck's report judged not ours:"; echo "$out"; exit 1; fi
grep -q "^CONVCHECK BUG: " <<<"$out" || { echo "FAIL: $out"; exit 1; }
echo "triage tells libhdf5's report from convcheck's"
