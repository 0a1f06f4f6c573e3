// docs/report-format.md documents the JSON report: every key a real report has, at the top level, per strategy and
// direction, per failure, under judged and campaign, is named in the document.

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::read_json;
using convcheck::testing::read_text;
using convcheck::testing::run_convcheck;

class ReportFormat : public convcheck::testing::ScratchDirectoryTest {};

// Whether the document names `key` in code quotes, alone or in a list ("`shrunk_config`, `shrunk_problem`").
bool documented(const std::string &doc, const std::string &key) { return doc.find("`" + key + "`") != std::string::npos; }

TEST_F(ReportFormat, EveryKeyOfARealReportIsDocumented) {
  const auto run = run_convcheck("fuzz --cases 30 --threads 1 --inject pad_order --external-server 'srv=/usr/bin/python3 "
                                 CONVCHECK_SOURCE_DIR "/oracles/outside/python/numpy_server.py' --campaign doc --corpus " +
                                 path("findings") + " --report " + path("r.json"));
  ASSERT_EQ(run.status, 1) << run.output;
  const nlohmann::json report = read_json(path("r.json"));
  const std::string doc = read_text(CONVCHECK_SOURCE_DIR "/docs/report-format.md");
  for (const auto &[key, value] : report.items()) EXPECT_TRUE(documented(doc, key)) << key;
  for (const auto &[name, strategy] : report["strategies"].items()) {
    for (const auto &[key, value] : strategy.items()) EXPECT_TRUE(documented(doc, key)) << name << "." << key;
    for (const auto &[direction, tally] : strategy["directions"].items())
      for (const auto &[key, value] : tally.items()) EXPECT_TRUE(documented(doc, key)) << direction << "." << key;
  }
  EXPECT_TRUE(report["strategies"]["srv"].contains("implementation"));
  for (const auto &[key, value] : report["strategies"]["srv"]["implementation"].items())
    EXPECT_TRUE(documented(doc, key)) << "implementation." << key;
  ASSERT_FALSE(report["failures"].empty());
  for (const auto &[key, value] : report["failures"][0].items()) EXPECT_TRUE(documented(doc, key)) << key;
  for (const char *object : {"judged", "campaign", "stats"})
    for (const auto &[key, value] : report[object].items()) EXPECT_TRUE(documented(doc, key)) << object << "." << key;
}

// A case whose double reference overruns the case timeout is no strategy's finding, but the campaign failed: every
// report says which case and why, and none counts it as a strategy's (it was once a failure of a strategy "reference").
TEST_F(ReportFormat, ACaseConvcheckCouldNotMakeFailsEveryReport) {
  const auto run = run_convcheck("check mb16ic64ih96iw96oc64kh5kw5 --case-timeout 1 --report " + path("r.json") +
                                 " --junit " + path("r.xml") + " --html " + path("r.html"));
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAILED making case 0 or its reference (no strategy ran): timed out after 1 s\n"
                            "  config mb16ic64ih96iw96oc64kh5kw5\n1 failures\n"),
            std::string::npos)
      << run.output;
  const nlohmann::json report = read_json(path("r.json"));
  EXPECT_TRUE(report["failures"].empty());
  EXPECT_EQ(report["unmade_cases"], nlohmann::json::parse(R"([{"case_index": 0, "config": "mb16ic64ih96iw96oc64kh5kw5",
                                                               "problem": "timed out after 1 s"}])"));
  const std::string junit = read_text(path("r.xml"));
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<testcase classname=\"convcheck\" name=\"making cases\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("case 0 mb16ic64ih96iw96oc64kh5kw5: timed out after 1 s"), std::string::npos) << junit;
  const std::string html = read_text(path("r.html"));
  EXPECT_NE(html.find("1 case not made"), std::string::npos);
  EXPECT_NE(html.find("<td><code>mb16ic64ih96iw96oc64kh5kw5</code></td><td class=\"problem\">timed out after 1 s"),
            std::string::npos);
}

} // namespace
