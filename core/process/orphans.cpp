#include "core/process/orphans.hpp"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace convcheck {

OrphanReaper::OrphanReaper() { prctl(PR_SET_CHILD_SUBREAPER, 1); }

OrphanReaper::~OrphanReaper() {
  // /proc/self/task/*/children lists each thread's children; adopted orphans are the main thread's.
  std::error_code error;
  for (const auto &task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    std::ifstream children(task.path() / "children");
    for (pid_t child; children >> child;) {
      const pid_t group = getpgid(child);
      if (group > 0 && group != getpgrp()) kill(-group, SIGKILL);
      kill(child, SIGKILL);
    }
  }
  // Reap them all, and whatever they left to us while they died.
  while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
  }
}

} // namespace convcheck
