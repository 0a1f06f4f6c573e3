// The xnnpack strategy on f16 (oracles/xnnpack/xnnpack.cpp): where this host's XNNPACK has f16 kernels, its f16 results are
// judged as direct:storage (it rounds partial sums to f16 by design) and pass under that class, where the problem's
// float32 bound fails them as it fails the injected f16_products; where it has none, f16 is skipped with XNNPACK's
// status. Skipped as a whole where this build has no XNNPACK.

#include <string>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

// Why this host's XNNPACK runs no f16 convolution, "" when it does.
std::string f16_missing(const Strategy &xnnpack, const Case &c) {
  const std::string reason = xnnpack.unsupported_reason(c.problem, Direction::output);
  return reason.rfind("XNNPACK has no f16 convolution on this host (xnn_create_convolution2d_nhwc_f16 returned ", 0) == 0
             ? reason
             : std::string();
}

TEST(XnnpackLowPrecision, F16IsJudgedAsSumsInF16AndPassesWhereTheFloat32BoundFailsIt) {
  const Strategy *xnnpack = find_strategy("xnnpack");
  if (xnnpack == nullptr) GTEST_SKIP() << "built without XNNPACK";
  // Two exact products: the float32 sum -13846 rounds once to -13848 in f16; XNNPACK returns -13840, an f16 sum.
  const Case conv_case = make_case(parse_descriptor("mb1ic2iw2oc1kw1_f16:f16:f16:f32"), FillMode::exact, 1, 0);
  if (const std::string missing = f16_missing(*xnnpack, conv_case); !missing.empty()) GTEST_SKIP() << missing;
  EXPECT_EQ(xnnpack->unsupported_reason(conv_case.problem, Direction::output), "");
  const Reference reference = compute_reference(conv_case);
  const Outcome outcome = verify_one(conv_case, reference, *xnnpack, Direction::output);
  EXPECT_EQ(outcome.verdict, Verdict::passed) << outcome.detail;
  EXPECT_EQ(outcome.algorithm, "direct:storage");
  EXPECT_EQ(outcome.judged_under, "direct with sums in float16");
  // Under the problem's float32 bound the same result fails, as f16_products' does: the class is what passes it.
  const Strategy as_float32{.name = "xnnpack_as_float32", .supports = xnnpack->supports, .run = xnnpack->run};
  EXPECT_EQ(verify_one(conv_case, reference, as_float32, Direction::output).verdict, Verdict::failed);
  EXPECT_EQ(verify_one(conv_case, reference, *find_strategy("f16_products"), Direction::output).verdict,
            Verdict::failed);
  EXPECT_NE(verify_one(conv_case, reference, *find_strategy("naive"), Direction::output).verdict, Verdict::failed);
}

// The f16 deconvolution runs the same f16 GEMM kernels: two exact products of a 2x2 deconv (-1278 exactly, an f16
// value) come back as -1280, an f16 sum, which its class passes.
TEST(XnnpackLowPrecision, F16DeconvIsJudgedAlike) {
  const Strategy *xnnpack = find_strategy("xnnpack");
  if (xnnpack == nullptr) GTEST_SKIP() << "built without XNNPACK";
  const Case deconv = make_case(parse_descriptor("mb1ic1ih2iw2oc1kh2kw2_deconv_f16:f16:f16:f32"), FillMode::exact, 1, 0);
  if (const std::string missing = f16_missing(*xnnpack, deconv); !missing.empty()) GTEST_SKIP() << missing;
  const Reference reference = compute_reference(deconv);
  const Outcome outcome = verify_one(deconv, reference, *xnnpack, Direction::output);
  EXPECT_EQ(outcome.verdict, Verdict::passed) << outcome.detail;
  const Strategy as_float32{.name = "xnnpack_as_float32", .supports = xnnpack->supports, .run = xnnpack->run};
  EXPECT_EQ(verify_one(deconv, reference, as_float32, Direction::output).verdict, Verdict::failed);
}

} // namespace convcheck
