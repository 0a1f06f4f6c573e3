// The torch strategies on bf16 and f16 (oracles/torch/torch.cpp): torch's bf16 results (ATen's Mkldnn backend, oneDNN's
// bf16 kernels with float32 accumulators) pass under the bound on the edge configs of every rank and direction,
// while the injected narrow accumulation fails on the same problems; ATen's own bf16 convolutions, which round their
// sums to bf16, are held back with the reason (and fail when run); f16, which ATen 1.13 has no CPU kernels for, is
// skipped with ATen's message; so are bf16 deconvs, which ATen 1.13 either lacks kernels for or computes as a plain
// conv (held back). Skipped as a whole where this build has no libtorch.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/torch/aten_capability.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {
namespace {

constexpr const char *bf16 = "_bf16:bf16:bf16:f32";

class TorchLowPrecision : public ::testing::Test {
protected:
  void SetUp() override {
    if (find_strategy("torch") == nullptr) GTEST_SKIP() << "built without libtorch";
    // ATen takes its Mkldnn backend for bf16 only where oneDNN has bf16 (mkldnn_bf16_device_check: AVX-512).
    if (const std::string lacks = host_lacks("avx512_core"); !lacks.empty()) GTEST_SKIP() << lacks;
  }
};

/// What does not depend on the host's ISA: ATen's own kernels (torch_native) and its missing float16 kernels.
class TorchLowPrecisionAnyHost : public ::testing::Test {
protected:
  void SetUp() override {
    if (find_strategy("torch") == nullptr) GTEST_SKIP() << "built without libtorch";
  }
};

/// A hold-back of a known bf16 bug: ATen's own Slow backends, or a oneDNN bf16 kernel ATen's Mkldnn backend reaches.
bool is_known_hold_back(const std::string &problem) {
  for (const char *id : {"torch-bf16-slow-sums", "torch-onednn-bf16-wgrad-stride", "torch-onednn-bf16-1x1-dgrad-odd"})
    if (problem.find(std::string("held_back: ") + id + ": ") != std::string::npos) return true;
  return false;
}

/// What a direction held back by the row `id` of oracles/torch/known_bugs.cpp reports, ATen having chosen `backend`.
std::string held(const char *id, const std::string &backend) { return held_back_detail(*find_known_bug(id), backend); }

// Under oneDNN's avx2 cap ATen 1.13 still sends bf16 to Mkldnn (it asks the CPU, not the cap), and oneDNN has no
// bf16 convolution there: held back with the reason, and run anyway ATen throws (oracles/torch/torch.cpp; the case runs in
// a torch server whose oneDNN is capped at avx2).
TEST_F(TorchLowPrecision, HoldsBackBf16UnderAOneDnnCapWithoutBf16) {
  Case conv_case = make_case(parse_descriptor(std::string("mb1ic2ih4iw4oc2kh2kw2") + bf16), FillMode::exact, 7, 3);
  conv_case.settings[isa_cap_setting] = "avx2";
  conv_case.settings[aten_capability_setting] = "";
  const Strategy &torch = *find_strategy("torch");
  EXPECT_EQ(torch.run_case(conv_case, Asked{direction_list(conv_case.problem.op)}).at(Direction::output).held_back,
            held("torch-bf16-below-onednn-cap", "Mkldnn"));
  const RunResults lifted = torch.run_case(conv_case, Asked{direction_list(conv_case.problem.op), true});
  EXPECT_EQ(lifted.at(Direction::output).error,
            "threw: at::convolution: could not create a primitive descriptor iterator");
}

// Every bf16 edge config of the rank, crops included, both fills: every direction passes on the Mkldnn backend but
// the known bf16 bugs, held back (a problem ATen sends to its own Slow convolutions, a oneDNN bf16 kernel's shape).
void expect_torch_bf16_passes(int64_t ndims) {
  int held_back = 0, total = 0;
  for (const auto &edge : testing::edge_configs(ndims, /*crops=*/true)) {
    if (edge.descriptor.find("_f64") != std::string::npos) continue;
    for (FillMode fill : {FillMode::exact, FillMode::normal}) {
      ++total;
      const std::vector<std::string> problems = testing::disagreements("torch", edge.descriptor + bf16, fill);
      held_back += !problems.empty();
      for (const std::string &problem : problems)
        EXPECT_TRUE(is_known_hold_back(problem)) << edge.descriptor << bf16 << " " << to_string(fill) << ": "
                                                        << problem;
    }
  }
  // In 1-D and 2-D most reach the Mkldnn backend; in 3-D ATen 1.13 sends most bf16 problems to Slow3d (held back).
  EXPECT_LT(held_back * (ndims == 3 ? 1 : 4), total) << "too few bf16 edge configs reach ATen's Mkldnn backend";
}

} // namespace

