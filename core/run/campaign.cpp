#include "core/run/campaign.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <sys/resource.h>
#include <unistd.h>

#include "core/run/case_workers.hpp"
#include "core/process/clock.hpp"
#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/process/forked.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/verify.hpp"
#include "core/process/wire.hpp"
#include "core/run/cost_plan.hpp"
#include "core/run/known_bug.hpp"

namespace convcheck {

namespace {

void count(Tally &tally, Verdict verdict) {
  switch (verdict) {
  case Verdict::passed: ++tally.passed; break;
  case Verdict::weak: ++tally.weak; break;
  case Verdict::failed: ++tally.failed; break;
  case Verdict::skipped: ++tally.skipped; break;
  case Verdict::held_back: ++tally.held_back; break;
  }
}

} // namespace

namespace {

std::string encode(const SavedFinding &saved) {
  WireWriter out;
  out.put(format_descriptor(saved.shrunk));
  out.put(saved.problem);
  out.put(saved.shrink_steps);
  out.put(saved.shrink_tries);
  out.put(saved.shrink_s);
  out.put(saved.path);
  out.put(format_neighbour_rows(saved.neighbours));
  out.put(saved.shrink_runs);
  return out.bytes();
}

SavedFinding decode_saved_finding(const std::string &bytes) {
  WireReader in(bytes);
  SavedFinding saved;
  saved.shrunk = parse_descriptor(in.get_string());
  saved.problem = in.get_string();
  saved.shrink_steps = in.get<size_t>();
  saved.shrink_tries = in.get<size_t>();
  saved.shrink_s = in.get<double>();
  saved.path = in.get_string();
  saved.neighbours = parse_neighbour_rows(in.get_string(), "a finding saver's neighbour table");
  saved.shrink_runs = in.get<size_t>();
  return saved;
}

// Shrinks and saves the first failures of each strategy/direction, each in a forked child, `processes` at a time;
// the choice depends only on case order, never on timing. A child that crashes or overruns (a strategy that also
// crashes while shrinking, say) leaves the case saved unshrunk, inputs only.
void save_failures(CampaignReport &report, const std::vector<Strategy> &strategies, const CampaignOptions &options,
                   int processes) {
  std::map<std::pair<std::string, Direction>, size_t> seen;
  std::vector<size_t> to_save;
  for (size_t i = 0; i < report.failures.size(); ++i) {
    const Failure &failure = report.failures[i].failure;
    const bool known = std::any_of(strategies.begin(), strategies.end(),
                                   [&](const Strategy &s) { return s.name == failure.strategy; });
    if (known && seen[{failure.strategy, failure.direction}]++ < options.saved_per_failure_kind) to_save.push_back(i);
  }
  // Told to stop, save what was found as it was found: a scheduler's grace period is short, and `convcheck
  // shrink` can finish the job later.
  const bool shrink = options.shrink && !(options.stop_requested && options.stop_requested());
  std::vector<std::function<std::string()>> calls;
  for (size_t i : to_save)
    calls.push_back([&, i] {
      return encode(save_finding(report.failures[i].failure, strategies, options.seed, options.fill,
                                 options.fill_special, options.corpus_dir, shrink, options.run_timeout_s));
    });
  // Shrinking stops after 60 s of tries; each try of a timeout finding may take a whole run timeout.
  const double save_timeout_s = 120 + 3 * options.run_timeout_s;
  const std::vector<ForkedEnd> ends = run_forked(calls, processes, save_timeout_s);
  for (size_t k = 0; k < to_save.size(); ++k) {
    report.worker_peak_rss_kib = std::max(report.worker_peak_rss_kib, ends[k].peak_rss_kib);
    ReportedFailure &reported = report.failures[to_save[k]];
    if (ends[k].returned()) {
      reported.saved = decode_saved_finding(ends[k].payload);
      continue;
    }
    const auto failing = std::find_if(strategies.begin(), strategies.end(),
                                      [&](const Strategy &s) { return s.name == reported.failure.strategy; });
    reported.saved = save_inputs_only(reported.failure, options.seed, options.fill, options.fill_special,
                                      options.corpus_dir,
                                      "saving it with shrinking and results " + ends[k].termination.describe(),
                                      failing != strategies.end() ? &*failing : nullptr);
  }
}

} // namespace

StrategyTally &CampaignReport::tally_of(const std::string &name) {
  auto found = std::find_if(tallies.begin(), tallies.end(), [&](const StrategyTally &t) { return t.name == name; });
  return found != tallies.end() ? *found : tallies.emplace_back(StrategyTally{name, {}, {}});
}

std::vector<Direction> CampaignReport::directions() const {
  std::set<Direction> seen;
  for (const StrategyTally &tally : tallies)
    for (const auto &[direction, counts] : tally.by_direction) seen.insert(direction);
  return {seen.begin(), seen.end()};
}

CampaignReport run_campaign(const CaseSource &source, const std::vector<Strategy> &strategies,
                            const CampaignOptions &options, const std::function<void(const Progress &)> &progress) {
  const Clock::time_point start = Clock::now();
  const int processes = options.threads > 0 ? options.threads : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  CampaignReport report;
  report.seed = options.seed;
  report.fill = options.fill;
  for (const Strategy &strategy : strategies)
    report.tallies.push_back({strategy.name, {}, strategy.identity ? strategy.identity() : ImplementationIdentity{}});

  const auto index_at = [&](int64_t i) { return source.first + static_cast<uint64_t>(i) * source.step; };
  const auto stop = [&] {
    if (options.time_limit_s > 0 && seconds_since(start) >= options.time_limit_s) return true;
    report.interrupted = options.stop_requested && options.stop_requested();
    return report.interrupted;
  };
  Clock::time_point last_progress = start;
  const auto tally = [&](int64_t i, CaseRun &&run) {
    const uint64_t index = index_at(i);
    const Problem config = run.reference_problem.empty() ? run.problem : source.config_at(index);
    report.reference_s += run.reference_s;
    report.stats.add(config, run.outcomes);
    if (!run.reference_problem.empty()) report.unmade_cases.push_back({index, config, run.reference_problem});
    for (size_t j = 0; j < run.outcomes.size(); ++j) { // strategy-major, see verify_case
      const Outcome &outcome = run.outcomes[j];
      Tally &tally = report.tally_of(outcome.strategy).by_direction[outcome.direction];
      count(tally, outcome.verdict);
      if (outcome.verdict == Verdict::skipped) {
        tally.planned_out += outcome.detail.starts_with(cost_plan_prefix);
        add_skip_reason(tally.skip_reasons, outcome.detail);
      }
      if (outcome.verdict == Verdict::held_back) ++tally.held_back_bugs[held_back_id(outcome.detail)];
      tally.seconds += outcome.seconds;
      if (outcome.verdict == Verdict::failed)
        report.failures.push_back(
            {Failure{outcome.strategy, outcome.direction, index, config, outcome.detail, outcome.kind},
             std::nullopt});
    }
    report.cases = i + 1;
    if (progress && seconds_since(last_progress) > 0.25) {
      last_progress = Clock::now();
      progress({report.cases, source.count, report.failure_count(), seconds_since(start)});
    }
  };
  for (const Strategy &strategy : strategies)
    if (strategy.warm_up && !strategy.injected) { // built-in code only: it runs unisolated
      const Clock::time_point warm_up_start = Clock::now();
      strategy.warm_up();
      report.warm_up_s += seconds_since(warm_up_start);
    }
  {
    CaseWorkers workers(strategies, processes, options.run_timeout_s, [&](uint64_t index, const BeforeRun &before) {
      const Clock::time_point case_start = Clock::now();
      const Case conv_case = make_case(source.config_at(index), options.fill, options.seed, index, options.fill_special);
      const Reference reference = compute_reference(conv_case);
      CaseRun run;
      run.problem = conv_case.problem;
      run.reference_s = seconds_since(case_start);
      run.outcomes = verify_case(conv_case, reference, strategies, before);
      return run;
    }, options.recycling);
    report.cases = workers.run(source.count, index_at, stop, tally);
    report.workers_recycled = workers.retired();
    report.worker_peak_rss_kib = workers.end();
  }
  if (progress) progress({report.cases, source.count, report.failure_count(), seconds_since(start)});
  save_failures(report, strategies, options, processes);
  report.elapsed_s = seconds_since(start);
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) report.peak_rss_kib = usage.ru_maxrss;
  return report;
}

} // namespace convcheck
