#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/onednn/accumulation_modes.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "oracles/onednn/onednn.hpp"
#include "oracles/onednn/isa_server.hpp"
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

// The hold-backs a run may report instead of a result: the two weight-gradient rows of oracles/onednn/known_bugs.cpp
// (a crop's weight gradient on the jit kernel that reads past the output, and oneDNN issue #6035).
bool is_known_hold_back(Direction direction, const std::string &held_back) {
  return direction == Direction::grad_weight &&
         (held_back.rfind("onednn-jit-wgrad-crop: ", 0) == 0 || held_back.rfind("onednn-6035: ", 0) == 0);
}

// Each path's problems on one case: a direction that did not pass (or weakly pass) against the reference, or was
// skipped for another reason than the known jit bugs (held back).
std::vector<std::string> path_disagreements(const Case &conv_case, OnednnPath path, const std::string &cap = "",
                                            bool run_held_back = false) {
  const Reference reference = compute_reference(conv_case);
  const RunResults runs = onednn_results_under(cap, conv_case, path, OnednnAlgorithm::direct, run_held_back);
  std::vector<std::string> problems;
  for (Direction direction : all_directions) {
    const RunResult &run = runs.at(direction);
    if (is_known_hold_back(direction, run.held_back)) continue;
    const Outcome outcome = run.result.empty()
                                ? Outcome{"onednn", direction, Verdict::failed, run.error + run.skipped, {}, {}}
                                : judge("onednn", direction, run.result, reference[direction]);
    if (outcome.verdict == Verdict::failed)
      problems.push_back(fmt::format("{} path {}: {}", to_string(path), to_string(direction), outcome.detail));
  }
  return problems;
}

// Every path on one config, bit for bit in exact fill and within the bound in normal fill.
void expect_every_path_agrees(const std::string &name, const std::string &descriptor) {
  for (FillMode fill : {FillMode::exact, FillMode::normal})
    for (OnednnPath path : all_paths) {
      const auto problems = path_disagreements(make_case(parse_descriptor(descriptor), fill, 7, 3), path);
      EXPECT_TRUE(problems.empty()) << name << " " << descriptor << " " << to_string(fill) << ": "
                                    << (problems.empty() ? "" : problems.front());
    }
}

void expect_every_path_agrees_on_float32_edge_configs(int64_t ndims) {
  for (const auto &edge : testing::edge_configs(ndims)) {
    if (is_float64(edge.descriptor)) continue;
    expect_every_path_agrees(edge.name, edge.descriptor);
  }
}

// Through the registered strategy, like the campaign: every float32 edge config of the rank, crops included,
// agrees, except the crops oneDNN does not take, which are skipped with the reason.
void expect_strategy_agrees_on_float32_edge_configs(int64_t ndims) {
  for (const auto &edge : testing::edge_configs(ndims, /*crops=*/true)) {
    if (is_float64(edge.descriptor)) continue;
    const Problem problem = parse_descriptor(edge.descriptor);
    const std::string refused = onednn().unsupported_reason(problem, Direction::output);
    EXPECT_TRUE(refused.empty() || refused.rfind("oneDNN takes", 0) == 0) << edge.descriptor << ": " << refused;
    const auto problems = testing::disagreements("onednn", edge.descriptor, FillMode::exact, !refused.empty());
    EXPECT_TRUE(problems.empty()) << edge.descriptor << ": " << (problems.empty() ? "" : problems.front());
  }
}

// Crops oneDNN takes: at the end of an axis and smaller than its stride. Each drops an output on some axis (the
// test below checks), so it is a crop and not a padding of zero by another name. Those with an outer axis padded
// at the beginning too (pt1pb-2, pfr1pbk-1) have their weight gradient skipped (a oneDNN 2.6 jit bug); the others
// run every direction.
const std::vector<std::vector<std::string>> accepted_crop_shapes = {
    {"mb2ic3iw9oc2kw3sw2pr-1", "mb2ic3iw7oc2kw2sw3pl1pr-2", "g2mb1ic4iw11oc6kw2sw3dlw2pl1pr-2"},
    {"mb2ic3ih7iw9oc2kh3kw2sh2sw3pb-1pr-2", "mb2ic3ih6iw7oc2kh3kw2sw3pl1pr-2", "g3mb1ic6ih7iw5oc3kh2kw3sh3dlw2pt1pb-2pl2"},
    {"mb1ic2id6ih6iw8oc2kd2kh3kw2sd2sh3sw2pbk-1pb-2pr-1", "g2mb2ic4id5ih5iw4oc4kd2kh2kw2sd2sw2dlh2pfr1pbk-1pt1pr-1"},
};
const std::vector<std::vector<std::string>> layout_suffixes = {
    {"", "_nwc", "_nwc_wio", "_nwc_owi", "_wio", "_owi"},
    {"", "_nhwc", "_nhwc_hwio", "_nhwc_ohwi", "_hwio", "_ohwi"},
    {"", "_ndhwc", "_ndhwc_dhwio", "_ndhwc_odhwi", "_dhwio", "_odhwi"},
};

