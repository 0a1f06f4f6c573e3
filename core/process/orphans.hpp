#pragma once
// Processes left behind by a program convcheck ran. A server (server_process.hpp) dies with the worker that started
// it, but a child of the server would outlive both: the kernel hands an orphan to init. While an OrphanReaper lives,
// this process is a child subreaper (PR_SET_CHILD_SUBREAPER): orphans of its descendants become its children
// instead, and when it ends it kills every child still running, with its process group, and reaps it. Every
// runner of convcheck reaps its own children, so what is left then is only such orphans.

namespace convcheck {

class OrphanReaper {
public:
  OrphanReaper();
  /// Kills and reaps every child of this process still there.
  ~OrphanReaper();
  OrphanReaper(const OrphanReaper &) = delete;
  OrphanReaper &operator=(const OrphanReaper &) = delete;
};

} // namespace convcheck
