#include "core/campaign.hpp"

#include <chrono>
#include <map>

#include <omp.h>

#include "core/conv_case.hpp"
#include "core/reference.hpp"
#include "core/verify.hpp"

namespace convcheck {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void count(Tally &tally, Verdict verdict) {
  switch (verdict) {
  case Verdict::passed: ++tally.passed; break;
  case Verdict::weak: ++tally.weak; break;
  case Verdict::failed: ++tally.failed; break;
  case Verdict::skipped: ++tally.skipped; break;
  }
}

// Shrinks and saves the first failures of each strategy/direction, in parallel; the choice depends only on
// case order, never on timing.
void save_failures(CampaignReport &report, const std::vector<Strategy> &strategies, const CampaignOptions &options,
                   int threads) {
  std::map<std::pair<std::string, Direction>, size_t> seen;
  std::vector<size_t> to_save;
  for (size_t i = 0; i < report.failures.size(); ++i) {
    const Failure &failure = report.failures[i].failure;
    if (seen[{failure.strategy, failure.direction}]++ < options.saved_per_failure_kind) to_save.push_back(i);
  }
  const auto count = static_cast<int64_t>(to_save.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int64_t i = 0; i < count; ++i) {
    ReportedFailure &reported = report.failures[to_save[static_cast<size_t>(i)]];
    reported.saved = save_finding(reported.failure, strategies, options.seed, options.fill, options.corpus_dir,
                                  options.shrink);
  }
}

} // namespace

CampaignReport run_campaign(const CaseSource &source, const std::vector<Strategy> &strategies,
                            const CampaignOptions &options, const std::function<void(const Progress &)> &progress) {
  const Clock::time_point start = Clock::now();
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  CampaignReport report;
  report.seed = options.seed;
  report.fill = options.fill;
  for (const Strategy &strategy : strategies) report.tallies.push_back({strategy.name, {}});

  const int64_t chunk = 16 * static_cast<int64_t>(threads);
  std::vector<std::vector<Outcome>> outcomes;
  std::vector<ConvConfig> configs;
  for (int64_t first = 0; first < source.count; first += chunk) {
    if (options.time_limit_s > 0 && seconds_since(start) >= options.time_limit_s) break;
    if (options.stop_requested && options.stop_requested()) {
      report.interrupted = true;
      break;
    }
    const int64_t size = std::min(chunk, source.count - first);
    outcomes.assign(static_cast<size_t>(size), {});
    configs.assign(static_cast<size_t>(size), {});
    std::vector<double> reference_seconds(static_cast<size_t>(size));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int64_t i = 0; i < size; ++i) {
      const uint64_t index = source.first + static_cast<uint64_t>(first + i) * source.step;
      const ConvConfig config = source.config_at(index);
      const Clock::time_point case_start = Clock::now();
      const ConvCase conv_case = make_case(config, options.fill, options.seed, index);
      const Reference reference = compute_reference(conv_case);
      reference_seconds[static_cast<size_t>(i)] = seconds_since(case_start);
      outcomes[static_cast<size_t>(i)] = verify_case(conv_case, reference, strategies);
      configs[static_cast<size_t>(i)] = config;
    }
    for (int64_t i = 0; i < size; ++i) {
      report.reference_s += reference_seconds[static_cast<size_t>(i)];
      const std::vector<Outcome> &case_outcomes = outcomes[static_cast<size_t>(i)];
      report.stats.add(configs[static_cast<size_t>(i)], case_outcomes);
      for (size_t j = 0; j < case_outcomes.size(); ++j) { // strategy-major, see verify_case
        const Outcome &outcome = case_outcomes[j];
        Tally &tally = report.tallies[j / all_directions.size()].by_direction[static_cast<size_t>(outcome.direction)];
        count(tally, outcome.verdict);
        tally.seconds += outcome.seconds;
        if (outcome.verdict == Verdict::failed)
          report.failures.push_back({Failure{outcome.strategy, outcome.direction,
                                             source.first + static_cast<uint64_t>(first + i) * source.step,
                                             configs[static_cast<size_t>(i)], outcome.detail},
                                     std::nullopt});
      }
    }
    report.cases = first + size;
    if (progress) progress({report.cases, source.count, report.failures.size(), seconds_since(start)});
  }
  save_failures(report, strategies, options, threads);
  report.elapsed_s = seconds_since(start);
  return report;
}

} // namespace convcheck
