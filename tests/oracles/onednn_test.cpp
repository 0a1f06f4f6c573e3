#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "core/conv_case.hpp"
#include "core/descriptor.hpp"
#include "core/strategy.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {

namespace {

bool is_float64(const std::string &descriptor) { return parse_descriptor(descriptor).dtype == DType::float64; }

const Strategy &onednn() {
  const Strategy *strategy = find_strategy("onednn");
  EXPECT_NE(strategy, nullptr);
  return *strategy;
}

} // namespace

// CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS would count the float64 variants' skips as failures, so float32 ones
// are checked here without skips allowed and float64 ones are checked to be skipped, never failed.
TEST(Onednn, AgreesWithReferenceOnFloat32EdgeConfigs) {
  for (const auto &edge : testing::edge_configs()) {
    if (is_float64(edge.descriptor)) continue;
    for (FillMode fill : {FillMode::exact, FillMode::normal}) {
      const auto problems = testing::disagreements("onednn", edge.descriptor, fill);
      EXPECT_TRUE(problems.empty()) << edge.name << " " << edge.descriptor << " " << to_string(fill) << ": "
                                    << (problems.empty() ? "" : problems.front());
    }
  }
}

TEST(Onednn, SkipsFloat64EdgeConfigsWithAReason) {
  for (const auto &edge : testing::edge_configs()) {
    if (!is_float64(edge.descriptor)) continue;
    const auto problems = testing::disagreements("onednn", edge.descriptor, FillMode::normal, /*allow_skips=*/true);
    EXPECT_TRUE(problems.empty()) << edge.descriptor << ": " << (problems.empty() ? "" : problems.front());
    for (Direction direction : all_directions)
      EXPECT_EQ(onednn().unsupported_reason(parse_descriptor(edge.descriptor), direction),
                "oneDNN's CPU convolution has no float64 (f32, bf16, f16, int8 only)");
  }
}

TEST(Onednn, NamesTheImplementationThatRan) {
  const ConvCase conv_case = make_case(parse_descriptor("g3mb2ic6ih5iw7oc9kh3kw2sh2pt1pl1_nhwc_hwio"),
                                       FillMode::normal, 7, 3);
  for (Direction direction : all_directions) {
    const std::string name = onednn().implementation(conv_case, direction);
    EXPECT_FALSE(name.empty()) << to_string(direction);
    EXPECT_EQ(name.rfind("none", 0), std::string::npos) << to_string(direction) << ": " << name;
  }
}

// The case loop runs strategies inside an OpenMP parallel region; there oneDNN 2.6's jit backward-weights kernel
// deadlocked (planned for omp_get_max_threads() threads, ran on one) until the strategy planned for one thread.
// The region runs on a detached thread so that a regression fails this test instead of hanging the suite.
TEST(Onednn, RunsInsideAnOpenMPParallelRegion) {
  auto conv_case = std::make_shared<const ConvCase>(
      make_case(parse_descriptor("mb2ic1ih5iw6oc2kh4kw4_nhwc"), FillMode::exact, 7, 3));
  auto finished = std::make_shared<std::promise<bool>>();
  std::future<bool> all_returned = finished->get_future();
  std::thread([conv_case, finished] {
    bool ok = true;
#pragma omp parallel num_threads(2) reduction(&& : ok)
    for (Direction direction : all_directions) {
      try {
        ok = ok && !onednn().run(*conv_case, direction).empty();
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
