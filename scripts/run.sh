#!/usr/bin/env bash
# The README's two commands:
#   scripts/run.sh fuzz   install what is missing, build, run a default fuzz campaign (about a minute)
#   scripts/run.sh test   install what is missing, build, run the whole test suite with ctest
# Extra arguments after `fuzz` go to `convcheck fuzz`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="${CONVCHECK_BUILD_DIR:-$root/build}"
mode="${1:-}"
shift || true

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

case "$mode" in
  fuzz)
    cmake --build "$build" -j"$(nproc)" --target convcheck
    exec "$build/convcheck" fuzz --time 45 --report "$build/fuzz-report.json" "$@" ;;
  test)
    cmake --build "$build" -j"$(nproc)"
    cd "$build" && exec ctest --output-on-failure -j"$(nproc)" ;;
  *) echo "usage: scripts/run.sh fuzz|test" >&2; exit 2 ;;
esac
