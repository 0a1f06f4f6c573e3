// The command line as a user meets it: exit codes, one-line errors, and the planted-bug loop
// (fuzz finds it, shrinks it, writes it; repro fails again on the file).

#include <array>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"
#include <nlohmann/json.hpp>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;
using convcheck::testing::Invocation;
using convcheck::testing::read_json;

Invocation convcheck(const std::string &args) { return convcheck::testing::run_convcheck(args); }

class Cli : public convcheck::testing::ScratchDirectoryTest {};


// The report without its timings and memory figures, the only things allowed to differ between identical runs.
nlohmann::json without_timings(nlohmann::json json) {
  if (json.is_object()) {
    for (const char *key :
         {"elapsed_s", "warm_up_s", "reference_s", "seconds", "shrink_s", "peak_rss_kib", "worker_peak_rss_kib"})
      json.erase(key);
    for (auto &[key, value] : json.items()) value = without_timings(value);
  } else if (json.is_array()) {
    for (auto &value : json) value = without_timings(value);
  }
  return json;
}

TEST_F(Cli, VersionAndHelpExitZero) {
  EXPECT_EQ(convcheck("--version").output, "convcheck 0.1.0\n");
  EXPECT_EQ(convcheck("--help").status, 0);
  const Invocation help = convcheck("fuzz --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.output.find("--seed"), std::string::npos);
  EXPECT_EQ(convcheck("repro --help").status, 0);
}

TEST_F(Cli, BadUsageExitsTwoWithOneLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "convcheck: error: no command given (try convcheck --help)\n"},
      {"frobnicate", "convcheck: error: unknown command 'frobnicate' (try convcheck --help)\n"},
      {"fuzz --cases 0", "convcheck: error: cases 0 must be >= 1\n"},
      {"fuzz --cases -3", "convcheck: error: cases -3 must be >= 1\n"},
      {"fuzz --time 0", "convcheck: error: time 0 must be > 0 seconds\n"},
      {"fuzz --cases many", "convcheck: error: the argument ('many') for option '--cases' is invalid\n"},
      {"fuzz --fill wrong", "convcheck: error: fill mode 'wrong' is not normal, exact, witness or mixed\n"},
      {"fuzz --bogus", "convcheck: error: unrecognised option '--bogus'\n"},
      {"fuzz --threads -1", "convcheck: error: threads -1 must be >= 0\n"},
      {"fuzz --strategies naive,nope", "convcheck: error: unknown strategy 'nope' (known: "},
      {"fuzz --inject naive", "convcheck: error: unknown injected bug 'naive' (known: "},
      {"repro", "convcheck: error: repro needs at least one case file\n"},
      {"repro /nonexistent/case.h5", "convcheck: error: cannot open case file /nonexistent/case.h5: no such file\n"},
  };
  for (const auto &[args, message] : cases) {
    const Invocation run = convcheck(args);
    EXPECT_EQ(run.status, 2) << args;
    EXPECT_EQ(run.output.substr(0, message.size()), message) << args;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << args << ": " << run.output;
  }
}

TEST_F(Cli, CleanRunExitsZeroAndReports) {
  const Invocation run = convcheck("fuzz --cases 300 --strategies naive --report " + path("report.json") + " --corpus " +
                            path("findings"));
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("no mismatch"), std::string::npos);
  const nlohmann::json report = read_json(path("report.json"));
  EXPECT_EQ(report["cases"], 300);
  EXPECT_EQ(report["seed"], 1);
  const nlohmann::json &naive = report["strategies"]["naive"];
  // Every direction of every case ran, but those the cost plan (core/run/cost_plan.hpp) gave another case's turn.
  EXPECT_EQ(naive["passed"].get<int>() + naive["weak"].get<int>() + naive["cost_plan_skipped"].get<int>(), 900);
  EXPECT_EQ(naive["skipped"], naive["cost_plan_skipped"]);
  EXPECT_EQ(naive["failed"], 0);
  EXPECT_TRUE(report["failures"].empty());
  EXPECT_FALSE(fs::exists(path("findings")));
  EXPECT_EQ(report["warm_up_s"], 0.0); // no strategy here warms up, and the naive loops need nothing
}

