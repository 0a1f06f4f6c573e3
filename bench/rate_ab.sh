#!/usr/bin/env bash
# The default one-worker fuzz rate of two builds, side by side: the floor issues hold convcheck to (2,000 cases/s)
# and the check that a change did not lower it.
#
#   bench/rate_ab.sh A/convcheck B/convcheck          # ROUNDS (5) rounds, seeds 1..ROUNDS
#   CASES=6000 ROUNDS=7 bench/rate_ab.sh old new
#   B_ARGS="--isa-caps avx512_core_bf16" bench/rate_ab.sh build/convcheck build/convcheck   # what a flag costs
#
# Each round runs `fuzz --cases CASES --threads 1 --seed ROUND` with A then B (the order flips every round), and
# prints both rates (the campaign's own cases/s line) and B/A. The last line gives the medians and the median of
# the per-round ratios. Run as root, each run gets a real-time priority (chrt -f 10), so builds and tests that share
# the machine do not take the core from it in the middle of a run: on a 2-core machine with two compilers busy,
# plain runs of the same binary varied from 1,441 to 2,240 cases/s, under chrt from 2,609 to 2,727. Without root the
# runs are plain; use an otherwise idle machine then.
# Exit status: 0 when the table was printed, 2 when a binary cannot run.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: bench/rate_ab.sh A/convcheck B/convcheck" >&2
  exit 2
fi
a_binary=$(realpath "$1") b_binary=$(realpath "$2")
cases="${CASES:-6000}"
rounds="${ROUNDS:-5}"
for binary in "$a_binary" "$b_binary"; do
  if [[ ! -x "$binary" ]]; then
    echo "bench/rate_ab.sh: $binary is not an executable" >&2
    exit 2
  fi
done
priority=()
if [[ $(id -u) -eq 0 ]] && command -v chrt >/dev/null; then priority=(chrt -f 10); fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The cases/s of one run of binary $1 with seed $2 and the extra arguments $3 (split on spaces).
rate() {
  local line
  # shellcheck disable=SC2086
  line=$(cd "$work" && "${priority[@]}" "$1" fuzz --cases "$cases" --threads 1 --seed "$2" --corpus "$work/findings" \
         $3 2>&1 | grep -oE '\(([0-9]+) cases/s\)' | head -1) || true
  if [[ -z "$line" ]]; then
    echo "bench/rate_ab.sh: $1 printed no rate" >&2
    exit 2
  fi
  echo "$line" | tr -dc '0-9'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "round  seed  A cases/s  B cases/s   B/A   (fuzz --cases $cases --threads 1${priority:+, under ${priority[*]}})"
a_rates=() b_rates=() ratios=()
for round in $(seq 1 "$rounds"); do
  if (( round % 2 )); then a=$(rate "$a_binary" "$round" "${A_ARGS:-}"); b=$(rate "$b_binary" "$round" "${B_ARGS:-}");
  else b=$(rate "$b_binary" "$round" "${B_ARGS:-}"); a=$(rate "$a_binary" "$round" "${A_ARGS:-}"); fi
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
  printf '%5d %5d %10d %10d %7s\n' "$round" "$round" "$a" "$b" "$ratio"
  a_rates+=("$a") b_rates+=("$b") ratios+=("$ratio")
done
printf 'median %15s %10s %7s\n' "$(printf '%s\n' "${a_rates[@]}" | median)" \
  "$(printf '%s\n' "${b_rates[@]}" | median)" "$(printf '%s\n' "${ratios[@]}" | median)"
