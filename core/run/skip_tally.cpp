#include "core/run/skip_tally.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/run/cost_plan.hpp"

namespace convcheck {

std::string skip_reason_key(const std::string &detail) {
  // planned_out names each case's multiply-adds and share; what a reader needs is that the plan skipped it.
  static const std::string planned =
      fmt::format("{}over {:.0e} multiply-adds, run on a share of cases only (--full-check runs all)", cost_plan_prefix,
                  static_cast<double>(cost_plan_full_limit));
  return detail.starts_with(cost_plan_prefix) ? planned : detail;
}

void add_skip_reason(SkipReasons &reasons, const std::string &detail, int64_t count) {
  std::string key = skip_reason_key(detail);
  if (!reasons.count(key) && reasons.size() >= max_skip_reasons) key = other_skip_reasons;
  reasons[key] += count;
}

void add_skip_reasons(SkipReasons &into, const SkipReasons &from) {
  for (const auto &[reason, count] : from) add_skip_reason(into, reason, count);
}

std::vector<std::pair<std::string, int64_t>> top_skip_reasons(const SkipReasons &reasons, size_t limit) {
  std::vector<std::pair<std::string, int64_t>> sorted(reasons.begin(), reasons.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  if (sorted.size() > limit) sorted.resize(limit);
  return sorted;
}

std::string describe_skip_reasons(const SkipReasons &reasons, size_t limit) {
  std::string text;
  for (const auto &[reason, count] : top_skip_reasons(reasons, limit))
    text += fmt::format("{}{} x {}", text.empty() ? "" : "; ", count, reason);
  if (reasons.size() > limit)
    text += fmt::format("; and {} more reason{}", reasons.size() - limit, reasons.size() - limit == 1 ? "" : "s");
  return text;
}

} // namespace convcheck
