#!/usr/bin/env bash
# The default one-worker fuzz of two builds, side by side, in instructions: what bench/rate_ab.sh measures in
# cases/s, counted by valgrind's callgrind instead of timed, so a shared or virtual machine's noise cannot move it.
#
#   bench/instructions_ab.sh A/convcheck B/convcheck     # SEEDS (8) seeds, CASES (1000) cases each
#   SEEDS=4 CASES=2000 bench/instructions_ab.sh old new
#
# Each seed runs `fuzz --cases CASES --threads 1 --seed SEED` under `valgrind --tool=callgrind --trace-children=yes`
# for A and for B (the two side by side, one per core), with --worker-max-cases CASES so that the one worker, as in
# a default campaign, retires after the last case and writes its counts (a worker killed at the end writes none),
# and sums the instructions of the campaign process and its worker. Each line also gives the multiply-adds the seed draws (`configs --stats`, all directions, mean a case):
# two builds whose generators differ draw different problems for the same seed, and a seed of 1,000 cases can draw
# a quarter more or less work than another, so compare the totals over many seeds, not one seed's ratio. A seed
# takes about a minute under callgrind. Exit status: 0 when the table was printed, 2 when a binary cannot run.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: bench/instructions_ab.sh A/convcheck B/convcheck" >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "bench/instructions_ab.sh: valgrind is not installed" >&2; exit 2; }
a_binary=$(realpath "$1") b_binary=$(realpath "$2")
for binary in "$a_binary" "$b_binary"; do
  if [[ ! -x "$binary" ]]; then
    echo "bench/instructions_ab.sh: $binary is not an executable" >&2
    exit 2
  fi
done
cases="${CASES:-1000}"
seeds="${SEEDS:-8}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions (in units of 1e9) of one campaign of binary $1, seed $2, counted in directory $3.
count() {
  mkdir -p "$3"
  (cd "$3" && valgrind --tool=callgrind --trace-children=yes "$1" fuzz --cases "$cases" --threads 1 --seed "$2" \
     --case-timeout 3000 --worker-max-cases "$cases" --corpus "$3/findings" > log.txt 2>&1) || true
  cat "$3"/callgrind.out.* 2>/dev/null | awk '/^summary:/ { s += $2 } END { if (s == 0) exit 1; printf "%.3f", s / 1e9 }'
}
work_of() { "$1" configs --cases "$cases" --seed "$2" --stats 2>&1 | grep -oE 'mean work [0-9]+' | grep -oE '[0-9]+'; }

echo "seed   A G instr   B G instr    B/A   A madds/case  B madds/case   (fuzz --cases $cases --threads 1)"
a_total=0 b_total=0
for seed in $(seq 1 "$seeds"); do
  count "$a_binary" "$seed" "$work/a$seed" > "$work/a$seed.g" &
  count "$b_binary" "$seed" "$work/b$seed" > "$work/b$seed.g" &
  if ! wait %1 || ! wait %2; then
    echo "bench/instructions_ab.sh: a campaign of seed $seed wrote no counts (see its log.txt)" >&2
    exit 2
  fi
  a=$(cat "$work/a$seed.g") b=$(cat "$work/b$seed.g")
  printf '%4d %11s %11s %7s %13s %13s\n' "$seed" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')" \
    "$(work_of "$a_binary" "$seed")" "$(work_of "$b_binary" "$seed")"
  a_total=$(awk -v t="$a_total" -v v="$a" 'BEGIN { print t + v }')
  b_total=$(awk -v t="$b_total" -v v="$b" 'BEGIN { print t + v }')
done
printf 'all  %11.3f %11.3f %7s\n' "$a_total" "$b_total" "$(awk -v a="$a_total" -v b="$b_total" 'BEGIN { printf "%.3f", b / a }')"
