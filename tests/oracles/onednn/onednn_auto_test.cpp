// `onednn_auto` (oracles/onednn/onednn_auto.cpp): oneDNN's convolution_auto, each result judged under the class of the
// kernel that ran. oneDNN 3.x's CPU engine has no Winograd kernel (x64 Winograd was deleted in v3.2), so auto runs a
// direct one, judged under the summation bound, and a kernel named Winograd would not be judged.

#include <string>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {

namespace {

TEST(OnednnAuto, KernelNamesMapToTheirClass) {
  EXPECT_EQ(onednn_algorithm_class("brg_conv_fwd:avx512_core")->kind, AlgorithmKind::direct);
  EXPECT_EQ(onednn_algorithm_class("gemm:jit")->kind, AlgorithmKind::direct);
  EXPECT_FALSE(onednn_algorithm_class("jit_wino_4x3:avx512_core").has_value());
}

TEST(OnednnAuto, RunsADirectKernelWhereOneDnn26PickedWinograd) {
  // oneDNN 2.6 picked jit_wino_4x3 for this problem on AVX-512 hosts (is_winograd_faster_than_direct).
  Case c = make_case(parse_descriptor("mb64ic32ih8iw8oc32kh3kw3pt1pb1pl1pr1"), FillMode::normal, 7, 3);
  c.settings[isa_cap_setting] = std::string();
  const std::string picked =
      onednn_implementation(c.problem, Direction::output, OnednnPath::blocked, OnednnAlgorithm::automatic);
  EXPECT_EQ(picked.find("wino"), std::string::npos) << picked;
  const Outcome outcome = verify_one(c, compute_reference(c), *find_strategy("onednn_auto"), Direction::output);
  EXPECT_EQ(outcome.verdict, Verdict::passed) << outcome.detail;
  EXPECT_EQ(outcome.algorithm, "");
}

} // namespace

} // namespace convcheck
