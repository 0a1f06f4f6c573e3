#!/usr/bin/env bash
# The README's commands:
#   scripts/run.sh fuzz                  install what is missing, build, run a default fuzz campaign (about a minute)
#   scripts/run.sh test                  install what is missing, build, run the whole test suite with ctest
#   scripts/run.sh sanitize              the test suite again (less the frameworks'), built with ASan + UBSan (docs/hardening.md)
#   scripts/run.sh fuzz-reader [SECONDS] libFuzzer on the case-file and result-file readers (default 60 s)
# Each installs what it needs (scripts/install-deps.sh SET): fuzz only the compiler and libraries, test and sanitize
# also what the interop tests drive (h5py, PyTorch, Chromium, Slurm). Extra arguments after `fuzz` go to
# `convcheck fuzz`. Build directories: build/ (or $CONVCHECK_BUILD_DIR),
# build-sanitize/ ($CONVCHECK_SANITIZE_BUILD_DIR), build-fuzz/ ($CONVCHECK_FUZZ_BUILD_DIR).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mode="${1:-}"
shift || true
jobs=$(nproc)

configure() { # BUILD_DIR [CMAKE_ARGS...]
  cmake -S "$root" -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${@:2}" >/dev/null
}

# Sanitizer settings for everything run from a sanitized build, the build itself included: gtest_discover_tests
# runs each test binary when it is linked. A report is fatal; leaks are reported at exit; third-party leaks that
# are not ours to fix are suppressed in tests/sanitize/lsan.supp, one commented entry each.
sanitizer_environment() {
  local asan="detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1"
  export ASAN_OPTIONS="$asan:${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
  export LSAN_OPTIONS="suppressions=$root/tests/sanitize/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
}

case "$mode" in
  fuzz)
    "$root/scripts/install-deps.sh" fuzz
    build="${CONVCHECK_BUILD_DIR:-$root/build}"
    configure "$build"
    cmake --build "$build" -j"$jobs" --target convcheck
    # exec'd: the report's worker peak RSS is each worker's own (wait4), not the compiler's from the build above
    exec "$build/convcheck" fuzz --time 45 --report "$build/fuzz-report.json" "$@" ;;
  test)
    "$root/scripts/install-deps.sh" test
    build="${CONVCHECK_BUILD_DIR:-$root/build}"
    configure "$build" -DCONVCHECK_TORCH=ON # the torch strategies on venvs/torch's libtorch 2.15, which test installs
    cmake --build "$build" -j"$jobs"
    cd "$build" && exec ctest --output-on-failure -j"$jobs" ;;
  sanitize)
    "$root/scripts/install-deps.sh" sanitize
    build="${CONVCHECK_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
    sanitizer_environment
    # handle_segv=0: a SIGSEGV kills the process by the signal, as in a normal build, instead of ASan printing a
    # symbolized report first: the crash mutant (scratch_unallocated) dies hundreds of times in the suite, and every
    # access ASan instruments is still checked. (Not for fuzz-reader, whose triage reads ASan's SEGV reports.)
    export ASAN_OPTIONS="$ASAN_OPTIONS:handle_segv=0"
    configure "$build" -DCONVCHECK_SANITIZE=ON
    cmake --build "$build" -j"$jobs"
    # Less the tests labelled `framework` (a Python framework's process per case or per server: PyTorch, the server
    # rooms): what the sanitizers instrument is convcheck's side of those protocols, which tests/cmd/ drives here with
    # its own servers and commands; the frameworks' processes are not instrumented, and they are a quarter of the time.
    cd "$build" && exec ctest --output-on-failure -j"$jobs" -LE framework ;;
  fuzz-reader)
    "$root/scripts/install-deps.sh" fuzz-reader
    seconds="${1:-60}"
    build="${CONVCHECK_FUZZ_BUILD_DIR:-$root/build-fuzz}"
    CC=clang-14 CXX=clang++-14 configure "$build" -DCONVCHECK_FUZZERS=ON
    cmake --build "$build" -j"$jobs" --target case_file_fuzzer
    # libFuzzer adds what it finds to its corpus directory: a scratch copy keeps the committed seeds as they are.
    corpus="$build/fuzz-corpus" artifacts="$build/fuzz-artifacts" fuzzer="$build/tests/fuzz/case_file_fuzzer"
    rm -rf "$corpus" "$artifacts" "$build/fuzz-tmp" && mkdir -p "$corpus" "$artifacts" "$build/fuzz-tmp"
    cp "$root"/tests/fuzz/seeds/valid/* "$root"/tests/fuzz/seeds/malformed/* "$corpus/"
    sanitizer_environment
    export TMPDIR="$build/fuzz-tmp" # the harness's scratch files, one per process
    # libhdf5 crashes, leaks and hangs on some corrupt files (docs/hardening.md): fork mode keeps fuzzing past
    # them, saving each input, and triage.py then replays every saved input and fails only for convcheck's own.
    # Fork mode keeps only the first line of a child's report, so the sanitizers write theirs to files too: a
    # crash that depends on earlier inputs and does not replay alone is still judged by its stack.
    # Slow unwinding, 10 frames deep, lets the leak suppressions see through libhdf5 (no frame pointers). Any
    # single allocation over 512 MB is reported with its stack (the harness's own stay under 8 MB), so memory
    # blow-ups are judged like crashes instead of as a bare RSS total.
    reports="$build/fuzz-reports"
    rm -rf "$reports" && mkdir -p "$reports"
    ASAN_OPTIONS="fast_unwind_on_malloc=0:malloc_context_size=10:$ASAN_OPTIONS:log_path=$reports/asan" \
      UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$reports/ubsan" "$fuzzer" -fork="$jobs" -ignore_crashes=1 \
      -ignore_timeouts=1 -ignore_ooms=1 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -print_funcs=0 \
      -max_total_time="$seconds" -artifact_prefix="$artifacts/" "$corpus" >"$build/fuzz-reader.log" 2>&1 ||
      true # fork mode exits with the last job's status, crash or not: triage.py judges

    grep -E '^#[0-9]+:|^INFO: (fuzzed|exiting)' "$build/fuzz-reader.log" || true
    if ! grep -q '^INFO: exiting:' "$build/fuzz-reader.log"; then
      tail -40 "$build/fuzz-reader.log"
      echo "fuzz-reader: libFuzzer did not finish (log: $build/fuzz-reader.log)" >&2
      exit 1
    fi
    exec /usr/bin/python3 "$root/tests/fuzz/triage.py" "$fuzzer" "$artifacts" "$reports" ;;
  *) echo "usage: scripts/run.sh fuzz|test|sanitize|fuzz-reader [SECONDS]" >&2; exit 2 ;;
esac
