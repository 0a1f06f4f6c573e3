#pragma once
// The problem shape of oneDNN issue #6035 (docs/findings.md), which two strategies hold back: `onednn`, and `torch`
// through ATen's Mkldnn backend. oneDNN's jit_1x1 weight gradient of a strided 1x1 conv with fewer input channels per
// group than the kernel's channel block (8 on AVX2, 16 on AVX-512) writes past its part of the scratchpad when its
// source is channels-last: found on 2.6, still so on 3.13.2 (docs/findings/onednn_1x1_wgrad_threads.cpp: on AVX2 past
// the scratchpad's end with one planned thread and wrong values with 2 and 4; on AVX-512, whose kernel was right on
// 2.6, past the end with 2 threads or more, also behind 3.13's jit_uni_ncsp wrapper of a channels-first source).
// Each caller adds what decides whether its call reaches that kernel (the layouts it hands oneDNN, the kernel chosen).

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
