// `check`, `shrink` and `corpus` as a user drives them.

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"
#include <nlohmann/json.hpp>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;
using convcheck::testing::Invocation;

Invocation convcheck(const std::string &args) { return convcheck::testing::run_convcheck(args); }

class CorpusCli : public convcheck::testing::ScratchDirectoryTest {};

TEST_F(CorpusCli, CheckRunsDescriptorsAndBatchFiles) {
  std::ofstream(path("shapes.txt")) << "# known shapes\n\nmb2ic3ih5oc4kh3  # a comment\ng2mb1ic4ih6oc2kh3sh2pb1_nhwc\n";
  const Invocation run = convcheck("check mb1ic1ih1oc1kh1 --batch " + path("shapes.txt") + " --report " +
                                   path("r.json") + " --strategies naive,direct");
  EXPECT_EQ(run.status, 0) << run.output;
  std::ifstream in(path("r.json"));
  EXPECT_EQ(nlohmann::json::parse(in)["cases"], 3);

  std::ofstream(path("bad.txt")) << "mb2ic3ih5oc4kh3\nmb2ic3ih5oc4\n";
  const Invocation bad = convcheck("check --batch " + path("bad.txt"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.output, "convcheck: error: " + path("bad.txt") +
                            ":2: missing key 'kh' in descriptor 'mb2ic3ih5oc4'\n");
  EXPECT_EQ(convcheck("check g3ic4oc3ih5kh1").output, "convcheck: error: groups 3 does not divide in_channels 4\n");
  EXPECT_EQ(convcheck("check").status, 2);
}

TEST_F(CorpusCli, CheckFindsAnInjectedBugOnAKnownShape) {
  const Invocation run = convcheck("check mb1ic1ih1iw1oc1kh1kw1pl1 --strategies naive --inject pad_order --corpus " +
                                   path("findings"));
  EXPECT_EQ(run.status, 1) << run.output;
}

TEST_F(CorpusCli, ShrinkMinimisesACaseSavedUnshrunk) {
  ASSERT_EQ(convcheck("fuzz --cases 50 --strategies naive --inject group_interleave --no-shrink --corpus " +
                      path("raw"))
                .status,
            1);
  const fs::path raw = *fs::directory_iterator(path("raw"));
  const Invocation run = convcheck("shrink " + raw.string() + " --out " + path("small"));
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("shrunk to g2mb1ic4iw1oc2kw1"), std::string::npos) << run.output; // 1-D: the same bytes
  const fs::path small = *fs::directory_iterator(path("small"));
  EXPECT_EQ(convcheck("repro " + small.string()).status, 1);
  EXPECT_EQ(convcheck("shrink " + small.string()).output, "convcheck: error: shrink needs --out DIR\n");
}

TEST_F(CorpusCli, ShrinkKeepsTheCasesIsaCap) {
  // Issue 25: a case's cap is drawn from (seed, case index) only while it has none; the file's cap (here sse41,
  // which the default draw never picks) is what the shrunk case runs and is saved under.
  ASSERT_EQ(convcheck("fuzz --cases 50 --strategies naive --inject group_interleave --no-shrink --isa-caps sse41 "
                      "--corpus " + path("raw"))
                .status,
            1);
  const fs::path raw = *fs::directory_iterator(path("raw"));
  EXPECT_NE(convcheck("repro " + raw.string()).output.find("  oneDNN under ISA cap sse41\n"), std::string::npos);
  ASSERT_EQ(convcheck("shrink " + raw.string() + " --out " + path("small")).status, 1);
  const fs::path small = *fs::directory_iterator(path("small"));
  const Invocation replay = convcheck("repro " + small.string());
  EXPECT_NE(replay.output.find("  oneDNN under ISA cap sse41\n"), std::string::npos) << replay.output;
}

