#pragma once
// Known library bugs that a strategy steps around. A direction that would run into one is reported skipped, with a
// reason naming the bug and its upstream issue, instead of being run, so a nightly does not report the same
// upstream bug every night and a worker's heap is not corrupted by a kernel known to write past its memory.
// `--run-held-back` runs them anyway, and so does `corpus run` for the strategy of an `upstream/` case
// (core/run/corpus.hpp): that is how the corpus notices a library version that no longer has the bug.
// Process-wide, set before workers are forked.

namespace convcheck {

/// Whether strategies run the directions they would hold back (default false).
bool run_held_back();

void set_run_held_back(bool run);

} // namespace convcheck
