// benchdnn batch files read with benchdnn's meaning (core/problem/benchdnn_file.hpp): runs per file as benchdnn makes
// them, on verbatim copies of oneDNN's harness and test files (tests/data/benchdnn/) and on small files written
// here: includes, --reset, options persisting through includes, the cross product, the skip summary, bad input.

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "core/problem/benchdnn_file.hpp"
#include "core/problem/descriptor.hpp"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

std::string onednn_file(const std::string &name) { return std::string(CONVCHECK_SOURCE_DIR) + "/tests/data/benchdnn/" + name; }

class BenchdnnFile : public ::testing::Test {
protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() /
                 (std::string("convcheck-BenchdnnFile-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }
  std::string write(const std::string &name, const std::string &text) const {
    const fs::path file = directory_ / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file.string();
  }
  std::string error_of(const std::string &path) const {
    try {
      read_benchdnn_batch(path, Op::conv);
    } catch (const InputError &error) {
      return error.what();
    }
    return "no error";
  }
  fs::path directory_;
};

// The expected figures were counted independently, by enumerating every combination of every option's values
// (tests/scripts/benchdnn_count.py), not by convcheck's own arithmetic.
TEST_F(BenchdnnFile, RunsPerOneDnnFileAsBenchdnnMakesThem) {
  struct Expected {
    const char *file;
    Op driver;
    int64_t total, in_scope;
    const char *skipped;
  };
  for (const Expected &e : {
           Expected{"conv/harness_conv_dw_bfloat16", Op::conv, 1092, 552, "skipped 540 runs: --attr-post-ops (540)"},
           Expected{"conv/harness_conv_tags", Op::conv, 4617, 3213,
                    "skipped 1404 runs: --dt=u8:s8:u8 (486), --stag=abx --dtag=axb (one data layout for both) (459), "
                    "--stag=axb --dtag=abx (one data layout for both) (459)"},
           Expected{"conv/test_conv_smoke", Op::conv, 252, 126,
                    "skipped 126 runs: --attr-post-ops (90), --attr-zero-points (18), --attr-scales (18)"},
           Expected{"deconv/test_deconv_bfloat16", Op::deconv, 1262, 884, "skipped 378 runs: --attr-post-ops (378)"},
           Expected{"deconv/harness_deconv_regression_general_f32", Op::deconv, 3, 3, ""},
       }) {
    const BenchdnnBatch batch = read_benchdnn_batch(onednn_file(e.file), e.driver);
    EXPECT_EQ(batch.total, e.total) << e.file;
    EXPECT_EQ(static_cast<int64_t>(batch.runs.size()), e.in_scope) << e.file;
    EXPECT_EQ(skipped_summary(batch), e.skipped) << e.file;
    EXPECT_EQ(batch.total, e.in_scope + batch.skipped_runs()) << e.file;
  }
}

TEST_F(BenchdnnFile, TheRegressionHarnessAppliesOptionsGivenOnOneLineWithTheirDescriptors) {
  const BenchdnnBatch batch = read_benchdnn_batch(onednn_file("conv/harness_conv_regression_general"), Op::conv);
  EXPECT_EQ(batch.total, 166);
  EXPECT_EQ(batch.runs.size(), 107u);
  // `--reset --dir=BWD_D ic2ih1iw9oc3oh1ow4kh1kw3sh1sw2` (DNNL-671): a data gradient, f32, benchdnn's mb 2.
  const auto dnnl_671 = std::find_if(batch.runs.begin(), batch.runs.end(), [](const BenchdnnRun &run) {
    return run.problem.in_channels == 2 && run.problem.out_channels == 3 && run.problem.width().in == 9;
  });
  ASSERT_NE(dnnl_671, batch.runs.end());
  EXPECT_EQ(dnnl_671->direction, Direction::grad_data);
  EXPECT_EQ(dnnl_671->problem.batch, 2);
  EXPECT_EQ(dnnl_671->problem.precision, Precision{});
  EXPECT_TRUE(dnnl_671->where.ends_with("harness_conv_regression_general:33")) << dnnl_671->where;
}

TEST_F(BenchdnnFile, TrainingRowsComeFromTheDtListsOfTheBfloat16Harness) {
  const BenchdnnBatch batch = read_benchdnn_batch(onednn_file("conv/harness_conv_dw_bfloat16"), Op::conv);
  constexpr DType f32 = DType::float32, bf16 = DType::bfloat16;
  int64_t data_gradients = 0, weight_gradients = 0;
  for (const BenchdnnRun &run : batch.runs) {
    if (run.problem.precision == Precision{f32, bf16, bf16, f32}) {
      EXPECT_EQ(run.direction, Direction::grad_data);
    }
    if (run.problem.precision == Precision{bf16, f32, bf16, f32}) {
      EXPECT_EQ(run.direction, Direction::grad_weight);
    }
    data_gradients += run.problem.precision == Precision{f32, bf16, bf16, f32};
    weight_gradients += run.problem.precision == Precision{bf16, f32, bf16, f32};
  }
  // Three lists of 9, 38 and 45 descriptors, once each under --dt=f32:bf16:bf16 and under --dt=bf16:f32:bf16.
  EXPECT_EQ(data_gradients, 92);
  EXPECT_EQ(weight_gradients, 92);
}

TEST_F(BenchdnnFile, EachDescriptorRunsInEveryCombinationOfTheListedValues) {
  const std::string file = write("top", "--dir=FWD_B,BWD_D --dt=f32,bf16,f32:bf16:bf16 --stag=any,axb\n"
                                        "--mb=0,4 --alg=direct,wino\n"
                                        "mb3ic2ih5oc2kh3\n");
  const BenchdnnBatch batch = read_benchdnn_batch(file, Op::conv);
  EXPECT_EQ(batch.total, 2 * 3 * 2 * 2 * 2);
  ASSERT_EQ(batch.runs.size(), 48u); // --alg chooses oneDNN's algorithm, not the problem: two copies of each run
  EXPECT_EQ(batch.runs[0].direction, Direction::output);
  EXPECT_EQ(format_descriptor(batch.runs[0].problem), "mb3ic2ih5iw5oc2kh3kw3");
  EXPECT_EQ(format_descriptor(batch.runs[2].problem), "mb4ic2ih5iw5oc2kh3kw3"); // --mb=4 overrides, 0 keeps mb3
  EXPECT_EQ(format_descriptor(batch.runs[4].problem), "mb3ic2ih5iw5oc2kh3kw3_nhwc");
  EXPECT_EQ(format_descriptor(batch.runs[8].problem), "mb3ic2ih5iw5oc2kh3kw3_bf16:bf16:bf16:f32");
  EXPECT_EQ(format_descriptor(batch.runs[16].problem), "mb3ic2ih5iw5oc2kh3kw3_f32:bf16:bf16:f32");
  EXPECT_EQ(batch.runs[24].direction, Direction::grad_data);
  EXPECT_EQ(skipped_summary(batch), "");
}

TEST_F(BenchdnnFile, OptionsPersistThroughIncludesUntilReset) {
  // Included relative to the including file; the included file's --dir stays set after it, as in benchdnn.
  write("sub/shapes", "--dir=BWD_W\nmb1ic2ih5oc2kh3\n--batch=../more\n");
  write("more", "mb1ic4ih5oc4kh3\n");
  const std::string top = write("top", "--dt=bf16 --attr-post-ops=relu\n--batch=sub/shapes\nmb1ic6ih5oc6kh3\n"
                                        "--reset\nmb1ic8ih5oc8kh3\n");
  const BenchdnnBatch batch = read_benchdnn_batch(top, Op::conv);
  EXPECT_EQ(batch.files, 3);
  EXPECT_EQ(batch.total, 4);
  ASSERT_EQ(batch.runs.size(), 1u); // the three before --reset have --attr-post-ops=relu
  EXPECT_EQ(skipped_summary(batch), "skipped 3 runs: --attr-post-ops (3)");
  EXPECT_EQ(batch.runs[0].direction, Direction::output); // --reset: FWD_B, f32 again
  EXPECT_EQ(format_descriptor(batch.runs[0].problem), "mb1ic8ih5iw5oc8kh3kw3");

  // Without the post-ops: the includes' runs in the included --dir and the top file's --dt.
  write("top2", "--dt=bf16\n--batch=sub/shapes\nmb1ic6ih5oc6kh3\n");
  const BenchdnnBatch kept = read_benchdnn_batch((directory_ / "top2").string(), Op::conv);
  ASSERT_EQ(kept.runs.size(), 3u);
  for (const BenchdnnRun &run : kept.runs) {
    EXPECT_EQ(run.direction, Direction::grad_weight);
    EXPECT_EQ(run.problem.precision.src, DType::bfloat16);
  }
}

TEST_F(BenchdnnFile, UnmodelledAndUnknownOptionsAreCountedOncePerOption) {
  const std::string file = write("top", "--attr-post-ops=,relu,sum --bia-dt=undef,f32 --frobnicate=1\n"
                                        "mb1ic2ih5oc2kh3 mb1ic2ih6oc2kh3\n--reset --dt=u8:s8:u8,f32 --wtag=aBcd16b,any\n"
                                        "mb1ic2ih5oc2kh3\n--reset --match=.*keep.* mb1ic2ih5oc2kh3 mb1ic2ih5oc2kh3n\"keep\"\n");
  const BenchdnnBatch batch = read_benchdnn_batch(file, Op::conv);
  // 2 x 3 x 2 runs: post-ops relu or sum first (2 x 2 x 2 = 8), then bias f32 (2 x 1 x 1 = 2), then the unknown
  // option (2); then 4 runs of one descriptor, 3 skipped; then one run --match lets through.
  EXPECT_EQ(batch.total, 12 + 4 + 1);
  EXPECT_EQ(batch.runs.size(), 2u);
  EXPECT_EQ(skipped_summary(batch), "skipped 15 runs: --attr-post-ops (8), --bia-dt (2), --frobnicate (unknown to "
                                    "convcheck) (2), --dt=u8:s8:u8 (2), --wtag=aBcd16b (1)");
}

TEST_F(BenchdnnFile, AnEmptyListIsTheOptionsDefault) {
  // oneDNN's harness_conv_fused_depthwise writes `--stag=` (parse_vector_str: an empty value is the default).
  const std::string file = write("top", "--dir=BWD_D --dt=bf16 --stag=axb --mb=4 mb1ic2ih5oc2kh3\n"
                                        "--dir= --dt= --stag= --mb= mb1ic2ih5oc2kh3\n");
  const BenchdnnBatch batch = read_benchdnn_batch(file, Op::conv);
  ASSERT_EQ(batch.runs.size(), 2u);
  EXPECT_EQ(format_descriptor(batch.runs[0].problem), "mb4ic2ih5iw5oc2kh3kw3_nhwc_bf16:bf16:bf16:f32");
  EXPECT_EQ(batch.runs[0].direction, Direction::grad_data);
  EXPECT_EQ(format_descriptor(batch.runs[1].problem), "mb1ic2ih5iw5oc2kh3kw3");
  EXPECT_EQ(batch.runs[1].direction, Direction::output);
}

TEST_F(BenchdnnFile, ContinuedWordsAndCommentsAreReadAsBenchdnnReadsThem) {
  // A lone `\` continues too, as in oneDNN's test_conv_ci (`--attr-post-ops=, \` then `sum:0.5, \` ...).
  const std::string file = write("top", "# a comment --dir=BWD_D\n--dir=BWD_D # trailing\nmb1ic2ih5\\\noc2kh3\n"
                                        "--attr-post-ops=, \\\n   sum:0.5\n mb1ic2ih5oc2kh3\n");
  const BenchdnnBatch batch = read_benchdnn_batch(file, Op::conv);
  EXPECT_EQ(skipped_summary(batch), "skipped 1 run: --attr-post-ops (1)");
  ASSERT_EQ(batch.runs.size(), 2u);
  EXPECT_EQ(batch.runs[0].direction, Direction::grad_data);
  EXPECT_EQ(format_descriptor(batch.runs[0].problem), "mb1ic2ih5iw5oc2kh3kw3");
}

TEST_F(BenchdnnFile, BadInputIsOneLineNamingTheFile) {
  const std::string top = write("top", "mb1ic2ih5oc2kh3\n--batch=missing\n");
  EXPECT_EQ(error_of(top), "cannot open benchdnn batch file " + (directory_ / "missing").string() +
                               " (--batch=missing at " + top + ":2)");
  const std::string a = write("a", "--batch=b\n"), b = write("b", "--batch=a\n");
  EXPECT_EQ(error_of(a), "benchdnn batch file " + (directory_ / "a").string() + " includes itself (" + a + " -> " + b +
                             " -> " + a + ")");
  EXPECT_EQ(error_of(write("mb", "--mb=two\n")), (directory_ / "mb").string() + ":1: --mb=two: 'two' is not a batch size");
  EXPECT_EQ(error_of(write("dir", "\n--dir=SIDEWAYS\n")),
            (directory_ / "dir").string() + ":2: --dir=SIDEWAYS: 'SIDEWAYS' is no benchdnn direction (FWD_B, FWD_D, "
                                            "FWD_I, BWD_D, BWD_W, BWD_WB)");
  EXPECT_EQ(error_of(write("dt", "--dt=f32:bf16\n")),
            (directory_ / "dt").string() + ":1: --dt=f32:bf16: 'f32:bf16' is no benchdnn data type (one word, or "
                                           "SRC:WEI:DST)");
  EXPECT_TRUE(error_of(write("match", "--match=(\n"))
                  .starts_with((directory_ / "match").string() + ":1: --match=(: '(' is no regular expression ("));
  EXPECT_EQ(error_of(write("desc", "mb1ic2ih5oc2kh3zz4\n")),
            (directory_ / "desc").string() + ":1: unknown key 'zz' in benchdnn descriptor 'mb1ic2ih5oc2kh3zz4'");
  EXPECT_EQ(error_of((directory_ / "absent").string()), "cannot open benchdnn batch file " + (directory_ / "absent").string());
}

} // namespace
} // namespace convcheck
