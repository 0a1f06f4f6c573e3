// `check --format benchdnn --batch` on oneDNN's harness files (verbatim copies, tests/data/benchdnn/): what it says it
// read and skipped, the cases it judges, and bad input as one line with exit 2.

#include <algorithm>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;

Invocation convcheck(const std::string &args) { return convcheck::testing::run_convcheck(args); }

std::string onednn_file(const std::string &name) { return std::string(CONVCHECK_SOURCE_DIR) + "/tests/data/benchdnn/" + name; }

class BenchdnnFileCheck : public convcheck::testing::ScratchDirectoryTest {};

TEST_F(BenchdnnFileCheck, AHarnessListsItsProblemsAndSaysWhatItSkipped) {
  const std::string harness = onednn_file("conv/test_conv_smoke");
  const Invocation run = convcheck("check --format benchdnn --list --batch " + harness);
  ASSERT_EQ(run.status, 0) << run.output;
  // --match keeps shapes_basic's 18 2-D lines, included 5 times: f32 and bf16 forward (36 runs of 72: the others
  // have --attr-post-ops=linear), backward data and weights in the same f32 and bf16 (72), f16 inference (18 of 36),
  // int8 inference (none of 72): 126 runs of 54 problems, f32, bf16 and f16 18 each (FWD_B, BWD_D and BWD_WB of
  // one problem are one case).
  EXPECT_NE(run.output.find(harness + ": benchdnn makes 252 runs (6 files read); 126 in convcheck's scope, judged as "
                                      "54 problems, each in every direction"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find(harness + ": skipped 126 runs: --attr-post-ops (90), --attr-zero-points (18), "
                                      "--attr-scales (18)\n"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("_bf16:bf16:bf16:f32\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("_f16:f16:f16:f32\n"), std::string::npos) << run.output;
}

TEST_F(BenchdnnFileCheck, TheTrainingRowsOfADeconvHarnessAreJudgedByTheLoopStrategies) {
  // One problem in 40 of test_deconv_bfloat16, its rows bf16, bf16_to_f32, bf16_f32data and bf16_f32weight.
  const Invocation run = convcheck("check --format benchdnn --driver deconv --batch " +
                                   onednn_file("deconv/test_deconv_bfloat16") +
                                   " --strategies naive,direct,im2col,layout --shard 3/40 --full-check --threads 2 --report " +
                                   path("r.json") + " --corpus " + path("findings"));
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json report = read_json(path("r.json"));
  EXPECT_GT(report["cases"].get<int>(), 0) << report.dump();
  for (const char *strategy : {"naive", "direct", "im2col", "layout"})
    EXPECT_EQ(report["strategies"][strategy]["skipped"], 0) << strategy << " " << report["strategies"][strategy].dump();
  // The shard's problems by precision row: the training rows among them.
  const nlohmann::json &rows = report["stats"]["config_space"]["dtype"];
  for (const char *row : {"bf16_f32data", "bf16_f32weight", "bf16_f32acc", "bf16_to_f32"}) {
    const auto column = std::find(rows["columns"].begin(), rows["columns"].end(), row) - rows["columns"].begin();
    EXPECT_GT(rows["cases"][0][static_cast<size_t>(column)].get<int>(), 0) << row << " " << rows.dump();
  }
}

TEST_F(BenchdnnFileCheck, BadInputIsOneLineAndExitTwo) {
  std::ofstream(path("top")) << "mb1ic2ih5oc2kh3\n--batch=nowhere\n";
  const Invocation missing = convcheck("check --format benchdnn --batch " + path("top"));
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.output, "convcheck: error: cannot open benchdnn batch file " + path("nowhere") +
                                " (--batch=nowhere at " + path("top") + ":2)\n");
  std::ofstream(path("loop")) << "--batch=loop\n";
  const Invocation cycle = convcheck("check --format benchdnn --batch " + path("loop"));
  EXPECT_EQ(cycle.status, 2);
  EXPECT_EQ(cycle.output, "convcheck: error: benchdnn batch file " + path("loop") + " includes itself (" +
                              path("loop") + " -> " + path("loop") + ")\n");
  std::ofstream(path("mb")) << "--mb=2,x mb1ic2ih5oc2kh3\n";
  const Invocation value = convcheck("check --format benchdnn --batch " + path("mb"));
  EXPECT_EQ(value.status, 2);
  EXPECT_EQ(value.output, "convcheck: error: " + path("mb") + ":1: --mb=2,x: 'x' is not a batch size\n");
  std::ofstream(path("int8")) << "--dt=u8:s8:u8 mb1ic2ih5oc2kh3\n";
  const Invocation none = convcheck("check --format benchdnn --batch " + path("int8"));
  EXPECT_EQ(none.status, 2);
  EXPECT_TRUE(none.output.ends_with("convcheck: error: check has no config to run: no run of the benchdnn batch files is "
                                    "in convcheck's scope (the summary above counts the runs skipped by reason)\n"))
      << none.output;
  std::ofstream(path("groups")) << "--dir=BWD_D\ng3mb1ic4ih5oc3kh3\n";
  const Invocation invalid = convcheck("check --format benchdnn --batch " + path("groups"));
  EXPECT_EQ(invalid.status, 2);
  EXPECT_TRUE(invalid.output.starts_with("convcheck: error: " + path("groups") + ":2: ")) << invalid.output;
  EXPECT_EQ(std::count(invalid.output.begin(), invalid.output.end(), '\n'), 1) << invalid.output;
}

} // namespace
