#pragma once
// Workers are replaced before memory a library keeps grows without bound. Over a night of millions of cases, what
// libtorch and oneDNN keep per process (their primitive caches, the kernels they JIT-compile, glibc arenas
// fragmented by tensors of every size) grew a worker from about 120 MiB a few minutes in to over 900 MiB in an
// hour (docs/performance.md, "Memory through a night"). A worker therefore retires, between two cases, once it has
// run `max_cases` cases or its peak resident set has passed `max_rss_mib`: it answers what it ran, says it retires
// and exits; the pool hands the jobs it had not run to a fresh worker forked from the campaign's process (which
// holds the warmed-up state, not the growth). Each case is a pure function of (seed, index), so verdicts and
// reports do not change; only timings do, by one worker start per recycling.

#include <cstdint>

namespace convcheck {

struct WorkerRecycling {
  /// Cases a worker runs before it is replaced; 0: no limit. At a default campaign's rate (about 2,000 cases/s a
  /// worker) that is a replacement every couple of minutes; with every strategy on (about 150 cases/s here) every
  /// 20 minutes or so. Each costs a fork and a fresh worker's first cases (page faults, kernels JIT-compiled again).
  int64_t max_cases = 200'000;
  /// Peak resident set, in MiB, past which a worker is replaced after its current case; 0: no limit. Two workers
  /// of 1 GiB each, the campaign's process and a server of similar size stay under a sixth of a 24 GiB machine.
  int64_t max_rss_mib = 1024;

  /// Whether a worker that has run `cases_run` cases should retire now (reads its own peak resident set).
  bool due(int64_t cases_run) const;
};

} // namespace convcheck
