#include "core/process/forked.hpp"

#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/process/clock.hpp"
#include "core/process/reap.hpp"

namespace convcheck {

namespace {

// A child ignores the terminal's SIGINT (the parent decides when to stop and lets calls in flight finish), dies
// with its parent, and leaves no core file behind when it crashes: a crash is a finding, not a 1 GiB file.
void become_child() {
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
}

bool write_all(int fd, const char *data, size_t size) {
  while (size > 0) {
    const ssize_t written = write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

bool read_all(int fd, char *data, size_t size) {
  while (size > 0) {
    const ssize_t got = read(fd, data, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    data += got;
    size -= static_cast<size_t>(got);
  }
  return true;
}

struct Running {
  size_t call = 0;
  pid_t pid = -1;
  int from_child = -1;
  Clock::time_point deadline;
  std::string bytes;
};

// A call that throws sends its message and exits with this code.
constexpr int threw_exit_code = 3;

// Reaps a child whose pipe is closed (or that is past its deadline) and says how it ended.
ForkedEnd finish(Running &running, bool timed_out, double timeout_s) {
  const Reaped reaped = kill_and_reap(running.pid, timed_out ? Kill::process : Kill::nothing);
  const int status = reaped.status;
  close(running.from_child);
  ForkedEnd end;
  end.peak_rss_kib = reaped.peak_rss_kib;
  if (timed_out) {
    end.termination = Termination::timed_out_after(timeout_s);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == threw_exit_code && !running.bytes.empty()) {
    end.termination = Termination::threw(std::move(running.bytes));
  } else {
    end.termination = Termination::from_wait_status(status);
    if (end.returned()) end.payload = std::move(running.bytes);
  }
  return end;
}

} // namespace

// One write for the length and the bytes: each write may wake the reader, which is the expensive part.
bool write_message(int fd, const std::string &bytes) {
  const uint64_t size = bytes.size();
  std::string message(reinterpret_cast<const char *>(&size), sizeof size);
  message += bytes;
  return write_all(fd, message.data(), message.size());
}

bool read_message(int fd, std::string &bytes) {
  uint64_t size = 0;
  if (!read_all(fd, reinterpret_cast<char *>(&size), sizeof size) || size > largest_message) return false;
  bytes.resize(size);
  return read_all(fd, bytes.data(), size);
}

pid_t fork_child(const std::function<int(int write_end)> &body, int *read_end) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe failed: {}", strerror(errno)));
  const pid_t pid = fork();
  if (pid == 0) {
    close(ends[0]);
    become_child();
    _exit(body(ends[1]));
  }
  close(ends[1]);
  if (pid < 0) {
    close(ends[0]);
    throw std::runtime_error(fmt::format("fork failed: {}", strerror(errno)));
  }
  *read_end = ends[0];
  return pid;
}

std::vector<ForkedEnd> run_forked(const std::vector<std::function<std::string()>> &calls, int parallel,
                                  double timeout_s) {
  std::vector<ForkedEnd> ends(calls.size());
  std::vector<Running> running;
  size_t next = 0;
  const auto timeout = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  while (next < calls.size() || !running.empty()) {
    while (next < calls.size() && static_cast<int>(running.size()) < std::max(parallel, 1)) {
      Running child{next, -1, -1, Clock::now() + timeout, {}};
      const std::function<std::string()> &call = calls[next];
      child.pid = fork_child(
          [&call](int to_parent) {
            try {
              const std::string bytes = call();
              return write_all(to_parent, bytes.data(), bytes.size()) ? 0 : 4;
            } catch (const std::exception &exception) {
              const std::string message = exception.what();
              write_all(to_parent, message.data(), message.size());
              return threw_exit_code;
            }
          },
          &child.from_child);
      running.push_back(std::move(child));
      ++next;
    }
    std::vector<pollfd> fds;
    Clock::time_point soonest = Clock::time_point::max();
    for (const Running &child : running) {
      fds.push_back({child.from_child, POLLIN, 0});
      soonest = std::min(soonest, child.deadline);
    }
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(soonest - Clock::now()).count() + 1;
    if (poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(wait, 0))) < 0 && errno != EINTR)
      throw std::runtime_error(fmt::format("poll failed: {}", strerror(errno)));
    for (size_t i = running.size(); i-- > 0;) {
      Running &child = running[i];
      bool closed = false;
      if (fds[i].revents != 0) {
        char buffer[4096];
        const ssize_t got = read(child.from_child, buffer, sizeof buffer);
        if (got > 0) child.bytes.append(buffer, static_cast<size_t>(got));
        closed = got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN);
      }
      const bool late = !closed && Clock::now() >= child.deadline;
      if (!closed && !late) continue;
      ends[child.call] = finish(child, late, timeout_s);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return ends;
}

} // namespace convcheck