std::vector<std::string> accepted_crops() {
  std::vector<std::string> descriptors;
  for (size_t rank = 0; rank < accepted_crop_shapes.size(); ++rank)
    for (const std::string &shape : accepted_crop_shapes[rank])
      for (const std::string &suffix : layout_suffixes[rank]) descriptors.push_back(shape + suffix);
  return descriptors;
}

} // namespace

// A case takes one path, so every path is checked here on every float32 edge config, bit for bit in exact fill.
TEST(Onednn, EveryPathAgreesWithReferenceOnFloat32EdgeConfigs) { expect_every_path_agrees_on_float32_edge_configs(2); }
TEST(Onednn, EveryPathAgreesWithReferenceOnFloat32EdgeConfigs1D) { expect_every_path_agrees_on_float32_edge_configs(1); }
TEST(Onednn, EveryPathAgreesWithReferenceOnFloat32EdgeConfigs3D) { expect_every_path_agrees_on_float32_edge_configs(3); }

// Deconvs, through oneDNN's deconvolution primitives on every path: every float32 deconv edge config of every rank
// agrees (bit for bit in exact fill), except the paddings oneDNN does not take, which are skipped with the reason.
TEST(Onednn, EveryPathAgreesWithReferenceOnFloat32DeconvEdgeConfigs) {
  for (int64_t ndims = 1; ndims <= 3; ++ndims)
    for (const auto &edge : testing::deconv_edge_configs(ndims, /*crops=*/true)) {
      if (is_float64(edge.descriptor)) continue;
      const Problem problem = parse_descriptor(edge.descriptor);
      const std::string refused = onednn().unsupported_reason(problem, Direction::output);
      EXPECT_TRUE(refused.empty() || refused.rfind("oneDNN takes", 0) == 0) << edge.descriptor << ": " << refused;
      if (refused.empty()) expect_every_path_agrees(edge.name, edge.descriptor);
    }
}

TEST(Onednn, EveryPathAgreesWithReferenceOnTheCropsItTakes) {
  for (const std::string &descriptor : accepted_crops()) {
    const Problem problem = parse_descriptor(descriptor);
    ASSERT_EQ(onednn().unsupported_reason(problem, Direction::output), "") << descriptor;
    Problem uncropped = problem;
    for (SpatialAxis &axis : uncropped.axes) axis.pad_end = std::max<int64_t>(axis.pad_end, 0);
    EXPECT_NE(uncropped.output_shape(), problem.output_shape()) << descriptor << " crops nothing";
    expect_every_path_agrees("crop", descriptor);
  }
}

// The registered strategy takes the path of the case, through verify_one like the campaign and shrinking.
TEST(Onednn, StrategyAgreesWithReferenceOnFloat32EdgeConfigs) { expect_strategy_agrees_on_float32_edge_configs(2); }
TEST(Onednn, StrategyAgreesWithReferenceOnFloat32EdgeConfigs1D) { expect_strategy_agrees_on_float32_edge_configs(1); }
TEST(Onednn, StrategyAgreesWithReferenceOnFloat32EdgeConfigs3D) { expect_strategy_agrees_on_float32_edge_configs(3); }

// Through verify_one, like the campaign: each crop oneDNN takes is declared supported in every direction, and
// agrees, but for the weight gradients held back from the broken jit kernel.
TEST(Onednn, StrategyAgreesWithReferenceOnTheCropsItTakes) {
  for (const std::string &descriptor : accepted_crops()) {
    const Case conv_case = make_case(parse_descriptor(descriptor), FillMode::normal, 7, 3);
    const Reference reference = compute_reference(conv_case);
    for (Direction direction : all_directions) {
      EXPECT_EQ(onednn().unsupported_reason(conv_case.problem, direction), "") << descriptor;
      const Outcome outcome = verify_one(conv_case, reference, onednn(), direction);
      const bool agreed = outcome.verdict == Verdict::passed || outcome.verdict == Verdict::weak;
      EXPECT_TRUE(agreed || (outcome.verdict == Verdict::held_back && is_known_hold_back(direction, outcome.detail)))
          << descriptor << " " << to_string(direction) << ": " << to_string(outcome.verdict) << " " << outcome.detail;
    }
  }
}

