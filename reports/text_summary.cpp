#include "reports/text_summary.hpp"

#include <fmt/format.h>

#include "core/problem/descriptor.hpp"
#include "core/run/cost_plan.hpp"

namespace convcheck {

std::string format_rate(double per_second) {
  return per_second >= 10 ? fmt::format("{:.0f}", per_second) : fmt::format("{:.3g}", per_second);
}

std::string text_summary(const CampaignReport &report) {
  std::string text = fmt::format("{} cases in {:.1f} s ({} cases/s), seed {}, fill {}, peak RSS {} MiB ({} MiB "
                                 "per worker)\n",
                                 report.cases, report.elapsed_s,
                                 format_rate(report.elapsed_s > 0 ? report.cases / report.elapsed_s : 0.0), report.seed,
                                 to_string(report.fill), report.peak_rss_kib / 1024, report.worker_peak_rss_kib / 1024);
  text += fmt::format("{:<28} {:<12} {:>8} {:>8} {:>8} {:>8} {:>9}\n", "strategy", "direction", "passed", "weak",
                      "failed", "skipped", "held_back");
  for (const StrategyTally &strategy : report.tallies)
    for (const auto &[direction, tally] : strategy.by_direction) {
      text += fmt::format("{:<28} {:<12} {:>8} {:>8} {:>8} {:>8} {:>9}\n", strategy.name, to_string(direction),
                          tally.passed, tally.weak, tally.failed, tally.skipped, tally.held_back);
    }
  std::string identities; // who each strategy is, where it says (core/run/implementation_identity.hpp)
  for (const StrategyTally &strategy : report.tallies)
    if (!strategy.identity.empty())
      identities += fmt::format("{}{} is {}", identities.empty() ? "" : "; ", strategy.name, strategy.identity.describe());
  if (!identities.empty()) text += "implementations: " + identities + "\n";
  int64_t planned_out = 0;
  for (const StrategyTally &strategy : report.tallies)
    for (const auto &[direction, tally] : strategy.by_direction) planned_out += tally.planned_out;
  if (planned_out > 0)
    text += fmt::format("of the skipped, {} were left out by the cost plan: loop strategies run on a share of the "
                        "cases over {:.0e} multiply-adds (--full-check runs them all)\n",
                        planned_out, static_cast<double>(cost_plan_full_limit));
  for (const StrategyTally &strategy : report.tallies) {
    SkipReasons reasons; // over its directions: the table above has the counts per direction
    for (const auto &[direction, tally] : strategy.by_direction) add_skip_reasons(reasons, tally.skip_reasons);
    if (!reasons.empty()) text += fmt::format("{} skipped: {}\n", strategy.name, describe_skip_reasons(reasons));
  }
  for (const StrategyTally &strategy : report.tallies) {
    SkipReasons bugs; // known bug id -> directions it held back (core/run/known_bug.hpp)
    for (const auto &[direction, tally] : strategy.by_direction)
      for (const auto &[id, count] : tally.held_back_bugs) bugs[id] += count;
    if (!bugs.empty())
      text += fmt::format("{} held back for known library bugs (--run-held-back runs them): {}\n", strategy.name,
                          describe_skip_reasons(bugs, max_skip_reasons));
  }
  for (const std::string &warning : judged_warnings(report)) text += fmt::format("warning: {}\n", warning);
  size_t unsaved = 0;
  for (const ReportedFailure &reported : report.failures) {
    if (!reported.saved) {
      ++unsaved;
      continue;
    }
    const SavedFinding &saved = *reported.saved;
    const std::string kind =
        reported.failure.kind == FailureKind::mismatch ? "" : fmt::format(" ({})", to_string(reported.failure.kind));
    text += fmt::format("FAILED {} {}{} case {} ({} fill): {}\n  config {} shrunk to {} in {} steps\n"
                        "  repro: convcheck repro {}\n",
                        reported.failure.strategy, to_string(reported.failure.direction), kind,
                        reported.failure.case_index, to_string(fill_of(report, reported.failure)),
                        saved.problem, format_descriptor(reported.failure.config), format_descriptor(saved.shrunk),
                        saved.shrink_steps, saved.path);
  }
  if (unsaved > 0) text += fmt::format("({} more failures of the same strategies and directions not saved)\n", unsaved);
  for (const UnmadeCase &unmade : report.unmade_cases)
    text += fmt::format("FAILED making case {} or its reference (no strategy ran): {}\n  config {}\n", unmade.case_index,
                        unmade.problem, format_descriptor(unmade.config));
  text += report.failed() ? fmt::format("{} failures\n", report.failure_count()) : "no mismatch\n";
  return text;
}

} // namespace convcheck
