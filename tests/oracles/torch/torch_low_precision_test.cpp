// The torch strategies on bf16 and f16 with libtorch 2.15 (oracles/torch/torch.cpp): torch's bf16 results (ATen's
// Mkldnn and MkldnnTranspose backends, oneDNN's bf16 kernels with float32 accumulators) pass under the bound on the
// edge configs of every rank and direction, while the injected narrow accumulation fails on the same problems; ATen's
// own kernels (the Slow backends: torch_native, f16 on a host without AVX512-FP16, bf16 under a oneDNN cap without
// bf16) round the conv forward once, so it runs and passes, and the directions where they round partial sums to the
// format are held back with the reason (and fail when run); the rows fixed by 2.15 hold nothing back. Skipped as a
// whole where this build has no libtorch.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/fill_special.hpp"
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

/// A hold-back of a known bug that reaches a bf16 problem on this build: ATen's own kernels' partial sums, or a oneDNN
/// bf16 kernel ATen's Mkldnn backend reaches.
bool is_known_hold_back(const std::string &problem) {
  for (const char *id : {"torch-slow-lowp-partial-sums", "torch-onednn-bf16-wgrad-stride", "torch-onednn-bf16-wgrad-3d-deep-kernel",
                         "torch-onednn-bf16-1x1-dgrad-odd", "torch-onednn-bf16-wgrad-dilated-groups"})
    if (problem.find(std::string("held_back: ") + id + ": ") != std::string::npos) return true;
  return false;
}

/// What a direction held back by the row `id` of oracles/torch/known_bugs.cpp reports, ATen having chosen `backend`.
std::string held(const char *id, const std::string &backend) { return held_back_detail(*find_known_bug(id), backend); }

/// The verdict of `strategy`'s `direction` on `conv_case`, run with its hold-backs lifted when `lifted`.
Verdict verdict_of(const char *strategy, const Case &conv_case, Direction direction, bool lifted = false) {
  const RunResults runs = find_strategy(strategy)->run_case(conv_case, Asked{direction_list(conv_case.problem.op), lifted});
  const RunResult &run = runs.at(direction);
  if (run.result.empty()) {
    ADD_FAILURE() << strategy << " " << to_string(direction) << ": no result: " << run.skipped << run.error << run.held_back;
    return Verdict::failed;
  }
  return judge(strategy, direction, run.result, compute_reference(conv_case)[direction]).verdict;
}

// Under oneDNN's avx2 cap (no bf16 convolution) ATen 2.15 sends bf16 to its own Slow2d (1.13 sent it to Mkldnn, which
// threw): the forward runs and passes, the data gradient, whose kernel taps overlap, is held back for the partial sums
// Slow2d rounds, and the row of the 1.13 bug holds nothing back. The case runs in a torch server capped at avx2, so
// the backend in the reason is the server's.
TEST_F(TorchLowPrecision, UnderAOneDnnCapWithoutBf16ATenRunsItsOwnKernels) {
  Case conv_case = make_case(parse_descriptor(std::string("mb1ic2ih4iw4oc2kh2kw2") + bf16), FillMode::exact, 7, 3);
  conv_case.settings[isa_cap_setting] = "avx2";
  conv_case.settings[aten_capability_setting] = "";
  const RunResults runs = find_strategy("torch")->run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
  EXPECT_EQ(runs.at(Direction::grad_data).held_back, held("torch-slow-lowp-partial-sums", "Slow2d"));
  for (Direction direction : {Direction::output, Direction::grad_weight})
    EXPECT_EQ(runs.at(direction).held_back, "") << to_string(direction);
  EXPECT_EQ(verdict_of("torch", conv_case, Direction::output), Verdict::passed);
}

// Every bf16 edge config of the rank, crops included, both fills: every direction passes on the Mkldnn backend but
// the known bugs, held back.
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
  // ATen 2.15 sends bf16 to its Mkldnn backend in every rank on a host with oneDNN's bf16 kernels; in 3-D 52 of the
  // 108 have a direction held back by a known row (each checked above), the depth axis being where the edge configs put
  // strides and kernels past the input, which the two jit_bf16 weight-gradient rows take.
  EXPECT_LT(held_back * (ndims == 3 ? 1 : 4), total) << "too few bf16 edge configs reach ATen's Mkldnn backend";
}

} // namespace

