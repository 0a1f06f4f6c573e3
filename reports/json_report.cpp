#include "reports/json_report.hpp"

#include "reports/atomic_write.hpp"


#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/descriptor.hpp"

namespace convcheck {

namespace {

nlohmann::json tally_json(const Tally &tally) {
  return {{"passed", tally.passed}, {"failed", tally.failed}, {"skipped", tally.skipped}, {"weak", tally.weak},
          {"seconds", tally.seconds}};
}

} // namespace

std::string json_report(const CampaignReport &report) {
  nlohmann::json strategies = nlohmann::json::object();
  for (const StrategyTally &strategy : report.tallies) {
    Tally total;
    nlohmann::json directions = nlohmann::json::object();
    for (Direction direction : all_directions) {
      const Tally &tally = strategy.by_direction[static_cast<size_t>(direction)];
      directions[to_string(direction)] = tally_json(tally);
      total.passed += tally.passed;
      total.failed += tally.failed;
      total.skipped += tally.skipped;
      total.weak += tally.weak;
      total.seconds += tally.seconds;
    }
    nlohmann::json entry = tally_json(total);
    entry["directions"] = directions;
    strategies[strategy.name] = entry;
  }
  nlohmann::json failures = nlohmann::json::array();
  for (const ReportedFailure &reported : report.failures) {
    const Failure &failure = reported.failure;
    nlohmann::json entry = {{"strategy", failure.strategy},
                            {"direction", to_string(failure.direction)},
                            {"case_index", failure.case_index},
                            {"config", format_descriptor(failure.config)},
                            {"problem", failure.problem},
                            {"repro", nullptr}};
    if (reported.saved) {
      entry["repro"] = reported.saved->path;
      entry["shrunk_config"] = format_descriptor(reported.saved->shrunk);
      entry["shrink_steps"] = reported.saved->shrink_steps;
      entry["shrink_s"] = reported.saved->shrink_s;
    }
    failures.push_back(entry);
  }
  const nlohmann::json json = {{"seed", report.seed},
                               {"cases", report.cases},
                               {"elapsed_s", report.elapsed_s},
                               {"fill", to_string(report.fill)},
                               {"reference_s", report.reference_s},
                               {"interrupted", report.interrupted},
                               {"convcheck_version", CONVCHECK_VERSION},
                               {"strategies", strategies},
                               {"failures", failures}};
  return json.dump(2) + "\n";
}

void write_json_report(const std::string &path, const CampaignReport &report) {
  write_text_atomically(path, json_report(report));
}

} // namespace convcheck
