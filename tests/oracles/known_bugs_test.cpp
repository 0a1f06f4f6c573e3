// The known-bug tables (core/run/known_bug.hpp, oracles/<library>/known_bugs.cpp): versions compare as numbers, a
// row holds back only inside its version range, and every row of every library says where its write-up and its
// corpus case are, and both exist.

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"
#include "oracles/outside/declared_support.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {
namespace {

TEST(KnownBugs, VersionsCompareNumericallyPartByPart) {
  EXPECT_LT(compare_versions("2.6.3", "2.10"), 0);
  EXPECT_GT(compare_versions("3.13.1", "3.2"), 0);
  EXPECT_EQ(compare_versions("2.6", "2.6.0"), 0);
  EXPECT_LT(compare_versions("2022-02-16", "2026-02"), 0);
  EXPECT_LT(compare_versions("1.13.1+cpu", "2.2"), 0);
  const VersionRange range{"2.6", "3.2"};
  EXPECT_FALSE(range.contains("2.5.9"));
  EXPECT_TRUE(range.contains("2.6.3"));
  EXPECT_TRUE(range.contains("3.1.1"));
  EXPECT_FALSE(range.contains("3.2"));
  EXPECT_FALSE(range.contains("3.13.1"));
  EXPECT_TRUE(range.contains("")) << "a library that gives no version is taken to have the bug";
  EXPECT_EQ(range.describe(), ">= 2.6, < 3.2");
  EXPECT_EQ((VersionRange{"1.13", ""}).describe(), ">= 1.13, not fixed");
}

// A table of its own, of a library whose version the test sets: the row holds back inside its range only, and
// --run-held-back lifts it.
std::string test_library_version = "1.0";
const KnownBugRegistration test_bugs{{
    .library = "known-bugs-test",
    .version = [] { return test_library_version; },
    .rows = {{
        .id = "known-bugs-test-row",
        .versions = {"1.0", "2.0"},
        .strategies = {"known_bugs_test_strategy"},
        .directions = {Direction::grad_data},
        .reached = [](const Case &c, Direction, const Ran &ran) { return c.problem.groups == 2 && ran() == "k"; },
        .reason = "a planted bug",
        .upstream = "nowhere",
        .docs = "tests/oracles/known_bugs_test.cpp",
    }},
}};

TEST(KnownBugs, HoldsBackInsideItsVersionRangeOnlyAndIsLifted) {
  const Case grouped = make_case(parse_descriptor("g2mb1ic2iw3oc2kw2"), FillMode::exact, 7, 3);
  const Case plain = make_case(parse_descriptor("mb1ic2iw3oc2kw2"), FillMode::exact, 7, 3);
  const std::string strategy = "known_bugs_test_strategy";
  test_library_version = "1.5";
  const KnownBug *bug = held_back_by(strategy, grouped, Direction::grad_data, Ran("k"));
  ASSERT_NE(bug, nullptr);
  EXPECT_EQ(held_back_detail(*bug, "k"), "known-bugs-test-row: a planted bug (k; known-bugs-test 1.5; nowhere)");
  EXPECT_EQ(held_back_id(held_back_detail(*bug, "k")), "known-bugs-test-row");
  EXPECT_EQ(held_back_by(strategy, grouped, Direction::output, Ran("k")), nullptr) << "another direction";
  EXPECT_EQ(held_back_by(strategy, plain, Direction::grad_data, Ran("k")), nullptr) << "a problem it does not reach";
  EXPECT_EQ(held_back_by(strategy, grouped, Direction::grad_data, Ran("other")), nullptr) << "another implementation";
  EXPECT_EQ(held_back_by("naive", grouped, Direction::grad_data, Ran("k")), nullptr) << "another strategy";
  test_library_version = "2.0.1";
  EXPECT_EQ(held_back_by(strategy, grouped, Direction::grad_data, Ran("k")), nullptr) << "a fixed version runs";
  test_library_version = "1.5";
  EXPECT_NE(Asked{}.held_back(strategy, grouped, Direction::grad_data, Ran("k")), nullptr) << "asked as a campaign asks";
  EXPECT_EQ((Asked{{}, true}.held_back(strategy, grouped, Direction::grad_data, Ran("k"))), nullptr) << "--run-held-back";
}

// An outside implementation names no kernel: verification asks its table before sending the case, and does not send
// one whose every direction it computes is held back.
const KnownBugRegistration test_outside_bugs{{
    .library = "known-bugs-test-outside",
    .version = [] { return std::string("1.0"); },
    .rows = {{
        .id = "known-bugs-test-outside-row",
        .versions = {"1.0", ""},
        .strategies = {"known_bugs_test_outside"},
        .directions = {Direction::output},
        .reached = [](const Case &c, Direction, const Ran &) { return c.problem.groups == 2; },
        .reason = "a planted bug of an outside implementation",
        .upstream = "nowhere",
        .docs = "tests/oracles/known_bugs_test.cpp",
    }},
}};

TEST(KnownBugs, AnOutsideImplementationIsNotSentWhatIsHeldBack) {
  int sent = 0;
  Strategy outside;
  outside.name = "known_bugs_test_outside";
  outside.outside = true;
  outside.supports = full_support();
  outside.unsupported = [](const Problem &, Direction direction) {
    return direction == Direction::output ? std::string() : std::string("output only");
  };
  outside.run_case = [&](const Case &c, const Asked &) {
    return ++sent, every_direction_failed(c.problem.op, "ran");
  };
  const Case grouped = make_case(parse_descriptor("g2mb1ic2iw3oc2kw2"), FillMode::exact, 7, 3);
  const std::vector<Outcome> held = verify_case(grouped, compute_reference(grouped), {outside});
  EXPECT_EQ(sent, 0);
  EXPECT_EQ(find_outcome(held, outside.name, Direction::output).verdict, Verdict::held_back);
  EXPECT_EQ(find_outcome(held, outside.name, Direction::grad_data).verdict, Verdict::skipped);
  const Case plain = make_case(parse_descriptor("mb1ic2iw3oc2kw2"), FillMode::exact, 7, 3);
  const std::vector<Outcome> ran = verify_case(plain, compute_reference(plain), {outside});
  EXPECT_EQ(sent, 1);
  EXPECT_EQ(find_outcome(ran, outside.name, Direction::output).verdict, Verdict::failed);
  Strategy lifted = outside;
  lifted.run_held_back = true; // --run-held-back
  verify_case(grouped, compute_reference(grouped), {lifted});
  EXPECT_EQ(sent, 2) << "--run-held-back sends it";
}

// A case some of whose directions are held back is sent asking for the others only (the server's "directions"), so a
// compiler that builds every asked direction in one program is not failed by the held-back one.
TEST(KnownBugs, AnOutsideImplementationIsAskedOnlyForWhatIsNotHeldBack) {
  std::vector<std::vector<Direction>> asked;
  Strategy outside;
  outside.name = "known_bugs_test_outside";
  outside.outside = true;
  outside.supports = full_support();
  outside.run_case = [&](const Case &c, const Asked &request) {
    asked.push_back(request.directions);
    return every_direction_failed(c.problem.op, "ran");
  };
  const Case grouped = make_case(parse_descriptor("g2mb1ic2iw3oc2kw2"), FillMode::exact, 7, 3);
  const std::vector<Outcome> outcomes = verify_case(grouped, compute_reference(grouped), {outside});
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], (std::vector<Direction>{Direction::grad_data, Direction::grad_weight}));
  EXPECT_EQ(find_outcome(outcomes, outside.name, Direction::output).verdict, Verdict::held_back);
  EXPECT_EQ(find_outcome(outcomes, outside.name, Direction::grad_weight).verdict, Verdict::failed);
  const Case plain = make_case(parse_descriptor("mb1ic2iw3oc2kw2"), FillMode::exact, 7, 3);
  verify_case(plain, compute_reference(plain), {outside});
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[1], direction_list(Op::conv));
}

