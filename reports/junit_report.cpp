#include "reports/junit_report.hpp"

#include <fmt/format.h>

#include "core/problem/descriptor.hpp"
#include "reports/atomic_write.hpp"
#include "reports/markup.hpp"

namespace convcheck {

namespace {

// The body of one testcase's <failure>: each failure of that strategy and direction, one line each.
std::string failure_lines(const CampaignReport &report, const std::string &strategy, Direction direction) {
  std::string lines;
  for (const ReportedFailure &reported : report.failures) {
    const Failure &failure = reported.failure;
    if (failure.strategy != strategy || failure.direction != direction) continue;
    lines += fmt::format("case {} {}: {}", failure.case_index, format_descriptor(failure.config), failure.problem);
    if (reported.saved)
      lines += fmt::format(" | shrunk to {} | repro: convcheck repro {}", format_descriptor(reported.saved->shrunk),
                           reported.saved->path);
    lines += "\n";
  }
  return lines;
}

} // namespace

std::string junit_report(const CampaignReport &report) {
  int64_t tests = 0, failures = 0, skipped = 0;
  std::string cases, properties; // properties beyond seed and cases: identities, warnings
  for (const StrategyTally &strategy : report.tallies)
    if (!strategy.identity.empty())
      properties += fmt::format("      <property name=\"implementation.{}\" value=\"{}\"/>\n", markup_escape(strategy.name),
                              markup_escape(strategy.identity.describe()));
  for (const std::string &warning : judged_warnings(report)) // core/run/judged.hpp
    properties += fmt::format("      <property name=\"warning\" value=\"{}\"/>\n", markup_escape(warning));
  for (const StrategyTally &strategy : report.tallies)
    for (const auto &[direction, tally] : strategy.by_direction) {
      ++tests;
      cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.6f}\">\n",
                           markup_escape(strategy.name), to_string(direction), tally.seconds);
      if (tally.failed > 0) {
        ++failures;
        cases += fmt::format("      <failure message=\"{} of {} cases failed\" type=\"mismatch\">{}</failure>\n",
                             tally.failed, tally.passed + tally.weak + tally.failed,
                             markup_escape(failure_lines(report, strategy.name, direction)));
      } else if (tally.passed + tally.weak == 0) {
        ++skipped;
        const std::string why = !tally.skip_reasons.empty() ? describe_skip_reasons(tally.skip_reasons)
                                : !tally.held_back_bugs.empty()
                                    ? "held back: " + describe_skip_reasons(tally.held_back_bugs)
                                    : "no case";
        cases += fmt::format("      <skipped message=\"{}\"/>\n", markup_escape(why));
      }
      cases += fmt::format("      <system-out>passed {} weak {} failed {} skipped {} held_back {}{}{}</system-out>\n",
                           tally.passed, tally.weak, tally.failed, tally.skipped, tally.held_back,
                           markup_escape(tally.held_back_bugs.empty()
                                             ? ""
                                             : "\nheld back for known bugs: " +
                                                   describe_skip_reasons(tally.held_back_bugs, max_skip_reasons)),
                           markup_escape(tally.skip_reasons.empty()
                                             ? ""
                                             : "\nskip reasons: " +
                                                   describe_skip_reasons(tally.skip_reasons, max_skip_reasons)));
      cases += "    </testcase>\n";
    }
  if (!report.unmade_cases.empty()) { // no strategy's verdict, but a failed campaign: one testcase of its own
    ++tests, ++failures;
    std::string lines;
    for (const UnmadeCase &unmade : report.unmade_cases)
      lines += fmt::format("case {} {}: {}\n", unmade.case_index, format_descriptor(unmade.config), unmade.problem);
    cases += fmt::format("    <testcase classname=\"convcheck\" name=\"making cases\" time=\"0\">\n"
                         "      <failure message=\"{} cases or their references could not be made\" "
                         "type=\"unmade\">{}</failure>\n    </testcase>\n",
                         report.unmade_cases.size(), markup_escape(lines));
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<testsuites name=\"convcheck\" tests=\"{0}\" failures=\"{1}\" skipped=\"{2}\" time=\"{3:.3f}\">\n"
                     "  <testsuite name=\"convcheck\" tests=\"{0}\" failures=\"{1}\" skipped=\"{2}\" errors=\"0\" "
                     "time=\"{3:.3f}\">\n"
                     "    <properties>\n"
                     "      <property name=\"seed\" value=\"{4}\"/>\n"
                     "      <property name=\"cases\" value=\"{5}\"/>\n{7}"
                     "    </properties>\n{6}  </testsuite>\n</testsuites>\n",
                     tests, failures, skipped, report.elapsed_s, report.seed, report.cases, cases, properties);
}

void write_junit_report(const std::string &path, const CampaignReport &report) {
  write_text_atomically(path, junit_report(report));
}

} // namespace convcheck
