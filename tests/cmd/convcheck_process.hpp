#pragma once
// Runs the convcheck binary under test (or any command) as a user would, capturing its exit status and its
// stdout+stderr.

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

namespace convcheck::testing {

struct Invocation {
  int status; // exit status, -1 when killed by a signal
  std::string output;
};

/// `COMMAND` through the shell, with stderr folded into the output.
inline Invocation run_shell(const std::string &command) {
  FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  std::string output;
  std::array<char, 4096> buffer{};
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

/// `ENVIRONMENT convcheck ARGS` through the shell (ARGS may quote and redirect; ENVIRONMENT is assignments such
/// as "TMPDIR=/x"), with stderr folded into the output.
inline Invocation run_convcheck(const std::string &args, const std::string &environment = "") {
  return run_shell(environment + " " + CONVCHECK_BINARY + " " + args);
}

/// A JSON file (a --report), parsed.
inline nlohmann::json read_json(const std::string &path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

/// A text file (a --junit or --html report), whole.
inline std::string read_text(const std::string &path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A fixture giving each test a fresh directory of its own (ctest runs tests in parallel processes).
class ScratchDirectoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 (std::string("convcheck-") + ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() +
                  "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  /// `name` inside the test's directory.
  std::string path(const std::string &name) const { return (directory_ / name).string(); }
  std::filesystem::path directory_;
};

} // namespace convcheck::testing
