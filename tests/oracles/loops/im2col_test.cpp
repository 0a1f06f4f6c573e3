#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/run/strategy.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {

TEST(Im2col, AgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("im2col"); }
TEST(Im2col, AgreesWithReferenceOnEdgeConfigsWithCrops) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("im2col", 2, true); }
TEST(Im2col, AgreesWithReferenceOn1dEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("im2col", 1, true); }
TEST(Im2col, AgreesWithReferenceOn3dEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("im2col", 3, true); }
TEST(Im2col, AgreesWithReferenceOnDeconvEdgeConfigsOfEveryRank) {
  for (int64_t ndims = 1; ndims <= 3; ++ndims) CONVCHECK_EXPECT_AGREES_ON_DECONV_EDGE_CONFIGS("im2col", ndims, true);
}

TEST(Im2col, SupportsEveryEdgeConfigAndDirection) {
  const Strategy *im2col = find_strategy("im2col");
  ASSERT_NE(im2col, nullptr);
  for (int64_t ndims = 1; ndims <= max_ndims; ++ndims)
    for (const auto &edge : testing::edge_configs(ndims, true))
      for (Direction direction : all_directions)
        EXPECT_EQ(im2col->unsupported_reason(parse_descriptor(edge.descriptor), direction), "") << edge.descriptor;
}

// Every tensor is under the cap, but the column buffer (C/G*R*S x P*Q = 400 x 2^20) is not: skipped with a
// reason instead of allocating 1.6 GB.
TEST(Im2col, SkipsAColumnBufferLargerThanTheCap) {
  const Problem config = parse_descriptor("mb1ic16ih1024iw1024oc1kh5kw5pt2pb2pl2pr2");
  validate(config);
  EXPECT_EQ(find_strategy("im2col")->unsupported_reason(config, Direction::output),
            "im2col column buffer of 400x1048576 elements exceeds the cap of 268435456");
}

} // namespace convcheck