// XNNPACK initializes itself before the first case (oneDNN 3.x no longer warms up: its SYCL runtime's threads would
// not survive the fork, docs/libraries/onednn.md); the report says how much of elapsed_s that was, so a benchmark can
// tell the per-case rate from the one-time cost.
TEST_F(Cli, ReportSaysHowLongTheWarmUpTook) {
  const Invocation run = convcheck("fuzz --cases 2 --strategies xnnpack --report " + path("report.json"));
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json report = read_json(path("report.json"));
  EXPECT_GT(report["warm_up_s"].get<double>(), 0.0);
  EXPECT_LT(report["warm_up_s"].get<double>(), report["elapsed_s"].get<double>());
}

TEST_F(Cli, PlantedBugIsFoundShrunkWrittenAndReproduced) {
  const Invocation fuzz = convcheck("fuzz --cases 300 --strategies naive --inject pad_order --corpus " + path("findings") +
                             " --report " + path("report.json"));
  ASSERT_EQ(fuzz.status, 1) << fuzz.output;
  const nlohmann::json report = read_json(path("report.json"));
  ASSERT_FALSE(report["failures"].empty());
  const nlohmann::json &first = report["failures"][0];
  EXPECT_EQ(first["strategy"], "pad_order");
  ASSERT_TRUE(first["repro"].is_string());
  const std::string repro_path = first["repro"];
  EXPECT_TRUE(fs::exists(repro_path));
  // The smallest config showing a swapped pad_bottom/pad_left: one pixel (two with a crop), one padding or crop on
  // one of the two sides.
  EXPECT_TRUE(std::regex_match(first["shrunk_config"].get<std::string>(),
                               std::regex("mb1ic1ih1iw[12]oc1kh1kw1p[bl]-?1")))
      << first["shrunk_config"];
  // The smallest config showing a swapped pad_bottom/pad_left: one pixel (two with a crop), one padding or crop on
  // one of the two sides.
  EXPECT_TRUE(std::regex_match(first["shrunk_config"].get<std::string>(),
                               std::regex("mb1ic1ih1iw[12]oc1kh1kw1p[bl]-?1")))
      << first["shrunk_config"];
  for (const auto &failure : report["failures"]) EXPECT_EQ(failure["strategy"], "pad_order");

  const Invocation repro = convcheck("repro " + repro_path);
  EXPECT_EQ(repro.status, 1) << repro.output;
  EXPECT_NE(repro.output.find("failure reproduced"), std::string::npos);
  // With a crop, swapped paddings can leave no output: the mutant throws, and no result of it is recorded. Otherwise
  // its result is recorded, and even without rerunning the mutant the recorded result alone fails again.
  if (first["shrunk_problem"].get<std::string>().rfind("threw", 0) != 0) {
    EXPECT_NE(repro.output.find("recorded:pad_order"), std::string::npos);
    const Invocation recorded = convcheck("repro --strategies naive " + repro_path);
    EXPECT_EQ(recorded.status, 1);
  }
}

TEST_F(Cli, VerdictsDoNotDependOnThreads) {
  auto run = [&](int threads) {
    const std::string report = path("report" + std::to_string(threads) + ".json");
    convcheck("fuzz --seed 7 --cases 400 --strategies naive --inject pad_order --no-shrink --threads " +
              std::to_string(threads) + " --corpus " + path("findings") + " --report " + report);
    return without_timings(read_json(report));
  };
  EXPECT_EQ(run(1), run(2));
}

} // namespace

namespace {

TEST_F(Cli, SignalStopsAfterCasesInFlightAndStillReports) {
  const std::string report = path("report.json");
  const auto start = std::chrono::steady_clock::now();
  // A run that would take a minute, told to stop after one second.
  const std::string command = std::string(CONVCHECK_BINARY) + " fuzz --time 60 --strategies naive --inject pad_order "
                              "--corpus " + path("findings") + " --report " + report + " >/dev/null 2>&1 & pid=$!; "
                              "sleep 1; kill -TERM $pid; wait $pid";
  const int status = std::system(("bash -c '" + command + "'").c_str());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(WEXITSTATUS(status), 1); // the mutant's findings count
  EXPECT_LT(seconds, 20.0);
  const nlohmann::json json = read_json(report);
  EXPECT_TRUE(json["interrupted"].get<bool>());
  EXPECT_GT(json["cases"].get<int>(), 0);
  ASSERT_FALSE(json["failures"].empty());
  EXPECT_TRUE(fs::exists(json["failures"][0]["repro"].get<std::string>()));
}

} // namespace