// oneDNN's jit:avx2 weight gradient reads past the output when an outer axis is padded at the beginning and cropped
// at the end (docs/findings.md; still so in 3.13.2); on this problem it corrupted 2.6's heap. Under the avx2 cap
// (a server process; skipped only where the host has no AVX2) that direction is held back on jit:avx2 only, and
// not even run; the paths that take another kernel compute it right. On 3.13.2 the AVX-512 jit kernel and the
// plain path's kernel (gemm behind jit_uni_ncsp, whose name starts with "jit" too) are right on it, so they run.
TEST(Onednn, HoldsBackTheJitWeightGradientOfACropItGetsWrong) {
  if (const std::string lacks = host_lacks("avx2"); !lacks.empty()) GTEST_SKIP() << lacks;
  const std::string cap = "avx2";
  const Problem problem = parse_descriptor("mb1ic1ih7iw8oc1kh4kw5sh3pt1pb-2pr1_nhwc");
  const Case conv_case = make_case(problem, FillMode::exact, 7, 3);
  int held_back = 0;
  for (OnednnPath path : all_paths) {
    const std::string implementation = onednn_implementation_under(cap, problem, Direction::grad_weight, path);
    const RunResults runs = onednn_results_under(cap, conv_case, path, OnednnAlgorithm::direct, false);
    const RunResult &run = runs.at(Direction::grad_weight);
    if (implementation.rfind("jit:avx2", 0) == 0) {
      ++held_back;
      EXPECT_EQ(run.held_back, held_back_detail(*find_known_bug("onednn-jit-wgrad-crop"),
                                                fmt::format("{} ({} path)", implementation, to_string(path))));
      EXPECT_TRUE(run.result.empty());
    } else {
      EXPECT_EQ(run.held_back, "") << to_string(path) << " " << implementation;
      EXPECT_EQ(run.skipped, "") << to_string(path) << " " << implementation;
    }
    EXPECT_TRUE(path_disagreements(conv_case, path, cap).empty()) << to_string(path);
  }
  EXPECT_GT(held_back, 0) << "no path ran jit:avx2's weight gradient: the test no longer reaches the bug";
  // The width axis is the kernel's inner loop, which clamps its padding: that weight gradient runs on jit:avx2 too.
  const Case width_crop = make_case(parse_descriptor("mb1ic1ih8iw7oc1kh5kw4sw3pl1pr-2_nhwc"), FillMode::exact, 7, 3);
  EXPECT_EQ(onednn_results_under(cap, width_crop, OnednnPath::blocked, OnednnAlgorithm::direct, false)
                .at(Direction::grad_weight)
                .skipped,
            "");
  EXPECT_TRUE(path_disagreements(width_crop, OnednnPath::blocked, cap).empty());
  // The host's own kernels run the height crop, held back nowhere, and get it right (on an AVX-512 host, jit:avx512_core).
  if (!host_lacks("avx512_core").empty()) return;
  for (OnednnPath path : all_paths) {
    EXPECT_EQ(onednn_implementation_under("avx512_core", problem, Direction::grad_weight, path).rfind("jit:avx2", 0),
              std::string::npos);
    EXPECT_TRUE(path_disagreements(conv_case, path, "avx512_core", true).empty()) << to_string(path);
  }
}

