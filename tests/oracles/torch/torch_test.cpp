// The torch strategies (ATen through libtorch): the edge configs of every rank, crops included, bit for bit in exact
// fill and within the bound in normal fill, convs and deconvs (at::convolution with transposed = true); torch_native
// really runs off oneDNN; problems ATen cannot hold are skipped with the reason; each ATen CPU capability the host
// can run runs. Skipped as a whole where this build has no libtorch.

#include <string>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/reference.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/torch/aten_capability.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/run/known_bug.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {
namespace {

class Torch : public ::testing::Test {
protected:
  void SetUp() override {
    if (find_strategy("torch") == nullptr) GTEST_SKIP() << "built without libtorch";
  }

  /// The backend part of the implementation name (before the libtorch version and the capabilities, which
  /// RunsUnderEachAtenCapabilityTheHostHas checks).
  static std::string backend(const std::string &strategy, const std::string &descriptor) {
    const Case conv_case = make_case(parse_descriptor(descriptor), FillMode::exact, 7, 3);
    const std::string implementation = find_strategy(strategy)->implementation(conv_case, Direction::output);
    return implementation.substr(0, implementation.find(" in libtorch "));
  }
};

/// What a weight gradient held back for oneDNN issue #6035 reports (oracles/torch/known_bugs.cpp).
std::string held_back_6035() { return held_back_detail(*find_known_bug("torch-onednn-6035"), "Mkldnn"); }

// The edge configs of the rank, crops included, in both fills: every direction agrees, but for the weight gradients
// torch holds back from oneDNN's broken kernel (the strided 1x1 channels-last configs), and only those.
void expect_torch_agrees_on_edge_configs(int64_t ndims) {
  for (const auto &edge : testing::edge_configs(ndims, /*crops=*/true))
    for (FillMode fill : {FillMode::exact, FillMode::normal})
      for (const std::string &problem : testing::disagreements("torch", edge.descriptor, fill))
        EXPECT_EQ(problem, "grad_weight held_back: " + held_back_6035()) << edge.name << " " << edge.descriptor << " " << to_string(fill);
}

TEST_F(Torch, AgreesWithReferenceOnEdgeConfigs1D) { expect_torch_agrees_on_edge_configs(1); }
TEST_F(Torch, AgreesWithReferenceOnEdgeConfigs2D) { expect_torch_agrees_on_edge_configs(2); }
TEST_F(Torch, AgreesWithReferenceOnEdgeConfigs3D) { expect_torch_agrees_on_edge_configs(3); }
TEST_F(Torch, NativeAgreesWithReferenceOnEdgeConfigs1D) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("torch_native", 1, true); }
TEST_F(Torch, NativeAgreesWithReferenceOnEdgeConfigs2D) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("torch_native", 2, true); }
TEST_F(Torch, NativeAgreesWithReferenceOnEdgeConfigs3D) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("torch_native", 3, true); }

// Deconvs through at::convolution with transposed = true: the deconv edge configs of every rank (output_padding,
// stride > kernel, dilation with stride, groups and depthwise, asymmetric padding and extended outputs, every layout
// pair), bit for bit in exact fill and within the bound in normal fill, in all three directions, but for the weight
// gradients torch holds back from oneDNN's #6035 kernel on MkldnnTranspose (a strided 1x1 equivalent conv).
void expect_torch_agrees_on_deconv_edge_configs(const std::string &strategy, int64_t ndims) {
  const std::string held_6035 =
      "grad_weight held_back: " + held_back_detail(*find_known_bug("torch-onednn-6035"), "MkldnnTranspose");
  for (const auto &edge : testing::deconv_edge_configs(ndims, /*crops=*/true))
    for (FillMode fill : {FillMode::exact, FillMode::normal})
      for (const std::string &problem : testing::disagreements(strategy, edge.descriptor, fill))
        if (problem != held_6035)
          ADD_FAILURE() << strategy << " " << edge.name << " " << edge.descriptor << " " << to_string(fill) << ": "
                      << problem;
}