TEST_F(CorpusCli, AddDedupsListsAndRuns) {
  ASSERT_EQ(convcheck("fuzz --cases 50 --strategies naive --inject pad_order --corpus " + path("found")).status, 1);
  const fs::path found = *fs::directory_iterator(path("found"));
  const std::string corpus = path("corpus");
  EXPECT_EQ(convcheck("corpus add " + found.string() + " mb1ic2ih5oc3kh3pb1 " + corpus).status, 0);
  const Invocation again = convcheck("corpus add " + found.string() + " " + corpus);
  EXPECT_EQ(again.output.rfind("already in the corpus: " + corpus + "/mutants/pad_order-", 0), 0u) << again.output;
  EXPECT_EQ(std::distance(fs::recursive_directory_iterator(corpus), fs::recursive_directory_iterator()), 4);

  const Invocation list = convcheck("corpus list " + corpus);
  EXPECT_NE(list.output.find("mutants    pad_order"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("regression -"), std::string::npos) << list.output;

  const Invocation run = convcheck("corpus run " + corpus);
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("2 passed, 0 skipped, 0 failed"), std::string::npos);
}

TEST_F(CorpusCli, RunFailsWhenAMutantIsNoLongerCaughtOrARegressionFails) {
  // A regression case saved for a bug that is still there (the mutant) must fail `corpus run`.
  ASSERT_EQ(convcheck("fuzz --cases 50 --strategies naive --inject pad_order --corpus " + path("found")).status, 1);
  const std::string corpus = path("corpus");
  fs::create_directories(corpus + "/regression");
  for (const auto &entry : fs::directory_iterator(path("found")))
    fs::copy_file(entry.path(), corpus + "/regression/" + entry.path().filename().string());
  const Invocation run = convcheck("corpus run " + corpus + " --inject pad_order");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("pad_order output failed"), std::string::npos) << run.output;
  EXPECT_EQ(convcheck("corpus run " + path("missing")).output,
            "convcheck: error: corpus " + path("missing") + " is not a directory\n");
}

// `corpus add --upstream` makes an upstream case, skipped, saying why, when its strategy is not there to check it.
// (tests/core/run/corpus_test.cpp covers a library with and without the bug; corpus/upstream/ holds oneDNN's.)
TEST_F(CorpusCli, UpstreamCaseIsAddedListedAndSkippedWithoutItsStrategy) {
  ASSERT_EQ(convcheck("check mb1ic1ih1iw1oc1kh1kw1pl1 --strategies naive --inject pad_order --corpus " +
                      path("found"))
                .status,
            1);
  const std::string corpus = path("corpus");
  for (const auto &entry : fs::directory_iterator(path("found")))
    ASSERT_EQ(convcheck("corpus add --upstream 'frameworks issue 1' " + entry.path().string() + " " + corpus).status,
              0);
  const Invocation list = convcheck("corpus list " + corpus);
  EXPECT_NE(list.output.find("upstream   pad_order"), std::string::npos) << list.output;

  const Invocation absent = convcheck("corpus run " + corpus + " --strategies naive");
  EXPECT_EQ(absent.status, 0) << absent.output;
  EXPECT_NE(absent.output.find("SKIPPED " + corpus + "/upstream/pad_order-"), std::string::npos) << absent.output;
  EXPECT_NE(absent.output.find("strategy pad_order is not built or not selected here, so frameworks issue 1 cannot "
                               "be checked"),
            std::string::npos)
      << absent.output;
  EXPECT_NE(absent.output.find("0 passed, 3 skipped, 0 failed"), std::string::npos) << absent.output;

  const Invocation edge = convcheck("corpus add --upstream 'x' mb1ic1ih1oc1kh1 " + corpus);
  EXPECT_EQ(edge.status, 2);
  EXPECT_EQ(edge.output, "convcheck: error: corpus add --upstream: mb1ic1ih1oc1kh1 records no finding to mark\n");
}

TEST_F(CorpusCli, TwoRunsSharingACorpusNeverLeavePartialFiles) {
  // Same seed, so both processes write the same file names at about the same time.
  const std::string corpus = path("shared");
  const std::string fuzz = std::string(CONVCHECK_BINARY) + " fuzz --cases 200 --strategies naive --inject "
                                                           "pad_order --inject group_interleave --max-saved 3 --corpus " +
                           corpus + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(("(" + fuzz + " & " + fuzz + " & wait)").c_str()), 0);
  size_t files = 0;
  for (const auto &entry : fs::directory_iterator(corpus)) {
    ++files;
    EXPECT_EQ(entry.path().extension(), ".h5") << "left behind: " << entry.path();
    EXPECT_EQ(convcheck("repro " + entry.path().string()).status, 1) << entry.path();
  }
  EXPECT_GE(files, 3u);
}

} // namespace
