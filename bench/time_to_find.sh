#!/usr/bin/env bash
# Time to find each injected bug: for every bug `convcheck strategies` lists as `inject`, and seeds 1..SEEDS,
#   convcheck fuzz --seed S --cases 500 --case-timeout 1 --strategies naive --inject BUG --threads 1 --report r.json
# (a 1 s case timeout, so the hang mutant stride_loop_hang costs a second per hanging case, not a minute)
# then, per bug, the medians over the seeds of
#   cases     cases run up to and including the first failing one (the lowest failures[].case_index + 1 of the bug)
#   find ms   milliseconds to that case: (cases / cases run) * (elapsed_s - the shrink seconds of all failures), since
#             elapsed_s also counts the shrinking that runs after the last case; one thread keeps that subtraction
#             exact and the estimate comparable between bugs
#   shrink ms failures[].shrink_s of that first failure, and steps its shrink_steps (- when the report has none)
# and the shrunk config of the first seed. A bug not found within the cases counts as missed.
#
#   bench/time_to_find.sh                     builds nothing: uses ${BUILD:-build}/convcheck
#   BUILD=build-bench SEEDS=5 CASES=500 bench/time_to_find.sh
# Exit status: 0 when the table was printed, 2 when convcheck could not run.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="${BUILD:-build}"
[[ "$build" = /* ]] || build="$root/$build"
convcheck="$build/convcheck"
seeds="${SEEDS:-5}"
cases="${CASES:-500}"
if [[ ! -x "$convcheck" ]]; then
  echo "bench/time_to_find.sh: no $convcheck (cmake --build $build --target convcheck)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mapfile -t bugs < <("$convcheck" strategies | awk '$2 == "inject" { print $1 }')
for bug in "${bugs[@]}"; do
  for seed in $(seq 1 "$seeds"); do
    status=0
    "$convcheck" fuzz --seed "$seed" --cases "$cases" --case-timeout 1 --strategies naive --inject "$bug" --threads 1 \
      --report "$work/$bug.$seed.json" --corpus "$work/findings.$bug.$seed" >/dev/null 2>"$work/$bug.$seed.stderr" ||
      status=$?
    if ((status > 1)); then
      echo "bench/time_to_find.sh: convcheck fuzz --inject $bug --seed $seed failed with status $status:" >&2
      tail -5 "$work/$bug.$seed.stderr" >&2
      exit 2
    fi
  done
done

/usr/bin/python3 - "$work" "$seeds" "$cases" "${bugs[@]}" <<'EOF'
import json, statistics, sys
from pathlib import Path

work, seeds, cases, bugs = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]

def first_finding(report, bug):
    """(cases to the first failing case, estimated ms to it, its shrink ms or None, shrink steps or None, shrunk
    config)."""
    own = [f for f in report["failures"] if f["strategy"] == bug]
    if not own:
        return None
    first = min(own, key=lambda f: f["case_index"])
    shrinking = sum(f.get("shrink_s", 0.0) for f in report["failures"])
    checking = max(report["elapsed_s"] - shrinking, 0.0)
    to_first = first["case_index"] + 1
    shrink_s = first.get("shrink_s")
    return (to_first, 1000 * to_first / report["cases"] * checking, None if shrink_s is None else 1000 * shrink_s,
            first.get("shrink_steps"), first.get("shrunk_config", "?"))

def cell(values, digits):
    return f"{statistics.median(values):.{digits}f}" if values else "-"

print(f"naive plus one injected bug, {cases} cases, one thread, seeds 1..{seeds}; medians over the seeds that found it")
print(f"{'bug':<26} {'found':>6} {'cases':>6} {'find ms':>8} {'shrink ms':>9} {'steps':>5}  "
      "shrunk config (first seed that found it)")
for bug in bugs:
    found = [f for f in (first_finding(json.loads((work / f"{bug}.{s}.json").read_text()), bug)
                         for s in range(1, seeds + 1)) if f]
    shrinks = [f[2] for f in found if f[2] is not None]
    steps = [f[3] for f in found if f[3] is not None]
    print(f"{bug:<26} {len(found):>3}/{seeds:<2} {cell([f[0] for f in found], 0):>6} "
          f"{cell([f[1] for f in found], 2):>8} {cell(shrinks, 2):>9} {cell(steps, 0):>5}  "
          f"{found[0][4] if found else '-'}")
EOF
