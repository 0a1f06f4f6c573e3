// The HTML page shows what a run found, cannot be made to run or fetch anything by the strings it shows, and
// draws a merged sharded campaign exactly as the unsharded run.

#include "reports/html_report.hpp"

#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "reports/json_report.hpp"
#include "reports/markup.hpp"
#include "reports/svg_chart.hpp"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

// A real campaign: the naive strategy and (unless `correct_only`) the pad_order mutant, `count` cases of shard
// `first` of `step`.
CampaignReport campaign(int64_t count, uint64_t first = 0, uint64_t step = 1, bool correct_only = false) {
  CampaignOptions options;
  options.seed = 5;
  options.threads = 2;
  options.saved_per_failure_kind = 0; // nothing shrunk or written: the page needs only the counts
  const CaseSource source{count, [](uint64_t index) { return generate_problem(5, index); }, first, step};
  const std::vector<std::string> inject =
      correct_only ? std::vector<std::string>{} : std::vector<std::string>{"pad_order"};
  return run_campaign(source, select_strategies("naive", inject), options);
}

// The text of <section id="ID">...</section>.
std::string section(const std::string &page, const std::string &id) {
  const size_t begin = page.find("<section id=\"" + id + "\">");
  if (begin == std::string::npos) return "";
  return page.substr(begin, page.find("</section>", begin) - begin);
}

