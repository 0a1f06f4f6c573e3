#pragma once
// Shrinking steps that move several fields of one spatial axis together while holding its output size fixed
// (issue 39). One field at a time cannot leave a corner defined by an output size: on `iw5kw3sw2dlw2` (output width
// 1, stride 2) every one-field step changes the output width, and reaching `iw1kw1sw2` needs the kernel, the
// dilation and the input size to move at once. Each step here sets the axis's kernel, dilation and padding to a
// smaller shape (kernel 1 and dilation 1, with and without the padding; dilation 1; no padding) and the input to the
// smallest size that gives the same output size with the same stride (and, in a deconv, an output_padding that
// makes it so).
//
// Holding the output size also holds a weight gradient's reduction length (batch times the output volume), and
// the shapes that keep the padding hold a crop (a negative padding) against the input. Every step lowers the axis's
// distance from neutral (|in - 1| + |kernel - 1| + |dilation - 1| + |padding| + output_padding), as every one-field
// step does, so a greedy descent over both ends.

#include <cstdint>
#include <vector>

#include "core/problem/problem.hpp"

namespace convcheck {

/// The valid problems that differ from `problem` only on spatial axis `axis` (0..2), have the same output size
/// there, and lie nearer neutral on it; most aggressive first, none repeated.
std::vector<Problem> output_held_steps(const Problem &problem, int64_t axis);

/// |in - 1| + |kernel - 1| + |dilation - 1| + |pad_begin| + |pad_end| + output_padding: how far an axis is from
/// neutral, which every shrinking step lowers.
int64_t distance_from_neutral(const SpatialAxis &axis);

} // namespace convcheck