TEST(KnownBugs, AskWhatRanOnlyWhenARowNeedsIt) {
  const Case plain = make_case(parse_descriptor("mb1ic2iw3oc2kw2"), FillMode::exact, 7, 3);
  int asked = 0;
  const Ran ran([&] { return ++asked, std::string("k"); });
  EXPECT_EQ(held_back_by("known_bugs_test_strategy", plain, Direction::grad_data, ran), nullptr);
  EXPECT_EQ(asked, 0) << "the row's cheap test failed first";
}

// Every row: a unique id, strategies this build registers or knows as unbuilt, a write-up whose heading exists in
// docs/findings.md, and a corpus case that exists, or the reason it has none.
TEST(KnownBugs, EveryRowNamesItsWriteUpAndItsCase) {
  std::ifstream findings(CONVCHECK_SOURCE_DIR "/docs/findings.md");
  std::stringstream text;
  text << findings.rdbuf();
  std::set<std::string> anchors; // GitHub's heading anchors: lowercase, spaces to '-', punctuation dropped
  std::string line;
  while (std::getline(text, line)) {
    if (line.rfind("## ", 0) != 0) continue;
    std::string anchor;
    for (char c : line.substr(3))
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') anchor += static_cast<char>(std::tolower(c));
      else if (c == ' ') anchor += '-';
    anchors.insert(anchor);
  }
  std::set<std::string> ids;
  int rows = 0;
  for (const KnownBugTable *table : known_bug_tables()) {
    if (table->library.rfind("known-bugs-test", 0) == 0) continue;
    for (const KnownBug &bug : table->rows) {
      ++rows;
      EXPECT_TRUE(ids.insert(bug.id).second) << "two rows called " << bug.id;
      EXPECT_EQ(bug.library, table->library);
      for (const std::string &strategy : bug.strategies) {
        bool unbuilt = false;
        for (const UnbuiltStrategy &each : unbuilt_strategies()) unbuilt |= each.name == strategy;
        EXPECT_TRUE(find_strategy(strategy) != nullptr || find_adapter(strategy) != nullptr || unbuilt)
            << bug.id << ": no strategy " << strategy;
      }
      const std::string prefix = "docs/findings.md#";
      ASSERT_EQ(bug.docs.rfind(prefix, 0), 0u) << bug.id;
      EXPECT_TRUE(anchors.count(bug.docs.substr(prefix.size()))) << bug.id << ": no heading for " << bug.docs;
      if (bug.corpus_case.empty())
        EXPECT_FALSE(bug.why_no_case.empty()) << bug.id << " has no corpus case and says not why";
      else
        EXPECT_TRUE(std::filesystem::exists(std::string(CONVCHECK_SOURCE_DIR "/") + bug.corpus_case))
            << bug.id << ": " << bug.corpus_case;
    }
  }
  EXPECT_EQ(rows, 44) << "the 44 known bugs of oneDNN, PyTorch, XNNPACK, ONNX Runtime, OpenVINO, LiteRT, XLA, TVM, "
                          "torch-mlir and IREE";
}

} // namespace
} // namespace convcheck
