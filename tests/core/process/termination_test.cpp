#include "core/process/termination.hpp"

#include <csignal>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

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

} // namespace
} // namespace convcheck