TEST_F(Torch, AgreesWithReferenceOnDeconvEdgeConfigs1D) { expect_torch_agrees_on_deconv_edge_configs("torch", 1); }
TEST_F(Torch, AgreesWithReferenceOnDeconvEdgeConfigs2D) { expect_torch_agrees_on_deconv_edge_configs("torch", 2); }
TEST_F(Torch, AgreesWithReferenceOnDeconvEdgeConfigs3D) { expect_torch_agrees_on_deconv_edge_configs("torch", 3); }
TEST_F(Torch, NativeAgreesWithReferenceOnDeconvEdgeConfigs1D) {
  expect_torch_agrees_on_deconv_edge_configs("torch_native", 1);
}
TEST_F(Torch, NativeAgreesWithReferenceOnDeconvEdgeConfigs2D) {
  expect_torch_agrees_on_deconv_edge_configs("torch_native", 2);
}
TEST_F(Torch, NativeAgreesWithReferenceOnDeconvEdgeConfigs3D) {
  expect_torch_agrees_on_deconv_edge_configs("torch_native", 3);
}

// The deconv corners by name, in both strategies, float32 and float64, every direction: output_padding with end
// padding, depthwise with output_padding, groups with stride > kernel in channels-last memory, dilation with stride
// (output_padding below the dilation), 3-D, and an extended output (negative padding: zeros no tap reaches). ATen 2.15
// sends a float32 deconv its Mkldnn heuristics take (groups, a batch over 1, a large kernel) to MkldnnTranspose, oneDNN's
// deconvolution, and the rest, float64 too, to its own SlowTranspose2d / SlowTranspose3d.
TEST_F(Torch, AgreesOnTheDeconvCorners) {
  for (const char *strategy : {"torch", "torch_native"})
    for (const char *descriptor :
         {"mb2ic2iw5oc3kw3sw2pl1pr1opw1_deconv", "g4mb1ic4ih3iw3oc4kh3kw3sh2sw2oph1opw1_deconv_nhwc",
          "g2mb1ic4ih3iw4oc6kh2kw2sh3sw3_deconv_nhwc_ohwi", "mb1ic2ih3iw4oc2kh2kw2sh2sw2dlh2dlw3oph1opw2_deconv_hwio",
          "mb1ic2id3ih3iw4oc2kd2kh3kw2sd2sh2sw2pbk1pb1pr1opd1oph1opw1_deconv_ndhwc",
          "mb1ic2ih3iw3oc2kh2kw2pt-1pr-2_deconv", "g2mb2ic4ih3iw3oc4kh3kw2sh2pt1pb2oph1_deconv_f64"})
      for (FillMode fill : {FillMode::exact, FillMode::normal}) {
        const auto problems = testing::disagreements(strategy, descriptor, fill);
        EXPECT_TRUE(problems.empty()) << strategy << " " << descriptor << ": " << problems.front();
      }
  EXPECT_EQ(backend("torch", "g2mb1ic4ih3iw4oc6kh2kw2sh3sw3_deconv_nhwc_ohwi"),
            "ATen MkldnnTranspose (at::native::select_conv_backend, channels-last input)");
  EXPECT_EQ(backend("torch_native", "mb1ic2id3ih3iw4oc2kd2kh3kw2sd2sh2sw2pbk1pb1pr1opd1oph1opw1_deconv"),
            "ATen SlowTranspose3d (at::native::select_conv_backend, mkldnn off)");
}

// Padding ATen does not take directly: one-sided, and a crop reaching past the input into the other end's padding
// (size 1 cropped by 2 at the beginning, padded by 4 at the end: every output reads padding only).
TEST_F(Torch, AgreesWhereACropReachesPastTheInput) {
  for (const char *strategy : {"torch", "torch_native"})
    for (const char *descriptor : {"mb2ic2iw1oc3kw2pl-2pr4", "mb1ic2ih3iw2oc2kh2kw2pt-1pb2pl3pr-3_nhwc",
                                   "mb1ic1id2ih2iw2oc1kd1kh1kw1pfr-2pbk1_ndhwc"})
      for (FillMode fill : {FillMode::exact, FillMode::normal}) {
        const auto problems = testing::disagreements(strategy, descriptor, fill);
        EXPECT_TRUE(problems.empty()) << strategy << " " << descriptor << ": " << problems.front();
      }
}

