// The xnnpack strategy: XNNPACK's forward convolution on the float32 edge configs of ranks 1 and 2, crops included,
// bit for bit in exact fill and within the bound in normal fill; what XNNPACK has no operator for is skipped with the
// reason. Skipped as a whole where this build has no XNNPACK.

#include <string>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {
namespace {

class Xnnpack : public ::testing::Test {
protected:
  void SetUp() override {
    if (find_strategy("xnnpack") == nullptr) GTEST_SKIP() << "built without XNNPACK";
  }
  static const Strategy &xnnpack() { return *find_strategy("xnnpack"); }
  static std::string reason(const std::string &descriptor, Direction direction) {
    return xnnpack().unsupported_reason(parse_descriptor(descriptor), direction);
  }
};

// Every edge config of the rank: float32 forward agrees, its gradients are skipped as XNNPACK has none; float64 is
// skipped.
void expect_forward_agrees_on_edge_configs(int64_t ndims) {
  for (const auto &edge : testing::edge_configs(ndims, /*crops=*/true)) {
    const Problem problem = parse_descriptor(edge.descriptor);
    if (problem.precision.src == DType::float64) {
      EXPECT_EQ(find_strategy("xnnpack")->unsupported_reason(problem, Direction::output),
                "float64 is not supported (formats: float32)");
      continue;
    }
    for (FillMode fill : {FillMode::exact, FillMode::normal}) {
      const Case conv_case = make_case(problem, fill, 7, 3);
      Reference reference;
      reference.directions.emplace(Direction::output, compute_reference(conv_case, Direction::output));
      const Outcome outcome = verify_one(conv_case, reference, *find_strategy("xnnpack"), Direction::output);
      EXPECT_TRUE(outcome.verdict == Verdict::passed || outcome.verdict == Verdict::weak)
          << edge.name << " " << edge.descriptor << " " << to_string(fill) << ": " << to_string(outcome.verdict) << " "
          << outcome.detail;
    }
  }
}

TEST_F(Xnnpack, ForwardAgreesWithReferenceOnEdgeConfigs1D) { expect_forward_agrees_on_edge_configs(1); }
TEST_F(Xnnpack, ForwardAgreesWithReferenceOnEdgeConfigs2D) { expect_forward_agrees_on_edge_configs(2); }

TEST_F(Xnnpack, SkipsWhatXnnpackHasNoOperatorForWithTheReason) {
  EXPECT_EQ(reason("mb1ic2ih4iw4oc2kh2kw2_nhwc", Direction::grad_data),
            "XNNPACK has no grad_data operator: it is an inference library (forward convolution only)");
  EXPECT_EQ(reason("mb1ic2ih4iw4oc2kh2kw2_nhwc", Direction::grad_weight),
            "XNNPACK has no grad_weight operator: it is an inference library (forward convolution only)");
  EXPECT_EQ(reason("mb1ic2id3ih4iw4oc2kd2kh2kw2", Direction::output), "3-D problems are not supported (ranks: 1, 2)");
  EXPECT_EQ(reason("mb1ic2iw1oc2kw2pl-2pr4", Direction::output),
            "the crops leave none of the input on an axis (size 1, padding -2 and 4): XNNPACK takes no empty input");
  EXPECT_EQ(reason("mb1ic2ih4iw4oc2kh2kw2pt-1pl2pr-2", Direction::output), "");
}

// The kernel family named with a finding follows XNNPACK's selection: depthwise with 3, 4, 9 or 25 taps on dwconv,
// depthwise 1x1 unit-stride unpadded on vmulcaddc, 1x1 unit-stride unpadded on gemm, the rest on igemm.
TEST_F(Xnnpack, NamesTheKernelFamilyXnnpackSelects) {
  const auto family = [](const std::string &descriptor) {
    return xnnpack().implementation(make_case(parse_descriptor(descriptor), FillMode::exact, 7, 3), Direction::output);
  };
  const std::string suffix = " (inferred from ae108ef's create_convolution2d_nhwc)";
  EXPECT_EQ(family("g4mb1ic4ih6iw6oc4kh3kw3pt1pb1pl1pr1"), "XNNPACK f32 dwconv" + suffix);
  EXPECT_EQ(family("g4mb1ic4ih6iw6oc4kh5kw5pt2pb2pl2pr2"), "XNNPACK f32 dwconv" + suffix);
  EXPECT_EQ(family("g4mb1ic4ih6iw6oc4kh2kw3"), "XNNPACK f32 igemm" + suffix);
  EXPECT_EQ(family("g4mb1ic4ih6iw6oc4kh1kw1"), "XNNPACK f32 vmulcaddc" + suffix);
  EXPECT_EQ(family("mb2ic3ih5iw5oc4kh1kw1"), "XNNPACK f32 gemm" + suffix);
  EXPECT_EQ(family("mb2ic3ih5iw5oc4kh1kw1sh2"), "XNNPACK f32 igemm" + suffix);
}

} // namespace
} // namespace convcheck
