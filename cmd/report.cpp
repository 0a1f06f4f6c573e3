// `convcheck report merge A.json B.json... [--report OUT.json] [--junit OUT.xml] [--html OUT.html]`: one report
// from the JSON reports of the shards of a campaign (fuzz --shard I/N). Exit 1 when any shard found a mismatch.

#include <iostream>

#include <fmt/format.h>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/input_error.hpp"
#include "reports/html_report.hpp"
#include "reports/json_report.hpp"
#include "reports/junit_report.hpp"
#include "reports/text_summary.hpp"

namespace convcheck {

int report_command(const std::vector<std::string> &args) {
  std::vector<std::string> words;
  std::string json_path, junit_path, html_path;
  po::options_description description(
      "convcheck report merge SHARD.json... [options]\n\nMerges the JSON reports of a sharded campaign");
  description.add_options()("help", "show this help")("word", po::value(&words), "merge, then report files")
      ("report", po::value(&json_path), "write the merged JSON report here")
      ("junit", po::value(&junit_path), "write the merged JUnit XML report here")
      ("html", po::value(&html_path), "write the merged report as a self-contained HTML page here");
  po::positional_options_description positional;
  positional.add("word", -1);
  const po::variables_map map = parse_arguments(args, description, positional);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  if (words.empty() || words.front() != "merge") throw InputError("report needs the action merge");
  if (words.size() < 2) throw InputError("report merge needs at least one JSON report");
  std::vector<CampaignReport> shards;
  for (auto file = words.begin() + 1; file != words.end(); ++file) shards.push_back(read_json_report(*file));
  const CampaignReport merged = merge_reports(shards);
  std::cout << text_summary(merged);
  if (!json_path.empty()) write_json_report(json_path, merged);
  if (!junit_path.empty()) write_junit_report(junit_path, merged);
  if (!html_path.empty())
    write_html_report(html_path, merged,
                      fmt::format("campaign with seed {}, merged from {} report{}", merged.seed, shards.size(),
                                  shards.size() == 1 ? "" : "s"));
  return merged.failed() ? exit_mismatch : exit_agreed;
}

} // namespace convcheck
