#pragma once
// Runs a program to completion or to a deadline, in its own process group so a timeout kills everything it
// started. Its stdin is /dev/null; its stdout and stderr go to a file whose tail is kept for messages.

#include <string>
#include <vector>

namespace convcheck {

struct ProcessResult {
  bool timed_out = false;
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it
  std::string output_tail; // the last few hundred bytes of stdout+stderr, on one line
  /// "exit 3", "killed by signal 11 (Segmentation fault)", "timed out after 2 s".
  std::string describe(double timeout_s) const;
};

/// Runs argv[0] with `argv` (PATH is searched); output goes to `output_path`. Throws std::runtime_error only
/// when the process cannot be started at all.
ProcessResult run_process(const std::vector<std::string> &argv, double timeout_s, const std::string &output_path);

} // namespace convcheck
