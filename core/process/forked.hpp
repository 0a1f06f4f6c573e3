#pragma once
// Calls run in forked child processes, so that a strategy that segfaults, aborts or never returns costs one
// call instead of the whole run. The child inherits the parent's memory (strategies, configs, loaded cases), runs
// the call, sends back the bytes it returns through a pipe and exits with _exit, without running destructors.
// Fork is only safe from a process with one thread: convcheck forks from its main thread before it starts any
// (and pins OpenBLAS and oneDNN to the calling thread), and every child is single-threaded too.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <sys/types.h>

#include "core/process/termination.hpp"

namespace convcheck {

/// How a forked call ended: it returned (its child exited 0), threw, crashed or timed out.
struct ForkedEnd {
  Termination termination;
  std::string payload; // the call's return value, when it returned
  int64_t peak_rss_kib = 0; // the child's own peak resident set (wait4)
  /// True when the call returned a value (in `payload`).
  bool returned() const { return termination.succeeded(); }
};

/// Runs each call in a child of its own, at most `parallel` at a time, each killed after `timeout_s`; returns how
/// each ended, in the order of `calls`. A call that throws ends as Termination::Kind::threw, with its message.
std::vector<ForkedEnd> run_forked(const std::vector<std::function<std::string()>> &calls, int parallel,
                                  double timeout_s);

/// Forks a child that runs `body(write_end)` and exits; the parent gets the child's pid and the read end of a pipe
/// from it (close-on-exec). Throws std::runtime_error when fork or pipe fails.
pid_t fork_child(const std::function<int(int write_end)> &body, int *read_end);

/// Writes all of `bytes` as one message (a 64-bit length, then the bytes); false if the reader is gone.
bool write_message(int fd, const std::string &bytes);

/// No message between convcheck's processes comes near this; a longer length is a broken writer, not a request.
inline constexpr uint64_t largest_message = uint64_t{1} << 30;

/// Reads one message written by write_message, blocking; false at end of file, on a short read, or when the
/// length is over largest_message.
bool read_message(int fd, std::string &bytes);

} // namespace convcheck