TEST_F(TorchLowPrecision, Bf16PassesUnderTheBound1D) { expect_torch_bf16_passes(1); }
TEST_F(TorchLowPrecision, Bf16PassesUnderTheBound2D) { expect_torch_bf16_passes(2); }
TEST_F(TorchLowPrecision, Bf16PassesUnderTheBound3D) { expect_torch_bf16_passes(3); }

// Reductions of 288 to 800 terms in exact fill: torch passes every direction, the injected bf16 accumulation fails.
TEST_F(TorchLowPrecision, NarrowAccumulationIsCaughtWhereTorchPasses) {
  for (const char *shape : {"mb4ic32iw20oc8kw9pl4pr4_nwc", "mb2ic32ih9iw9oc8kh3kw3pt1pl1_nhwc_ohwi",
                            "g2mb2ic32id4ih5iw5oc8kd2kh3kw3pt1pl1"}) {
    const std::string descriptor = std::string(shape) + bf16;
    for (FillMode fill : {FillMode::exact, FillMode::normal}) {
      const auto problems = testing::disagreements("torch", descriptor, fill);
      EXPECT_TRUE(problems.empty()) << descriptor << ": " << problems.front();
    }
    EXPECT_TRUE(testing::fails_somewhere("bf16_accumulate", descriptor, FillMode::exact)) << descriptor;
  }
}

// ATen 1.13's Slow2d on bf16 (torch_native, mkldnn off) is off by a bf16 ulp or more on 4 exact products: held back
// on every direction with the reason; run anyway (--run-held-back), its forward fails under the bound.
TEST_F(TorchLowPrecisionAnyHost, HoldsBackATenOwnBf16ConvolutionWhichRoundsItsSums) {
  const Case conv_case = make_case(parse_descriptor(std::string("mb1ic1ih3iw3oc1kh2kw2") + bf16), FillMode::exact, 7, 3);
  const Strategy &native = *find_strategy("torch_native");
  const RunResults runs = native.run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
  for (Direction direction : all_directions)
    EXPECT_EQ(runs.at(direction).held_back, held("torch-bf16-slow-sums", "Slow2d"));
  const RunResults lifted = native.run_case(conv_case, Asked{direction_list(conv_case.problem.op), true});
  ASSERT_FALSE(lifted.at(Direction::output).result.empty()) << lifted.at(Direction::output).error;
  const Reference reference = compute_reference(conv_case);
  EXPECT_EQ(judge("torch_native", Direction::output, lifted.at(Direction::output).result, reference[Direction::output])
                .verdict,
            Verdict::failed);
}

// The oneDNN bf16 kernel bugs (oracles/onednn/bf16_bugs.hpp) reached through ATen's Mkldnn backend, as the
// torch fuzz shrank them: that direction is held back with the reason, and the others still run and pass.
TEST_F(TorchLowPrecision, HoldsBackTheOneDnnBf16KernelsItReaches) {
  const struct {
    const char *shape;
    Direction direction;
    const char *known_bug; // its row in oracles/torch/known_bugs.cpp
  } bugs[] = {
      {"mb1ic2ih2iw1oc1kh1kw2sw2pl1pr1_nhwc_hwio", Direction::grad_weight, "torch-onednn-bf16-wgrad-stride"},
      {"mb1ic2ih8iw12oc1kh1kw1pr3_nhwc", Direction::grad_data, "torch-onednn-bf16-1x1-dgrad-odd"},
  };
  for (const auto &bug : bugs) {
    const std::string descriptor = std::string(bug.shape) + bf16;
    const Case conv_case = make_case(parse_descriptor(descriptor), FillMode::exact, 7, 3);
    const Reference reference = compute_reference(conv_case);
    const RunResults runs = find_strategy("torch")->run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
    for (Direction direction : all_directions) {
      const RunResult &run = runs.at(direction);
      if (direction == bug.direction) {
        EXPECT_EQ(run.held_back, held(bug.known_bug, "Mkldnn")) << descriptor;
        continue;
      }
      ASSERT_FALSE(run.result.empty()) << descriptor << " " << to_string(direction) << ": " << run.skipped << run.error;
      EXPECT_NE(judge("torch", direction, run.result, reference[direction]).verdict, Verdict::failed)
          << descriptor << " " << to_string(direction);
    }
  }
}

