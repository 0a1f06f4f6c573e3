#!/usr/bin/env bash
# Per-strategy cost of one case in the steady state (bench/strategy_cost.cpp): builds the tool against an
# existing convcheck build and runs it on bench/configs.txt (or CONFIGS).
#
#   bench/strategy_cost.sh                 uses ${BUILD:-build}: run `cmake --build build --target convcheck` first
#   ROUNDS=9 STRATEGIES=naive,onednn CONFIGS=my.txt bench/strategy_cost.sh
#
# The tool links the strategies' object files straight from the build tree (as convcheck does, so that every
# strategy's self-registration is kept) and libconvcheck_core.a, with the build's compiler flags.
# Exit status: the tool's (0, or 2 on bad input); 2 when the build is missing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="${BUILD:-build}"
[[ "$build" = /* ]] || build="$root/$build"
objects=()
for object in "$build"/CMakeFiles/convcheck_oracles.dir/oracles/{,*/}*.cpp.o; do
  source="$root/oracles/${object#*/convcheck_oracles.dir/oracles/}"
  # Only objects of sources that still exist: a deleted source's object stays behind in the build tree.
  if [[ -f "${source%.o}" ]]; then objects+=("$object"); fi
done
if [[ ! -f "$build/libconvcheck_core.a" || ${#objects[@]} -eq 0 ]]; then
  echo "bench/strategy_cost.sh: no convcheck build in $build (cmake --build $build --target convcheck)" >&2
  exit 2
fi
flags=$(sed -n 's/^CXX_FLAGS = //p' "$build/CMakeFiles/convcheck_core.dir/flags.make")
tool="$build/strategy_cost"
# convcheck's own malloc, when the build links one (CMakeLists.txt: tcmalloc_minimal)
malloc=$(sed -n 's/^CONVCHECK_TCMALLOC:FILEPATH=//p' "$build/CMakeCache.txt" | grep -v NOTFOUND || true)
# shellcheck disable=SC2086 # the build's flags are a word list
c++ $flags -I"$root" "$root/bench/strategy_cost.cpp" "${objects[@]}" "$build/libconvcheck_core.a" \
  -ldnnl -lopenblas -lfmt -lrapidcheck -lhdf5_serial ${malloc:+"$malloc"} -o "$tool"
"$tool" "${CONFIGS:-$root/bench/configs.txt}" "${ROUNDS:-5}" "${STRATEGIES:-}"
