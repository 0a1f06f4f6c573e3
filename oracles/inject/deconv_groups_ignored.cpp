// Injected bug `deconv_groups_ignored`: a grouped deconv computed as if it had one group over the first C_in/G input
// channels: every group reads group 0's input channels (google/XNNPACK issue 1951: grouped deconvolution gave wrong
// results; uxlfoundation/oneDNN issue 352: grouped deconvolution channels mixed up between groups). Wrong in the
// directions that read the input (output, grad_weight); invisible when G == 1.

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

// The deconv's input [N, C, in...] with every group's channels replaced by group 0's.
Tensor first_group_everywhere(const Problem &p, const Tensor &data) {
  Tensor wrong = data.clone();
  const int64_t cg = p.in_channels_per_group(), volume = p.in_volume();
  for (int64_t n = 0; n < p.batch; ++n)
    for (int64_t c = cg; c < p.in_channels; ++c)
      for (int64_t x = 0; x < volume; ++x)
        wrong.set((n * p.in_channels + c) * volume + x, data.get((n * p.in_channels + c % cg) * volume + x));
  return wrong;
}

Tensor groups_ignored(const Case &c, Direction direction) {
  Case wrong = as_conv_case(c);
  // The deconv's data is its equivalent conv's grad_output (core/problem/op.hpp).
  wrong[conv_role(c.problem.op, Role::data)] = first_group_everywhere(c.problem, c[Role::data]);
  return naive_result(wrong.problem, wrong, conv_direction(c.problem.op, direction));
}

const Registration registration{{
    .name = "deconv_groups_ignored",
    .description = "naive deconv with every group reading the first C_in/G input channels",
    .injected = true,
    .supports = {.ops = {Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = groups_ignored,
}};

} // namespace

} // namespace convcheck
