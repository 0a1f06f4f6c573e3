#include "core/process/termination.hpp"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/process/forked.hpp"
#include "core/process/subprocess.hpp"

namespace convcheck {
namespace {

// The waitpid status of a child that runs `body` (async-signal-safe calls only: the test binary may have threads).
template <typename Body> int wait_status_of(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(99);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

TEST(Termination, EachWayOfEndingIsDescribed) {
  EXPECT_EQ(Termination::exited_with(0).describe(), "exit 0");
  EXPECT_EQ(Termination::exited_with(3).describe(), "exit 3");
  EXPECT_EQ(Termination::killed_by(SIGSEGV).describe(), "killed by signal 11 (Segmentation fault)");
  EXPECT_EQ(Termination::killed_by(SIGABRT).describe(), "killed by signal 6 (Aborted)");
  EXPECT_EQ(Termination::timed_out_after(2).describe(), "timed out after 2 s");
  EXPECT_EQ(Termination::timed_out_after(0.5).describe(), "timed out after 0.5 s");
  EXPECT_EQ(Termination::threw("cannot open case file x.h5").describe(), "threw: cannot open case file x.h5");
}

TEST(Termination, OnlyACleanExitSucceeds) {
  EXPECT_TRUE(Termination{}.succeeded());
  EXPECT_TRUE(Termination::exited_with(0).succeeded());
  EXPECT_FALSE(Termination::exited_with(1).succeeded());
  EXPECT_FALSE(Termination::killed_by(SIGKILL).succeeded());
  EXPECT_FALSE(Termination::timed_out_after(1).succeeded());
  EXPECT_FALSE(Termination::threw("x").succeeded());
}

TEST(Termination, ReadsAWaitStatus) {
  const Termination exited = Termination::from_wait_status(wait_status_of([] { _exit(3); }));
  EXPECT_EQ(exited.kind, Termination::Kind::exited);
  EXPECT_EQ(exited.exit_code, 3);
  EXPECT_EQ(exited.describe(), "exit 3");

  const Termination killed = Termination::from_wait_status(wait_status_of([] { kill(getpid(), SIGTERM); }));
  EXPECT_EQ(killed.kind, Termination::Kind::signaled);
  EXPECT_EQ(killed.signal, SIGTERM);
  EXPECT_EQ(killed.describe(), "killed by signal 15 (Terminated)");
}

// The same end reads the same whichever runner saw it.
TEST(Termination, ForkedCallsAndCommandsDescribeAnEndAlike) {
  const std::vector<ForkedEnd> ends = run_forked(
      {[]() -> std::string { _exit(3); }, []() -> std::string { raise(SIGSEGV); return "unreachable"; },
       []() -> std::string { pause(); return "unreachable"; },
       []() -> std::string { throw std::runtime_error("no such file"); }, [] { return std::string("value"); }},
      5, 0.5);
  ASSERT_EQ(ends.size(), 5u);
  EXPECT_EQ(ends[0].termination.describe(), "exit 3");
  EXPECT_EQ(ends[1].termination.describe(), "killed by signal 11 (Segmentation fault)");
  EXPECT_EQ(ends[2].termination.describe(), "timed out after 0.5 s");
  EXPECT_EQ(ends[3].termination.kind, Termination::Kind::threw);
  EXPECT_EQ(ends[3].termination.describe(), "threw: no such file");
  EXPECT_TRUE(ends[4].returned());
  EXPECT_EQ(ends[4].payload, "value");
  for (size_t i = 0; i < 4; ++i) EXPECT_FALSE(ends[i].returned()) << i;

  const std::string output = (std::filesystem::temp_directory_path() /
                              ("termination_test_" + std::to_string(getpid()) + ".txt"))
                                 .string();
  const auto command = [&](const std::string &script) {
    return run_process({"/bin/sh", "-c", script}, 0.5, output);
  };
  EXPECT_EQ(command("exit 3").describe(), "exit 3");
  EXPECT_EQ(command("ulimit -c 0; kill -SEGV $$").describe(), "killed by signal 11 (Segmentation fault)");
  EXPECT_EQ(command("sleep 10").describe(), "timed out after 0.5 s");
  EXPECT_EQ(command("echo said; exit 1").describe(), "exit 1; output: said");
  EXPECT_TRUE(command("true").termination.succeeded());
  std::filesystem::remove(output);
}

} // namespace
} // namespace convcheck
