// Reductions stretched for the witness fill (core/problem/witness_reach.hpp): every low-precision problem the
// generator draws, stretched in each direction, is valid, sums more terms than its narrow format holds as integers
// in that direction, and stays cheap.
#include "core/problem/witness_reach.hpp"

#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"

namespace convcheck {
namespace {

TEST(WitnessReach, EveryStretchedProblemIsValidLongAndCheap) {
  int stretched = 0;
  double worst = 0, total = 0;
  for (uint64_t index = 0; index < 2000; ++index) {
    const Problem drawn = generate_problem(5, index);
    // A conv is stretched before it is made an op's (a deconv is a stretched conv transposed): the generator's
    // low-precision problems past their witness length, a focused campaign's of every row past 256 or 2,048 terms.
    if (drawn.op != Op::conv) continue;
    for (int64_t length : long_reduction_lengths)
      for (const DirectionInfo &each : directions(drawn.op)) {
        const int64_t wanted = length + 17;
        Problem p = drawn;
        reach_terms(p, each.direction, wanted);
        ++stretched;
        ASSERT_TRUE(is_valid(p)) << format_descriptor(p);
        EXPECT_GE(reduction_terms(p, each.direction), wanted) << format_descriptor(p);
        worst = std::max(worst, static_cast<double>(p.multiply_adds()) / static_cast<double>(wanted));
        total += static_cast<double>(p.multiply_adds()) / static_cast<double>(wanted);
      }
  }
  EXPECT_GT(stretched, 1000);
  // Cheap: measured 9.2 multiply-adds per wanted term on average, 140 at worst (a kernel that cannot shrink
  // further without losing the interior element that sees every tap).
  std::printf("multiply-adds per wanted term: mean %.1f, worst %.1f\n", total / stretched, worst);
  EXPECT_LE(total / stretched, 16);
  EXPECT_LE(worst, 256);
}

TEST(WitnessReach, OnlyNarrowStorageWithAWiderAccumulationHasAWitness) {
  EXPECT_EQ(witness_terms(parse_descriptor("mb1ic2iw5oc2kw3_bf16:bf16:bf16:f32")), 257);
  EXPECT_EQ(witness_terms(parse_descriptor("mb1ic2iw5oc2kw3_bf16:bf16:f32:f32")), 257);
  EXPECT_EQ(witness_terms(parse_descriptor("mb1ic2iw5oc2kw3_f16:f16:f16:f32")), 2049);
  EXPECT_EQ(witness_terms(parse_descriptor("mb1ic2iw5oc2kw3")), 0);
  EXPECT_EQ(witness_terms(parse_descriptor("mb1ic2iw5oc2kw3_f32:f32:f32:f64")), 0);
}

} // namespace
} // namespace convcheck
