#include <chrono>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "oracles/onednn.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {

namespace {

bool is_float64(const std::string &descriptor) { return parse_descriptor(descriptor).precision.src == DType::float64; }

const Strategy &onednn() {
  const Strategy *strategy = find_strategy("onednn");
  EXPECT_NE(strategy, nullptr);
  return *strategy;
}

constexpr OnednnPath all_paths[] = {OnednnPath::plain, OnednnPath::any_weights, OnednnPath::blocked};

// Each path's problems on one case: a direction that did not pass (or weakly pass) against the reference.
std::vector<std::string> path_disagreements(const Case &conv_case, OnednnPath path) {
  const Reference reference = compute_reference(conv_case);
  const std::array<RunResult, 3> runs = onednn_results(conv_case, path);
  std::vector<std::string> problems;
  for (Direction direction : all_directions) {
    const RunResult &run = runs[static_cast<size_t>(direction)];
    const Outcome outcome = run.result.empty()
                                ? Outcome{"onednn", direction, Verdict::failed, run.error + run.skipped, {}, {}}
                                : judge("onednn", direction, run.result, reference[direction]);
    if (outcome.verdict == Verdict::failed)
      problems.push_back(fmt::format("{} path {}: {}", to_string(path), to_string(direction), outcome.detail));
  }
  return problems;
}

} // namespace

// A case takes one path, so every path is checked here on every float32 edge config, bit for bit in exact fill.
TEST(Onednn, EveryPathAgreesWithReferenceOnFloat32EdgeConfigs) {
  for (const auto &edge : testing::edge_configs()) {
    if (is_float64(edge.descriptor)) continue;
    for (FillMode fill : {FillMode::exact, FillMode::normal})
      for (OnednnPath path : all_paths) {
        const auto problems = path_disagreements(make_case(parse_descriptor(edge.descriptor), fill, 7, 3), path);
        EXPECT_TRUE(problems.empty()) << edge.name << " " << edge.descriptor << " " << to_string(fill) << ": "
                                      << (problems.empty() ? "" : problems.front());
      }
  }
}

// The registered strategy takes the path of the case, through verify_one like the campaign and shrinking.
TEST(Onednn, StrategyAgreesWithReferenceOnFloat32EdgeConfigs) {
  for (const auto &edge : testing::edge_configs()) {
    if (is_float64(edge.descriptor)) continue;
    const auto problems = testing::disagreements("onednn", edge.descriptor, FillMode::exact);
    EXPECT_TRUE(problems.empty()) << edge.descriptor << ": " << (problems.empty() ? "" : problems.front());
  }
}

// Over many cases of a campaign, each path is taken about as often as onednn.cpp says (3/4, 1/8, 1/8), whatever
// the config; and the path is a function of (seed, case index) alone, so shrinking keeps it.
TEST(Onednn, PathsAreSpreadOverCasesAndFollowTheCaseIndex) {
  const Problem small = parse_descriptor("mb1ic1ih2oc1kh1"), other = parse_descriptor("g2mb2ic4ih5oc6kh3_nhwc");
  std::map<OnednnPath, int> taken;
  for (uint64_t index = 0; index < 4000; ++index) {
    const OnednnPath path = onednn_path(make_case(small, FillMode::exact, 11, index));
    EXPECT_EQ(onednn_path(make_case(other, FillMode::normal, 11, index)), path) << index;
    ++taken[path];
  }
  EXPECT_NEAR(taken[OnednnPath::plain], 3000, 150);
  EXPECT_NEAR(taken[OnednnPath::any_weights], 500, 90);
  EXPECT_NEAR(taken[OnednnPath::blocked], 500, 90);
}

// The plain path exists to run oneDNN's optimized plain-layout kernels cheaply: it must not land on oneDNN's
// reference implementation, which frameworks never run (the case's own OHWI weights would send it there).
TEST(Onednn, PlainPathRunsAnOptimizedKernel) {
  for (const char *descriptor : {"g2mb2ic4ih5iw7oc6kh3kw2sh2pt1pl1", "g2mb2ic4ih5iw7oc6kh3kw2sh2pt1pl1_nhwc_ohwi",
                                 "mb1ic3ih6oc5kh2dlh2pb1_hwio", "g4mb1ic4ih5oc4kh3_nhwc"})
    for (Direction direction : all_directions) {
      const std::string name = onednn_implementation(parse_descriptor(descriptor), direction, OnednnPath::plain);
      EXPECT_EQ(name.rfind("ref", 0), std::string::npos) << descriptor << " " << to_string(direction) << ": " << name;
    }
}

