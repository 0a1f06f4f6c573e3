#include "core/run/offered_rows.hpp"

#include <algorithm>

#include "core/problem/mix64.hpp"

namespace convcheck {

std::vector<const PrecisionRow *> rows_taken(const Support &support) {
  std::vector<const PrecisionRow *> taken;
  for (const PrecisionRow &row : precision_table())
    if (support.takes(row.precision)) taken.push_back(&row);
  return taken;
}

std::vector<const PrecisionRow *> offered_to_outside(const std::vector<Strategy> &all) {
  std::vector<const PrecisionRow *> offered;
  if (std::none_of(all.begin(), all.end(), [](const Strategy &s) { return s.outside; })) return offered;
  for (const PrecisionRow &row : precision_table())
    if (std::all_of(all.begin(), all.end(), [&](const Strategy &s) { return !s.outside || s.supports.takes(row.precision); }))
      offered.push_back(&row);
  return offered;
}

Problem within(Problem problem, const std::vector<const PrecisionRow *> &offered, uint64_t hash) {
  if (offered.empty()) return problem;
  int total = 0;
  for (const PrecisionRow *row : offered) {
    if (row->precision == problem.precision) return problem;
    total += row->fuzz_weight;
  }
  // Rows the plain draw never makes (weight 0, the training rows) are reached when nothing else is offered: then
  // each is as likely as the others.
  const auto weight = [&](const PrecisionRow *row) { return total == 0 ? 1 : row->fuzz_weight; };
  const int64_t all = total == 0 ? static_cast<int64_t>(offered.size()) : total;
  auto pick = static_cast<int64_t>(hash % static_cast<uint64_t>(all));
  for (const PrecisionRow *row : offered) {
    if (pick < weight(row)) {
      problem.precision = row->precision;
      break;
    }
    pick -= weight(row);
  }
  return problem;
}

uint64_t row_hash(uint64_t seed, uint64_t index) { return mix64(mix64(seed ^ 0x707265636973ULL) ^ index); }

} // namespace convcheck
