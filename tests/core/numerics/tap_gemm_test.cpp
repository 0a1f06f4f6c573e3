// The reference's GEMM path (core/numerics/tap_gemm.hpp) against its definition loops (core/numerics/naive_loops.hpp,
// itself checked against the definition in reference_test.cpp): on exact fill every order of the same integer
// products is exact, so value and bound must agree bit for bit; on normal fill the two sums of the same products
// differ only by double rounding, far inside the bound, and the bounds by as little.

#include "core/numerics/tap_gemm.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"

namespace convcheck {
namespace {

// The first element where the GEMM path's reference departs from the loops', or "".
std::string gemm_against_loops(const Case &c) {
  for (Direction direction : all_directions) {
    const DirectionReference loops = compute_reference(c, direction, ReferencePath::loops);
    const DirectionReference gemm = compute_reference(c, direction, ReferencePath::gemm);
    const std::string where = fmt::format("{} {} fill {}", format_descriptor(c.problem), to_string(direction),
                                          to_string(c.fill));
    if (gemm.expected.shape() != loops.expected.shape()) return where + ": shapes differ";
    for (int64_t i = 0; i < loops.expected.size(); ++i) {
      const double want = loops.expected.get(i), got = gemm.expected.get(i);
      const double want_bound = loops.bound[static_cast<size_t>(i)], got_bound = gemm.bound[static_cast<size_t>(i)];
      const std::string element = fmt::format("{} element {}: value {} against {}, bound {} against {}", where, i,
                                              got, want, got_bound, want_bound);
      if (c.fill == FillMode::exact) {
        if (std::memcmp(&want, &got, sizeof want) != 0 || std::memcmp(&want_bound, &got_bound, sizeof want) != 0)
          return element;
      } else if (std::abs(got - want) > want_bound ||
                 // the bound's storage term moves with the value (reference_test.cpp says why)
                 std::abs(got_bound - want_bound) > 1e-12 * want_bound + std::abs(got - want)) {
        return element;
      }
    }
  }
  return "";
}

RC_GTEST_PROP(TapGemm, AgreesWithTheLoopsOnGeneratedProblems, ()) {
  const Problem problem = *problems();
  const auto fill = *rc::gen::element(FillMode::normal, FillMode::exact);
  RC_ASSERT(gemm_against_loops(make_case(problem, fill, *rc::gen::arbitrary<uint64_t>(), 0)) == "");
}

// Sizes past the generator's: channel counts the GEMMs block, strides and dilations with padding and crops at
// both ends, every rank, groups, layouts (which the reference never sees: cases hold canonical tensors), and both
// ways of handing taps to the GEMMs (one at a time, or a kernel row together).
TEST(TapGemm, AgreesWithTheLoopsAtSize) {
  for (const char *descriptor : {
           "mb2ic17ih13iw11oc19kh3kw3pt1pb1pl1pr1",
           "g2mb2ic34ih9iw10oc18kh3kw2sh2sw3dlh2pt2pb-1pl1pr2_nhwc_hwio",
           "g4mb3ic16iw29oc32kw5sw2dlw3pl4pr-2_nwc_owi",
           "mb2ic8id5ih6iw7oc12kd3kh2kw3sd2sh1sw2dld1dlh2pfr1pbk-1pt-1pb1pl2_ndhwc_dhwio",
           "mb1ic64ih7iw7oc33kh1kw1",
           "mb2ic24ih20iw18oc20kh3kw3pt1pb1pl1pr1",   // C/G * S > 64: one tap per GEMM
           "mb2ic40ih9iw11oc8kh2kw3sh2dlw2pl1pr-1_nhwc", // the same, with a crop
           "mb2ic3ih20iw20oc16kh7kw7sh2pt3pb2pl3pr2",   // C/G * S <= 64: a kernel row of taps per GEMM
           "mb2ic16ih14iw14oc16kh1kw1sh2sw2",
           "g3mb2ic12ih9iw9oc24kh7kw7sh4sw4pt3pb3pl3pr3",
       })
    for (FillMode fill : {FillMode::normal, FillMode::exact})
      EXPECT_EQ(gemm_against_loops(make_case(parse_descriptor(descriptor), fill, 7, 3)), "") << descriptor;
}

TEST(TapGemm, PaysOffOnlyAtSize) {
  EXPECT_FALSE(tap_gemm_pays_off(parse_descriptor("mb2ic4ih5iw5oc4kh3kw3")));                // few multiply-adds
  EXPECT_FALSE(tap_gemm_pays_off(parse_descriptor("g64mb2ic64ih56iw56oc64kh3kw3pt1pb1pl1pr1"))); // depthwise
  EXPECT_TRUE(tap_gemm_pays_off(parse_descriptor("mb2ic64ih56iw56oc64kh3kw3pt1pb1pl1pr1")));
}

} // namespace
} // namespace convcheck
