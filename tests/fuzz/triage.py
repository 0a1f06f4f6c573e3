#!/usr/bin/python3
"""Replays every input libFuzzer saved and says whose bug each one is (docs/hardening.md).

usage: triage.py FUZZER ARTIFACT_DIR [REPORT_DIR]

REPORT_DIR holds the sanitizer reports the fuzzing processes wrote (log_path): they are judged too, so a crash
that only happens after earlier inputs, and so does not replay alone, still has its stack looked at.

Debian's libhdf5 1.10.8 overflows buffers, leaks and loops forever on some corrupt files, and a short fuzz run
finds such inputs within a minute. They are not convcheck's to fix, so they must not fail CI, but each one is
replayed and listed with its stack. A finding counts as convcheck's unless the first frame of its report that
is not sanitizer, libFuzzer or libc machinery lies inside libhdf5. UndefinedBehaviorSanitizer reports are always
ours (only our code is instrumented), and so is every leak that tests/sanitize/lsan.supp does not suppress:
those need a person to look at them.

Exit status: 0 when nothing is convcheck's, 1 otherwise.
"""
import os
import re
import subprocess
import sys

# Frames look like "#3 0x7f.. in H5O__attr_exists (/lib/../libhdf5_serial.so.103+0x19518c) (BuildId: ..)",
# "#2 0x7f..  (/lib/../libhdf5_serial.so.103+0x190f18)" or "#6 0x56.. in convcheck::f(long) const /src/x.cpp:66:9":
# the location is the last word once the BuildId is gone, the function whatever stands between "in" and it.
FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+\s+(?:in (?P<function>.+) )?(?P<where>\S+)$")
BUILD_ID = re.compile(r" \(BuildId: [0-9a-f]+\)$")
# Frames that belong to the machinery between the bug and the report, never to the code at fault.
MACHINERY_FUNCTIONS = re.compile(
    r"^(__interceptor_|__asan|__lsan|__ubsan|__sanitizer|fuzzer::|__libc_|__GI_|"
    r"(malloc|calloc|realloc|free|memcpy|memmove|memset|memcmp|memchr|strlen|strnlen|strdup|strndup|strcpy|strncpy|"
    r"strcat|strncat|strcmp|strncmp|strchr|strrchr|strstr|raise|abort|gsignal)$|"
    r"operator (new|delete))")
# libc by module, or by the relative glibc source path its frames show where its debug info is installed.
MACHINERY_MODULES = re.compile(r"/libc\.so|/libclang_rt|/ld-linux|^(string|sysdeps|csu|nptl|signal|stdlib)/")
HDF5_MODULE = re.compile(r"/libhdf5[^/]*\.so")


REPORT_FILE = -1  # the "status" of a report read from a file rather than from a replay


def replay(fuzzer, artifact):
    # Full stacks (slow unwinding) so that suppressions and the printed stack see through libhdf5, which is
    # built without frame pointers.
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":fast_unwind_on_malloc=0")
    result = subprocess.run([fuzzer, "-timeout=10", "-rss_limit_mb=2048", "-malloc_limit_mb=512", artifact],
                            capture_output=True, text=True, errors="replace", env=env, timeout=120)
    return result.returncode, result.stdout + result.stderr


def first_stack(report):
    """(function, module) of each frame of the report's first stack."""
    frames, started = [], False
    for line in report.splitlines():
        match = FRAME.match(BUILD_ID.sub("", line))
        if match:
            started = True
            frames.append((match.group("function") or "?", match.group("where")))
        elif started:
            break
    return frames


KINDS = [("leak", r"LeakSanitizer: detected memory leaks"), ("undefined behaviour", r"runtime error:"),
         ("uncaught exception", r"terminate called"), ("timeout", r"libFuzzer: timeout"),
         ("out of memory", r"libFuzzer: out-of-memory"), ("asan", r"SUMMARY: AddressSanitizer: ([\w-]+)"),
         ("asan", r"AddressSanitizer: ([\w-]+)"),
         ("deadly signal", r"libFuzzer: deadly signal")]


def kind_of(report):
    for kind, pattern in KINDS:
        match = re.search(pattern, report)
        if match:
            return match.group(1) if match.groups() else kind
    return None


def classify(status, report):
    """(owner, summary): owner is 'libhdf5', 'convcheck', or None when no owner can be told."""
    kind = kind_of(report)
    if status == 0 and kind is None:
        return None, "no longer fails when replayed alone"
    if "out-of-memory (used:" in report:
        # Resident memory over the limit without any single allocation over -malloc_limit_mb: the stacks
        # printed are the largest live allocations, not a culprit (ASan keeps freed memory mapped).
        return None, "resident memory over the limit, no single large allocation to blame"
    # A report file holding only a stack is what libFuzzer's timeout and signal handlers print through the
    # sanitizer; their own message goes to the fuzzing log.
    kind = kind or (f"exit status {status}" if status != REPORT_FILE else "hang or signal caught by libFuzzer")
    frames = first_stack(report)
    culprit = next(((function, where) for function, where in frames
                    if not MACHINERY_FUNCTIONS.match(function) and not MACHINERY_MODULES.search(where)), None)
    caller = next((function.replace("(anonymous namespace)::", "").split("(")[0] for function, where in frames
                   if "convcheck::" in function), "?")
    hdf5_functions = [function for function, where in frames if HDF5_MODULE.search(where) and function != "?"]
    # Named functions only: a hang's program counter differs from one replay to the next.
    where = ", ".join(hdf5_functions[:3]) or (culprit[0] if culprit else "?")
    summary = f"{kind} in {where}, called from {caller}"
    in_hdf5 = culprit is not None and HDF5_MODULE.search(culprit[1]) is not None
    ours = kind in ("leak", "undefined behaviour") or not in_hdf5
    return ("convcheck" if ours else "libhdf5"), summary


def main():
    fuzzer, artifact_dir = sys.argv[1], sys.argv[2]
    artifacts = sorted(os.path.join(artifact_dir, name) for name in os.listdir(artifact_dir))
    reports = sorted(os.path.join(sys.argv[3], name) for name in os.listdir(sys.argv[3])) if len(sys.argv) > 3 else []
    hdf5, ours = {}, 0

    def judge(source, status, report):
        nonlocal ours
        owner, summary = classify(status, report)
        if owner == "convcheck":
            ours += 1
            print(f"CONVCHECK BUG: {source}: {summary}")
            print("\n".join("    " + line for line in report.splitlines()[:80]))
        elif owner == "libhdf5":
            hdf5.setdefault(summary, []).append(source)
        else:
            print(f"unclassified: {source}: {summary}")

    for artifact in artifacts:
        judge(artifact, *replay(fuzzer, artifact))
    for report in reports:
        with open(report, errors="replace") as text:
            judge(report, REPORT_FILE, text.read())
    for summary, sources in hdf5.items():
        print(f"inside libhdf5, not ours: {summary}: {len(sources)} time(s), e.g. {sources[0]}")
    print(f"triage: {len(artifacts)} saved inputs and {len(reports)} sanitizer reports; {len(hdf5)} distinct "
          f"findings inside libhdf5, {ours} in convcheck")
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main())