// A bf16 case whose inputs are subnormals (the subnormal fill) is held back from the Mkldnn backend on AVX512-BF16,
// whichever process runs it: this one (ATen's own choice of capability) or a torch server (another capability),
// which must be told the case's special kind (a 20,000-case campaign failed 48 such cases before it was).
TEST_F(TorchLowPrecision, SubnormalBf16IsHeldBackInEveryProcess) {
  if (const std::string lacks = host_lacks("avx512_core_bf16"); !lacks.empty()) GTEST_SKIP() << lacks;
  for (const std::string &capability : host_aten_capabilities()) {
    Case conv_case = make_case(parse_descriptor(std::string("mb1ic2iw5oc2kw3") + bf16), FillMode::normal, 7, 3,
                               FillSpecial::subnormal);
    ASSERT_EQ(conv_case.special, FillSpecial::subnormal);
    conv_case.settings[aten_capability_setting] = capability;
    const RunResults runs = find_strategy("torch")->run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
    for (Direction direction : all_directions)
      EXPECT_EQ(runs.at(direction).held_back, held("torch-onednn-bf16-daz", "Mkldnn")) << capability;
  }
}

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

// ATen's own bf16 and f16 kernels (torch_native, mkldnn off): the forward rounds once and passes on 4 exact products
// (1.13's bf16 forward did not: its row torch-bf16-slow-sums ends at 2.15 and holds nothing back); the data gradient,
// whose taps overlap, is held back for the partial sums col2im adds in the format, and run anyway, in the witness
// fill, which makes those roundings count, it fails under the bound.
TEST_F(TorchLowPrecisionAnyHost, ATenOwnKernelsRoundTheForwardOnceAndHoldBackTheirPartialSums) {
  for (const char *format : {"_bf16:bf16:bf16:f32", "_f16:f16:f16:f32"}) {
    const Case forward = make_case(parse_descriptor(std::string("mb1ic1ih3iw3oc1kh2kw2") + format), FillMode::exact, 7, 3);
    EXPECT_EQ(verdict_of("torch_native", forward, Direction::output), Verdict::passed) << format;
    const Case overlapping =
        make_case(parse_descriptor(std::string("mb1ic2ih9iw9oc32kh3kw3") + format), FillMode::witness, 7, 3);
    const RunResults runs =
        find_strategy("torch_native")->run_case(overlapping, Asked{direction_list(overlapping.problem.op)});
    EXPECT_EQ(runs.at(Direction::grad_data).held_back, held("torch-slow-lowp-partial-sums", "Slow2d")) << format;
    EXPECT_EQ(verdict_of("torch_native", overlapping, Direction::grad_data, /*lifted=*/true), Verdict::failed) << format;
  }
}

// A bf16 deconv: ATen 2.15 runs it on MkldnnTranspose (oneDNN's deconvolution), not as a plain conv as 1.13 did, and
// every direction passes; torch_native runs SlowTranspose2d, whose output (col2im over overlapping taps) is held back
// for its partial sums while its data gradient, one rounding, runs and passes.
TEST_F(TorchLowPrecision, Bf16DeconvRunsOnMkldnnTranspose) {
  const Case deconv = make_case(parse_descriptor(std::string("mb1ic1iw2oc1kw2_deconv") + bf16), FillMode::exact, 7, 3);
  const std::string implementation = find_strategy("torch")->implementation(deconv, Direction::output);
  EXPECT_EQ(implementation.rfind("ATen MkldnnTranspose (", 0), 0u) << implementation;
  for (Direction direction : all_directions)
    EXPECT_EQ(verdict_of("torch", deconv, direction), Verdict::passed) << to_string(direction);
  const RunResults native = find_strategy("torch_native")->run_case(deconv, Asked{direction_list(deconv.problem.op)});
  EXPECT_EQ(native.at(Direction::output).held_back, held("torch-slow-lowp-partial-sums", "SlowTranspose2d"));
  EXPECT_EQ(verdict_of("torch_native", deconv, Direction::grad_data), Verdict::passed);
}

// f16 has CPU kernels in every direction in 2.15 (1.13 had none: skipped with ATen's message); on a host without
// AVX512-FP16 oneDNN has no f16 convolution, so ATen runs Slow2d from torch too. Nothing is skipped; the forward passes.
TEST_F(TorchLowPrecisionAnyHost, F16RunsOnEveryDirection) {
  const Case conv_case = make_case(parse_descriptor("mb2ic3ih5iw5oc4kh3kw3_f16:f16:f16:f32"), FillMode::normal, 7, 3);
  for (const char *name : {"torch", "torch_native"}) {
    const RunResults runs = find_strategy(name)->run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
    for (Direction direction : all_directions) {
      EXPECT_EQ(runs.at(direction).skipped, "") << name << " " << to_string(direction);
      EXPECT_EQ(runs.at(direction).error, "") << name << " " << to_string(direction);
    }
    EXPECT_EQ(verdict_of(name, conv_case, Direction::output), Verdict::passed) << name;
  }
}

} // namespace convcheck
