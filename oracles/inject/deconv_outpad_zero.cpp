// Injected bug `deconv_outpad_zero`: a deconv's output_padding rows and columns left zero, as if the extra output
// were allocated but never computed (apache/tvm issue 19524: TVM's CUDA conv2d_transpose was wrong whenever
// output_padding > 0; XNNPACK 1555: its subgraph path ignored output_padding). A correct deconv writes those
// rows only where padding lets taps reach them (pad_end > 0; with pad_end 0 they are zero anyway), so that is the
// smallest trigger: stride 2, pad_end 1, output_padding 1.

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

Tensor outpad_zero(const Case &c, Direction direction) {
  Tensor result = computed_as_conv(c, direction, [](const Case &conv, Direction d) { return naive_result(conv.problem, conv, d); });
  if (direction != Direction::output) return result;
  const Problem &p = c.problem;
  const Shape &shape = result.shape(); // [N, K, out...]
  for (int64_t e = 0; e < result.size(); ++e) {
    int64_t rest = e;
    bool padding = false;
    for (int64_t i = p.ndims - 1; i >= 0; --i) {
      const int64_t extent = shape[static_cast<size_t>(2 + i)], x = rest % extent;
      rest /= extent;
      padding = padding || x >= extent - p.axes[static_cast<size_t>(p.first_axis() + i)].output_padding;
    }
    if (padding) result.set(e, 0.0);
  }
  return result;
}

const Registration registration{{
    .name = "deconv_outpad_zero",
    .description = "naive deconv with the output_padding rows and columns of the output left zero",
    .injected = true,
    .supports = {.ops = {Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = outpad_zero,
}};

} // namespace

} // namespace convcheck