// oneDNN issue #6035: the jit_1x1 weight gradient of a strided 1x1 conv on a channels-last source with fewer input
// channels than its block writes past its part of the scratchpad (each thread's part is booked for jcp.is * jcp.ic
// floats and written at sp * jcp.ic_block). Still so in 3.13.2 (docs/findings.md): past the scratchpad's end on one
// logical thread, into the next thread's part, which gives wrong values, on more. This problem fails either way (1,
// 2 and 4 logical threads measured with a standalone probe), so the test holds on any host; it pins oneDNN at avx2 (a
// server process started with that cap) and is skipped only where the host has no AVX2. Held back where it runs (the
// user's channels-last source, so not the blocked path); lifted, the weight gradient fails alone and the heap stays
// whole (guard bytes after every buffer).
TEST(Onednn, HoldsBackTheJit1x1WeightGradientThatWritesPastItsScratchpad) {
  if (const std::string lacks = host_lacks("avx2"); !lacks.empty()) GTEST_SKIP() << lacks;
  const std::string cap = "avx2";
  ASSERT_EQ(onednn_isa_under(cap), "avx2");
  const Case conv_case = make_case(parse_descriptor("mb2ic4ih12iw6oc5kh1kw1sw2_nhwc"), FillMode::exact, 7, 3);
  ASSERT_EQ(onednn_implementation_under(cap, conv_case.problem, Direction::grad_weight, OnednnPath::any_weights),
            "jit_1x1:avx2")
      << "the weight gradient no longer runs on jit_1x1: the test no longer reaches the bug";
  const RunResults held = onednn_results_under(cap, conv_case, OnednnPath::any_weights, OnednnAlgorithm::direct, false);
  EXPECT_EQ(held.at(Direction::grad_weight).held_back.rfind("onednn-6035: ", 0), 0u)
      << held.at(Direction::grad_weight).held_back;
  EXPECT_TRUE(path_disagreements(conv_case, OnednnPath::any_weights, cap).empty());

  // Lifted: written past the scratchpad ("the primitive wrote past the ...") or wrong values, by the thread count.
  const auto lifted = path_disagreements(conv_case, OnednnPath::any_weights, cap, true);
  ASSERT_EQ(lifted.size(), 1u) << fmt::format("{}", fmt::join(lifted, "; "));
  EXPECT_EQ(lifted.front().rfind("any_weights path grad_weight: ", 0), 0u) << lifted.front();

  EXPECT_EQ(onednn_results_under(cap, conv_case, OnednnPath::blocked, OnednnAlgorithm::direct, false).at(Direction::grad_weight).skipped, "");
  EXPECT_TRUE(path_disagreements(conv_case, OnednnPath::blocked, cap, true).empty());
  const Case first = make_case(parse_descriptor("mb2ic4ih12iw6oc5kh1kw1sw2"), FillMode::exact, 7, 3);
  EXPECT_EQ(onednn_results_under(cap, first, OnednnPath::any_weights, OnednnAlgorithm::direct, false).at(Direction::grad_weight).skipped, "");
  EXPECT_TRUE(path_disagreements(first, OnednnPath::any_weights, cap).empty());
}

// The AVX-512 kernel (jit_1x1:avx512_core, block 16) has the same overflow in 3.13.2 once oneDNN plans for two
// threads or more (docs/findings/onednn_1x1_wgrad_threads.cpp: mb1ic15ih12iw10oc16kh1kw1sw2_nhwc wrote 40 to 164
// bytes past the scratchpad with 2, 3, 4 and 8 logical threads, nothing with 1), so the row holds it back too
// (it was run, as right, on 2.6). Whether a run of the strategy shows it depends on how many threads oneDNN plans
// for in that process, which varied between runs of this test under ctest and by hand (not understood yet), so
// only the hold-back is checked here. Skipped, saying so, on a host without AVX-512.
TEST(Onednn, HoldsBackTheAvx512Jit1x1WeightGradientToo) {
  if (const std::string lacks = host_lacks("avx512_core"); !lacks.empty()) GTEST_SKIP() << lacks;
  const std::string cap = "avx512_core";
  const Case conv_case = make_case(parse_descriptor("mb1ic15ih12iw10oc16kh1kw1sw2_nhwc"), FillMode::exact, 7, 3);
  ASSERT_EQ(onednn_implementation_under(cap, conv_case.problem, Direction::grad_weight, OnednnPath::any_weights),
            "jit_1x1:avx512_core");
  const RunResults held = onednn_results_under(cap, conv_case, OnednnPath::any_weights, OnednnAlgorithm::direct, false);
  EXPECT_EQ(held.at(Direction::grad_weight).held_back.rfind("onednn-6035: ", 0), 0u)
      << held.at(Direction::grad_weight).held_back;
  EXPECT_TRUE(path_disagreements(conv_case, OnednnPath::any_weights, cap).empty());
  // 3.13 runs a channels-first source with oneDNN's weight layout through the same kernel, reordered to
  // channels-last (jit_uni_ncsp), with the same overflow (the probe above, channels-first, 2 threads or more): held
  // back too.
  const Case channels_first = make_case(parse_descriptor("mb1ic15ih12iw10oc16kh1kw1sw2"), FillMode::exact, 7, 3);
  const std::string wrapped =
      onednn_implementation_under(cap, channels_first.problem, Direction::grad_weight, OnednnPath::any_weights);
  ASSERT_EQ(wrapped.rfind("jit_uni_ncsp:conv+jit_1x1:avx512_core", 0), 0u) << wrapped;
  EXPECT_EQ(onednn_results_under(cap, channels_first, OnednnPath::any_weights, OnednnAlgorithm::direct, false)
                .at(Direction::grad_weight)
                .held_back.rfind("onednn-6035: ", 0),
            0u);
  // With 16 input channels (the block) it runs, held back nowhere.
  const Case full_block = make_case(parse_descriptor("mb1ic16ih12iw10oc16kh1kw1sw2_nhwc"), FillMode::exact, 7, 3);
  EXPECT_EQ(onednn_results_under(cap, full_block, OnednnPath::any_weights, OnednnAlgorithm::direct, false)
                .at(Direction::grad_weight)
                .held_back,
            "");
  EXPECT_TRUE(path_disagreements(full_block, OnednnPath::any_weights, cap, true).empty());
}

