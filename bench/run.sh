#!/usr/bin/env bash
# Issue 6's throughput benchmark: convcheck, running all its default strategies on every case, against the
# PyTorch peer (bench/torch_peer.py) on the same committed list of configs (bench/configs.txt).
#
#   bench/run.sh                 build convcheck in ./build, run every harness REPEAT times, print the table
#   BUILD=build-bench REPEAT=5 PASSES=1 bench/run.sh
#
# Every harness goes through the list PASSES times (default 10, so 3000 cases): convcheck is given
# `--batch bench/configs.txt` PASSES times, the peer `--passes PASSES`; either way case i of pass p is case
# p * 300 + i, with its own inputs (and, for convcheck, its own oneDNN path). One pass of 300 small configs takes
# convcheck about 0.1 s, in which what a process pays once (forking and starting each worker, about 15 ms of page
# faults on this project's VMs) weighs as much as what is being measured; a nightly campaign runs for hours.
# PASSES=1 gives the single-pass figures.
#
# Harnesses, interleaved in each round so a slow moment of the machine hits all of them alike:
#   convcheck-t1      convcheck check --batch bench/configs.txt (PASSES times) --threads 1
#   convcheck-t2      the same with --threads 2
#   torch-plain       torch_peer.py --plain: every case exactly once, one torch thread
#   torch-hypothesis  torch_peer.py: a Hypothesis property over case indexes, one torch thread
# Each is timed with /usr/bin/time (wall seconds, peak RSS). The table gives the median of the rounds, with
# cases/s over
#   wall    the whole process (includes startup; `import torch` alone takes about a second);
#   loop    the verification loop: convcheck's report elapsed_s, the peer's own `seconds` (after its imports);
#   run     the loop without convcheck's warm-up (the report's warm_up_s: oneDNN JIT-compiles its sgemm kernels,
#           about 35 ms, once per process before the workers fork); the peer's is its loop;
#   steady  what each pass after the first adds: (cases - cases of one pass) / (loop seconds - loop seconds of one
#           pass), so that every one-time cost cancels (convcheck's warm-up, forking its workers and their first
#           page faults; the peer's first PyTorch convolution): the rate a long campaign sees. convcheck-t1,
#           convcheck-t2 and torch-plain also go through the list once (`*-pass1`) each round for this; with
#           PASSES=1 there is nothing to subtract and the column stays empty.
# One untimed warm-up round runs first so that no harness pays for a cold page cache. Use an otherwise idle
# machine.
# Exit status: 0 when the table was printed (whatever the verdicts), 2 when something could not run.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="${BUILD:-build}"
[[ "$build" = /* ]] || build="$root/$build"
repeat="${REPEAT:-3}"
passes="${PASSES:-10}"
configs="$root/bench/configs.txt"
python=/usr/bin/python3
convcheck="$build/convcheck"

if [[ ! -x /usr/bin/time ]]; then
  echo "bench/run.sh: /usr/bin/time is missing (Debian package 'time': apt-get install time)" >&2
  exit 2
fi
if ! "$python" -c 'import torch, hypothesis' 2>/dev/null; then
  echo "bench/run.sh: $python cannot import torch and hypothesis (scripts/install-deps.sh installs them)" >&2
  exit 2
fi

cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" -j"$(nproc)" --target convcheck >/dev/null
if [[ ! -f "$configs" ]]; then
  echo "bench/run.sh: writing $configs (commit it: every later run must use the same list)" >&2
  "$convcheck" configs --seed 1 --cases 300 >"$configs"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
batches=()
for _ in $(seq 1 "$passes"); do batches+=(--batch "$configs"); done
harnesses=(convcheck-t1 convcheck-t2 torch-plain torch-hypothesis convcheck-t1-pass1 convcheck-t2-pass1 torch-plain-pass1)

# Runs harness $1 once under /usr/bin/time; its stdout, stderr, time line and report land in $work/$1.$2.*.
run_once() {
  local harness=$1 round=$2 out="$work/$1.$2"
  local command
  case "$harness" in
    convcheck-t*-pass1) command=("$convcheck" check --batch "$configs" --threads "${harness:11:1}" --report "$out.json"
                                --corpus "$work/findings") ;;
    torch-plain-pass1) command=("$python" "$root/bench/torch_peer.py" "$configs" --plain --threads 1) ;;
    convcheck-t*) command=("$convcheck" check "${batches[@]}" --threads "${harness#convcheck-t}"
                           --report "$out.json" --corpus "$work/findings") ;;
    torch-plain) command=("$python" "$root/bench/torch_peer.py" "$configs" --plain --passes "$passes" --threads 1) ;;
    torch-hypothesis) command=("$python" "$root/bench/torch_peer.py" "$configs" --passes "$passes" --threads 1) ;;
  esac
  local status=0
  /usr/bin/time -f '%e %M' -o "$out.time" "${command[@]}" >"$out.stdout" 2>"$out.stderr" || status=$?
  # 1 means the harness found a mismatch: a verdict, not a broken run; the table shows the failures.
  if ((status > 1)); then
    echo "bench/run.sh: $harness failed with status $status:" >&2
    tail -5 "$out.stderr" >&2
    exit 2
  fi
}

for harness in "${harnesses[@]}"; do run_once "$harness" warmup; done
for round in $(seq 1 "$repeat"); do
  for harness in "${harnesses[@]}"; do run_once "$harness" "$round"; done
done

echo "convcheck $("$convcheck" --version | awk '{print $2}'), $(grep -cv '^\s*\(#\|$\)' "$configs") configs from" \
  "bench/configs.txt x $passes passes, $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), median of $repeat rounds"
"$python" - "$work" "$repeat" "${harnesses[@]}" <<'EOF'
import json, statistics, sys
from pathlib import Path

work, repeat, harnesses = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
median = statistics.median

def measure(harness, round):
    """cases, wall seconds, peak RSS MiB, loop seconds, warm-up seconds, failures of one run."""
    def read(suffix):
        return (work / f"{harness}.{round}.{suffix}").read_text()
    wall, rss_kib = (float(x) for x in read("time").split()[-2:])
    if harness.startswith("convcheck"):
        report = json.loads(read("json"))
        return (report["cases"], wall, rss_kib / 1024, report["elapsed_s"], report.get("warm_up_s", 0.0),
                len(report["failures"]))
    result = json.loads(read("stdout").strip().splitlines()[-1])
    return result["cases"], wall, rss_kib / 1024, result["seconds"], 0.0, result["failures"]

rows = {}
for harness in harnesses:
    runs = [measure(harness, r) for r in range(1, repeat + 1)]
    rows[harness] = dict(cases=runs[0][0], wall=median(r[1] for r in runs), rss=median(r[2] for r in runs),
                         loop=median(r[3] for r in runs), warm_up=median(r[4] for r in runs),
                         failures=max(r[5] for r in runs))
# Steady state: what the passes after the first add; the first carries every one-time cost.
for harness in ("convcheck-t1", "convcheck-t2", "torch-plain"):
    row, first = rows[harness], rows.pop(harness + "-pass1")
    row["steady"] = (row["cases"] - first["cases"]) / (row["loop"] - first["loop"]) if row["cases"] > first["cases"] else None
    row["first_loop"] = first["loop"]

peer = rows["torch-plain"]
def rate(row, key):
    if key == "wall": return row["cases"] / row["wall"]
    if key == "loop": return row["cases"] / row["loop"]
    if key == "run": return row["cases"] / (row["loop"] - row["warm_up"])
    return row.get("steady")
keys = ("wall", "loop", "run", "steady")
print(f"\n{'harness':<17} {'cases':>5} {'wall s':>7} {'loop s':>7} {'warm-up':>7} "
      + "".join(f"{k + ' c/s':>11}" for k in keys) + f" {'RSS MiB':>8} " + "".join(f"{'x ' + k:>9}" for k in keys)
      + f" {'failures':>8}")
for harness, row in rows.items():
    print(f"{harness:<17} {row['cases']:>5} {row['wall']:>7.2f} {row['loop']:>7.3f} {row['warm_up']:>7.3f} "
          + "".join(f"{rate(row, k):>11.1f}" if rate(row, k) else f"{'':>11}" for k in keys) + f" {row['rss']:>8.1f} "
          + "".join(f"{rate(row, k) / rate(peer, k):>9.2f}" if rate(row, k) else f"{'':>9}" for k in keys)
          + f" {row['failures']:>8}")
print("(cases per second over: wall, the whole process; loop, the verification loop (convcheck: the report's elapsed_s,"
      " which includes warm-up; the peer: its loop, after `import torch`); run, the loop without warm-up; steady,"
      " what each pass after the first adds; torch-hypothesis counts the distinct cases it reached)")
one, two = rows["convcheck-t1"], rows["convcheck-t2"]
print(f"one pass of the list, loop seconds: convcheck-t1 {one['first_loop']:.3f}, convcheck-t2 {two['first_loop']:.3f}, "
      f"torch-plain {peer['first_loop']:.3f}")
peer_cpu = median(json.loads((work / f"torch-plain.{r}.stdout").read_text().strip().splitlines()[-1])["cpu_seconds"]
                  for r in range(1, repeat + 1))
print(f"torch-plain loop thread CPU: {1000 * peer_cpu / peer['cases']:.3f} ms per case "
      "(compare bench/strategy_cost.sh's sum for convcheck)")
print("convcheck scaling 2 threads / 1 thread: "
      + ", ".join(f"{rate(two, k) / rate(one, k):.2f}x {k}" for k in keys if rate(one, k)))

# Where convcheck's single-thread time goes, per strategy and direction (median over the rounds).
reports = [json.loads((work / f"convcheck-t1.{r}.json").read_text()) for r in range(1, repeat + 1)]
if "seconds" not in next(iter(reports[0]["strategies"].values()), {}):
    print("\n(this convcheck's report has no per-strategy seconds: per-strategy times not shown)")
    sys.exit(0)
directions = ("output", "grad_data", "grad_weight")
def seconds(report, name, direction=None):
    entry = report["strategies"][name]
    return (entry["directions"][direction] if direction else entry).get("seconds", 0.0)
loop = median(r["elapsed_s"] for r in reports)
per_case = 1000 / one["cases"]  # seconds over the whole list to ms per case
print(f"\nconvcheck-t1 time per strategy and direction, ms per case (loop {per_case * loop:.3f} ms per case)")
print(f"{'strategy':<12}" + "".join(f"{d:>12}" for d in directions) + f"{'total':>12}{'share':>8}")
if "reference_s" in reports[0]:
    reference = median(r["reference_s"] for r in reports)
    print(f"{'(reference)':<12}" + " " * 36 + f"{per_case * reference:>12.3f}{100 * reference / loop:>7.1f}%")
for name in reports[0]["strategies"]:
    cells = [median(seconds(r, name, d) for r in reports) for d in directions]
    total = median(seconds(r, name) for r in reports)
    print(f"{name:<12}" + "".join(f"{per_case * c:>12.3f}" for c in cells)
          + f"{per_case * total:>12.3f}{100 * total / loop:>7.1f}%")
EOF
