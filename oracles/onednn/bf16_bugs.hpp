#pragma once
// The problem shapes of oneDNN bf16 kernel bugs found by convcheck (docs/findings.md), which `onednn` holds back
// (rows of oracles/onednn/known_bugs.cpp) when its call reaches the kernel, and `torch` when ATen's Mkldnn backend may
// reach it. The 2.6 shapes were measured on avx512_core_bf16 with tests/oracles/onednn/onednn_low_precision_test.cpp's
// probes: every failing case of a 20,000-case bf16 fuzz fit one of them, and the neighbours outside them (stride 1,
// input width 2 or more, even output channels, blocked diff_dst) passed. Re-checked on 3.13.2 (docs/findings.md,
// "Re-checked on the current versions"): the stride-over-input shape is still wrong, the 3-D depth-stride shape is
// right (fixed in 3.1), the 1x1 data gradient no longer reaches jit_bf16_1x1, and 3.13.2 has a shape of its own (a
// depth kernel longer than the input depth, padded at both ends).

#include <algorithm>

#include "core/problem/problem.hpp"

namespace convcheck {

/// jit_bf16 (jit_avx512_core_bf16_conv_bwd_weights_kernel_f32) weight gradient, a stride over an axis larger than its
/// input (iw1 sw2, iw2 sw3, iw3 sw4 and ih1 sh2 failed on 2.6; iw2 sw2, iw3 sw3, iw4 sw4 passed): some diff_weights
/// come back holding what the kernel never wrote (values from 1e-38 to 1e+33 that change from run to run where the
/// answer is 0), in 1-D, 2-D and 3-D. Still so on 3.13.2 (mb1ic16iw1oc16kw3sw2pl1pr1, channels-last: 52 of 768
/// wrong).
inline bool has_onednn_bf16_stride_over_input_shape(const Problem &problem) {
  for (int64_t index = problem.first_axis(); index < max_ndims; ++index) {
    const SpatialAxis &axis = problem.axes[static_cast<size_t>(index)];
    if (axis.stride > axis.in) return true;
  }
  return false;
}

/// jit_bf16 weight gradient on 2.6, in 3-D, a depth stride above 1 with depth padding: id3 kd2 sd3 pfr1 pbk1 (ih7,
/// kh 1 to 3) and id4 kd3 sd3 pfr1 pbk1 gave wrong values every run, while sd2 with kd2, or ih4, passed. Held back
/// more widely than measured because the probes could not pin the condition further. Right on 3.13.2; oneDNN's
/// d5c259b46c ("x64: conv: bwd_w: fix kd_loops for back_pad", first tagged v3.1) corrected that loop's source shift
/// for a front padding that is not a multiple of the depth stride.
inline bool has_onednn_bf16_depth_stride_padding_shape(const Problem &problem) {
  const SpatialAxis &depth = problem.axes[0];
  return problem.ndims == 3 && depth.stride > 1 && (depth.pad_begin > 0 || depth.pad_end > 0);
}

/// Either 2.6 jit_bf16 weight-gradient shape (the `torch` strategy's hold-back of ATen's Mkldnn backend on them).
inline bool has_onednn_bf16_weight_gradient_shape(const Problem &problem) {
  return has_onednn_bf16_stride_over_input_shape(problem) || has_onednn_bf16_depth_stride_padding_shape(problem);
}

/// jit_bf16 weight gradient on 3.13.2, in 3-D: a depth kernel longer than the input depth (kd >= 3, no depth
/// dilation) padded at both ends, with two output depths or more. A probe of id 1..5, kd 1..5, front and back
/// padding 0..2 (each below kd), depth stride 1..2 (1x1 in height and width, one channel, one logical thread,
/// exact fill; docs/findings.md) found 30 wrong of 254, every one inside this shape; 5 inside it passed (a front
/// padding of 1 with a back padding of 2 at two output depths). kd2, kd <= id, or one end unpadded passed; 2-D
/// and 1-D analogues (ih2 kh3 ph1 phr1, iw2 kw3 pw1 pwr1) passed.
inline bool has_onednn_bf16_depth_kernel_over_input_shape(const Problem &problem) {
  if (problem.ndims != 3) return false;
  const SpatialAxis &depth = problem.axes[0];
  return depth.dilation == 1 && depth.kernel >= 3 && depth.kernel > depth.in && depth.pad_begin >= 1 &&
         depth.pad_end >= 1 && depth.out() >= 2;
}

/// jit_bf16 weight gradient on 3.13.2 of a grouped conv with a dilated outer axis, channels-last. A sweep
/// (docs/findings/onednn_bf16_wgrad_sweep.c: 107,136 2-D problems, groups 1, 2, 6, iw 8..64, kernel width 2..5, width
/// dilation 1..3, padding 0..3, kernel height 1 or 2 with height dilation 1..3, both layouts; inputs in {-1, 0, 1},
/// exact sums) found 8,320 wrong, every one inside this shape (8,320 of 20,672; none with groups 1, height dilation 1
/// or channels-first), and only from input width 28 on (iw 64: every one); below that the shape is right and held
/// back with it. The width's own kernel, dilation and padding do not matter.
inline bool has_onednn_bf16_dilated_groups_shape(const Problem &problem) {
  if (problem.groups < 2) return false;
  for (int64_t index = problem.first_axis(); index < max_ndims - 1; ++index)
    if (problem.axes[static_cast<size_t>(index)].dilation > 1) return true;
  return false;
}

/// jit_bf16_1x1 data gradient on a channels-last diff_dst with an odd number of output channels per group: the
/// kernel reduces over output channels in pairs (bf16 dot products, vdpbf16ps), and an odd count on a plain
/// channels-last row pairs the last channel with the next pixel's first. Wrong values once the spatial size is
/// large enough for the kernel's row blocking (60 pixels: ih10iw6; not 16).
/// `channels_last`: whether diff_dst reaches oneDNN channels-last (the onednn strategy: the data layout; ATen: also a
/// channels-last weight, which sends its Mkldnn backend down the channels-last path).
inline bool has_onednn_bf16_odd_channels_1x1_shape(const Problem &problem, bool channels_last) {
  return channels_last && problem.out_channels_per_group() % 2 == 1 &&
         std::all_of(problem.axes.begin(), problem.axes.end(), [](const SpatialAxis &axis) { return axis.kernel == 1; });
}

} // namespace convcheck
