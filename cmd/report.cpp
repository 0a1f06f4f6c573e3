// `convcheck report merge A.json B.json... [--report OUT.json] [--junit OUT.xml] [--html OUT.html]
// [--allow-partial] [--campaign NAME]`: one report from the JSON reports of the shards of a campaign (fuzz --shard
// I/N), checked to be every shard of one run of one campaign, each once (reports/shard_merge.hpp). Exit 1 when the
// campaign found a mismatch, 2 when a report is unreadable or not a shard of the campaign (one line naming it).

#include <iostream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cmd/campaign_cli.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/input_error.hpp"
#include "reports/html_report.hpp"
#include "reports/json_report.hpp"
#include "reports/junit_report.hpp"
#include "reports/shard_merge.hpp"
#include "reports/text_summary.hpp"

namespace convcheck {

int report_command(const std::vector<std::string> &args) {
  std::vector<std::string> words;
  std::string json_path, junit_path, html_path;
  ShardMergeOptions options;
  po::options_description description(
      "convcheck report merge SHARD.json... [options]\n\nMerges the JSON reports of a sharded campaign");
  description.add_options()("help", "show this help")("word", po::value(&words), "merge, then report files")
      ("report", po::value(&json_path), "write the merged JSON report here")
      ("junit", po::value(&junit_path), "write the merged JUnit XML report here")
      ("html", po::value(&html_path), "write the merged report as a self-contained HTML page here")
      ("allow-partial", po::bool_switch(&options.allow_partial),
       "merge even when shards are missing or stopped early (the merged report lists them)")
      ("campaign", po::value(&options.campaign_name),
       "every shard must be of this run (fuzz --campaign NAME); default: of the first report's");
  po::positional_options_description positional;
  positional.add("word", -1);
  const po::variables_map map = parse_arguments(args, description, positional);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  if (words.empty() || words.front() != "merge") throw InputError("report needs the action merge");
  if (words.size() < 2) throw InputError("report merge needs at least one JSON report");
  const std::vector<std::string> paths(words.begin() + 1, words.end());
  std::vector<CampaignReport> shards;
  for (const std::string &path : paths) shards.push_back(read_json_report(path));
  const CampaignReport merged = merge_shards(paths, shards, options);
  const std::string partial = describe_partial(merged.identity);
  if (!partial.empty()) spdlog::warn("partial campaign merged: {}", partial);
  std::cout << text_summary(merged);
  if (!json_path.empty()) write_json_report(json_path, merged);
  if (!junit_path.empty()) write_junit_report(junit_path, merged);
  if (!html_path.empty())
    write_html_report(html_path, merged,
                      fmt::format("campaign with seed {}, merged from {} report{}{}", merged.seed, shards.size(),
                                  shards.size() == 1 ? "" : "s", partial.empty() ? "" : ", partial: " + partial));
  return unjudged_exit(merged, merged.failed() ? exit_mismatch : exit_agreed);
}

} // namespace convcheck
