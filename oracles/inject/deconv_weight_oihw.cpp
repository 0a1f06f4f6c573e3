// Injected bug `deconv_weight_oihw`: a deconv's weight read as OIHW per group where it is IOHW (the discussion behind
// apache/tvm PR 9465: relay's conv2d_transpose and its gradient disagreed on whether the weight is [C_in, C_out/G,
// k...] or [C_out, C_in/G, k...]). Each group's [C_in/G, C_out/G] block is reinterpreted raw as [C_out/G, C_in/G],
// the same elements in the same memory, so nothing is read out of bounds. Wrong in the directions that read the
// weight (output, grad_data); invisible when C_in/G == 1 or C_out/G == 1 (depthwise included).

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

// The weight [C, K/G, k...] with each group's block read as if it were [K/G, C/G, k...].
Tensor read_as_oihw(const Problem &p, const Tensor &weight) {
  Tensor misread = weight.clone();
  const int64_t cg = p.in_channels_per_group(), kg = p.out_channels_per_group(), taps = p.kernel_volume();
  for (int64_t g = 0; g < p.groups; ++g)
    for (int64_t ci = 0; ci < cg; ++ci)
      for (int64_t k = 0; k < kg; ++k)
        for (int64_t t = 0; t < taps; ++t) {
          const int64_t block = g * cg * kg * taps;
          misread.set(block + (ci * kg + k) * taps + t, weight.get(block + (k * cg + ci) * taps + t));
        }
  return misread;
}

Tensor weight_oihw(const Case &c, Direction direction) {
  Case misread = as_conv_case(c); // the deconv's tensors under their conv roles
  misread[Role::weight] = read_as_oihw(c.problem, c[Role::weight]);
  return naive_result(misread.problem, misread, conv_direction(c.problem.op, direction));
}

const Registration registration{{
    .name = "deconv_weight_oihw",
    .description = "naive deconv reading each group's IOHW weight block as OIHW",
    .injected = true,
    .supports = {.ops = {Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = weight_oihw,
}};

} // namespace

} // namespace convcheck
