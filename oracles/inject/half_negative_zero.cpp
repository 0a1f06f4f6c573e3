// Injected bug `half_negative_zero`: a bfloat16 or float16 -0 input read as minus the format's smallest normal, as a
// decoder that tests for zero on the whole bit pattern (h == 0) sends 0x8000 down the normal-number path. No fill
// drew a zero input before the signed_zero kind (core/numerics/fill_special.hpp): exact fill skips 0, and normal
// draws round to 0 about once in 10^7.

#include "core/run/strategy.hpp"
#include "oracles/inject/special_values.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  const Case misread = with_inputs_read(c, [](DType dtype, double x) {
    return x == 0 && std::signbit(x) ? -info(dtype).smallest_normal : x;
  });
  return narrow_naive_float32(misread, direction, kept, kept).cast(result_dtype(c.problem, direction));
}

const Registration registration{{
    .name = "half_negative_zero",
    .description = "naive loops reading a bfloat16 or float16 -0 input as minus the smallest normal",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {}, .precisions = low_precision_rows(),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
