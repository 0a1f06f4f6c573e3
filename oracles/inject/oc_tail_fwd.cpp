// Injected bug `oc_tail_fwd`: a forward kernel that computes output channels in blocks of 16 and forgets the tail
// after the last full block, as oneDNN issue 6035's 1x1 kernel got its channel tail wrong: with more than 16 output
// channels per group and not a multiple of 16, the last (K/G mod 16) channels of every group stay zero. Invisible
// at 16 channels or fewer, so only a fuzzer that leaves small sizes finds it.

#include <algorithm>

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

constexpr int64_t block = 16;

Tensor forward_without_tail(const Case &c) {
  Tensor output = naive_result(c.problem, c, Direction::output);
  const Problem &p = c.problem;
  const int64_t per_group = p.out_channels_per_group(), full = per_group / block * block;
  if (per_group <= block || full == per_group) return output;
  const int64_t spatial = p.out_volume();
  visit_typed(output, [&](auto *values) {
    using T = std::remove_pointer_t<decltype(values)>;
    for (int64_t n = 0; n < p.batch; ++n)
      for (int64_t k = 0; k < p.out_channels; ++k)
        if (k % per_group >= full)
          std::fill_n(values + (n * p.out_channels + k) * spatial, spatial, T{});
  });
  return output;
}

const Registration registration{{
    .name = "oc_tail_fwd",
    .description = "naive loops whose forward pass skips the output-channel tail after full blocks of 16",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction direction) {
      return direction == Direction::output ? forward_without_tail(c) : naive_result(c.problem, c, direction);
    },
}};

} // namespace

} // namespace convcheck
