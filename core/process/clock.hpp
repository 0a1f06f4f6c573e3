#pragma once
// The clock convcheck times its work with: the steady clock, a vDSO read (25 ns on the project's VMs), not the
// thread CPU clock, which is a system call there (1.3 us; docs/performance.md).

#include <chrono>

namespace convcheck {

using Clock = std::chrono::steady_clock;

/// Seconds from `start` to now.
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace convcheck
