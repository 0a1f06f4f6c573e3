// `onednn_winograd` and `onednn_auto` (oracles/onednn/onednn_winograd.cpp): oneDNN's Winograd kernels run and each result
// is judged under the Winograd bound of the kernel that ran (its F(m, r) and its points), what oneDNN refuses is
// skipped with its answer, and the backward data oneDNN 2.6 gets wrong is held back. oneDNN 2.6's Winograd kernels
// are AVX-512 only: on a host without avx512_core every test here but the first skips, saying so.

#include <string>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {

namespace {

#define SKIP_WITHOUT_AVX512()                                                                                          \
  if (const std::string lacks = host_lacks("avx512_core"); !lacks.empty())                                             \
  GTEST_SKIP() << "oneDNN 2.6's Winograd kernels are AVX-512 only: " << lacks

const std::string onednn_f43 = "winograd:4:0,5/8,-5/8,3/2,-3/2";

/// A case of `descriptor` run at this process's own ISA (no cap drawn).
Case uncapped_case(const char *descriptor, FillMode fill = FillMode::normal) {
  Case c = make_case(parse_descriptor(descriptor), fill, 7, 3);
  c.settings[isa_cap_setting] = std::string();
  return c;
}

Outcome verdict(const char *strategy, const Case &c, Direction direction, bool run_held_back = false) {
  Strategy selected = *find_strategy(strategy);
  selected.run_held_back = run_held_back;
  return verify_one(c, compute_reference(c), selected, direction);
}

TEST(OnednnWinograd, KernelNamesMapToTheirClassAndPoints) {
  EXPECT_EQ(to_string(*onednn_algorithm_class("jit_wino_4x3:avx512_core")), onednn_f43);
  EXPECT_EQ(to_string(*onednn_algorithm_class("jit_fp32_wino_2x3:avx512_core")), "winograd:2");
  EXPECT_EQ(to_string(*onednn_algorithm_class("jit:avx512_core")), "direct");
  EXPECT_EQ(to_string(*onednn_algorithm_class("gemm:jit")), "direct");
  EXPECT_FALSE(onednn_algorithm_class("jit_wino:avx512_common").has_value()); // points unknown: not judged
}

TEST(OnednnWinograd, VerdictsAreJudgedUnderOneDnnsF43) {
  SKIP_WITHOUT_AVX512();
  for (FillMode fill : {FillMode::normal, FillMode::exact}) {
    const Case c = uncapped_case("mb2ic16ih9iw7oc32kh3kw3pt1pb1pl1pr1", fill);
    for (Direction direction : {Direction::output, Direction::grad_data}) {
      const Outcome outcome = verdict("onednn_winograd", c, direction);
      EXPECT_EQ(outcome.verdict, Verdict::passed) << to_string(direction) << ": " << outcome.detail;
      EXPECT_EQ(outcome.algorithm, onednn_f43) << to_string(direction);
      EXPECT_EQ(outcome.judged_under.rfind("winograd F(4x4,3x3) points 0,5/8,-5/8,3/2,-3/2", 0), 0)
          << outcome.judged_under;
    }
    const Outcome weight = verdict("onednn_winograd", c, Direction::grad_weight);
    EXPECT_EQ(weight.verdict, Verdict::skipped);
    EXPECT_EQ(weight.detail, "no bound for oneDNN's Winograd weight gradient (jit_wino_4x3:avx512_core): it tiles "
                             "the sum over output positions, which the Winograd bound (output tiles) does not model");
  }
}

TEST(OnednnWinograd, ForwardInferenceRunsTheF23KernelJudgedBitExactInExactFill) {
  SKIP_WITHOUT_AVX512();
  const Case c = uncapped_case("mb1ic16ih8iw8oc16kh3kw3pt1pb1pl1pr1", FillMode::exact);
  RunResults runs = onednn_results(c, OnednnPath::blocked, OnednnAlgorithm::winograd_inference);
  RunResult &output = runs.at(Direction::output);
  ASSERT_TRUE(output.error.empty() && output.skipped.empty()) << output.error << output.skipped;
  ASSERT_TRUE(output.algorithm.has_value());
  EXPECT_EQ(to_string(*output.algorithm), "winograd:2");
  const Reference reference = compute_reference(c);
  const Outcome outcome = judge("onednn_winograd", Direction::output, output.result, reference[Direction::output], c,
                                *output.algorithm);
  EXPECT_EQ(outcome.verdict, Verdict::passed) << outcome.detail;
  EXPECT_EQ(outcome.judged_under, "winograd F(2x2,3x3) (exact: integer inputs and dyadic transforms)");
}

TEST(OnednnWinograd, SkipsWhatOneDnnHasNoWinogradKernelFor) {
  SKIP_WITHOUT_AVX512();
  const Outcome padded = verdict("onednn_winograd", uncapped_case("mb1ic16ih8iw8oc16kh3kw3pt2pl2"), Direction::output);
  EXPECT_EQ(padded.verdict, Verdict::skipped);
  EXPECT_EQ(padded.detail, "oneDNN 2.6.3 runs no winograd convolution of this problem here (onednn: could not create a "
                           "primitive descriptor iterator (unimplemented))");
  const Outcome strided = verdict("onednn_winograd", uncapped_case("mb1ic16ih8iw8oc16kh3kw3sw2"), Direction::output);
  EXPECT_EQ(strided.verdict, Verdict::skipped);
  EXPECT_EQ(strided.detail, "stride 2 is not supported (strides: 1)");
}

TEST(OnednnWinograd, SkipsCasesCappedBelowAvx512) {
  SKIP_WITHOUT_AVX512();
  Case c = uncapped_case("mb1ic16ih8iw8oc16kh3kw3pt1pb1pl1pr1");
  c.settings[isa_cap_setting] = "avx2";
  const Outcome outcome = verdict("onednn_winograd", c, Direction::output);
  EXPECT_EQ(outcome.verdict, Verdict::skipped);
  EXPECT_EQ(outcome.detail, "oneDNN's Winograd convolutions are AVX-512 kernels only, and this case's ISA cap is avx2");
}

// oneDNN 2.6's jit_wino_4x3 backward data with the top and bottom padding differing: held back, and wrong when run.
TEST(OnednnWinograd, HoldsBackTheBackwardDataItGetsWrong) {
  SKIP_WITHOUT_AVX512();
  const Case c = uncapped_case("mb1ic1ih2iw2oc1kh3kw3pt1pl1", FillMode::exact);
  const Outcome held = verdict("onednn_winograd", c, Direction::grad_data);
  EXPECT_EQ(held.verdict, Verdict::held_back);
  EXPECT_EQ(held.detail.rfind("onednn-wino-4x3-dgrad-pad: ", 0), 0u) << held.detail;
  EXPECT_NE(held.detail.find("jit_wino_4x3:avx512_core"), std::string::npos) << held.detail;
  const Outcome run = verdict("onednn_winograd", c, Direction::grad_data, true);
  EXPECT_EQ(run.verdict, Verdict::failed) << "oneDNN here no longer has the bug: lift the hold-back";
  EXPECT_EQ(verdict("onednn_winograd", uncapped_case("mb1ic1ih2iw2oc1kh3kw3pt1pb1pl1"), Direction::grad_data).verdict,
            Verdict::passed);
}

TEST(OnednnAuto, DeclaresTheAlgorithmOneDnnPicked) {
  SKIP_WITHOUT_AVX512();
  const Outcome direct = verdict("onednn_auto", uncapped_case("mb1ic16ih4iw4oc16kh3kw3pt1pb1pl1pr1"), Direction::output);
  EXPECT_EQ(direct.verdict, Verdict::passed) << direct.detail;
  EXPECT_EQ(direct.algorithm, "");
  EXPECT_EQ(direct.judged_under, "");
  // oneDNN 2.6 picks Winograd for auto by the size of its transforms against the core count
  // (is_winograd_faster_than_direct): on this host, from this problem's on.
  const Case big = uncapped_case("mb64ic32ih8iw8oc32kh3kw3pt1pb1pl1pr1");
  const std::string picked =
      onednn_implementation(big.problem, Direction::output, OnednnPath::blocked, OnednnAlgorithm::automatic);
  if (picked.find("wino") == std::string::npos) GTEST_SKIP() << "oneDNN's auto picked " << picked << " here";
  const Outcome winograd = verdict("onednn_auto", big, Direction::output);
  EXPECT_EQ(winograd.verdict, Verdict::passed) << winograd.detail;
  EXPECT_EQ(winograd.algorithm, onednn_f43);
}

} // namespace

} // namespace convcheck
