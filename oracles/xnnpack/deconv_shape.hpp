#pragma once
// How XNNPACK ae108ef shapes a deconvolution, from the problem alone: what the strategy (xnnpack.cpp) and the known
// bug of its subconv2d path (known_bugs.cpp) both ask.

#include <algorithm>
#include <cstdint>

#include "core/problem/problem.hpp"

namespace convcheck {

/// A deconv's output on `axis` as XNNPACK computes it: the full output less the non-negative paddings (the extension
/// of a negative one is added after).
inline int64_t deconv_output(const SpatialAxis &axis) {
  return axis.transposed_out() + std::min<int64_t>(axis.pad_begin, 0) + std::min<int64_t>(axis.pad_end, 0);
}

/// XNNPACK ae108ef's choice in create_deconvolution2d_nhwc: a subconvolution per stride phase (subconv2d) where a
/// stride exceeds 1, no dilation does and no stride exceeds its kernel, else one igemm over an indirection buffer.
inline bool subconv2d(const Problem &p) {
  const SpatialAxis &h = p.height(), &w = p.width();
  return std::max(h.stride, w.stride) > 1 && std::max(h.dilation, w.dilation) == 1 && h.stride <= h.kernel &&
         w.stride <= w.kernel;
}

} // namespace convcheck
