// Injected bug `dst_truncate`: a float32 result cut to bfloat16 or float16 toward zero (bfloat16 as bits >> 16).
// Within the bound wherever the bound allows a spacing, so only the exact-sum rule sees it: past a half spacing
// (integer sums past the format's exact limit) and at ties whose lower neighbour is odd.

#include "core/run/strategy.hpp"
#include "oracles/inject/special_values.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  return with_results_rounded(c, direction, [](DType dtype, float sum) {
    const double value = sum, nearest = rounded_to(dtype, value);
    return std::isfinite(nearest) && std::abs(nearest) > std::abs(value) ? toward_zero(dtype, nearest) : nearest;
  });
}

const Registration registration{{
    .name = "dst_truncate",
    .description = "naive loops cutting a float32 result to bfloat16 or float16 toward zero",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {}, .precisions = low_precision_rows(),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
