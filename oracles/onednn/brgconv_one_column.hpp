#pragma once
// The problem shape of oneDNN 3.13's brg_conv_fwd one-column bug (docs/findings.md), which two strategies hold back:
// `onednn`, and `torch` through ATen's Mkldnn backend. On AVX-512 (f32 and bf16) brg_conv_fwd computes a forward
// convolution whose output is one column wide, reached with a width stride over 1, from one input channel per group,
// from the wrong input rows (on one thread and on two; some problems on one only). Each caller adds what decides
// whether its call reaches that kernel (the kernel oneDNN names, or the layouts ATen hands it).

#include "core/problem/direction.hpp"
#include "core/problem/op.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

/// The forward convolution oneDNN runs for `direction` of `problem` (a conv's output; a deconv's data gradient, the
/// forward of its equivalent conv) has one input channel per group and a one-column output with a width stride over 1.
inline bool has_onednn_brgconv_one_column_shape(const Problem &problem, Direction direction) {
  if (conv_direction(problem.op, direction) != Direction::output) return false;
  const Problem conv = equivalent_conv(problem);
  const SpatialAxis &width = conv.axes[max_ndims - 1];
  return width.stride > 1 && conv.in_channels_per_group() == 1 && width.out() == 1;
}

} // namespace convcheck
