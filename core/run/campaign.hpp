#pragma once
// A run over a list of cases: generate or take each config, make its inputs, compute the reference once, run
// every strategy on every direction, tally verdicts, then shrink and save the first failures of each
// strategy/direction. Cases run in forked worker processes (core/run/case_workers.hpp), so a strategy that crashes
// or hangs is a finding, not the end of the run; each case is a pure function of (seed, index), and tallies are
// gathered in index order, so verdicts do not depend on the number of workers.

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/process/worker_recycling.hpp"
#include "core/run/campaign_identity.hpp"
#include "core/run/campaign_stats.hpp"
#include "core/problem/problem.hpp"
#include "core/numerics/fill.hpp"
#include "core/run/finding.hpp"
#include "core/run/judged.hpp"
#include "core/run/skip_tally.hpp"
#include "core/run/strategy.hpp"
#include "core/run/tally.hpp"

namespace convcheck {

struct CampaignOptions {
  uint64_t seed = 1;
  double time_limit_s = 0; // 0: no limit
  int threads = 0;         // worker processes; 0: one per core
  double run_timeout_s = 60; // longest one strategy may run on one direction of one case before it is a timeout
  FillMode fill = FillMode::mixed;
  FillSpecial fill_special = FillSpecial::mixed; // the special-value kinds drawn (core/numerics/fill_special.hpp)
  std::string corpus_dir = "convcheck-findings";
  bool shrink = true;
  size_t saved_per_failure_kind = 1; // failures saved (and shrunk) per strategy/direction; the rest are counted
  WorkerRecycling recycling;         // when a worker is replaced (core/process/worker_recycling.hpp)
  /// Polled between chunks of cases: true stops starting new cases (a signal, say); what ran is still
  /// reported and its failures saved.
  std::function<bool()> stop_requested;
};

/// Where configs come from: fuzz generates them from the seed, `check` reads a list. The run visits case indices
/// first, first + step, ... (`count` of them): a shard I of N of a campaign is first = I, step = N, so N shards
/// together run exactly the cases of the unsharded campaign, each under its own index.
struct CaseSource {
  int64_t count = 0;
  std::function<Problem(uint64_t case_index)> config_at;
  uint64_t first = 0;
  uint64_t step = 1;
};

struct ReportedFailure {
  Failure failure;
  std::optional<SavedFinding> saved; // empty for failures beyond saved_per_failure_kind
};

/// A case convcheck could not make, or whose double reference it could not compute (its own code crashed or overran
/// the case timeout before any strategy ran): no strategy's finding, but a campaign that failed.
struct UnmadeCase {
  uint64_t case_index = 0;
  Problem config;
  std::string problem; // "timed out after 1 s", "killed by signal 11 (SIGSEGV)"
};

struct CampaignReport {
  uint64_t seed = 0;
  int64_t cases = 0;
  double elapsed_s = 0;
  double warm_up_s = 0; // of elapsed_s, spent warming strategies up (Strategy::warm_up) before the first case
  FillMode fill = FillMode::mixed;
  double reference_s = 0; // computing inputs and the double reference, summed over workers
  std::vector<StrategyTally> tallies; // in strategy order
  std::vector<ReportedFailure> failures;
  std::vector<UnmadeCase> unmade_cases; // in case order
  CampaignStats stats; // what the cases covered and how close each strategy came to its bound
  bool interrupted = false; // stopped by stop_requested before the planned cases ran
  int64_t peak_rss_kib = 0;        // of the main process
  int64_t worker_peak_rss_kib = 0; // of the largest worker (or finding saver): its own, not the main process's children
  int64_t workers_recycled = 0;    // workers replaced after --worker-max-cases or --worker-max-rss
  CampaignIdentity identity;        // which campaign and which shard of it; set by the command that ran it
  JudgedRule judged_rule;           // which strategies the user named, and how few judged cases is a warning
  bool failed() const { return !failures.empty() || !unmade_cases.empty(); }
  /// Failing results and unmade cases.
  size_t failure_count() const { return failures.size() + unmade_cases.size(); }
  /// The tally of the strategy called `name`, added at the end when there is none.
  StrategyTally &tally_of(const std::string &name);
  /// Every direction some strategy has a tally of, in Direction order.
  std::vector<Direction> directions() const;
};

struct Progress {
  int64_t cases_done = 0;
  int64_t cases_total = 0;
  size_t failures = 0;
  double elapsed_s = 0;
};

/// Runs the campaign; `progress` (optional) is called after each chunk of cases.
CampaignReport run_campaign(const CaseSource &source, const std::vector<Strategy> &strategies,
                            const CampaignOptions &options, const std::function<void(const Progress &)> &progress = {});

/// The fill a failure's case was made in: the campaign's, or under --fill mixed the one its index drew.
inline FillMode fill_of(const CampaignReport &report, const Failure &failure) {
  return resolve_fill_mode(report.fill, report.seed, failure.case_index, failure.config);
}

/// judged_shortfalls (core/run/judged.hpp) of a whole report.
inline std::vector<JudgedShortfall> judged_shortfalls(const CampaignReport &report) {
  return judged_shortfalls(report.judged_rule, report.tallies, report.cases);
}

/// The warnings every report prints: the named implementations' declaration warnings, then their shortfalls.
inline std::vector<std::string> judged_warnings(const CampaignReport &report) {
  std::vector<std::string> warnings = report.judged_rule.declaration_warnings;
  for (const JudgedShortfall &shortfall : judged_shortfalls(report))
    warnings.push_back(describe(shortfall, report.judged_rule.min_judged_percent));
  return warnings;
}

} // namespace convcheck
