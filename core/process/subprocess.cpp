#include "core/process/subprocess.hpp"

#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/process/clock.hpp"
#include "core/process/reap.hpp"

namespace convcheck {

namespace {

std::string read_tail(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > output_tail_bytes) text = "..." + text.substr(text.size() - output_tail_bytes);
  return one_line_tail(std::move(text));
}

} // namespace

std::string one_line_tail(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char &c : text)
    if (c == '\n' || c == '\r') c = '|';
  return text;
}

std::string ProcessResult::describe() const {
  std::string text = termination.describe();
  if (!output_tail.empty()) text += fmt::format("; output: {}", output_tail);
  return text;
}

ProcessResult run_process(const std::vector<std::string> &argv, double timeout_s, const std::string &output_path) {
  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls are allowed.
  std::vector<char *> args;
  for (const std::string &arg : argv) args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  const int output = open(output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int null_input = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (output < 0 || null_input < 0) throw std::runtime_error("cannot open files for a child process");
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    // Forked workers ignore the terminal's SIGINT and SIGTERM; ignored signals survive exec, and a command
    // should start as any other program does.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    dup2(null_input, STDIN_FILENO);
    dup2(output, STDOUT_FILENO);
    dup2(output, STDERR_FILENO);
    // Libraries do not all open files close-on-exec (HDF5 does not): without this, a command started while
    // another thread has a case file open inherits that file and its lock, and the sibling command cannot open
    // its own input.
    close_range(3, ~0U, 0);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(output);
  close(null_input);
  if (pid < 0) throw std::runtime_error(fmt::format("cannot start {}: fork failed", argv[0]));
  setpgid(pid, pid); // also from the parent, so the group exists before any kill below

  ProcessResult result;
  const bool timed_out = !exited_by(pid, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                            std::chrono::duration<double>(timeout_s)));
  // The group too: what the command left running ends with it.
  const Reaped reaped = kill_and_reap(pid, Kill::group);
  result.termination =
      timed_out ? Termination::timed_out_after(timeout_s) : Termination::from_wait_status(reaped.status);
  result.output_tail = read_tail(output_path);
  return result;
}

} // namespace convcheck
