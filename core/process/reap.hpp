#pragma once
// Ending a child process, written once for the four runners that start one (the per-case command, a server, a
// forked call, a case worker): wait for it to exit without reaping it, kill it or its process group, reap it.

#include <cstdint>

#include <sys/types.h>

#include "core/process/clock.hpp"

namespace convcheck {

/// Waits until child `pid` has exited or `deadline` has passed, without reaping it; true if it exited. While a child
/// is unreaped its pid, and so its process group id, cannot be reused, so a kill of its group after this reaches
/// only what the child itself left running.
bool exited_by(pid_t pid, Clock::time_point deadline);

/// What `kill_and_reap` sends SIGKILL to first.
enum class Kill { nothing, process, group };

/// How a reaped child ended.
struct Reaped {
  int status = 0;           ///< its wait status
  int64_t peak_rss_kib = 0; ///< its largest resident set
};

/// Kills child `pid` (its process group, which ends what it started too, when `kill` is Kill::group), then reaps it.
Reaped kill_and_reap(pid_t pid, Kill kill);

} // namespace convcheck
