// JSON reports keep what the HTML page needs through a write and a read, and refuse stats they would misplace.

#include "reports/json_report.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

class JsonReport : public ::testing::Test {
protected:
  void SetUp() override {
    path_ =
        (fs::temp_directory_path() /
         ("convcheck-json-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".json"))
            .string();
  }
  void TearDown() override { fs::remove(path_); }
  std::string path_;
};

// One failure of `problem`, saved after shrinking, and its stats.
CampaignReport one_failure(const std::string &problem) {
  CampaignReport report;
  report.seed = 9;
  report.cases = 1;
  report.tallies.push_back({"naive", {}});
  report.tallies[0].by_direction[Direction::grad_data].failed = 1;
  const Problem config = parse_descriptor("g2ic4ih6oc2kh3pt1"), shrunk = parse_descriptor("ic1ih1oc1kh1pt1");
  report.failures.push_back({Failure{"naive", Direction::grad_data, 0, config, problem},
                             SavedFinding{shrunk, "on the shrunk config: " + problem, 4, 9, 0.5, "findings/x.h5"}});
  Outcome outcome{"naive", Direction::grad_data, Verdict::failed, problem};
  report.stats.add(config, {outcome});
  return report;
}

TEST_F(JsonReport, KeepsStatsAndTheShrunkProblemThroughAWriteAndARead) {
  const CampaignReport report = one_failure("element [0, 0, 1, 1] is 3 instead of 2");
  write_json_report(path_, report);
  const CampaignReport read = read_json_report(path_);
  EXPECT_EQ(read.stats, report.stats);
  ASSERT_EQ(read.failures.size(), 1u);
  ASSERT_TRUE(read.failures[0].saved);
  EXPECT_EQ(read.failures[0].saved->problem, "on the shrunk config: element [0, 0, 1, 1] is 3 instead of 2");
  EXPECT_EQ(read.failures[0].failure.problem, "element [0, 0, 1, 1] is 3 instead of 2");
}

TEST_F(JsonReport, WritesAProblemCutInsideACharacter) {
  // An external program's output tail is cut at a byte count, possibly inside a UTF-8 character.
  write_json_report(path_, one_failure("exit 1; output: r\xC3\xA9sultat \xE2\x88"));
  EXPECT_EQ(read_json_report(path_).failures[0].failure.problem, "exit 1; output: r\xC3\xA9sultat \xEF\xBF\xBD");
}

TEST_F(JsonReport, RefusesStatsWithOtherBins) {
  nlohmann::json json = nlohmann::json::parse(json_report(one_failure("x")));
  json["stats"]["config_space"]["stride"]["columns"][3] = "5+";
  std::ofstream(path_) << json.dump();
  try {
    read_json_report(path_);
    FAIL() << "other bins were accepted";
  } catch (const InputError &error) {
    EXPECT_EQ(std::string(error.what()),
              "report " + path_ + ": stats grid stride has other bins than this convcheck's");
  }
  json = nlohmann::json::parse(json_report(one_failure("x")));
  json["stats"]["ratios"]["naive"]["output"].push_back(1);
  std::ofstream(path_) << json.dump();
  EXPECT_THROW(read_json_report(path_), InputError);
}

} // namespace
} // namespace convcheck
