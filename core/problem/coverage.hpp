#pragma once
// The corners of the problem space where conv bugs live, as named predicates: what the generator must reach
// often (tests/core/problem/generators_test.cpp) and what `convcheck problems --stats` reports for any list of problems.

#include <functional>
#include <string>
#include <vector>

#include "core/problem/problem.hpp"

namespace convcheck {

struct Corner {
  std::string name;
  std::function<bool(const Problem &)> holds;
};

/// Each rank, one input channel, depthwise, groups with C/G != K/G, unit kernels, kernel larger than input, stride
/// larger than kernel, dilation with stride, one-sided padding, negative padding, unequal spatial sizes, batch 1,
/// batch > 1, each format of the dtype table, and each of the six data/weight layout pairs (named by their 2-D
/// spellings; they cover every rank).
const std::vector<Corner> &corners();

} // namespace convcheck
