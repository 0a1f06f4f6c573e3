#!/usr/bin/env bash
# The default one-worker fuzz rate of two convcheck binaries side by side: `fuzz --cases CASES --threads 1
# --seed SEED`, alternating BASE and NEW for ROUNDS rounds. Per run, the rate fuzz prints (cases over the
# campaign's wall time) and cases per CPU second (user + system time of the whole process tree, /usr/bin/time):
# on a shared machine the wall rate swings with other jobs, the CPU rate much less. Prints each round's figures and
# the new/base ratios, then the medians.
#   BASE=/tmp/convcheck_main NEW=build/convcheck ROUNDS=7 bench/fuzz_rate.sh
set -euo pipefail
BASE=${BASE:?BASE: the convcheck binary to compare against, e.g. a build of main}
NEW=${NEW:-build/convcheck}
ROUNDS=${ROUNDS:-7}
CASES=${CASES:-6000}
SEED=${SEED:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # "wall-rate cpu-rate" of one fuzz run
  /usr/bin/time -f '%U %S' -o "$work/time" "$1" fuzz --cases "$CASES" --threads 1 --seed "$SEED" \
    --report "$work/r.json" > "$work/out" 2>&1 || true
  local wall cpu
  wall=$(sed -n 's/.*(\([0-9.]*\) cases\/s).*/\1/p' "$work/out" | head -1)
  cpu=$(awk -v c="$CASES" 'END { printf "%.0f", c / ($1 + $2) }' "$work/time")
  echo "$wall $cpu"
}
ratio() { awk -v n="$1" -v b="$2" 'BEGIN { printf "%.3f", n / b }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

wall_ratios=() cpu_ratios=() base_wall=() new_wall=() base_cpu=() new_cpu=()
for round in $(seq "$ROUNDS"); do
  if ((round % 2)); then read -r bw bc <<< "$(run "$BASE")"; read -r nw nc <<< "$(run "$NEW")"
  else read -r nw nc <<< "$(run "$NEW")"; read -r bw bc <<< "$(run "$BASE")"; fi
  echo "round $round: base $bw cases/s ($bc per CPU s), new $nw cases/s ($nc per CPU s), new/base $(ratio "$nw" "$bw") ($(ratio "$nc" "$bc") per CPU s)"
  base_wall+=("$bw") new_wall+=("$nw") base_cpu+=("$bc") new_cpu+=("$nc")
  wall_ratios+=("$(ratio "$nw" "$bw")") cpu_ratios+=("$(ratio "$nc" "$bc")")
done
echo "median: base $(median "${base_wall[@]}") cases/s ($(median "${base_cpu[@]}") per CPU s)," \
  "new $(median "${new_wall[@]}") cases/s ($(median "${new_cpu[@]}") per CPU s)," \
  "new/base $(median "${wall_ratios[@]}") ($(median "${cpu_ratios[@]}") per CPU s)"
