// `report merge` takes every shard of one run of one campaign, each once, and nothing else: what a user sees when
// a shard is missing, repeated, of another campaign, of an earlier run, stopped early or unreadable (exit 2, one
// line naming it), what --allow-partial merges, and that the merged campaign saves what the unsharded run saves.

#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;

Invocation convcheck(const std::string &args) { return convcheck::testing::run_convcheck(args); }

class ReportMerge : public convcheck::testing::ScratchDirectoryTest {
protected:
  // Shard `shard` ("I/N") of the campaign (seed 1, `cases` cases, a planted bug found in every shard) as run `run`;
  // returns its report.
  std::string shard(const std::string &name, const std::string &shard, const std::string &more = "") {
    const std::string report = path(name + ".json");
    const Invocation fuzz = convcheck("fuzz --seed 1 --strategies naive --inject pad_order --no-shrink --shard " +
                                      shard + " --corpus " + path("findings") + " --report " + report + " " +
                                      (more.empty() ? "--cases 60 --campaign night" : more));
    EXPECT_EQ(fuzz.status, 1) << fuzz.output;
    return report;
  }
  Invocation merge(const std::string &reports) {
    return convcheck("report merge " + reports + " --report " + path("merged.json"));
  }
};

TEST_F(ReportMerge, EveryShardOnceMerges) {
  const std::string all = shard("s0", "0/3") + " " + shard("s1", "1/3") + " " + shard("s2", "2/3");
  const Invocation merged = merge(all);
  EXPECT_EQ(merged.status, 1) << merged.output; // the planted bug
  const nlohmann::json campaign = read_json(path("merged.json"))["campaign"];
  EXPECT_EQ(campaign["merged_shards"], 3);
  EXPECT_EQ(campaign["shard"], nlohmann::json({{"count", 3}}));
  EXPECT_EQ(campaign["cases"], 60);
  EXPECT_EQ(campaign["name"], "night");
  EXPECT_EQ(campaign["strategies"], nlohmann::json({"naive", "pad_order"}));
  EXPECT_FALSE(campaign.contains("partial"));
}

TEST_F(ReportMerge, RefusesAMissingShardUnlessToldToMergeAPartialCampaign) {
  const std::string two = shard("s0", "0/3") + " " + shard("s1", "1/3");
  EXPECT_EQ(merge(two).status, 2);
  EXPECT_EQ(merge(two).output, "convcheck: error: shard 2/3 is missing: none of the 2 reports given is of it; "
                               "--allow-partial merges without it\n");
  const Invocation partial = merge(two + " --allow-partial");
  EXPECT_EQ(partial.status, 1) << partial.output;
  EXPECT_NE(partial.output.find("convcheck: warning: partial campaign merged: shard 2 of 3 missing\n"),
            std::string::npos)
      << partial.output;
  const nlohmann::json campaign = read_json(path("merged.json"))["campaign"];
  EXPECT_EQ(campaign["partial"]["missing_shards"], nlohmann::json({2}));
  EXPECT_EQ(campaign["partial"]["incomplete_shards"], nlohmann::json::array());
}

TEST_F(ReportMerge, RefusesADuplicateAMismatchedAndAStaleShard) {
  const std::string s0 = shard("s0", "0/2"), s1 = shard("s1", "1/2");
  std::filesystem::copy_file(s0, path("s0-again.json"));
  EXPECT_EQ(merge(s0 + " " + path("s0-again.json") + " " + s1).output,
            "convcheck: error: report " + path("s0-again.json") + " is shard 0/2 again (also report " + s0 + ")\n");

  const std::string bigger = shard("bigger", "1/2", "--cases 90 --campaign night");
  const Invocation mismatched = merge(s0 + " " + bigger);
  EXPECT_EQ(mismatched.status, 2);
  EXPECT_EQ(mismatched.output, "convcheck: error: report " + bigger +
                                   " is of another campaign: case budget 90 differs from 60 in report " + s0 + "\n");
  const std::string four = shard("four", "1/4");
  EXPECT_EQ(merge(s0 + " " + four).output, "convcheck: error: report " + four +
                                               " is of another campaign: shard count 4 differs from 2 in report " +
                                               s0 + "\n");

  const std::string stale = shard("stale", "1/2", "--cases 60 --campaign last-night");
  EXPECT_EQ(merge(s0 + " " + stale).output, "convcheck: error: report " + stale +
                                                " is shard 1/2 of run 'last-night', not of run 'night' (a stale "
                                                "shard?)\n");
  EXPECT_EQ(convcheck("report merge " + stale + " " + s1 + " --campaign night").output,
            "convcheck: error: report " + stale + " is shard 1/2 of run 'last-night', not of run 'night' (a stale "
                                                  "shard?)\n");
  EXPECT_EQ(merge(s0 + " " + s1).status, 1);
}

TEST_F(ReportMerge, RefusesAShardStoppedEarlyUnlessToldToMergeAPartialCampaign) {
  const std::string s0 = shard("s0", "0/2"), s1 = shard("s1", "1/2");
  nlohmann::json report = read_json(s1); // as a shard stopped by its scheduler's time limit leaves it
  report["interrupted"] = true;
  report["cases"] = 12;
  std::ofstream(path("stopped.json")) << report.dump();
  EXPECT_EQ(merge(s0 + " " + path("stopped.json")).output,
            "convcheck: error: report " + path("stopped.json") +
                " is shard 1/2 stopped after 12 of 30 cases (interrupted); --allow-partial merges it as it is\n");
  const Invocation partial = merge(s0 + " " + path("stopped.json") + " --allow-partial");
  EXPECT_EQ(partial.status, 1);
  EXPECT_EQ(read_json(path("merged.json"))["campaign"]["partial"]["incomplete_shards"], nlohmann::json({1}));
}

