#include "core/process/termination.hpp"

#include <cassert>
#include <cstring>
#include <utility>

#include <sys/wait.h>

#include <fmt/format.h>

namespace convcheck {

// Every runner waits without WUNTRACED or WCONTINUED, so a status it reads is that of a child that exited or that
// a signal ended; a stopped or continued child never gets here.
Termination Termination::from_wait_status(int status) {
  assert(WIFEXITED(status) || WIFSIGNALED(status));
  return WIFSIGNALED(status) ? killed_by(WTERMSIG(status)) : exited_with(WEXITSTATUS(status));
}

Termination Termination::exited_with(int code) {
  Termination end;
  end.exit_code = code;
  return end;
}

Termination Termination::killed_by(int signal) {
  Termination end;
  end.kind = Kind::signaled;
  end.signal = signal;
  return end;
}

Termination Termination::timed_out_after(double limit_s) {
  Termination end;
  end.kind = Kind::timed_out;
  end.limit_s = limit_s;
  return end;
}

Termination Termination::threw(std::string message) {
  Termination end;
  end.kind = Kind::threw;
  end.message = std::move(message);
  return end;
}

std::string Termination::describe() const {
  switch (kind) {
  case Kind::exited: return fmt::format("exit {}", exit_code);
  case Kind::signaled: return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
  case Kind::timed_out: return fmt::format("timed out after {} s", limit_s);
  case Kind::threw: return "threw: " + message;
  }
  return {};
}

} // namespace convcheck
