#pragma once
// The problem shape of oneDNN issue #6035 (docs/findings.md), which two strategies hold back: `onednn`, and `torch`
// through ATen's Mkldnn backend. oneDNN 2.6's jit_1x1 weight gradient of a strided 1x1 conv with fewer input
// channels per group than the kernel's channel block (8 on AVX2, 16 on AVX-512) writes past its scratchpad when
// its source is channels-last. Each caller adds what decides whether its call reaches that kernel (the layouts it
// hands oneDNN, the kernel chosen).

#include <algorithm>

#include "core/problem/problem.hpp"

namespace convcheck {

/// A strided 1x1 conv with under 16 input channels per group (outer unit axes have kernel 1 and stride 1).
inline bool has_onednn_6035_shape(const Problem &problem) {
  const auto &axes = problem.axes;
  return problem.in_channels_per_group() < 16 &&
         std::all_of(axes.begin(), axes.end(), [](const SpatialAxis &axis) { return axis.kernel == 1; }) &&
         std::any_of(axes.begin(), axes.end(), [](const SpatialAxis &axis) { return axis.stride > 1; });
}

} // namespace convcheck