TEST_F(ReportMerge, RefusesUnreadableReportsAndReportsWithoutAnIdentity) {
  const std::string s0 = shard("s0", "0/1");
  std::ofstream(path("broken.json")) << "{\"seed\": ";
  const Invocation broken = merge(path("broken.json"));
  EXPECT_EQ(broken.status, 2);
  EXPECT_EQ(broken.output.rfind("convcheck: error: report " + path("broken.json") + ": ", 0), 0u) << broken.output;
  EXPECT_EQ(std::count(broken.output.begin(), broken.output.end(), '\n'), 1);

  nlohmann::json old = read_json(s0);
  old.erase("campaign");
  std::ofstream(path("old.json")) << old.dump();
  EXPECT_EQ(merge(path("old.json")).output, "convcheck: error: report " + path("old.json") +
                                                " carries no campaign identity (written by an older convcheck): its "
                                                "shard cannot be checked\n");
  EXPECT_EQ(merge(path("merged.json")).status, 2); // not written: nothing merged
  ASSERT_EQ(merge(s0).status, 1);
  EXPECT_EQ(merge(path("merged.json")).output,
            "convcheck: error: report " + path("merged.json") + " is a merged report, not a shard\n");
}

// Each shard saves the first --max-saved failures of each strategy and direction among its own cases; the merged
// report keeps the campaign's first, as the unsharded run saves them, and lists the other files.
TEST_F(ReportMerge, MergedShardsSaveWhatTheUnshardedRunSaves) {
  const std::string options = "--cases 40 --max-saved 2 --campaign night";
  const auto run = [&](const std::string &name, const std::string &shard) {
    const std::string report = path(name + ".json");
    const Invocation fuzz = convcheck("fuzz --seed 1 --strategies naive --inject pad_order " + options +
                                      " --shard " + shard + " --corpus " + path(name) + " --report " + report);
    EXPECT_EQ(fuzz.status, 1) << fuzz.output;
    return report;
  };
  const nlohmann::json whole = read_json(run("whole", "0/1"));
  const std::vector<std::string> shards = {run("s0", "0/3"), run("s1", "1/3"), run("s2", "2/3")};
  ASSERT_EQ(merge(shards[0] + " " + shards[1] + " " + shards[2]).status, 1);
  const nlohmann::json merged = read_json(path("merged.json"));
  const auto saved = [](const nlohmann::json &report) {
    std::vector<std::string> names;
    for (const auto &failure : report["failures"])
      if (!failure["repro"].is_null()) names.push_back(std::filesystem::path(failure["repro"]).filename());
    return names;
  };
  EXPECT_EQ(saved(whole).size(), 6u); // 2 per direction of pad_order
  EXPECT_EQ(saved(merged), saved(whole));
  EXPECT_EQ(merged["failures"].size(), whole["failures"].size());
  // Each shard saved up to 2 per direction; the merge keeps the files the whole run saved and lists the others,
  // each a file a shard saved, so that together they account for every file the shards wrote.
  std::set<std::string> by_shards, accounted;
  for (const std::string &shard : shards) {
    const nlohmann::json report = read_json(shard);
    for (const auto &failure : report["failures"])
      if (!failure["repro"].is_null()) by_shards.insert(failure["repro"].get<std::string>());
  }
  for (const auto &failure : merged["failures"])
    if (!failure["repro"].is_null()) accounted.insert(failure["repro"].get<std::string>());
  const auto beyond = merged["campaign"]["saved_beyond_max"].get<std::vector<std::string>>();
  EXPECT_FALSE(beyond.empty());
  for (const std::string &file : beyond) {
    EXPECT_TRUE(by_shards.count(file)) << file;
    EXPECT_TRUE(std::filesystem::exists(file)) << file;
    accounted.insert(file);
  }
  EXPECT_EQ(accounted, by_shards);
}

} // namespace

namespace {

// `check --shard I/N` splits a fixed list as fuzz splits a campaign: the shards' reports merge into the unsharded
// run's counts, every line run once.
TEST_F(ReportMerge, CheckShardsOfAListMergeIntoTheWholeList) {
  const std::string lines = "mb1ic1iw3oc1kw1 mb2ic2ih4iw4oc2kh3kw3 g2mb1ic4iw5oc2kw2 mb1ic3id3ih3iw3oc1kd2kh2kw2 "
                            "mb1ic1iw7oc3kw3sw2 mb1ic2ih5iw5oc2kh1kw1 mb1ic1iw9oc1kw3dlw2";
  auto check = [&](const std::string &name, const std::string &shard) {
    const Invocation run = convcheck("check " + lines + " --strategies naive,direct --shard " + shard +
                                     " --campaign list --report " + path(name + ".json"));
    EXPECT_EQ(run.status, 0) << run.output;
    return path(name + ".json");
  };
  const nlohmann::json whole = read_json(check("whole", "0/1"));
  const Invocation merged = merge(check("c0", "0/3") + " " + check("c1", "1/3") + " " + check("c2", "2/3"));
  ASSERT_EQ(merged.status, 0) << merged.output;
  const nlohmann::json report = read_json(path("merged.json"));
  EXPECT_EQ(report["cases"], 7);
  EXPECT_EQ(report["cases"], whole["cases"]);
  for (const char *direction : {"output", "grad_data", "grad_weight"})
    for (const char *verdict : {"passed", "weak", "failed", "skipped"})
      EXPECT_EQ(report["strategies"]["direct"]["directions"][direction][verdict],
                whole["strategies"]["direct"]["directions"][direction][verdict])
          << direction << " " << verdict;
  EXPECT_EQ(convcheck("check " + lines + " --shard 3/3").status, 2);
}

} // namespace
