#!/usr/bin/env bash
# Fuzzes PyTorch through the external-process protocol and expects no finding.
# usage: torch_fuzz.sh CONVCHECK SOURCE_DIR WORKDIR [CASES]
# Exits 77 (ctest: skipped) where Debian's python3-torch or python3-h5py is missing.
set -euo pipefail
convcheck=$1 source_dir=$2 workdir=$3 cases=${4:-200}
if ! /usr/bin/python3 -c "import torch, h5py" 2>/dev/null; then
  echo "skipped: /usr/bin/python3 cannot import torch and h5py (apt-get install python3-torch python3-h5py)"
  exit 77
fi
rm -rf "$workdir" && mkdir -p "$workdir"
"$convcheck" fuzz --seed 11 --cases "$cases" --threads 2 --strategies naive \
  --external torch="/usr/bin/python3 $source_dir/oracles/external/torch_conv.py" --external-case-format 2 \
  --corpus "$workdir/findings" --report "$workdir/report.json"
/usr/bin/python3 - "$workdir/report.json" "$cases" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
torch = report["strategies"]["torch"]
assert report["cases"] == int(sys.argv[2]), report["cases"]
assert torch["failed"] == 0 and not report["failures"], report["failures"][:3]
assert torch["passed"] + torch["weak"] == 3 * int(sys.argv[2]), torch
print(f"torch: {torch['passed']} passed, {torch['weak']} weak, 0 failed over {report['cases']} cases")
PY
