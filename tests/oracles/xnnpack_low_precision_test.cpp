// The xnnpack strategy on f16 (oracles/xnnpack.cpp): where this host's XNNPACK has f16 kernels, its f16 convolution is
// held back with the reason (it rounds partial sums to f16, which no precision row holds), and run anyway it fails
// under the f16:f16:f16:f32 bound where the injected f16_products fails too; where it has none, f16 is skipped with
// XNNPACK's status. Skipped as a whole where this build has no XNNPACK.

#include <string>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/held_back.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

TEST(XnnpackLowPrecision, F16IsHeldBackWithTheReasonAndFailsWhenRun) {
  const Strategy *xnnpack = find_strategy("xnnpack");
  if (xnnpack == nullptr) GTEST_SKIP() << "built without XNNPACK";
  // Two exact products: the float32 sum -13846 rounds once to -13848 in f16; XNNPACK returns -13840.
  const Case conv_case = make_case(parse_descriptor("mb1ic2iw2oc1kw1_f16:f16:f16:f32"), FillMode::exact, 1, 0);
  const std::string reason = xnnpack->unsupported_reason(conv_case.problem, Direction::output);
  if (reason.rfind("XNNPACK has no f16 convolution on this host (xnn_create_convolution2d_nhwc_f16 returned ", 0) == 0)
    GTEST_SKIP() << reason;
  EXPECT_EQ(reason, "XNNPACK ae108ef's f16 convolution accumulates in f16 by design (its x86 kernels round after "
                    "each FMA, as ARM's f16 arithmetic does), not in the float32 of f16:f16:f16:f32; convcheck has no "
                    "f16-accumulation row: held back (docs/findings.md)");
  const Reference reference = compute_reference(conv_case);
  set_run_held_back(true);
  EXPECT_EQ(xnnpack->unsupported_reason(conv_case.problem, Direction::output), "");
  const Outcome lifted = verify_one(conv_case, reference, *xnnpack, Direction::output);
  set_run_held_back(false);
  EXPECT_EQ(lifted.verdict, Verdict::failed) << lifted.detail;
  EXPECT_EQ(verify_one(conv_case, reference, *find_strategy("f16_products"), Direction::output).verdict,
            Verdict::failed);
  EXPECT_NE(verify_one(conv_case, reference, *find_strategy("naive"), Direction::output).verdict, Verdict::failed);
}

// The f16 deconvolution runs the same f16 GEMM kernels: held back alike, and run anyway two exact products of a 2x2
// deconv (-1278 exactly, an f16 value) come back as -1280.
TEST(XnnpackLowPrecision, F16DeconvIsHeldBackAlikeAndFailsWhenRun) {
  const Strategy *xnnpack = find_strategy("xnnpack");
  if (xnnpack == nullptr) GTEST_SKIP() << "built without XNNPACK";
  const Case deconv = make_case(parse_descriptor("mb1ic1ih2iw2oc1kh2kw2_deconv_f16:f16:f16:f32"), FillMode::exact, 1, 0);
  const std::string reason = xnnpack->unsupported_reason(deconv.problem, Direction::output);
  if (reason.rfind("XNNPACK has no f16 convolution on this host", 0) == 0) GTEST_SKIP() << reason;
  EXPECT_EQ(reason, "XNNPACK ae108ef's f16 convolution accumulates in f16 by design (its x86 kernels round after "
                    "each FMA, as ARM's f16 arithmetic does), not in the float32 of f16:f16:f16:f32; convcheck has no "
                    "f16-accumulation row: held back (docs/findings.md)");
  const Reference reference = compute_reference(deconv);
  set_run_held_back(true);
  const Outcome lifted = verify_one(deconv, reference, *xnnpack, Direction::output);
  set_run_held_back(false);
  EXPECT_EQ(lifted.verdict, Verdict::failed) << lifted.detail;
  EXPECT_NE(verify_one(deconv, reference, *find_strategy("naive"), Direction::output).verdict, Verdict::failed);
}

} // namespace convcheck
