#pragma once
// How a child process ended, whichever way convcheck ran it: a forked call (forked.hpp), a worker of the case pool
// (case_workers.hpp) or an external command (subprocess.hpp). Modelled on FuzzTest's TerminationStatus (an exit
// code or a signal, read from a waitpid status), with the two ends only a runner knows about: it outlived its time
// limit and the runner killed it, or, for a forked call, the call threw and sent its message back. Every runner
// words an end the same way, through describe().

#include <string>

namespace convcheck {

/// How a child process ended. A default Termination is a clean exit (code 0).
struct Termination {
  enum class Kind {
    exited,    // it exited by itself, with exit_code
    signaled,  // a signal it did not handle ended it
    timed_out, // it outlived limit_s and was killed
    threw,     // a forked call threw an exception, whose what() is message
  };
  Kind kind = Kind::exited;
  int exit_code = 0;   // when exited
  int signal = 0;      // when signaled
  double limit_s = 0;  // when timed_out: the time limit it outlived, in seconds
  std::string message; // when threw

  /// The end a waitpid status reports; `status` must be that of an ended child (it exited or a signal ended it).
  static Termination from_wait_status(int status);
  /// It exited with `code`.
  static Termination exited_with(int code);
  /// Signal `signal` ended it.
  static Termination killed_by(int signal);
  /// It was still running after `limit_s` seconds and was killed.
  static Termination timed_out_after(double limit_s);
  /// A forked call threw `message`.
  static Termination threw(std::string message);

  /// True when it exited with code 0.
  bool succeeded() const { return kind == Kind::exited && exit_code == 0; }

  /// The end in words: "exit 3", "killed by signal 11 (Segmentation fault)", "timed out after 2 s",
  /// "threw: <message>".
  std::string describe() const;
};

} // namespace convcheck
