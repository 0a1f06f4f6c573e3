#include "core/problem/shrink_held.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace convcheck {

namespace {

// `p` with axis `axis` given `shape`'s kernel, dilation and padding and the smallest input (over the output
// paddings a deconv allows) whose output size is `target`; nullopt when none is.
std::optional<Problem> with_shape_holding(const Problem &p, int64_t axis, const SpatialAxis &shape, int64_t target) {
  const SpatialAxis &old = p.axes[static_cast<size_t>(axis)];
  // The output size grows with the input in both ops, so the smallest input reaching `target` is below this.
  const int64_t in_limit = (target + 1) * old.stride + shape.dilated_kernel() + std::abs(shape.pad_begin) +
                           std::abs(shape.pad_end) + 1;
  const int64_t max_output_padding = p.op == Op::conv ? 0 : std::max(old.stride, shape.dilation) - 1;
  std::optional<Problem> best;
  for (int64_t output_padding = 0; output_padding <= max_output_padding; ++output_padding) {
    Problem candidate = p;
    SpatialAxis &moved = candidate.axes[static_cast<size_t>(axis)];
    moved = shape;
    moved.stride = old.stride;
    moved.output_padding = output_padding;
    moved.in = 1;
    while (moved.in < in_limit && candidate.out_size(axis) < target) ++moved.in;
    if (candidate.out_size(axis) != target || !is_valid(candidate)) continue;
    if (!best || distance_from_neutral(moved) <
                     distance_from_neutral(best->axes[static_cast<size_t>(axis)]))
      best = candidate;
  }
  return best;
}

} // namespace

int64_t distance_from_neutral(const SpatialAxis &axis) {
  return std::abs(axis.in - 1) + std::abs(axis.kernel - 1) + std::abs(axis.dilation - 1) +
         std::abs(axis.pad_begin) + std::abs(axis.pad_end) + std::abs(axis.output_padding);
}

std::vector<Problem> output_held_steps(const Problem &p, int64_t axis) {
  const SpatialAxis &old = p.axes[static_cast<size_t>(axis)];
  const int64_t target = p.out_size(axis);
  auto shape = [](int64_t kernel, int64_t dilation, int64_t pad_begin, int64_t pad_end) {
    return SpatialAxis{.kernel = kernel, .dilation = dilation, .pad_begin = pad_begin, .pad_end = pad_end};
  };
  // Kernel and dilation gone, then kept with the padding (a crop against the input), then each part alone; the
  // last moves only the input, to the smallest that keeps the output.
  const SpatialAxis shapes[] = {shape(1, 1, 0, 0),
                                shape(1, 1, old.pad_begin, old.pad_end),
                                shape(old.kernel, 1, old.pad_begin, old.pad_end),
                                shape(old.kernel, old.dilation, 0, 0),
                                shape(old.kernel, old.dilation, old.pad_begin, old.pad_end)};
  std::vector<Problem> steps;
  for (const SpatialAxis &s : shapes) {
    const std::optional<Problem> candidate = with_shape_holding(p, axis, s, target);
    if (!candidate) continue;
    const SpatialAxis &moved = candidate->axes[static_cast<size_t>(axis)];
    if (distance_from_neutral(moved) >= distance_from_neutral(old)) continue;
    if (std::find(steps.begin(), steps.end(), *candidate) == steps.end()) steps.push_back(*candidate);
  }
  return steps;
}

} // namespace convcheck
