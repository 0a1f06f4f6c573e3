#!/usr/bin/env bash
# Per-strategy cost of one case in the steady state (bench/strategy_cost.cpp): builds the tool against an
# existing convcheck build and runs it on bench/configs.txt (or CONFIGS).
#
#   bench/strategy_cost.sh                 uses the build in ${BUILD:-build}
#   ROUNDS=9 STRATEGIES=naive,onednn CONFIGS=my.txt bench/strategy_cost.sh
#
# The tool is the build's `strategy_cost` target (CMakeLists.txt): every strategy the build has, with its flags and
# its malloc. Exit status: the tool's (0, or 2 on bad input); 2 when the build is missing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="${BUILD:-build}"
[[ "$build" = /* ]] || build="$root/$build"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  echo "bench/strategy_cost.sh: no convcheck build in $build (cmake -S . -B $build)" >&2
  exit 2
fi
cmake --build "$build" --target strategy_cost >&2
"$build/strategy_cost" "${CONFIGS:-$root/bench/configs.txt}" "${ROUNDS:-5}" "${STRATEGIES:-}"
