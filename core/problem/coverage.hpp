#pragma once
// The corners of the problem space where conv bugs live, as named predicates: what the generator must reach
// often (tests/core/problem/generators_test.cpp) and what `convcheck configs --stats` reports for any list of problems.

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
/// batch > 1, each row of the precision table the default draw makes (fuzz weight above 0), and each of the six data/weight layout pairs (named by their 2-D
/// spellings; they cover every rank).
const std::vector<Corner> &corners();

/// The block seams of real kernels: a tail after at least one full block of channels per group (8, 16, 32, 64),
/// of depthwise channels (16), of output width (register blocks of 8, 14, 16, 28), of batch (2); kernels past an
/// unroll (width > 5, any axis > 7); stride and dilation of 4 or more; stride larger than a padded kernel; groups past 16; depthwise past 64.
const std::vector<Corner> &seams();

/// The corners of deconv (conv_transpose) problems, each holding only of a deconv: the op itself, output_padding > 0
/// (on some axis), stride larger than the kernel, dilation with stride, groups, depthwise, asymmetric padding,
/// negative padding (an extended output), and each rank. `configs --stats` reports them.
const std::vector<Corner> &deconv_corners();

/// Bins for a field's values in `configs --stats`: "<0", "0", "1", "2-3", "4-7", ..., "64-127", "128+".
const std::vector<std::string> &value_bins();
size_t value_bin(int64_t value);

} // namespace convcheck
