// Injected bug `half_input_daz`: bfloat16 and float16 subnormal inputs read as zero (denormals-are-zero: Arm's FZ16,
// x86's DAZ, a decoder that handles only normal numbers). Normal fill draws a float16 subnormal in about 5 elements
// of 100,000 and integer fills none, so only the subnormal kind (core/numerics/fill_special.hpp) shows it.

#include "core/run/strategy.hpp"
#include "oracles/inject/special_values.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  const Case flushed = with_inputs_read(c, [](DType dtype, double x) {
    return std::abs(x) < info(dtype).smallest_normal ? std::copysign(0.0, x) : x;
  });
  return narrow_naive_float32(flushed, direction, kept, kept).cast(result_dtype(c.problem, direction));
}

const Registration registration{{
    .name = "half_input_daz",
    .description = "naive loops reading bfloat16 and float16 subnormal inputs as zero",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {}, .precisions = low_precision_rows(),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
