#pragma once
// Which implementation a strategy is: what a library, a server (its hello) or a plugin says of itself, so that
// every report and `repro` row names what was checked, not only the name the user gave it on the command line.
// The record has room for what makes two runs of "the same" implementation differ: its version, the ISA or
// capability it ran on (a library's dispatch, or a cap put on it) and the threads it computed with.

#include <cstdint>
#include <string>

namespace convcheck {

struct ImplementationIdentity {
  std::string name;    ///< what it calls itself: "numpy 1.24.2", "oneDNN"; "" when it says nothing
  std::string version; ///< its version, where it gives one apart from the name
  std::string isa;     ///< the ISA or capability it ran on ("avx512_core", "avx2 cap"); "" when not known
  int64_t threads = 0; ///< threads it computed with; 0 when not known

  bool empty() const { return name.empty() && version.empty() && isa.empty() && threads == 0; }
  /// "numpy 1.24.2", "oneDNN 2.6.3 on avx512_core, 1 thread": the name, then what is known of the rest.
  std::string describe() const;
  bool operator==(const ImplementationIdentity &) const = default;
};

} // namespace convcheck