// The crops the strategy skips are exactly those oneDNN refuses: over every padding from -2 to 1 at the beginning
// and -3 to 1 at the end of a 1-D conv with strides 1 to 3 and dilations 1 and 2, the strategy declares a problem
// unsupported exactly when oneDNN fails it (invalid_arguments) on every path, and every other one runs.
TEST(Onednn, SkipsExactlyTheCropsOneDnnRefuses) {
  for (int64_t stride = 1; stride <= 3; ++stride)
    for (int64_t dilation = 1; dilation <= 2; ++dilation)
      for (int64_t pad_begin = -2; pad_begin <= 1; ++pad_begin)
        for (int64_t pad_end = -3; pad_end <= 1; ++pad_end) {
          const std::string descriptor =
              fmt::format("mb1ic2iw9oc2kw3sw{}dlw{}pl{}pr{}", stride, dilation, pad_begin, pad_end);
          const Problem problem = parse_descriptor(descriptor);
          if (!is_valid(problem)) continue;
          const bool refused = !onednn().unsupported_reason(problem, Direction::output).empty();
          const Case conv_case = make_case(problem, FillMode::exact, 7, 3);
          for (OnednnPath path : all_paths)
            for (const auto &[direction, run] : onednn_results(conv_case, path)) {
              EXPECT_EQ(run.result.empty(), refused) << descriptor << " " << to_string(path) << ": " << run.error;
              if (refused) {
                EXPECT_NE(run.error.find("invalid_arguments"), std::string::npos) << run.error;
              }
            }
        }
}

TEST(Onednn, NamesTheCropItDoesNotTake) {
  const std::map<std::string, std::string> reasons = {
      {"mb2ic2iw9oc3kw3pl-2pr1",
       "oneDNN takes no crop at the beginning of an axis: pad_left is -2 (it requires padding_l >= 0)"},
      {"mb1ic2iw7oc2kw2sw2pl1pr-3",
       "oneDNN takes a crop at the end of an axis only when smaller than the stride: pad_right is -3 with "
       "stride_width 2 (it requires padding_r > -stride)"},
      {"mb1ic2id5ih6iw5oc2kd2kh3kw2pfr-1pbk1pt-2pl1pr-1",
       "oneDNN takes no crop at the beginning of an axis: pad_front is -1 (it requires padding_l >= 0)"},
      {"mb1ic2ih6iw5oc2kh3kw2pb-1_nhwc",
       "oneDNN takes a crop at the end of an axis only when smaller than the stride: pad_bottom is -1 with "
       "stride_height 1 (it requires padding_r > -stride)"},
  };
  for (const auto &[descriptor, reason] : reasons)
    for (Direction direction : all_directions)
      EXPECT_EQ(onednn().unsupported_reason(parse_descriptor(descriptor), direction), reason) << descriptor;
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
                                 "mb1ic3ih6oc5kh2dlh2pb1_hwio", "g4mb1ic4ih5oc4kh3_nhwc", "g2mb2ic4iw7oc6kw2sw2pl1",
                                 "g2mb2ic4iw7oc6kw2sw2pl1_nwc_owi", "mb1ic3iw6oc5kw2dlw2pr1_wio",
                                 "g2mb2ic4id4ih5iw6oc6kd2kh3kw2sh2pfr1pl1",
                                 "g2mb2ic4id4ih5iw6oc6kd2kh3kw2sh2pfr1pl1_ndhwc_odhwi", "g3mb1ic3id3ih4iw5oc3kd3_ndhwc"})
    for (Direction direction : all_directions) {
      const std::string name = onednn_implementation(parse_descriptor(descriptor), direction, OnednnPath::plain);
      EXPECT_EQ(name.rfind("ref", 0), std::string::npos) << descriptor << " " << to_string(direction) << ": " << name;
    }
}

