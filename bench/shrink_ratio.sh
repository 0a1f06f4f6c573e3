#!/usr/bin/env bash
# How close shrinking gets to each injected bug's smallest trigger, for two builds side by side (issue 39): for each
# bug (all that `convcheck strategies` lists as `inject`, or BUGS="a b"), seeds 1..SEEDS and each build,
#   convcheck fuzz --seed S --cases CASES --case-timeout 1 --strategies naive --inject BUG --threads 1 --report r.json
# then for every shrunk finding its multiply-adds (the problem's, every direction sums the same products) over the
# bug's smallest known trigger: the fewest multiply-adds of any problem either build shrank any of the bug's findings
# to, on any seed (so a ratio is a lower bound on the ratio to the true smallest trigger, and 1.00 is the best
# either build did). Prints per bug and build the findings, the median and the largest ratio, the mean shrink time
# per finding (shrink_s; CPU-side, so loaded machines inflate both builds alike) and the mean runs of the failing
# strategy per finding where the report has them (shrink_runs).
#
#   A=/tmp/before/convcheck B=build/convcheck SEEDS=5 CASES=300 bench/shrink_ratio.sh
# Exit status: 0 when the table was printed, 2 when a convcheck could not run.
set -euo pipefail

a="${A:?A=path to the first convcheck}"
b="${B:?B=path to the second convcheck}"
seeds="${SEEDS:-5}"
cases="${CASES:-300}"
for binary in "$a" "$b"; do
  [[ -x "$binary" ]] || { echo "bench/shrink_ratio.sh: no $binary" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ -n "${BUGS:-}" ]]; then read -ra bugs <<<"$BUGS"; else
  mapfile -t bugs < <("$b" strategies --names | awk '$2 == "inject" { print $1 }')
fi
for bug in "${bugs[@]}"; do
  for seed in $(seq 1 "$seeds"); do
    for side in A B; do
      binary=$a
      [[ $side == B ]] && binary=$b
      status=0
      "$binary" fuzz --seed "$seed" --cases "$cases" --case-timeout 1 --strategies naive --inject "$bug" --threads 1 \
        --report "$work/$bug.$seed.$side.json" --corpus "$work/findings.$bug.$seed.$side" >/dev/null \
        2>"$work/$bug.$seed.$side.stderr" || status=$?
      if ((status > 1)); then
        echo "bench/shrink_ratio.sh: $binary fuzz --inject $bug --seed $seed failed with status $status:" >&2
        tail -5 "$work/$bug.$seed.$side.stderr" >&2
        exit 2
      fi
    done
  done
done

/usr/bin/python3 - "$work" "$seeds" "${bugs[@]}" <<'EOF'
import json, re, statistics, sys
from pathlib import Path

work, seeds, bugs = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]

def key(text, name, default):
    match = re.search(r"(?:^|[^a-z])" + name + r"(-?[0-9]+)", text)
    return int(match.group(1)) if match else default

def multiply_adds(descriptor):
    """The problem's multiply-adds, as Problem::multiply_adds counts them (a deconv's are its equivalent conv's)."""
    body = descriptor.split("_")[0]
    groups, batch = key(body, "g", 1), key(body, "mb", 1)
    in_channels, out_channels = key(body, "ic", 1), key(body, "oc", 1)
    kernel_volume = spatial_volume = 1
    for axis, pads in (("d", ("pfr", "pbk")), ("h", ("pt", "pb")), ("w", ("pl", "pr"))):
        if key(body, "i" + axis, None) is None:
            continue
        size, kernel = key(body, "i" + axis, 1), key(body, "k" + axis, 1)
        stride, dilation = key(body, "s" + axis, 1), key(body, "dl" + axis, 1)
        begin, end = key(body, pads[0], 0), key(body, pads[1], 0)
        kernel_volume *= kernel
        if "_deconv" in descriptor:
            spatial_volume *= size  # the equivalent conv's output is the deconv's input
        else:
            spatial_volume *= (size + begin + end - dilation * (kernel - 1) - 1) // stride + 1
    return batch * out_channels * (in_channels // groups) * kernel_volume * spatial_volume

print(f"{'bug':26} {'build':5} {'findings':>8} {'median':>7} {'largest':>7} {'ms/finding':>10} {'runs/finding':>12}"
      "  largest shrunk")
for bug in bugs:
    shrunk = {"A": [], "B": []}
    runs = {"A": [], "B": []}
    seconds = {"A": [], "B": []}
    for seed in range(1, seeds + 1):
        for side in "AB":
            report = json.loads((work / f"{bug}.{seed}.{side}.json").read_text())
            for failure in report["failures"]:
                if failure["strategy"] == bug and failure.get("shrunk_config"):
                    shrunk[side].append(failure["shrunk_config"])
                    seconds[side].append(failure.get("shrink_s", 0.0))
                    if "shrink_runs" in failure:
                        runs[side].append(failure["shrink_runs"])
    every = shrunk["A"] + shrunk["B"]
    if not every:
        print(f"{bug:26} not found")
        continue
    smallest = min(multiply_adds(d) for d in every)
    for side in "AB":
        if not shrunk[side]:
            print(f"{bug:26} {side:5} {0:>8}")
            continue
        ratios = [multiply_adds(d) / smallest for d in shrunk[side]]
        worst = max(shrunk[side], key=multiply_adds)
        mean_runs = f"{statistics.mean(runs[side]):.0f}" if runs[side] else "-"
        mean_ms = 1000 * statistics.mean(seconds[side])
        print(f"{bug:26} {side:5} {len(ratios):>8} {statistics.median(ratios):>7.2f} {max(ratios):>7.2f} "
              f"{mean_ms:>10.2f} {mean_runs:>12}  {worst}")
EOF
