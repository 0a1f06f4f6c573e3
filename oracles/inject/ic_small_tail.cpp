// Injected bug `ic_small_tail`: a forward kernel vectorised over input channels, 16 to a vector register, with a
// separate path for convolutions with fewer than 16 input channels per group (no full vector; oneDNN's first-layer
// kernels are such a path), whose masked loop stops one channel short: with 1 to 15 input channels per group the
// last channel of every group is left out of every sum, and from 16 on the full-vector kernel is right. Most
// small problems have under 16 channels, so a fuzzer finds it at once; what a maintainer needs is where it stops,
// which the finding's neighbour table shows: fails at 15 input channels per group, passes at 16.

#include <algorithm>

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

constexpr int64_t vector_channels = 16;

Tensor forward_short_of_last_channel(const Case &c) {
  const Problem &p = c.problem;
  const int64_t per_group = p.in_channels_per_group();
  if (per_group >= vector_channels) return naive_result(p, c, Direction::output);
  // The weight is [K, C/G, kernel...] canonical: zero the last of each filter's C/G channel planes.
  Case short_case{p, {}, c.seed, c.case_index, c.fill, c.settings};
  for (Role role : input_roles) short_case[role] = c[role].clone();
  Tensor &weight = short_case[Role::weight];
  const int64_t plane = p.kernel_volume();
  visit_typed(weight, [&](auto *values) {
    using T = std::remove_pointer_t<decltype(values)>;
    for (int64_t filter = 0; filter < p.out_channels; ++filter)
      std::fill_n(values + (filter * per_group + per_group - 1) * plane, plane, T{});
  });
  return naive_result(p, short_case, Direction::output);
}

const Registration registration{{
    .name = "ic_small_tail",
    .description = "naive loops whose forward pass leaves out the last input channel of each group below 16 per "
                   "group (a small-channel vector path stopping one short)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction direction) {
      return direction == Direction::output ? forward_short_of_last_channel(c) : naive_result(c.problem, c, direction);
    },
}};

} // namespace

} // namespace convcheck