TEST(Onednn, SkipsFloat64EdgeConfigsWithAReason) {
  for (const auto &edge : testing::edge_configs()) {
    if (!is_float64(edge.descriptor)) continue;
    const auto problems = testing::disagreements("onednn", edge.descriptor, FillMode::normal, /*allow_skips=*/true);
    EXPECT_TRUE(problems.empty()) << edge.descriptor << ": " << (problems.empty() ? "" : problems.front());
    for (Direction direction : all_directions)
      EXPECT_EQ(onednn().unsupported_reason(parse_descriptor(edge.descriptor), direction),
                "float64 is not supported (formats: float32)");
  }
}

TEST(Onednn, NamesTheImplementationThatRanAndItsPath) {
  const Case conv_case = make_case(parse_descriptor("g3mb2ic6ih5iw7oc9kh3kw2sh2pt1pl1_nhwc_hwio"),
                                       FillMode::normal, 7, 3);
  for (Direction direction : all_directions) {
    const std::string name = onednn().implementation(conv_case, direction);
    EXPECT_FALSE(name.empty()) << to_string(direction);
    EXPECT_EQ(name.rfind("none", 0), std::string::npos) << to_string(direction) << ": " << name;
    EXPECT_NE(name.find(fmt::format("({} path)", to_string(onednn_path(conv_case)))), std::string::npos) << name;
  }
}

// A thread's cases share one scratchpad buffer (and stream): what a larger case left in it must not reach the
// results of the next one, which are bit for bit those of the same case on a fresh thread.
TEST(Onednn, ResultsDoNotDependOnTheCasesBeforeThemOnTheThread) {
  const Case large = make_case(parse_descriptor("g2mb2ic8ih12iw11oc8kh3kw3pt1pl1_nhwc"), FillMode::normal, 7, 1);
  const Case small = make_case(parse_descriptor("mb1ic3ih5iw4oc2kh2kw3"), FillMode::normal, 7, 2);
  const auto on_fresh_thread = [](const Case &conv_case, OnednnPath path) {
    return std::async(std::launch::async, [&] { return onednn_results(conv_case, path); }).get();
  };
  for (OnednnPath path : all_paths) {
    const std::array<RunResult, 3> expected = on_fresh_thread(small, path);
    onednn_results(large, path);
    const std::array<RunResult, 3> after_large = onednn_results(small, path);
    for (Direction direction : all_directions) {
      const Tensor &want = expected[static_cast<size_t>(direction)].result;
      const Tensor &got = after_large[static_cast<size_t>(direction)].result;
      ASSERT_FALSE(want.empty()) << to_string(path) << " " << to_string(direction);
      ASSERT_EQ(got.shape(), want.shape()) << to_string(path) << " " << to_string(direction);
      EXPECT_EQ(std::memcmp(got.data<float>(), want.data<float>(), sizeof(float) * static_cast<size_t>(want.size())), 0)
          << to_string(path) << " " << to_string(direction);
    }
  }
}

// The case loop runs strategies inside an OpenMP parallel region; there oneDNN 2.6's jit backward-weights kernel
// deadlocked (planned for omp_get_max_threads() threads, ran on one) until the strategy planned for one thread.
// The region runs on a detached thread so that a regression fails this test instead of hanging the suite.
TEST(Onednn, RunsInsideAnOpenMPParallelRegion) {
  auto conv_case = std::make_shared<const Case>(
      make_case(parse_descriptor("mb2ic1ih5iw6oc2kh4kw4_nhwc"), FillMode::exact, 7, 3));
  auto finished = std::make_shared<std::promise<bool>>();
  std::future<bool> all_returned = finished->get_future();
  std::thread([conv_case, finished] {
    bool ok = true;
#pragma omp parallel num_threads(2) reduction(&& : ok)
    for (OnednnPath path : all_paths) {
      try {
        for (const RunResult &run : onednn_results(*conv_case, path)) ok = ok && !run.result.empty();
      } catch (const std::exception &) {
        ok = false;
      }
    }
    finished->set_value(ok);
  }).detach();
  ASSERT_EQ(all_returned.wait_for(std::chrono::seconds(60)), std::future_status::ready) << "deadlocked";
  EXPECT_TRUE(all_returned.get());
}

} // namespace convcheck
