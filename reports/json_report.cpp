#include "reports/json_report.hpp"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"
#include "reports/atomic_write.hpp"
#include "reports/identity_json.hpp"
#include "reports/stats_json.hpp"

namespace convcheck {

namespace {

nlohmann::json tally_json(const Tally &tally) {
  return {{"passed", tally.passed},         {"failed", tally.failed},
          {"skipped", tally.skipped},       {"weak", tally.weak},
          {"seconds", tally.seconds},       {"cost_plan_skipped", tally.planned_out},
          {"skip_reasons", tally.skip_reasons}, {"held_back", tally.held_back},
          {"held_back_bugs", tally.held_back_bugs}};
}

nlohmann::json judged_json(const CampaignReport &report) {
  nlohmann::json unjudged = nlohmann::json::array();
  for (const JudgedShortfall &shortfall : judged_shortfalls(report))
    if (shortfall.none()) unjudged.push_back(shortfall.strategy);
  return {{"named", report.judged_rule.named},
          {"min_judged_percent", report.judged_rule.min_judged_percent},
          {"declaration_warnings", report.judged_rule.declaration_warnings},
          {"warnings", judged_warnings(report)},
          {"unjudged", unjudged}};
}

nlohmann::json implementation_json(const ImplementationIdentity &identity) {
  return {{"name", identity.name}, {"version", identity.version}, {"isa", identity.isa},
          {"threads", identity.threads}, {"description", identity.describe()}};
}

ImplementationIdentity implementation_from_json(const nlohmann::json &json) {
  return {json.value("name", ""), json.value("version", ""), json.value("isa", ""), json.value("threads", int64_t{0})};
}

} // namespace

std::string json_report(const CampaignReport &report) {
  nlohmann::json strategies = nlohmann::json::object();
  for (const StrategyTally &strategy : report.tallies) {
    Tally total;
    nlohmann::json directions = nlohmann::json::object();
    for (const auto &[direction, tally] : strategy.by_direction) {
      directions[to_string(direction)] = tally_json(tally);
      total.add(tally);
    }
    nlohmann::json entry = tally_json(total);
    entry["directions"] = directions;
    if (!strategy.identity.empty()) entry["implementation"] = implementation_json(strategy.identity);
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
                            {"kind", to_string(failure.kind)},
                            {"fill", to_string(fill_of(report, failure))},
                            {"repro", nullptr}};
    if (reported.saved) {
      entry["repro"] = reported.saved->path;
      entry["shrunk_config"] = format_descriptor(reported.saved->shrunk);
      entry["shrunk_problem"] = reported.saved->problem;
      entry["shrink_steps"] = reported.saved->shrink_steps;
      entry["shrink_s"] = reported.saved->shrink_s;
      entry["shrink_runs"] = reported.saved->shrink_runs;
      if (!reported.saved->neighbours.empty()) {
        nlohmann::json rows = nlohmann::json::array();
        for (const NeighbourRow &row : reported.saved->neighbours)
          rows.push_back({{"verdict", row.verdict}, {"change", row.change}, {"config", row.descriptor}});
        entry["neighbours"] = rows;
      }
    }
    failures.push_back(entry);
  }
  nlohmann::json unmade_cases = nlohmann::json::array();
  for (const UnmadeCase &unmade : report.unmade_cases)
    unmade_cases.push_back(
        {{"case_index", unmade.case_index}, {"config", format_descriptor(unmade.config)}, {"problem", unmade.problem}});
  nlohmann::json json = {{"seed", report.seed},
                               {"cases", report.cases},
                               {"elapsed_s", report.elapsed_s},
                               {"warm_up_s", report.warm_up_s},
                               {"fill", to_string(report.fill)},
                               {"reference_s", report.reference_s},
                               {"interrupted", report.interrupted},
                               {"peak_rss_kib", report.peak_rss_kib},
                               {"worker_peak_rss_kib", report.worker_peak_rss_kib},
                               {"workers_recycled", report.workers_recycled},
                               {"convcheck_version", CONVCHECK_VERSION},
                               {"strategies", strategies},
                               {"unmade_cases", unmade_cases},
                               {"failures", failures},
                               {"judged", judged_json(report)},
                               {"stats", stats_json(report.stats)}};
  if (report.identity.known()) json["campaign"] = identity_json(report.identity);
  // An external program's output tail in a problem line can end inside a UTF-8 character; replace such bytes
  // rather than fail to write the report.
  return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void write_json_report(const std::string &path, const CampaignReport &report) {
  write_text_atomically(path, json_report(report));
}

namespace {

Tally tally_from_json(const nlohmann::json &json) {
  Tally tally;
  tally.passed = json.at("passed").get<int64_t>();
  tally.weak = json.at("weak").get<int64_t>();
  tally.failed = json.at("failed").get<int64_t>();
  tally.skipped = json.at("skipped").get<int64_t>();
  tally.seconds = json.value("seconds", 0.0);
  tally.planned_out = json.value("cost_plan_skipped", int64_t{0});
  if (json.contains("skip_reasons")) // older reports have none
    tally.skip_reasons = json.at("skip_reasons").get<SkipReasons>();
  tally.held_back = json.value("held_back", int64_t{0}); // reports before known-bug rows counted them as skips
  if (json.contains("held_back_bugs")) tally.held_back_bugs = json.at("held_back_bugs").get<std::map<std::string, int64_t>>();
  return tally;
}

CampaignReport report_from_json(const nlohmann::json &json) {
  CampaignReport report;
  report.seed = json.at("seed").get<uint64_t>();
  report.cases = json.at("cases").get<int64_t>();
  report.elapsed_s = json.at("elapsed_s").get<double>();
  report.warm_up_s = json.value("warm_up_s", 0.0);
  report.fill = parse_fill_mode(json.at("fill").get<std::string>());
  report.reference_s = json.value("reference_s", 0.0);
  report.interrupted = json.value("interrupted", false);
  report.peak_rss_kib = json.value("peak_rss_kib", int64_t{0});
  report.worker_peak_rss_kib = json.value("worker_peak_rss_kib", int64_t{0});
  report.workers_recycled = json.value("workers_recycled", int64_t{0});
  for (const auto &[name, strategy] : json.at("strategies").items()) {
    StrategyTally tally{name, {}, {}};
    if (strategy.contains("implementation")) tally.identity = implementation_from_json(strategy.at("implementation"));
    for (const auto &[direction, entry] : strategy.at("directions").items())
      tally.by_direction[parse_direction(direction, "direction")] = tally_from_json(entry);
    report.tallies.push_back(tally);
  }
  for (const nlohmann::json &entry : json.at("failures")) {
    ReportedFailure reported{Failure{entry.at("strategy").get<std::string>(),
                                     parse_direction(entry.at("direction").get<std::string>(), "direction"),
                                     entry.at("case_index").get<uint64_t>(),
                                     parse_descriptor(entry.at("config").get<std::string>()),
                                     entry.at("problem").get<std::string>(),
                                     parse_failure_kind(entry.value("kind", ""))},
                             std::nullopt};
    if (entry.at("repro").is_string())
      reported.saved = SavedFinding{parse_descriptor(entry.value("shrunk_config", entry.at("config").get<std::string>())),
                                    entry.value("shrunk_problem", entry.at("problem").get<std::string>()),
                                    entry.value("shrink_steps", size_t{0}),
                                    0,
                                    entry.value("shrink_s", 0.0),
                                    entry.at("repro").get<std::string>()};
    if (reported.saved) reported.saved->shrink_runs = entry.value("shrink_runs", size_t{0}); // none before issue 39
    if (reported.saved && entry.contains("neighbours")) // reports from before issue 25 have none
      for (const nlohmann::json &row : entry.at("neighbours"))
        reported.saved->neighbours.push_back({row.at("verdict").get<std::string>(), row.at("change").get<std::string>(),
                                              row.at("config").get<std::string>()});
    report.failures.push_back(reported);
  }
  if (json.contains("unmade_cases")) // older reports counted them as failures of a strategy "reference"
    for (const nlohmann::json &entry : json.at("unmade_cases"))
      report.unmade_cases.push_back({entry.at("case_index").get<uint64_t>(),
                                     parse_descriptor(entry.at("config").get<std::string>()),
                                     entry.at("problem").get<std::string>()});
  if (json.contains("stats")) report.stats = stats_from_json(json.at("stats")); // older reports have none
  if (json.contains("campaign")) report.identity = identity_from_json(json.at("campaign")); // nor this
  if (json.contains("judged")) // nor this
    report.judged_rule = {json.at("judged").at("named").get<std::vector<std::string>>(),
                          json.at("judged").at("min_judged_percent").get<double>(),
                          json.at("judged").value("declaration_warnings", std::vector<std::string>{})};
  return report;
}

} // namespace

CampaignReport read_json_report(const std::string &path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot open report {}", path));
  try {
    return report_from_json(nlohmann::json::parse(in));
  } catch (const nlohmann::json::exception &error) {
    throw InputError(fmt::format("report {}: {}", path, error.what()));
  } catch (const InputError &error) {
    throw InputError(fmt::format("report {}: {}", path, error.what()));
  }
}

CampaignReport merge_reports(const std::vector<CampaignReport> &shards) {
  CampaignReport merged;
  if (shards.empty()) return merged;
  merged.seed = shards.front().seed;
  merged.fill = shards.front().fill;
  merged.judged_rule = shards.front().judged_rule; // the rule the campaign ran under, applied to its whole
  for (const CampaignReport &shard : shards) {
    if (shard.seed != merged.seed)
      throw InputError(fmt::format("reports of seeds {} and {} are not one campaign", merged.seed, shard.seed));
    merged.cases += shard.cases;
    merged.elapsed_s = std::max(merged.elapsed_s, shard.elapsed_s);
    merged.warm_up_s = std::max(merged.warm_up_s, shard.warm_up_s);
    merged.reference_s += shard.reference_s;
    merged.interrupted |= shard.interrupted;
    merged.peak_rss_kib = std::max(merged.peak_rss_kib, shard.peak_rss_kib);
    merged.worker_peak_rss_kib = std::max(merged.worker_peak_rss_kib, shard.worker_peak_rss_kib);
    merged.workers_recycled += shard.workers_recycled;
    for (const StrategyTally &tally : shard.tallies) {
      StrategyTally &into_strategy = merged.tally_of(tally.name);
      if (into_strategy.identity.empty()) into_strategy.identity = tally.identity;
      for (const auto &[direction, from] : tally.by_direction) {
        into_strategy.by_direction[direction].add(from);
      }
    }
    merged.failures.insert(merged.failures.end(), shard.failures.begin(), shard.failures.end());
    merged.unmade_cases.insert(merged.unmade_cases.end(), shard.unmade_cases.begin(), shard.unmade_cases.end());
    merged.stats.merge(shard.stats);
  }
  std::stable_sort(merged.failures.begin(), merged.failures.end(), [](const auto &a, const auto &b) {
    return a.failure.case_index < b.failure.case_index;
  });
  std::stable_sort(merged.unmade_cases.begin(), merged.unmade_cases.end(),
                   [](const auto &a, const auto &b) { return a.case_index < b.case_index; });
  return merged;
}

} // namespace convcheck