TEST(Onednn, SkipsFloat64EdgeConfigsWithAReason) {
  for (int64_t ndims = 1; ndims <= 3; ++ndims)
    for (const auto &edge : testing::edge_configs(ndims)) {
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
    const std::string mode = acc_mode_of(conv_case);
    EXPECT_NE(name.find(fmt::format("({} path, cap {}, oneDNN isa {}, accumulation mode {})",
                                    to_string(onednn_path(conv_case)), isa_cap_of(conv_case),
                                    onednn_isa_under(isa_cap_of(conv_case)), mode.empty() ? "none set" : mode)),
              std::string::npos)
        << name;
  }
}

// A thread's cases share one scratchpad buffer (and stream): what a larger case left in it must not reach the
// results of the next one, which are bit for bit those of the same case on a fresh thread.
// AddressSanitizer cannot end a thread of ours that ran oneDNN 3.13 (its SYCL runtime): destroying the thread it fails
// to unmap the thread's alternate signal stack ("CHECK failed: sanitizer_posix.cpp:61 unable to unmap", measured in
// scripts/run.sh sanitize); convcheck's own workers are processes of one thread, and the unsanitized suite runs these.
#if defined(__SANITIZE_ADDRESS__)
#define SKIP_UNDER_ASAN_FOR_ONEDNN_THREADS()                                                                          \
  GTEST_SKIP() << "AddressSanitizer cannot end a thread that ran oneDNN's SYCL runtime (unable to unmap its "        \
                  "alternate signal stack); the unsanitized suite runs this test"
#else
#define SKIP_UNDER_ASAN_FOR_ONEDNN_THREADS()
#endif

TEST(Onednn, ResultsDoNotDependOnTheCasesBeforeThemOnTheThread) {
  SKIP_UNDER_ASAN_FOR_ONEDNN_THREADS();
  const Case large = make_case(parse_descriptor("g2mb2ic8ih12iw11oc8kh3kw3pt1pl1_nhwc"), FillMode::normal, 7, 1);
  const Case small = make_case(parse_descriptor("mb1ic3ih5iw4oc2kh2kw3"), FillMode::normal, 7, 2);
  const auto on_fresh_thread = [](const Case &conv_case, OnednnPath path) {
    return std::async(std::launch::async, [&] { return onednn_results(conv_case, path); }).get();
  };
  for (OnednnPath path : all_paths) {
    const RunResults expected = on_fresh_thread(small, path);
    onednn_results(large, path);
    const RunResults after_large = onednn_results(small, path);
    for (Direction direction : all_directions) {
      const Tensor &want = expected.at(direction).result;
      const Tensor &got = after_large.at(direction).result;
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
  SKIP_UNDER_ASAN_FOR_ONEDNN_THREADS();
  auto conv_case = std::make_shared<const Case>(
      make_case(parse_descriptor("mb2ic1ih5iw6oc2kh4kw4_nhwc"), FillMode::exact, 7, 3));
  auto finished = std::make_shared<std::promise<bool>>();
  std::future<bool> all_returned = finished->get_future();
  std::thread runner([conv_case, finished] {
    bool ok = true;
#pragma omp parallel num_threads(2) reduction(&& : ok)
    for (OnednnPath path : all_paths) {
      try {
        for (const auto &[direction, run] : onednn_results(*conv_case, path)) ok = ok && !run.result.empty();
      } catch (const std::exception &) {
        ok = false;
      }
    }
    finished->set_value(ok);
  });
  // Joined when it returned, so its thread-local state (glibc's dlerror buffer, which oneDNN's loads allocate) is
  // freed before LeakSanitizer looks at exit; left behind only when deadlocked.
  if (all_returned.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    runner.detach();
    FAIL() << "deadlocked";
  }
  runner.join();
  EXPECT_TRUE(all_returned.get());
}

} // namespace convcheck
