#include "core/process/reap.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <thread>

#include <sys/resource.h>
#include <sys/wait.h>

namespace convcheck {

bool exited_by(pid_t pid, Clock::time_point deadline) {
  siginfo_t info{};
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    // WNOWAIT: look, do not reap. An error other than EINTR (no such child) ends the wait as an exit would.
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
      if (errno == EINTR) continue;
      return true;
    }
    if (info.si_pid != 0) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

Reaped kill_and_reap(pid_t pid, Kill kill) {
  if (kill == Kill::group) ::kill(-pid, SIGKILL);
  if (kill == Kill::process) ::kill(pid, SIGKILL);
  Reaped reaped;
  rusage usage{};
  while (wait4(pid, &reaped.status, 0, &usage) < 0 && errno == EINTR) {
  }
  reaped.peak_rss_kib = usage.ru_maxrss;
  return reaped;
}

} // namespace convcheck