// torch lets ATen choose, and it chooses oneDNN (Mkldnn) for float32 problems like these; torch_native runs ATen's
// own paths on the same problems. float64 never goes to oneDNN.
TEST_F(Torch, NativeRunsOffOneDnnWhereTorchRunsOnIt) {
  EXPECT_EQ(backend("torch", "g2mb2ic4ih6iw5oc6kh3kw3pt1"),
            "ATen Mkldnn (at::native::select_conv_backend)");
  EXPECT_EQ(backend("torch_native", "g2mb2ic4ih6iw5oc6kh3kw3pt1"),
            "ATen Slow2d (at::native::select_conv_backend, mkldnn off)");
  EXPECT_EQ(backend("torch", "g2mb2ic4ih6iw5oc6kh3kw3dlh2pt1_nhwc"),
            "ATen Mkldnn (at::native::select_conv_backend, channels-last input)");
  EXPECT_EQ(backend("torch_native", "g2mb2ic4ih6iw5oc6kh3kw3dlh2pt1_nhwc"),
            "ATen SlowDilated2d (at::native::select_conv_backend, mkldnn off, channels-last input)");
  EXPECT_EQ(backend("torch_native", "mb2ic2id3ih4iw4oc2kd2kh2kw2"),
            "ATen Slow3d (at::native::select_conv_backend, mkldnn off)");
  EXPECT_EQ(backend("torch", "g2mb2ic4ih6iw5oc6kh3kw3pt1_f64"), "ATen Slow2d (at::native::select_conv_backend)");
}

// oneDNN 2.6's jit_1x1 backward-weights kernel writes past its scratchpad on a strided 1x1 conv with few input
// channels held channels-last (known bug torch-onednn-6035, oracles/torch/known_bugs.cpp): torch holds that weight gradient back, computes the
// rest, and torch_native, off oneDNN, computes all three. With 16 input channels per group the kernel is right.
TEST_F(Torch, HoldsBackTheWeightGradientOneDnnCorrupts) {
  const std::string held = "mb2ic4ih12iw6oc5kh1kw1sw2_nhwc";
  for (FillMode fill : {FillMode::exact, FillMode::normal}) {
    const Case conv_case = make_case(parse_descriptor(held), fill, 7, 3);
    const RunResults runs = find_strategy("torch")->run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
    EXPECT_EQ(runs.at(Direction::grad_weight).held_back, held_back_6035());
    EXPECT_TRUE(runs.at(Direction::grad_weight).result.empty());
    EXPECT_TRUE(testing::disagreements("torch", held, fill, /*allow_skips=*/true).empty());
    EXPECT_TRUE(testing::disagreements("torch_native", held, fill).empty());
    EXPECT_TRUE(testing::disagreements("torch", "mb2ic16ih12iw6oc5kh1kw1sw2_nhwc", fill).empty());
    EXPECT_TRUE(testing::disagreements("torch", "mb2ic4ih12iw6oc5kh1kw1sw2", fill).empty()); // channels first
  }
}

