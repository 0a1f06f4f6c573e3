#include "cmd/campaign_cli.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "cmd/exit_codes.hpp"
#include "core/input_error.hpp"
#include "core/numerics/fill.hpp"
#include "core/problem/precision_table.hpp"
#include "core/run/focus.hpp"
#include "core/run/offered_rows.hpp"
#include "reports/html_report.hpp"
#include "reports/json_report.hpp"
#include "reports/junit_report.hpp"
#include "reports/text_summary.hpp"

namespace convcheck {

namespace {

// Set by SIGINT/SIGTERM; the campaign polls it between chunks, so a nightly run that is told to stop still
// finishes the cases in flight, saves its findings and writes its reports.
volatile std::sig_atomic_t stop_signal = 0;

void request_stop(int signal) { stop_signal = signal; }

void print_progress(const Progress &progress) {
  const double rate = progress.elapsed_s > 0 ? progress.cases_done / progress.elapsed_s : 0.0;
  const std::string total =
      progress.cases_total == std::numeric_limits<int64_t>::max() ? "" : fmt::format("/{}", progress.cases_total);
  fmt::print(stderr, "\r{}{} cases, {:.0f} cases/s, {} findings, {:.1f} s ", progress.cases_done, total, rate,
             progress.failures, progress.elapsed_s);
  std::fflush(stderr);
}

// The generated source drawn inside the support of strategy `name` (one of `strategies`; "": every problem drawn),
// narrowed to `aim`: core/run/focus.hpp.
std::function<Problem(uint64_t)> focused_source(const std::vector<Strategy> &strategies, const std::string &name,
                                                const Aim &aim, uint64_t seed,
                                                const std::function<Problem(uint64_t, const Support *)> &generated) {
  const auto found =
      std::find_if(strategies.begin(), strategies.end(), [&](const Strategy &s) { return s.name == name; });
  if (!name.empty() && found == strategies.end())
    throw InputError(fmt::format("focus {} is not among the strategies run (name it with --strategies, --external, "
                                 "--external-server or --plugin)",
                                 name));
  if (!generated) throw InputError("--focus, --rows and --ops draw generated cases only (fuzz)");
  const std::string whose = name.empty() ? "the aim (--rows, --ops)" : name;
  const Support support = aimed(name.empty() ? every_drawn_problem() : found->supports, aim, whose);
  if (const std::string warning = rejection_warning(whose, focus_rejection_rate(seed, support, whose));
      !warning.empty())
    spdlog::warn("{}", warning);
  return [support, generated](uint64_t index) { return generated(index, &support); };
}

} // namespace

// "I/N" with 0 <= I < N.
std::pair<int64_t, int64_t> parse_shard(const std::string &text) {
  int64_t index = -1, count = 0;
  char slash = 0;
  std::istringstream in(text);
  if (!(in >> index >> slash >> count) || slash != '/' || !in.eof() || count < 1 || index < 0 || index >= count)
    throw InputError(fmt::format("shard '{}' is not I/N with 0 <= I < N", text));
  return {index, count};
}

CaseSource CampaignCli::sharded(int64_t cases, std::function<Problem(uint64_t)> config_at) {
  const auto [index, count] = parse_shard(shard);
  // Cases [0, cases) of the whole campaign whose index is `index` mod `count`.
  const int64_t in_shard =
      cases == std::numeric_limits<int64_t>::max() ? cases : std::max<int64_t>((cases - index + count - 1) / count, 0);
  identity.shard_index = static_cast<uint64_t>(index);
  identity.shard_count = static_cast<uint64_t>(count);
  if (cases != std::numeric_limits<int64_t>::max()) identity.cases = cases, identity.planned_cases = in_shard;
  return {in_shard, std::move(config_at), static_cast<uint64_t>(index), static_cast<uint64_t>(count)};
}

int unjudged_exit(const CampaignReport &report, int status) {
  bool unjudged = false;
  for (const JudgedShortfall &shortfall : judged_shortfalls(report))
    if (shortfall.none()) {
      spdlog::error("{}", describe(shortfall, report.judged_rule.min_judged_percent));
      unjudged = true;
    }
  return unjudged ? exit_bad_input : status;
}

void CampaignCli::add_options(po::options_description &description) {
  description.add_options()
      ("seed", po::value(&campaign.seed)->default_value(1), "campaign seed; same seed, same cases and verdicts")
      ("shard", po::value(&shard), "I/N: run only the cases whose index is I mod N (N shards make one campaign)")
      ("time", po::value(&campaign.time_limit_s), "stop starting new cases after this many seconds")
      ("fill", po::value(&fill)->default_value(fill), "input values: normal, exact, witness (positive integers: narrow accumulations show) or mixed")
      ("fill-special", po::value(&fill_special)->default_value(fill_special),
       "special values mixed into the fill: mixed (each kind at its share), none, or one kind in every case it "
       "applies to: subnormal, near_max, tie, signed_zero")
      ("corpus", po::value(&campaign.corpus_dir)->default_value(campaign.corpus_dir),
       "directory that receives shrunk failing cases")
      ("report", po::value(&report_path), "write a JSON report here")
      ("junit", po::value(&junit_path), "write a JUnit XML report here (one testcase per strategy and direction)")
      ("html", po::value(&html_path), "write a self-contained HTML page here: verdict, findings, charts")
      ("no-shrink", "save failing cases as found, without shrinking")
      ("max-saved", po::value(&saved_per_failure_kind)->default_value(saved_per_failure_kind),
       "failing cases saved per strategy and direction (of each shard; report merge keeps the campaign's first)")
      ("min-judged", po::value(&min_judged_percent)->default_value(min_judged_percent),
       "percent of the cases under which a strategy you named (--strategies, --external, --external-server, "
       "--plugin) judged on fewer is a warning; judged on none is exit status 2")
      ("campaign", po::value(&identity.name), "name of this run of the campaign, the same for all its shards "
       "(report merge refuses a shard of another run)");
  add_run_options(description, run);
}

void CampaignCli::finish(const po::variables_map &map) {
  if (map.count("time") && !(campaign.time_limit_s > 0))
    throw InputError(fmt::format("time {} must be > 0 seconds", campaign.time_limit_s));
  require_at_least("max-saved", saved_per_failure_kind, 0);
  if (!(min_judged_percent >= 0 && min_judged_percent <= 100))
    throw InputError(fmt::format("min-judged {} must be a percent from 0 to 100", min_judged_percent));
  campaign.fill = parse_fill_mode(fill);
  campaign.fill_special = parse_fill_special(fill_special);
  campaign.threads = run.threads;
  campaign.run_timeout_s = run.run_timeout_s();
  campaign.recycling = run.recycling;
  campaign.shrink = map.count("no-shrink") == 0;
  campaign.saved_per_failure_kind = static_cast<size_t>(saved_per_failure_kind);
  identity.seed = campaign.seed;
  if (map.count("time")) identity.time_s = campaign.time_limit_s;
  // Shards of one campaign draw the same special kinds; the default keeps the identity older reports have.
  identity.fill = campaign.fill_special == FillSpecial::mixed ? fill : fill + " special " + fill_special;
  identity.shrink = campaign.shrink;
  identity.max_saved = saved_per_failure_kind;
  identity.version = CONVCHECK_VERSION;
}

int CampaignCli::run_and_report(const CaseSource &drawn, bool offer_outside_precisions) const {
  const std::vector<Strategy> strategies = run.selected();
  CaseSource source = drawn;
  if (offer_outside_precisions) {
    const std::vector<const PrecisionRow *> offered = offered_to_outside(strategies);
    source.config_at = [config_at = drawn.config_at, offered, seed = campaign.seed](uint64_t index) {
      return within(config_at(index), offered, row_hash(seed, index));
    };
  }
  const bool terminal = isatty(STDERR_FILENO) != 0;
  CaseSource focused = source;
  if (!focus.empty() || !aim.empty())
    focused.config_at = focused_source(strategies, focus, aim, campaign.seed, generated);
  CampaignOptions options = campaign;
  options.stop_requested = [] { return stop_signal != 0; };
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  CampaignReport report = run_campaign(focused, strategies, options, terminal ? print_progress : nullptr);
  report.identity = identity;
  report.judged_rule = {run.named(), min_judged_percent};
  for (const Strategy &strategy : strategies) {
    report.identity.strategies.push_back(strategy.name);
    for (const std::string &warning : strategy.declaration_warnings)
      report.judged_rule.declaration_warnings.push_back(warning);
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (terminal) fmt::print(stderr, "\n");
  if (report.interrupted) spdlog::warn("stopped by signal {} after {} cases", static_cast<int>(stop_signal), report.cases);
  std::cout << text_summary(report);
  if (!report_path.empty()) write_json_report(report_path, report);
  if (!junit_path.empty()) write_junit_report(junit_path, report);
  if (!html_path.empty()) write_html_report(html_path, report);
  return unjudged_exit(report, report.failed() ? exit_mismatch : exit_agreed);
}

} // namespace convcheck
