#include "core/run/tally.hpp"

namespace convcheck {

void Tally::add(const Tally &other) {
  passed += other.passed;
  weak += other.weak;
  failed += other.failed;
  skipped += other.skipped;
  held_back += other.held_back;
  seconds += other.seconds;
  planned_out += other.planned_out;
  add_skip_reasons(skip_reasons, other.skip_reasons);
  for (const auto &[id, count] : other.held_back_bugs) held_back_bugs[id] += count;
}

} // namespace convcheck