namespace {

TEST_F(Cli, ShardsTogetherEqualOneRun) {
  auto run = [&](const std::string &name, const std::string &shard) {
    const std::string report = path(name + ".json");
    convcheck("fuzz --seed 5 --cases 301 --strategies naive --inject pad_order --no-shrink --max-saved 0 " + shard +
              " --corpus " + path("findings") + " --report " + report);
    return read_json(report);
  };
  const nlohmann::json whole = run("whole", "");
  std::vector<nlohmann::json> shards;
  for (int i = 0; i < 3; ++i) shards.push_back(run("shard" + std::to_string(i), "--shard " + std::to_string(i) + "/3"));
  int cases = 0;
  std::set<std::string> union_failures, whole_failures;
  for (const auto &shard : shards) {
    cases += shard["cases"].get<int>();
    for (const auto &failure : shard["failures"]) union_failures.insert(without_timings(failure).dump());
  }
  for (const auto &failure : whole["failures"]) whole_failures.insert(without_timings(failure).dump());
  EXPECT_EQ(cases, 301);
  EXPECT_EQ(union_failures, whole_failures);
  EXPECT_FALSE(whole_failures.empty());
  for (const char *direction : {"output", "grad_data", "grad_weight"}) {
    int passed = 0;
    for (const auto &shard : shards) passed += shard["strategies"]["naive"]["directions"][direction]["passed"].get<int>();
    EXPECT_EQ(passed, whole["strategies"]["naive"]["directions"][direction]["passed"].get<int>()) << direction;
  }
  EXPECT_EQ(convcheck("fuzz --shard 3/3").output, "convcheck: error: shard '3/3' is not I/N with 0 <= I < N\n");

  // `report merge` turns the shard reports back into the unsharded run's report.
  const Invocation merge = convcheck("report merge " + path("shard0.json") + " " + path("shard1.json") + " " +
                                     path("shard2.json") + " --report " + path("merged.json"));
  EXPECT_EQ(merge.status, 1) << merge.output; // the mutant's failures
  nlohmann::json merged = without_timings(read_json(path("merged.json"))), unsharded = without_timings(whole);
  EXPECT_EQ(merged["campaign"]["merged_shards"], 3);
  merged.erase("campaign"); // the identities differ only in how the campaign was run: 3 shards, or one
  unsharded.erase("campaign");
  EXPECT_EQ(merged, unsharded);
  EXPECT_EQ(convcheck("report merge " + path("nope.json")).output,
            "convcheck: error: cannot open report " + path("nope.json") + "\n");
}

} // namespace

namespace {

// Eight cases of 2.5e7 multiply-adds, far over the cost plan's limit: by default `naive` runs on none of them (it
// would on one case in ceil(M / limit)) and the report counts them as skipped by the plan; named and never judged,
// it ends the run with exit 2 saying so (core/run/judged.hpp). With --full-check it runs on all eight.
TEST_F(Cli, FullCheckRunsWhatTheCostPlanLeavesOut) {
  std::string descriptors;
  for (int i = 0; i < 8; ++i) descriptors += " mb1ic32ih32oc32kh3";
  const Invocation planned = convcheck("check --strategies naive --threads 1 --report " + path("planned.json") +
                                       " --corpus " + path("findings") + descriptors);
  ASSERT_EQ(planned.status, 2) << planned.output;
  EXPECT_NE(planned.output.find("convcheck: error: strategy naive judged none of the 8 cases offered; skipped: 24 x "
                                "cost plan: over 5e+04 multiply-adds, run on a share of cases only (--full-check "
                                "runs all)\n"),
            std::string::npos)
      << planned.output;
  const nlohmann::json counts = read_json(path("planned.json"))["strategies"]["naive"];
  EXPECT_GT(counts["cost_plan_skipped"].get<int>(), 0);
  EXPECT_EQ(counts["cost_plan_skipped"], counts["skipped"]);
  EXPECT_EQ(counts["passed"].get<int>() + counts["weak"].get<int>() + counts["skipped"].get<int>(), 24);
  EXPECT_NE(planned.output.find("left out by the cost plan"), std::string::npos) << planned.output;

  const Invocation full = convcheck("check --strategies naive --threads 1 --full-check --report " + path("full.json") +
                                    " --corpus " + path("findings") + descriptors);
  ASSERT_EQ(full.status, 0) << full.output;
  const nlohmann::json all = read_json(path("full.json"))["strategies"]["naive"];
  EXPECT_EQ(all["skipped"], 0);
  EXPECT_EQ(all["cost_plan_skipped"], 0);
  EXPECT_EQ(all["passed"].get<int>() + all["weak"].get<int>(), 24);
}

} // namespace
