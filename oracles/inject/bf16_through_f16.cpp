// Injected bug `bf16_through_f16`: bfloat16 inputs widened through float16 (a kernel reusing its f16 path). Every
// bfloat16 value between 2^-14 and 65504 is a float16 value, so normal and integer fills never see it; past 65504
// it is infinite, below float16's range it is zero or coarse: the near_max and subnormal kinds show it.

#include "core/run/strategy.hpp"
#include "oracles/inject/special_values.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  const Case narrowed = with_inputs_read(c, [](DType dtype, double x) {
    return dtype == DType::bfloat16 ? static_cast<double>(float16::from_double(x).to_float()) : x;
  });
  return narrow_naive_float32(narrowed, direction, kept, kept).cast(result_dtype(c.problem, direction));
}

const Registration registration{{
    .name = "bf16_through_f16",
    .description = "naive loops widening bfloat16 inputs through float16",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {},
                 .precisions = precisions_storing(DType::bfloat16),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
