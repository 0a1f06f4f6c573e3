#include "core/process/server_process.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/process/clock.hpp"
#include "core/process/forked.hpp"
#include "core/process/reap.hpp"
#include "core/process/subprocess.hpp"

namespace convcheck {

namespace {

constexpr char frame_magic[4] = {'C', 'C', 'K', 'F'};
constexpr size_t frame_prefix = 16; // magic, header length, payload length

// Milliseconds to `deadline`, rounded up, for poll.
int milliseconds_to(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count() + 1;
  return static_cast<int>(std::clamp<int64_t>(left, 0, 1000));
}

enum class Io { done, ended, timed_out };

// Writes all of `bytes` to a non-blocking pipe by `deadline`. SIGPIPE is blocked meanwhile, and one it raised is
// taken back, so a server that died gives EPIPE here instead of killing convcheck.
Io write_by(int fd, const char *bytes, size_t size, Clock::time_point deadline) {
  sigset_t pipe_signal, previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  Io result = Io::done;
  while (size > 0) {
    const ssize_t written = write(fd, bytes, size);
    if (written > 0) {
      bytes += written, size -= static_cast<size_t>(written);
      continue;
    }
    if (written < 0 && errno == EINTR) continue;
    if (written < 0 && errno != EAGAIN) {
      result = Io::ended;
      break;
    }
    if (Clock::now() >= deadline) {
      result = Io::timed_out;
      break;
    }
    pollfd wait{fd, POLLOUT, 0};
    poll(&wait, 1, milliseconds_to(deadline));
  }
  const timespec no_wait{0, 0};
  while (sigtimedwait(&pipe_signal, nullptr, &no_wait) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return result;
}

// Reads exactly `size` bytes from a non-blocking pipe by `deadline`; `got` counts what arrived.
Io read_by(int fd, char *bytes, size_t size, Clock::time_point deadline, size_t *got = nullptr) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = read(fd, bytes + done, size - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      if (got) *got = done;
      return Io::ended;
    }
    if (Clock::now() >= deadline) {
      if (got) *got = done;
      return Io::timed_out;
    }
    pollfd wait{fd, POLLIN, 0};
    poll(&wait, 1, milliseconds_to(deadline));
  }
  if (got) *got = done;
  return Io::done;
}

// "hello world" from the bytes a server wrote instead of a frame: printable characters, the others as '.'.
std::string printable(const std::string &bytes) {
  std::string text;
  for (char c : bytes.substr(0, 40)) text += (c >= 32 && c < 127) ? c : '.';
  return text;
}

void set_non_blocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

} // namespace

ServerProcess::~ServerProcess() {
  if (running()) kill_group(false, 0);
  else forget();
}

bool ServerProcess::running() const { return pid_ >= 0 && owner_ == getpid(); }

