// A focused distribution (issue 26): `fuzz --focus NAME` draws only problems inside NAME's declared support, so a
// 2-D float32 server is offered every case of a campaign, the same cases whatever the threads, the shards or the
// other strategies; `configs --focus NAME` prints that distribution. The server is tests/interop/faulty_server.py's
// f32_2d, which answers an error (a finding) to any problem outside its hello.

#include <sstream>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;
using convcheck::testing::run_convcheck;

const std::string f32_2d = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/tests/interop/faulty_server.py f32_2d 0";

// The verdict counts of every strategy and direction of a report, without the timings.
nlohmann::json counts(const nlohmann::json &report) {
  nlohmann::json result;
  for (const auto &[name, strategy] : report["strategies"].items())
    for (const auto &[direction, tally] : strategy["directions"].items())
      for (const char *verdict : {"passed", "weak", "failed", "skipped"})
        result[name][direction][verdict] = tally[verdict];
  return result;
}

class Focus : public convcheck::testing::ScratchDirectoryTest {
protected:
  nlohmann::json fuzz(const std::string &extra, const std::string &report) {
    const Invocation run = run_convcheck("fuzz --strategies naive --external-server 'ext=" + f32_2d +
                                         "' --focus ext --cases 40 --no-shrink --campaign f --corpus " +
                                         path("findings") + " --report " + path(report) + " " + extra);
    EXPECT_EQ(run.status, 0) << run.output;
    return read_json(path(report));
  }
};

TEST_F(Focus, ATwoDFloat32ServerIsOfferedEveryCaseDeterministically) {
  const nlohmann::json one = fuzz("--threads 1", "one.json");
  for (const char *direction : {"output", "grad_data", "grad_weight"}) {
    const nlohmann::json &tally = one["strategies"]["ext"]["directions"][direction];
    EXPECT_EQ(tally["passed"].get<int>() + tally["weak"].get<int>(), 40) << direction << ": " << tally;
    EXPECT_EQ(tally["skipped"], 0) << direction;
  }
  EXPECT_EQ(one["campaign"]["focus"], "ext");
  EXPECT_EQ(counts(fuzz("--threads 2", "two.json")), counts(one));
  fuzz("--threads 1 --shard 0/2", "s0.json");
  fuzz("--threads 1 --shard 1/2", "s1.json");
  const Invocation merge = run_convcheck("report merge " + path("s0.json") + " " + path("s1.json") +
                                         " --campaign f --report " + path("merged.json"));
  ASSERT_EQ(merge.status, 0) << merge.output;
  EXPECT_EQ(counts(read_json(path("merged.json"))), counts(one));
}

TEST_F(Focus, ConfigsShowsTheFocusedDistributionWhateverElseRuns) {
  const Invocation focused = run_convcheck("configs --cases 50 --focus ext --external-server 'ext=" + f32_2d + "'");
  ASSERT_EQ(focused.status, 0) << focused.output;
  const Invocation with_others = run_convcheck("configs --cases 50 --focus ext --strategies naive,direct "
                                               "--external-server 'ext=" + f32_2d + "'");
  EXPECT_EQ(with_others.output, focused.output);
  std::istringstream lines(focused.output);
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_EQ(line.find("id"), std::string::npos) << line;  // no depth: not 3-D
    EXPECT_NE(line.find("ih"), std::string::npos) << line;  // a height: not 1-D
    EXPECT_EQ(line.find("f64"), std::string::npos) << line; // float32 only
  }
  EXPECT_EQ(count, 50);
  const Invocation stats =
      run_convcheck("configs --cases 500 --stats --focus ext --external-server 'ext=" + f32_2d + "'");
  ASSERT_EQ(stats.status, 0) << stats.output;
  EXPECT_TRUE(stats.output.starts_with("focused on ext: ")) << stats.output;
}

TEST_F(Focus, ASupportNothingFitsIsAnError) {
  const std::string typo = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/tests/interop/faulty_server.py typo 0";
  const Invocation run = run_convcheck("fuzz --cases 5 --external-server 'ext=" + typo + "' --focus ext --report " +
                                       path("r.json"));
  EXPECT_EQ(run.status, 2) << run.output;
  // The typo is said first; the last draw's refusal depends on what the generator drew last (one format, or a
  // low-precision row).
  EXPECT_NE(run.output.find("[warning] ext: its hello's \"dtypes\" names \"f32\", which convcheck does not know "
                            "(nearest: \"float32\"): left out\nconvcheck: error: focus ext: none of 1000 draws of "
                            "case 0 fits what it supports (the last: "),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(run.output.ends_with(" is not supported (formats: none))\n")) << run.output;
  const Invocation unknown = run_convcheck("fuzz --cases 5 --focus nosuch");
  EXPECT_EQ(unknown.output, "convcheck: error: focus nosuch is not among the strategies run (name it with "
                            "--strategies, --external, --external-server or --plugin)\n");
}

} // namespace

namespace {

// --rows and --ops aim a campaign (issue 38): only those precision rows and ops are drawn, with or without --focus;
// an unknown name is an error listing the known ones.
TEST(Aim, DrawsOnlyTheRowsAndOpsNamed) {
  const convcheck::testing::Invocation rows =
      convcheck::testing::run_convcheck("configs --seed 3 --cases 60 --rows bf16_f32acc,f16_to_f32 --ops deconv");
  ASSERT_EQ(rows.status, 0) << rows.output;
  int lines = 0;
  for (size_t at = 0, end; (end = rows.output.find('\n', at)) != std::string::npos; at = end + 1) {
    const std::string line = rows.output.substr(at, end - at);
    if (line.find("warning") != std::string::npos) continue;
    ++lines;
    EXPECT_NE(line.find("_deconv"), std::string::npos) << line;
    EXPECT_TRUE(line.ends_with("_bf16:bf16:bf16:f32") || line.ends_with("_f16:f16:f32:f32")) << line;
  }
  EXPECT_EQ(lines, 60);
  const convcheck::testing::Invocation unknown = convcheck::testing::run_convcheck("fuzz --cases 5 --rows bf16");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("convcheck: error: --rows 'bf16' is none of "), std::string::npos) << unknown.output;
  EXPECT_NE(unknown.output.find("bf16_f32acc"), std::string::npos) << unknown.output;
}

} // namespace