// A bf16 deconv: ATen 1.13 has no bf16 SlowTranspose kernel, so torch_native skips it with ATen's message, and torch's
// Mkldnn backend, where ATen sends it instead, computes a plain convolution: held back on every direction with the
// reason; run anyway (--run-held-back), the forward returns the conv's shape, [1, 1, 1] for [1, 1, 3].
TEST_F(TorchLowPrecision, HoldsBackTheBf16DeconvATenComputesAsAConv) {
  const Case deconv = make_case(parse_descriptor(std::string("mb1ic1iw2oc1kw2_deconv") + bf16), FillMode::exact, 7, 3);
  const Strategy &torch = *find_strategy("torch");
  const RunResults runs = torch.run_case(deconv, Asked{direction_list(deconv.problem.op)});
  for (Direction direction : all_directions)
    EXPECT_EQ(runs.at(direction).held_back, held("torch-bf16-deconv-as-conv", "Mkldnn"));
  const RunResults lifted = torch.run_case(deconv, Asked{direction_list(deconv.problem.op), true});
  EXPECT_EQ(lifted.at(Direction::output).error,
            "threw: at::convolution: returned a tensor of shape [1, 1, 1], not [1, 1, 3]");
  const RunResults native = find_strategy("torch_native")->run_case(deconv, Asked{direction_list(deconv.problem.op)});
  EXPECT_EQ(native.at(Direction::output).skipped, "ATen 1.13 has no CPU bfloat16 kernel here: at::convolution: "
                                                  "\"slow_conv_transpose2d_out_cpu\" not implemented for 'BFloat16'");
  for (Direction direction : {Direction::grad_data, Direction::grad_weight})
    EXPECT_EQ(native.at(direction).skipped,
              "ATen 1.13 has no CPU bfloat16 kernel here: at::convolution_backward: "
              "\"slow_conv_transpose2d_backward_out_cpu\" not implemented for 'BFloat16'");
}

// Without AVX-512 ATen 1.13 sends bf16 to its own Slow kernels from `torch` too (mkldnn_bf16_device_check fails), so
// `torch` holds every direction back with the Slow kernel's reason; run anyway, the forward of an exact fill whose
// 288-term sums leave bfloat16's exact range fails under the bound.
TEST_F(TorchLowPrecisionAnyHost, WithoutAvx512TorchReachesATenOwnBf16KernelsAndHoldsThemBack) {
  if (host_lacks("avx512_core").empty()) GTEST_SKIP() << "this host has avx512_core: ATen sends bf16 to Mkldnn";
  const Case conv_case =
      make_case(parse_descriptor(std::string("mb1ic32ih4iw4oc2kh3kw3pt1pb1pl1pr1") + bf16), FillMode::witness, 7, 3);
  const Strategy &torch = *find_strategy("torch");
  const RunResults runs = torch.run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
  for (Direction direction : all_directions)
    EXPECT_EQ(runs.at(direction).held_back, held("torch-bf16-slow-sums", "Slow2d"));
  const RunResults lifted = torch.run_case(conv_case, Asked{direction_list(conv_case.problem.op), true});
  ASSERT_FALSE(lifted.at(Direction::output).result.empty()) << lifted.at(Direction::output).error;
  const Reference reference = compute_reference(conv_case);
  EXPECT_EQ(judge("torch", Direction::output, lifted.at(Direction::output).result, reference[Direction::output]).verdict,
            Verdict::failed);
}

// ATen 1.13 has no CPU float16 convolution: every direction is skipped with ATen's own message.
TEST_F(TorchLowPrecisionAnyHost, F16IsSkippedWithATenMessage) {
  const Case conv_case = make_case(parse_descriptor("mb2ic3ih5iw5oc4kh3kw3_f16:f16:f16:f32"), FillMode::normal, 7, 3);
  for (const char *name : {"torch", "torch_native"}) {
    const RunResults runs = find_strategy(name)->run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
    EXPECT_EQ(runs.at(Direction::output).skipped, "ATen 1.13 has no CPU float16 kernel here: at::convolution: "
                                                  "\"slow_conv2d_cpu\" not implemented for 'Half'")
        << name;
    for (Direction direction : {Direction::grad_data, Direction::grad_weight})
      EXPECT_EQ(runs.at(direction).skipped, "ATen 1.13 has no CPU float16 kernel here: at::convolution_backward: "
                                            "\"slow_conv2d_cpu_grad_input\" not implemented for 'Half'")
          << name;
  }
}

} // namespace convcheck
