#pragma once
// A program that stays up and answers requests one after another: convcheck writes frames to its stdin and reads
// frames from its stdout (docs/external.md, "The server protocol"). A frame is
//
//   "CCKF"  header length (u32, little-endian)  payload length (u64, little-endian)  header  payload
//
// where the header is text (JSON, read by the caller) and the payload raw bytes. This file knows frames, not what
// they say.
//
// The program runs as `/bin/sh -c COMMAND` in a process group of its own, so that a timeout kills everything it
// started; it dies with the process that started it (PR_SET_PDEATHSIG on the shell, and its stdin closes, on
// which a server must exit), leaves no core file, and its stderr goes to memory (a memfd) whose tail is kept for
// messages, so no file is left behind whatever happens. A server belongs to the process that started it: a
// forked copy of the owner sees it as not running and starts its own.

#include <cstdint>
#include <string>

#include <sys/types.h>

#include "core/process/termination.hpp"

namespace convcheck {

struct Frame {
  std::string header;  // UTF-8 text (JSON)
  std::string payload; // raw bytes
};

/// The largest header convcheck reads; a longer one is a broken server, not a reply.
inline constexpr uint32_t largest_frame_header = uint32_t{1} << 24;

/// What one exchange with the server came to. On anything but `answered` the server has been killed (its whole
/// process group) and reaped, and must be started again.
struct Exchange {
  enum class Kind {
    answered,  // a well-formed frame came back, in `frame`
    ended,     // the server exited or died first; `termination` says how
    timed_out, // no whole frame within the time limit; `termination` is timed_out
    malformed, // what came back is no frame; `problem` says why
  };
  Kind kind = Kind::answered;
  Frame frame;
  Termination termination;
  std::string problem;
  std::string output; // on anything but `answered`: the tail of what the server wrote to stderr
};

class ServerProcess {
public:
  ServerProcess() = default;
  /// Kills the server if this process started it.
  ~ServerProcess();
  ServerProcess(const ServerProcess &) = delete;
  ServerProcess &operator=(const ServerProcess &) = delete;

  /// Starts `/bin/sh -c COMMAND`. Throws std::runtime_error when no process can be forked.
  void start(const std::string &command);
  /// True when this process started the server and it has not been found ended since.
  bool running() const;
  /// Writes `request` (none: only read) and waits for one frame back, for at most `timeout_s` in all.
  Exchange exchange(const Frame *request, double timeout_s);
  /// Closes its stdin, gives it `grace_s` to exit, then kills its process group; returns how it ended.
  Termination stop(double grace_s);
  /// The last few hundred bytes the server wrote to stderr since clear_output(), on one line.
  std::string output_tail() const;
  void clear_output();

private:
  Termination kill_group(bool timed_out, double limit_s);
  void forget();

  pid_t pid_ = -1;
  pid_t owner_ = -1; // the process that started it
  int to_server_ = -1, from_server_ = -1, output_ = -1;
};

} // namespace convcheck
