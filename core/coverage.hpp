#pragma once
// The corners of the config space where conv bugs live, as named predicates: what the generator must reach
// often (tests/core/generators_test.cpp) and what `convcheck configs --stats` reports for any list of configs.

#include <functional>
#include <string>
#include <vector>

#include "core/conv_config.hpp"

namespace convcheck {

struct Corner {
  std::string name;
  std::function<bool(const ConvConfig &)> holds;
};

/// One input channel, depthwise, groups with C/G != K/G, 1x1 kernels, kernel larger than input, stride larger
/// than kernel, dilation with stride, one-sided padding, H != W, batch 1, batch > 1, float64, and each of the
/// six data/weight layout pairs.
const std::vector<Corner> &corners();

} // namespace convcheck
