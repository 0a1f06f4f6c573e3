// `convcheck fuzz`: random configs from the default distribution through every selected strategy.

#include <cstdio>
#include <iostream>
#include <limits>

#include <fmt/format.h>
#include <unistd.h>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/campaign.hpp"
#include "core/generators.hpp"
#include "core/input_error.hpp"
#include "reports/json_report.hpp"
#include "reports/text_summary.hpp"

namespace convcheck {

namespace {

void print_progress(const Progress &progress) {
  const double rate = progress.elapsed_s > 0 ? progress.cases_done / progress.elapsed_s : 0.0;
  const std::string total =
      progress.cases_total == std::numeric_limits<int64_t>::max() ? "" : fmt::format("/{}", progress.cases_total);
  fmt::print(stderr, "\r{}{} cases, {:.0f} cases/s, {} findings, {:.1f} s ", progress.cases_done, total, rate,
             progress.failures, progress.elapsed_s);
  std::fflush(stderr);
}

} // namespace

int fuzz_command(const std::vector<std::string> &args) {
  RunOptions run;
  CampaignOptions campaign;
  int64_t cases = 1000;
  std::string fill = "mixed", report_path;
  int64_t saved = 1;
  po::options_description description("convcheck fuzz [options]\n\nRandom conv configs through every strategy");
  description.add_options()("help", "show this help")
      ("seed", po::value(&campaign.seed)->default_value(1), "campaign seed; same seed, same cases and verdicts")
      ("cases", po::value(&cases), "number of cases (default 1000, or unlimited with --time)")
      ("time", po::value(&campaign.time_limit_s), "stop starting new cases after this many seconds")
      ("fill", po::value(&fill)->default_value(fill), "input values: normal, exact or mixed")
      ("corpus", po::value(&campaign.corpus_dir)->default_value(campaign.corpus_dir),
       "directory that receives shrunk failing cases")
      ("report", po::value(&report_path), "write a JSON report here")
      ("no-shrink", "save failing cases as found, without shrinking")
      ("max-saved", po::value(&saved)->default_value(saved), "failing cases saved per strategy and direction");
  add_run_options(description, run);
  const po::variables_map map = parse_arguments(args, description);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  const bool timed = map.count("time") > 0;
  if (timed && !(campaign.time_limit_s > 0))
    throw InputError(fmt::format("time {} must be > 0 seconds", campaign.time_limit_s));
  if (map.count("cases")) require_at_least("cases", cases, 1);
  else if (timed) cases = std::numeric_limits<int64_t>::max();
  require_at_least("max-saved", saved, 0);
  campaign.fill = parse_fill_mode(fill);
  campaign.threads = run.threads;
  campaign.shrink = map.count("no-shrink") == 0;
  campaign.saved_per_failure_kind = static_cast<size_t>(saved);
  const std::vector<Strategy> strategies = run.selected();

  const uint64_t seed = campaign.seed;
  const CaseSource source{cases, [seed](uint64_t index) { return generate_config(seed, index); }};
  const bool terminal = isatty(STDERR_FILENO) != 0;
  const CampaignReport report = run_campaign(source, strategies, campaign, terminal ? print_progress : nullptr);
  if (terminal) fmt::print(stderr, "\n");
  std::cout << text_summary(report);
  if (!report_path.empty()) write_json_report(report_path, report);
  return report.failed() ? exit_mismatch : exit_agreed;
}

} // namespace convcheck
