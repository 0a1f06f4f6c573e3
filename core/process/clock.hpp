#pragma once
// The clock convcheck times its work with: the steady clock, a vDSO read, not the thread CPU clock, which is a
// system call on the project's VMs and costs fifty times as much (docs/performance.md, "Machine figures behind the
// code").

#include <chrono>

namespace convcheck {

using Clock = std::chrono::steady_clock;

/// Seconds from `start` to now.
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace convcheck
