#include "core/problem/witness_reach.hpp"

#include <algorithm>
#include <numeric>

#include "core/problem/dtype.hpp"

namespace convcheck {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The most kernel taps that land on one input element in the data gradient: per axis, every tap whose offset
// k * dilation is congruent to the element's position modulo the stride.
int64_t taps_per_input(const Problem &p) {
  int64_t taps = 1;
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(a)];
    taps *= ceil_div(axis.kernel, axis.stride / std::gcd(axis.stride, axis.dilation));
  }
  return taps;
}

// Takes padding off the axis with the most to spare (beyond what the dilated kernel needs to fit), when every input
// is down to its dilated kernel and padding alone keeps the output (and so the work per term) large; false when no
// axis has any to spare.
bool drop_padding(Problem &p) {
  const auto spare = [](const SpatialAxis &axis) {
    const int64_t positive = std::max<int64_t>(axis.pad_begin, 0) + std::max<int64_t>(axis.pad_end, 0);
    return std::min(positive, axis.in + axis.pad_begin + axis.pad_end - axis.dilated_kernel());
  };
  SpatialAxis *most = nullptr;
  for (int64_t a = p.first_axis(); a < max_ndims; ++a)
    if (SpatialAxis &axis = p.axes[static_cast<size_t>(a)]; spare(axis) > 0 && (!most || spare(axis) > spare(*most)))
      most = &axis;
  if (most == nullptr) return false;
  int64_t cut = spare(*most);
  for (int64_t *pad : {&most->pad_end, &most->pad_begin}) {
    const int64_t taken = std::min(cut, std::max<int64_t>(*pad, 0));
    *pad -= taken, cut -= taken;
  }
  return true;
}

// Halves the largest of the problem's spatial input sizes (kernel = false) or kernel sizes (kernel = true) that
// can still shrink, an input no further than the dilated kernel so that one output element still sees every tap,
// and widens the padding where the kernel no longer fits; with no input left to halve, drops padding instead;
// false when none of that can be done.
bool halve_largest(Problem &p, bool kernel) {
  SpatialAxis *largest = nullptr;
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
    SpatialAxis &axis = p.axes[static_cast<size_t>(a)];
    const int64_t size = kernel ? axis.kernel : axis.in, floor = kernel ? 1 : axis.dilated_kernel();
    if (size > floor && (largest == nullptr || size > (kernel ? largest->kernel : largest->in))) largest = &axis;
  }
  if (largest == nullptr) return kernel ? false : drop_padding(p);
  int64_t &size = kernel ? largest->kernel : largest->in;
  size = kernel ? (size + 1) / 2 : std::max(largest->dilated_kernel(), (size + 1) / 2);
  const int64_t deficit = largest->dilated_kernel() - (largest->in + largest->pad_begin + largest->pad_end);
  if (deficit > 0) largest->pad_end += deficit;
  return true;
}

} // namespace

int64_t witness_terms(const Problem &p) {
  // Narrow storage is bfloat16 (integers exact to 256) or float16 (to 2048); the accumulation must be wider.
  constexpr double narrow = 0x1.0p11;
  const Precision &f = p.precision;
  double narrowest = info(f.acc).exact_sum_limit;
  for (DType dtype : {f.src, f.weight, f.dst}) narrowest = std::min(narrowest, info(dtype).exact_sum_limit);
  if (narrowest > narrow || info(f.acc).exact_sum_limit <= narrow) return 0;
  return static_cast<int64_t>(narrowest) + 1;
}

int64_t reduction_terms(const Problem &p, Direction direction) {
  switch (direction) {
  case Direction::output: return p.in_channels_per_group() * p.kernel_volume();
  case Direction::grad_data: return p.out_channels_per_group() * taps_per_input(p);
  case Direction::grad_weight: return p.batch * p.out_volume();
  }
  return 0;
}

void reach_terms(Problem &p, Direction direction, int64_t wanted) {
  // What multiplies the long reduction into the work is kept small: at most 2 groups of 2 channels on the other
  // side and one image, then the spatial sizes (the kernel, for the weight gradient) halved until each term of the
  // long reduction costs at most `per_term` multiply-adds.
  constexpr int64_t per_term = 4;
  p.groups = std::min<int64_t>(p.groups, 2);
  p.in_channels = p.groups * std::min<int64_t>(p.in_channels_per_group(), 2);
  p.out_channels = p.groups * std::min<int64_t>(p.out_channels_per_group(), 2);
  p.batch = 1;
  const auto stretched = [&](Problem q) {
    if (direction == Direction::output) q.in_channels = q.groups * ceil_div(wanted, q.kernel_volume());
    if (direction == Direction::grad_data) q.out_channels = q.groups * ceil_div(wanted, taps_per_input(q));
    if (direction == Direction::grad_weight) q.batch = ceil_div(wanted, q.out_volume());
    return q;
  };
  // With every input at its dilated kernel and no padding to spare, the kernel is halved too, so that the inputs
  // can go on shrinking (a kernel of 5 at stride 5 over an input of 5 kept 10 multiply-adds a term of grad_data).
  Problem long_one = stretched(p);
  while (long_one.multiply_adds() > per_term * wanted &&
         (halve_largest(p, direction == Direction::grad_weight) || halve_largest(p, true)))
    long_one = stretched(p);
  p = long_one;
}

} // namespace convcheck
