// Every injected bug listed by `convcheck strategies` (wrong answers, a crash and a hang) is found by `convcheck
// fuzz` within a few hundred cases and shrunk to a config close to the smallest that shows it: batch 1 and a
// handful of elements per tensor. A seam bug (wrong only past a block: 16 output channels, 5 kernel columns, 2
// images) is found as often and shrunk to its seam, not below it and not far past it.

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"
#include <nlohmann/json.hpp>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;

std::string capture(const std::string &args, int *status = nullptr) {
  const convcheck::testing::Invocation run = convcheck::testing::run_convcheck(args);
  if (status) *status = run.status;
  return run.output;
}

// A seam bug: the descriptor key it needs past a block (channels per group for "oc"), and the smallest value
// that shows it.
struct SeamBug {
  const char *bug;
  const char *key;
  int64_t smallest;
};
const std::array<SeamBug, 3> seam_bugs{{{"oc_tail_fwd", "oc", 17}, {"kw_unroll5", "kw", 6}, {"mb_tail_dgrad", "mb", 3}}};

void PrintTo(const SeamBug &seam, std::ostream *out) { *out << seam.bug; }

bool is_seam_bug(const std::string &name) {
  return std::any_of(seam_bugs.begin(), seam_bugs.end(), [&](const SeamBug &seam) { return name == seam.bug; });
}

// The injected bugs of low-precision storage (each declares only bfloat16 or float16 combinations) that show on the
// drawn values of a long enough sum: a narrow accumulation, or a rounding wrong only at a tie (a sum must land on
// one: bfloat16's odd integers past 256), where shrinking may keep a second image's terms.
bool low_precision_bug(const std::string &name) {
  for (const char *bug : {"bf16_accumulate", "f16_products", "dst_double_round", "f16_accumulate_depthwise",
                          "dst_round_half_away", "dst_truncate"})
    if (name == bug) return true;
  return false;
}

// Every injected bug but the seam bugs. Asked at every start of this test binary (gtest instantiates the suite then),
// so by --names, which asks no adapter's environment for its version (seconds each).
std::vector<std::string> injected_bugs() {
  std::istringstream lines(capture("strategies --names"));
  std::vector<std::string> names;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, kind;
    if (fields >> name >> kind && kind == "inject" && !is_seam_bug(name)) names.push_back(name);
  }
  return names;
}

// Element counts of a shrunk config, read back from its descriptor.
int64_t key(const std::string &descriptor, const std::string &name, int64_t fallback) {
  const std::regex pattern("(?:^|[^a-z])" + name + "([0-9]+)");
  std::smatch match;
  return std::regex_search(descriptor, match, pattern) ? std::stoll(match[1]) : fallback;
}

std::string fmt_path(const std::string &bug, int seed) {
  return "convcheck-seam-" + bug + "-" + std::to_string(seed);
}

class Mutants : public ::testing::TestWithParam<std::string> {};

