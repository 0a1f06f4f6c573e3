#pragma once
// Runs a program to completion or to a deadline, in its own process group so a timeout kills everything it
// started. Its stdin is /dev/null; its stdout and stderr go to a file whose tail is kept for messages.

#include <string>
#include <vector>

#include "core/process/termination.hpp"

namespace convcheck {

/// How a program run by run_process ended, and the end of what it printed.
struct ProcessResult {
  Termination termination;
  std::string output_tail; // the last few hundred bytes of stdout+stderr, on one line
  /// The termination described, then the output if any: "exit 3; output: ...", "timed out after 2 s".
  std::string describe() const;
};

/// How much of a program's output messages quote: its last bytes.
inline constexpr size_t output_tail_bytes = 400;

/// `text` (the tail of a program's output) on one line: trailing blanks dropped, line breaks as '|'.
std::string one_line_tail(std::string text);

/// Runs argv[0] with `argv` (PATH is searched); output goes to `output_path`. Throws std::runtime_error only
/// when the process cannot be started at all.
ProcessResult run_process(const std::vector<std::string> &argv, double timeout_s, const std::string &output_path);

} // namespace convcheck
