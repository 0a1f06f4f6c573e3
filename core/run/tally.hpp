#pragma once
// What a run counts per strategy and direction: its verdicts, the skip reasons, the known bugs held back and the
// time spent. A campaign's report holds one per strategy (core/run/campaign.hpp); shards' reports add up.

#include <cstdint>
#include <map>
#include <string>

#include "core/problem/direction.hpp"
#include "core/run/implementation_identity.hpp"
#include "core/run/skip_tally.hpp"

namespace convcheck {

struct Tally {
  int64_t passed = 0, weak = 0, failed = 0, skipped = 0;
  int64_t held_back = 0; // not run for a known library bug (core/run/known_bug.hpp); not among `skipped`
  std::map<std::string, int64_t> held_back_bugs; // known bug id -> how many of `held_back` it held
  double seconds = 0; // summed over cases and threads
  int64_t planned_out = 0; // of `skipped`, those the cost plan left out (core/run/cost_plan.hpp)
  SkipReasons skip_reasons; // why each of `skipped` was (core/run/skip_tally.hpp)
  int64_t judged() const { return passed + weak + failed; }
  /// Adds every count of `other` (directions summed, shards merged).
  void add(const Tally &other);
};

struct StrategyTally {
  std::string name;
  ByDirection<Tally> by_direction; // every direction of the op it ran
  ImplementationIdentity identity; // Strategy::identity's answer, when it has one
};

} // namespace convcheck