size_t occurrences(const std::string &text, const std::string &needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

// A report whose every outside string tries to break out of the page.
CampaignReport hostile_report() {
  CampaignReport report;
  report.seed = 3;
  report.cases = 1;
  const std::string strategy = "<img src=x onerror=alert(1)>";
  report.tallies.push_back({strategy, {}});
  report.tallies[0].by_direction[Direction::output].failed = 1;
  const Problem config = parse_descriptor("ic2ih3oc1kh2");
  const std::string problem = "exit 1; output: </pre><script>alert(\"x\")</script> & 'q' "
                              "<link rel=stylesheet href=https://evil.example/x.css> \xE2\x82";
  report.failures.push_back(
      {Failure{strategy, Direction::output, 0, config, problem},
       SavedFinding{config, problem, 0, 0, 0, "findings/\"><script src=//evil.example/a.js>.h5"}});
  report.stats.add(config, {Outcome{strategy, Direction::output, Verdict::failed, problem}});
  return report;
}

TEST(Markup, EscapesWhatCouldOpenATagOrEndAnAttribute) {
  EXPECT_EQ(markup_escape("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  EXPECT_EQ(markup_escape("tab\tline\nbell\x07"), "tab\tline\nbell ");
  EXPECT_EQ(markup_escape("\xC3\xA9 \xE2\x88\x92 ok"), "\xC3\xA9 \xE2\x88\x92 ok"); // é and − stay
  EXPECT_EQ(markup_escape("cut \xE2\x88"), "cut \xEF\xBF\xBD\xEF\xBF\xBD");         // half a character does not
  EXPECT_EQ(markup_escape("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                 // nor an overlong '/'
}

TEST(HtmlReport, EscapesEveryStringItShows) {
  const std::string page = html_report(hostile_report());
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_NE(page.find("&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"),
            std::string::npos);
  EXPECT_NE(page.find("convcheck repro findings/&quot;&gt;&lt;script src=//evil.example/a.js&gt;.h5"),
            std::string::npos);
  EXPECT_NE(section(page, "matrix").find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(section(page, "ratios").find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(page.find("x.css&gt; \xEF\xBF\xBD\xEF\xBF\xBD</pre>"), std::string::npos); // a cut character
}

// Every tag of a page (text in between cannot hold a raw '<': it is escaped).
std::string tags(const std::string &page) {
  std::string all;
  const std::regex tag("<[^>]*>");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), tag); it != std::sregex_iterator(); ++it)
    all += it->str() + "\n";
  return all;
}

TEST(HtmlReport, FetchesNothingAndRunsNothing) {
  const std::regex remote(R"((src|href)\s*=\s*["']?\s*(https?:)?//)", std::regex::icase);
  const std::regex active(R"(<(script|link|iframe|object|embed|img|base)\b|\bon[a-z]+\s*=)", std::regex::icase);
  const std::string page = html_report(campaign(60));
  for (const std::string &tested : {page, html_report(hostile_report())}) {
    EXPECT_FALSE(std::regex_search(tags(tested), remote));
    EXPECT_FALSE(std::regex_search(tags(tested), active));
  }
  // Nor does the style sheet, nor anything else on an ordinary page.
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
  EXPECT_EQ(page.find("http"), std::string::npos);
}

TEST(HtmlReport, ShowsTheVerdictTheMatrixAndThePictures) {
  const CampaignReport report = campaign(90);
  ASSERT_TRUE(report.failed());
  const std::string page = html_report(report);
  EXPECT_NE(page.find("<header class=\"fail\">"), std::string::npos);
  EXPECT_NE(page.find(">3 findings<small>"), std::string::npos); // pad_order fails in all three directions
  const std::string matrix = section(page, "matrix");
  const Tally &naive_output = report.tallies[0].by_direction.at(Direction::output);
  EXPECT_NE(matrix.find(fmt::format("{} passed", naive_output.passed)), std::string::npos);
  EXPECT_NE(matrix.find(fmt::format("{} failed", report.tallies[1].by_direction.at(Direction::output).failed)), std::string::npos);
  EXPECT_NE(matrix.find("<span class=\"tag\">injected</span>"), std::string::npos);
  // One chart per strategy, one per config-space grid.
  const std::string ratios = section(page, "ratios"), space = section(page, "config-space");
  EXPECT_EQ(occurrences(ratios, "<svg"), 2u);
  EXPECT_EQ(occurrences(space, "<svg"), empty_config_space().size());
  EXPECT_NE(space.find("Where the 90 cases fell"), std::string::npos);

  const std::string passing = html_report(campaign(20, 0, 1, true));
  EXPECT_NE(passing.find("<header class=\"pass\">"), std::string::npos);
  EXPECT_NE(passing.find(">PASS<small>"), std::string::npos);
}

class HtmlMerge : public ::testing::Test {
protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() /
                 ("convcheck-html-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }
  // `report` written as a JSON report and read back, as `report merge` sees it.
  CampaignReport through_json(const CampaignReport &report, const std::string &name) {
    const std::string path = (directory_ / name).string();
    write_json_report(path, report);
    return read_json_report(path);
  }
  fs::path directory_;
};

TEST_F(HtmlMerge, ShardReportsRenderAsTheWholeRun) {
  const CampaignReport whole = through_json(campaign(150), "whole.json");
  std::vector<CampaignReport> shards;
  for (uint64_t shard = 0; shard < 3; ++shard)
    shards.push_back(through_json(campaign(50, shard, 3), fmt::format("shard{}.json", shard)));
  const CampaignReport merged = merge_reports(shards);
  EXPECT_EQ(merged.stats, whole.stats);
  const std::string whole_page = html_report(whole), merged_page = html_report(merged, "merged from 3 reports");
  for (const char *id : {"matrix", "findings", "ratios", "config-space"}) {
    EXPECT_FALSE(section(whole_page, id).empty()) << id;
    EXPECT_EQ(section(merged_page, id), section(whole_page, id)) << id;
  }
  EXPECT_NE(merged_page.find("merged from 3 reports"), std::string::npos);
}

TEST_F(HtmlMerge, ReportsWithoutStatsStillReadAndSaySo) {
  const CampaignReport report = campaign(30);
  nlohmann::json json = nlohmann::json::parse(json_report(report));
  ASSERT_TRUE(json.contains("stats"));
  json.erase("stats");
  const std::string old_path = (directory_ / "old.json").string();
  std::ofstream(old_path) << json.dump();
  const CampaignReport old = read_json_report(old_path);
  EXPECT_EQ(old.stats.cases, 0);
  EXPECT_EQ(old.tallies.size(), 2u);
  const std::string page = html_report(old);
  EXPECT_NE(section(page, "config-space").find("The pictures are missing"), std::string::npos);
  EXPECT_EQ(section(page, "config-space").find("<svg"), std::string::npos);
  EXPECT_NE(section(page, "matrix").find("passed"), std::string::npos);

  const CampaignReport mixed = merge_reports({old, through_json(report, "new.json")});
  EXPECT_NE(html_report(mixed).find("The pictures cover 30 of the 60 cases"), std::string::npos);
}

} // namespace
} // namespace convcheck

namespace convcheck {
namespace {

// A stacked bar's failures are a sliver next to thousands of passes: the chart writes their count over the bar.
TEST(BarChart, AStackedBarSaysHowManyOfItFailed) {
  BarChart chart;
  chart.categories = {"f32", "bf16"};
  chart.stacked = true;
  chart.series = {{"cases without a failure", "#888888", {4000, 900}}, {"cases with a failure", "#d64545", {0, 15}}};
  chart.marks = {0, 15};
  const std::string svg = bar_chart_svg(chart);
  EXPECT_NE(svg.find(">15 \u2717</text>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find(">0 \u2717</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">915</text>"), std::string::npos) << svg; // the bar's total, moved up above the mark
}

} // namespace
} // namespace convcheck