// A forked copy of the owner drops its copies of the pipes, without touching the owner's server.
void ServerProcess::forget() {
  for (int *fd : {&to_server_, &from_server_, &output_}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
  pid_ = -1;
}

void ServerProcess::start(const std::string &command) {
  if (running()) kill_group(false, 0);
  forget();
  int to_server[2], from_server[2];
  if (pipe2(to_server, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe failed: {}", strerror(errno)));
  if (pipe2(from_server, O_CLOEXEC) != 0) {
    close(to_server[0]), close(to_server[1]);
    throw std::runtime_error(fmt::format("pipe failed: {}", strerror(errno)));
  }
  // Larger pipes: a request or a reply of up to 1 MiB crosses in one write, waking the other side once.
  for (int fd : {to_server[1], from_server[1]}) fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  const int output = memfd_create("convcheck-server-stderr", MFD_CLOEXEC);
  if (output < 0) throw std::runtime_error(fmt::format("memfd_create failed: {}", strerror(errno)));
  fcntl(output, F_SETFL, O_APPEND); // clear_output() truncates it; the server's writes still go to its end
  const pid_t parent = getpid();
  // bash, not dash, runs COMMAND: it execs a simple command instead of forking it, so the server is our child and
  // its own end (a signal, not the shell's exit 139) is what a finding reports.
  const char *argv[] = {"/bin/bash", "-c", command.c_str(), nullptr};
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    signal(SIGINT, SIG_DFL); // a server starts as any other program does (ignored signals survive exec)
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    dup2(to_server[0], STDIN_FILENO);
    dup2(from_server[1], STDOUT_FILENO);
    dup2(output, STDERR_FILENO);
    close_range(3, ~0U, 0);
    execv(argv[0], const_cast<char *const *>(argv));
    _exit(127);
  }
  close(to_server[0]);
  close(from_server[1]);
  if (pid < 0) {
    close(to_server[1]), close(from_server[0]), close(output);
    throw std::runtime_error(fmt::format("cannot start a server: fork failed: {}", strerror(errno)));
  }
  setpgid(pid, pid); // also from here, so the group exists before any kill
  pid_ = pid, owner_ = parent;
  to_server_ = to_server[1], from_server_ = from_server[0], output_ = output;
  set_non_blocking(to_server_);
  set_non_blocking(from_server_);
}

Termination ServerProcess::kill_group(bool timed_out, double limit_s) {
  const Reaped reaped = kill_and_reap(pid_, Kill::group);
  forget();
  return timed_out ? Termination::timed_out_after(limit_s) : Termination::from_wait_status(reaped.status);
}

Termination ServerProcess::stop(double grace_s) {
  if (!running()) return {};
  close(to_server_);
  to_server_ = -1;
  const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                        std::chrono::duration<double>(grace_s));
  exited_by(pid_, deadline); // a server still running at the deadline is killed with its group, as one that exited
  return kill_group(false, 0);
}

Exchange ServerProcess::exchange(const Frame *request, double timeout_s) {
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  Exchange result;
  const auto end = [&](Io io) {
    result.output = output_tail();
    if (io == Io::timed_out) {
      result.kind = Exchange::Kind::timed_out;
      result.termination = kill_group(true, timeout_s);
      return result;
    }
    // It closed its end: give it a moment to exit by itself, so its own end is what is reported.
    result.kind = Exchange::Kind::ended;
    result.termination = stop(1.0);
    return result;
  };
  const auto malformed = [&](std::string problem) {
    result.kind = Exchange::Kind::malformed;
    result.problem = std::move(problem);
    result.output = output_tail();
    kill_group(false, 0);
    return result;
  };
  if (request != nullptr) {
    char prefix[frame_prefix];
    const auto header_size = static_cast<uint32_t>(request->header.size());
    const auto payload_size = static_cast<uint64_t>(request->payload.size());
    std::memcpy(prefix, frame_magic, 4);
    std::memcpy(prefix + 4, &header_size, 4);
    std::memcpy(prefix + 8, &payload_size, 8);
    std::string head(prefix, frame_prefix);
    head += request->header;
    if (Io io = write_by(to_server_, head.data(), head.size(), deadline); io != Io::done) return end(io);
    if (Io io = write_by(to_server_, request->payload.data(), request->payload.size(), deadline); io != Io::done)
      return end(io);
  }
  char prefix[frame_prefix];
  size_t got = 0;
  const Io io = read_by(from_server_, prefix, frame_prefix, deadline, &got);
  if (got > 0 && std::memcmp(prefix, frame_magic, std::min<size_t>(got, 4)) != 0) {
    std::string seen(prefix, got);
    char more[64];
    if (io == Io::done) { // whatever else it wrote at once, to show it
      const ssize_t extra = read(from_server_, more, sizeof more);
      if (extra > 0) seen.append(more, static_cast<size_t>(extra));
    }
    return malformed(fmt::format("wrote '{}' where a frame (\"CCKF\"...) was expected", printable(seen)));
  }
  if (io != Io::done) return end(io);
  uint32_t header_size = 0;
  uint64_t payload_size = 0;
  std::memcpy(&header_size, prefix + 4, 4);
  std::memcpy(&payload_size, prefix + 8, 8);
  if (header_size > largest_frame_header)
    return malformed(fmt::format("sent a frame header of {} bytes (at most {})", header_size, largest_frame_header));
  if (payload_size > largest_message)
    return malformed(fmt::format("sent a frame payload of {} bytes (at most {})", payload_size, largest_message));
  result.frame.header.resize(header_size);
  result.frame.payload.resize(payload_size);
  if (Io rest = read_by(from_server_, result.frame.header.data(), header_size, deadline); rest != Io::done)
    return end(rest);
  if (Io rest = read_by(from_server_, result.frame.payload.data(), payload_size, deadline); rest != Io::done)
    return end(rest);
  return result;
}

std::string ServerProcess::output_tail() const {
  if (output_ < 0) return {};
  struct stat status{};
  if (fstat(output_, &status) != 0 || status.st_size <= 0) return {};
  const auto size = static_cast<size_t>(status.st_size);
  const size_t from = size > output_tail_bytes ? size - output_tail_bytes : 0;
  std::string text(size - from, '\0');
  const ssize_t n = pread(output_, text.data(), text.size(), static_cast<off_t>(from));
  text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return one_line_tail(from > 0 ? "..." + text : text);
}

void ServerProcess::clear_output() {
  if (output_ >= 0 && ftruncate(output_, 0) != 0) {
  }
}

} // namespace convcheck
