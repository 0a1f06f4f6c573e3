#pragma once
// The options and the ending shared by the subcommands that run a campaign (fuzz over generated configs,
// check over a list): strategies, fill, corpus, reports, shrinking; then the summary, the reports and the exit
// code.

#include <functional>
#include <string>

#include "cmd/run_options.hpp"
#include "core/run/campaign.hpp"
#include "core/run/focus.hpp"

namespace convcheck {

struct CampaignCli {
  RunOptions run;
  CampaignOptions campaign;
  std::string fill = "mixed";
  std::string fill_special = "mixed";
  std::string report_path;
  std::string junit_path;
  std::string html_path;
  std::string shard = "0/1"; // --shard I/N: only the cases whose index is I mod N
  int64_t saved_per_failure_kind = 1;
  double min_judged_percent = default_min_judged_percent; // core/run/judged.hpp
  std::string focus; // fuzz --focus NAME: the generated source drawn inside NAME's support (core/run/focus.hpp)
  Aim aim;           // fuzz --rows, --ops: the generated source drawn inside those rows and ops (core/run/focus.hpp)
  /// The campaign's generated source (fuzz): case index -> problem, given the support to focus on (or none).
  std::function<Problem(uint64_t case_index, const Support *focus)> generated;
  /// Which campaign and shard this run is: the subcommand sets the command, shard and case budget; run_and_report
  /// completes the rest from the options.
  CampaignIdentity identity;

  /// Adds --seed --time --fill --shard --corpus --report --junit --html --no-shrink --max-saved --campaign and the
  /// run options.
  void add_options(po::options_description &description);
  /// Checks the values and completes `campaign`; throws InputError naming a bad one.
  void finish(const po::variables_map &map);
  /// Runs over `source`, prints the summary (progress on a terminal), writes reports; returns the exit code: 2
  /// (after the reports) when a strategy the user named was judged on no case, with one line for each. With
  /// offer_outside_precisions (fuzz), a drawn case whose precision some --external, --external-server or --plugin
  /// implementation is not offered gets one it is (docs/external.md).
  int run_and_report(const CaseSource &source, bool offer_outside_precisions = false) const;
  /// The cases of a campaign of `cases` (the int64 max: unlimited, a timed run) this run's --shard takes, the config
  /// of a case index given by `config_at`; records the shard, and the case counts of a limited run, in `identity`.
  CaseSource sharded(int64_t cases, std::function<Problem(uint64_t)> config_at);
};

/// `status`, or exit_bad_input after one error line on stderr for each strategy the user named that was judged on
/// no case of `report` (core/run/judged.hpp).
int unjudged_exit(const CampaignReport &report, int status);

} // namespace convcheck