// Each ATen CPU capability this host can run (core/numerics/isa_cap.hpp), and for torch the oneDNN avx2 cap beneath it
// (with avx512, one server for both): a case carrying one runs under it (in a server process when it is not this
// process's; a server refuses a case it cannot run at, so a pass is a pass at that capability), agrees with the
// reference, and names it. Each server costs a libtorch start (about 1.5 s here), so the servers are few.
TEST_F(Torch, RunsUnderEachAtenCapabilityTheHostHas) {
  const std::string descriptor = "g2mb2ic4ih6iw5oc6kh3kw3pt1_nhwc";
  for (const std::string &capability : host_aten_capabilities())
    for (const char *strategy : {"torch", "torch_native"}) {
      Case conv_case = make_case(parse_descriptor(descriptor), FillMode::exact, 7, 3);
      conv_case.settings[aten_capability_setting] = capability;
      conv_case.settings[isa_cap_setting] = capability == "avx512" ? "avx2" : "";
      const Reference reference = compute_reference(conv_case);
      for (Direction direction : all_directions) {
        const Outcome outcome = verify_one(conv_case, reference, *find_strategy(strategy), direction);
        EXPECT_EQ(outcome.verdict, Verdict::passed) << strategy << " " << capability << " " << outcome.detail;
      }
      const std::string implementation = find_strategy(strategy)->implementation(conv_case, Direction::output);
      EXPECT_NE(implementation.find("ATen capability " + capability), std::string::npos) << implementation;
      if (std::string(strategy) == "torch" && isa_cap_of(conv_case) == "avx2") {
        EXPECT_NE(implementation.find("oneDNN cap avx2 (oneDNN isa avx2)"), std::string::npos) << implementation;
      }
    }
  for (const DispatchValue &value : find_dispatch_setting(aten_capability_setting)->values)
    if (const std::string lacks = host_lacks_aten(value.name); !lacks.empty()) {
      Case conv_case = make_case(parse_descriptor(descriptor), FillMode::exact, 7, 3);
      conv_case.settings[aten_capability_setting] = value.name;
      const RunResults runs = find_strategy("torch")->run_case(conv_case, Asked{direction_list(conv_case.problem.op)});
      EXPECT_EQ(runs.at(Direction::output).skipped, lacks);
    }
}

// What reports and case files record of the library: its identity says the libtorch and the oneDNN it bundles as
// the loaded library reports them (the pinned wheel: scripts/requirements/torch.txt), with ATen's capability in this
// process and one thread; the implementation a finding saves names the same versions after ATen's backend.
TEST_F(Torch, RecordsTheLibtorchAndOneDnnVersions) {
  for (const char *strategy : {"torch", "torch_native"}) {
    const ImplementationIdentity identity = find_strategy(strategy)->identity();
    EXPECT_EQ(identity.name, "PyTorch ATen");
    EXPECT_EQ(identity.version, "2.15.0 (oneDNN 3.13.3)");
    EXPECT_NE(identity.isa, "");
    EXPECT_EQ(identity.threads, 1);
    const Case conv_case = make_case(parse_descriptor("g2mb2ic4ih6iw5oc6kh3kw3pt1"), FillMode::exact, 7, 3);
    const std::string implementation = find_strategy(strategy)->implementation(conv_case, Direction::output);
    EXPECT_NE(implementation.find(") in libtorch 2.15.0 (oneDNN 3.13.3), ATen"), std::string::npos) << implementation;
  }
}

TEST_F(Torch, SkipsMixedFormatsWithAReason) {
  const Problem mixed = parse_descriptor("mb1ic2ih4iw4oc2kh2kw2_f32:f32:f32:f64");
  for (const char *strategy : {"torch", "torch_native"})
    EXPECT_EQ(find_strategy(strategy)->unsupported_reason(mixed, Direction::output),
              "mixed formats float32:float32:float32:float64 are not supported (one of: float32, float64, "
              "bf16:bf16:bf16:f32, f16:f16:f16:f32)");
}

TEST_F(Torch, IsOffByDefaultAndOnWithAll) {
  const auto has = [](const std::vector<Strategy> &selected, const std::string &name) {
    for (const Strategy &strategy : selected)
      if (strategy.name == name) return true;
    return false;
  };
  EXPECT_FALSE(has(select_strategies("", {}), "torch"));
  EXPECT_FALSE(has(select_strategies("", {}), "torch_native"));
  EXPECT_TRUE(has(select_strategies("all", {}), "torch"));
  EXPECT_TRUE(has(select_strategies("all", {}), "torch_native"));
}

} // namespace
} // namespace convcheck