TEST_P(Mutants, FoundWithinAFewHundredCasesAndShrunkSmall) {
  const std::string bug = GetParam();
  const fs::path directory = fs::temp_directory_path() / ("convcheck-mutant-" + bug);
  fs::remove_all(directory);
  int status = 0;
  // A hang is cut at --case-timeout, each time: 1 s keeps stride_loop_hang's run short and is far above what any
  // correct strategy takes on these small configs.
  // Unfocused: the default distribution draws each op a bug can have (a deconv one case in four).
  const std::string output = capture("fuzz --cases 300 --case-timeout 1 --strategies naive --inject " + bug +
                                         " --corpus " + (directory / "findings").string() + " --report " +
                                         (directory / "report.json").string(),
                                     &status);
  ASSERT_EQ(status, 1) << output;
  std::ifstream in(directory / "report.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  ASSERT_FALSE(report["failures"].empty());
  EXPECT_LT(report["failures"][0]["case_index"].get<int>(), 300);
  for (const auto &failure : report["failures"]) {
    EXPECT_EQ(failure["strategy"], bug) << "a real strategy failed: " << failure.dump();
    if (!failure.contains("shrunk_config")) continue;
    const std::string shrunk = failure["shrunk_config"];
    const int64_t groups = key(shrunk, "g", 1), in = key(shrunk, "ic", 1), out = key(shrunk, "oc", 1);
    const int64_t height = key(shrunk, "ih", 1), width = key(shrunk, "iw", height);
    const int64_t kernel_height = key(shrunk, "kh", 1), kernel_width = key(shrunk, "kw", kernel_height);
    // A narrow-accumulation bug shows on the drawn values of a long enough sum: shrinking may keep a second image
    // when the one-image sum of the same shape happens to round within the bound (docs/bounds.md).
    EXPECT_LE(key(shrunk, "mb", 1), low_precision_bug(bug) ? 2 : 1) << shrunk;
    EXPECT_LE(in * height * width, 24) << bug << " shrunk to " << shrunk;
    // Likewise a double rounding of the result shows only on values past float16's integers (2048): the shrinker
    // may keep 32 weights where fewer would sum below that on the drawn values.
    EXPECT_LE(out * (in / groups) * kernel_height * kernel_width, low_precision_bug(bug) ? 32 : 16)
        << bug << " shrunk to " << shrunk;
    EXPECT_TRUE(fs::exists(failure["repro"].get<std::string>()));
  }
  fs::remove_all(directory);
}

INSTANTIATE_TEST_SUITE_P(EveryInjectedBug, Mutants, ::testing::ValuesIn(injected_bugs()),
                         [](const auto &info) { return info.param; });

TEST(SeamMutants, TheSeamBugsAreListed) {
  const std::string listing = capture("strategies --names");
  for (const SeamBug &seam : seam_bugs)
    EXPECT_TRUE(std::regex_search(listing, std::regex("(^|\\n)" + std::string(seam.bug) + " inject\\n"))) << seam.bug;
}

class SeamMutants : public ::testing::TestWithParam<SeamBug> {};

// Found within 300 cases for at least two seeds of three (a median under 300), and every saved finding shrunk to
// within twice its seam in under 10 s, with everything else small.
TEST_P(SeamMutants, FoundOftenAndShrunkToTheSeam) {
  const SeamBug seam = GetParam();
  int found = 0;
  for (int seed = 1; seed <= 3; ++seed) {
    const fs::path directory = fs::temp_directory_path() / fmt_path(seam.bug, seed);
    fs::remove_all(directory);
    fs::create_directories(directory);
    int status = 0;
    const std::string output =
        capture("fuzz --cases 300 --seed " + std::to_string(seed) + " --strategies naive --inject " + seam.bug +
                    " --corpus " + (directory / "findings").string() + " --report " + (directory / "r.json").string(),
                &status);
    ASSERT_NE(status, 2) << output;
    std::ifstream in(directory / "r.json");
    const nlohmann::json report = nlohmann::json::parse(in);
    found += status == 1 ? 1 : 0;
    for (const auto &failure : report["failures"]) {
      EXPECT_EQ(failure["strategy"], seam.bug) << "a real strategy failed: " << failure.dump();
      if (!failure.contains("shrunk_config")) continue;
      const std::string shrunk = failure["shrunk_config"];
      const int64_t value = key(shrunk, seam.key, 1) / (std::string(seam.key) == "oc" ? key(shrunk, "g", 1) : 1);
      EXPECT_GE(value, seam.smallest) << shrunk;
      EXPECT_LE(value, 2 * seam.smallest) << shrunk;
      if (std::string(seam.key) != "mb") {
        EXPECT_EQ(key(shrunk, "mb", 1), 1) << shrunk;
      }
      EXPECT_LT(failure["shrink_s"].get<double>(), 10) << shrunk;
    }
    fs::remove_all(directory);
  }
  EXPECT_GE(found, 2) << seam.bug << " found by " << found << " of 3 seeds within 300 cases";
}

INSTANTIATE_TEST_SUITE_P(EverySeamBug, SeamMutants, ::testing::ValuesIn(seam_bugs),
                         [](const auto &info) { return std::string(info.param.bug); });

} // namespace
