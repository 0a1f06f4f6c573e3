#pragma once
// Runs the convcheck binary under test as a user would, capturing its exit status and its stdout+stderr.

#include <array>
#include <cstdio>
#include <string>

#include <sys/wait.h>

namespace convcheck::testing {

struct Invocation {
  int status; // exit status, -1 when killed by a signal
  std::string output;
};

/// `ENVIRONMENT convcheck ARGS` through the shell (ARGS may quote and redirect; ENVIRONMENT is assignments such
/// as "TMPDIR=/x"), with stderr folded into the output.
inline Invocation run_convcheck(const std::string &args, const std::string &environment = "") {
  FILE *pipe = popen((environment + " " + CONVCHECK_BINARY + " " + args + " 2>&1").c_str(), "r");
  std::string output;
  std::array<char, 4096> buffer{};
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

} // namespace convcheck::testing
